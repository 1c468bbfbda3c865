// SPDX-License-Identifier: Apache-2.0
// LocalFileSystem over POSIX calls.
#include "epoxy/storage/local_file_system.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <random>
#include <unordered_set>

namespace epoxy {
namespace {

Status ErrnoStatus(std::string_view what, const std::string& path, int err) {
  if (err == ENOENT) return Status::NotFound("{} '{}': no such file or folder", what, path);
  return Status::IOError("{} '{}': {}", what, path, std::strerror(err));
}

FileInfo InfoFromStat(const std::string& path, const struct stat& st) {
  FileInfo info;
  info.path = path;
  info.size = st.st_size;
  info.mtime_ns = static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
  info.is_dir = S_ISDIR(st.st_mode);
  // Size, mtime, inode and ctime: a rewrite changes one of them, even one that restores the
  // old size and mtime (ctime cannot be set back).
  const int64_t ctime_ns = static_cast<int64_t>(st.st_ctim.tv_sec) * 1000000000 + st.st_ctim.tv_nsec;
  info.etag = fmt::format("{:x}-{:x}-{:x}-{:x}", static_cast<uint64_t>(st.st_size),
                          static_cast<uint64_t>(info.mtime_ns), static_cast<uint64_t>(st.st_ino),
                          static_cast<uint64_t>(ctime_ns));
  return info;
}

/// Readable zero bytes promised after every mapped file (see RandomAccessFile::padding).
constexpr int64_t kMappedPadding = 64;
/// Files below this size are read into memory rather than mapped.
constexpr int64_t kSmallFileBytes = 256 << 10;

/// An mmap of a whole file followed by at least one zero page, unmapped when the last buffer
/// viewing it goes away.
struct Mapping {
  void* addr = nullptr;
  size_t length = 0;  // the whole reservation, tail page included
  ~Mapping() {
    if (addr != nullptr && addr != MAP_FAILED) munmap(addr, length);
  }
};

/// Maps `size` bytes of `fd` into a reservation one page longer, so reads just past the end of
/// the file see zeros instead of faulting.
Status MapWithTail(int fd, size_t size, const std::string& path, Mapping* mapping) {
  size_t page = static_cast<size_t>(sysconf(_SC_PAGE_SIZE));
  size_t file_pages = (size + page - 1) / page * page;
  mapping->length = file_pages + page;
  mapping->addr = ::mmap(nullptr, mapping->length, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapping->addr == MAP_FAILED) return ErrnoStatus("cannot map", path, errno);
  void* file = ::mmap(mapping->addr, size, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, 0);
  if (file == MAP_FAILED) return ErrnoStatus("cannot map", path, errno);
  ::madvise(mapping->addr, size, MADV_SEQUENTIAL);
  return Status::OK();
}

/// A large read of a mapping: when its last holder lets go, the pages wholly inside it are given
/// back (MADV_DONTNEED), so a scan's resident memory is the reads in flight, not the file. A later
/// read of the same bytes faults them in again from the page cache.
struct MappedRange {
  std::shared_ptr<Mapping> mapping;
  const uint8_t* begin = nullptr;
  size_t length = 0;
  ~MappedRange() {
    const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGE_SIZE));
    const uintptr_t from = (reinterpret_cast<uintptr_t>(begin) + page - 1) / page * page;
    const uintptr_t to = (reinterpret_cast<uintptr_t>(begin) + length) / page * page;
    if (to > from) ::madvise(reinterpret_cast<void*>(from), to - from, MADV_DONTNEED);
  }
};

/// Reads at least this long are handed out as MappedRanges: a scan reads many column chunks of a
/// few hundred KB, which would otherwise stay resident for as long as the file is open.
constexpr int64_t kReleasedReadBytes = 64 << 10;

/// A local file as one buffer: a mapping of it, or (for small files) a copy in memory, since
/// mapping and unmapping thousands of small files costs more (page-table updates on every core)
/// than copying them. Either way kMappedPadding readable bytes follow the end.
class LocalRandomAccessFile final : public RandomAccessFile {
 public:
  LocalRandomAccessFile(std::string path, BufferPtr whole, int64_t size, std::shared_ptr<Mapping> mapping = nullptr)
      : path_(std::move(path)), whole_(std::move(whole)), size_(size), mapping_(std::move(mapping)) {}

  const std::string& path() const override { return path_; }
  int64_t size() const override { return size_; }
  int64_t padding() const override { return kMappedPadding; }

  Result<BufferPtr> ReadAt(int64_t offset, int64_t length) const override {
    if (offset < 0 || length < 0) {
      return Status::InvalidInput("read of '{}' at offset {} length {}", path_, offset, length);
    }
    if (offset >= size_) return Buffer::Wrap(nullptr, 0, nullptr);
    length = std::min(length, size_ - offset);
    if (mapping_ != nullptr && length >= kReleasedReadBytes) {
      auto range = std::make_shared<MappedRange>();
      range->mapping = mapping_;
      range->begin = whole_->data() + offset;
      range->length = static_cast<size_t>(length);
      return Buffer::Wrap(range->begin, length, range);
    }
    return Buffer::Slice(whole_, offset, length);
  }

 private:
  std::string path_;
  BufferPtr whole_;
  int64_t size_;
  std::shared_ptr<Mapping> mapping_;  // when the file is mapped
};

/// Reads all `size` bytes of `fd`, followed by zeroed padding.
Result<BufferPtr> ReadWhole(int fd, int64_t size, const std::string& path) {
  BufferBuilder bytes;
  EPOXY_RETURN_NOT_OK(bytes.Resize(size + kMappedPadding));
  int64_t done = 0;
  while (done < size) {
    ssize_t n = ::pread(fd, bytes.mutable_data() + done, static_cast<size_t>(size - done), done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return ErrnoStatus("cannot read", path, errno);
    if (n == 0) return Status::IOError("'{}' ended after {} of {} bytes while being read", path, done, size);
    done += n;
  }
  return bytes.Finish();
}

class LocalFileWriter final : public FileWriter {
 public:
  LocalFileWriter(std::string final_path, std::string temp_path, int fd)
      : final_path_(std::move(final_path)), temp_path_(std::move(temp_path)), fd_(fd) {}
  ~LocalFileWriter() override {
    if (fd_ >= 0) {
      ::close(fd_);
      ::unlink(temp_path_.c_str());
    }
  }

  Status Append(std::string_view bytes) override {
    if (fd_ < 0) return Status::Internal("write to closed file '{}'", final_path_);
    while (!bytes.empty()) {
      ssize_t n = ::write(fd_, bytes.data(), bytes.size());
      if (n < 0) {
        if (errno == EINTR) continue;
        return ErrnoStatus("cannot write", temp_path_, errno);
      }
      bytes.remove_prefix(static_cast<size_t>(n));
    }
    return Status::OK();
  }

  Status Close() override {
    if (fd_ < 0) return Status::Internal("file '{}' closed twice", final_path_);
    int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) {
      ::unlink(temp_path_.c_str());
      return ErrnoStatus("cannot close", temp_path_, errno);
    }
    if (::rename(temp_path_.c_str(), final_path_.c_str()) != 0) {
      int err = errno;
      ::unlink(temp_path_.c_str());
      return ErrnoStatus("cannot publish", final_path_, err);
    }
    return Status::OK();
  }

 private:
  std::string final_path_;
  std::string temp_path_;
  int fd_;
};

Status ListInto(const std::string& dir, bool recursive, std::vector<FileInfo>* out,
                std::unordered_set<uint64_t>* visited_dirs) {
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) return ErrnoStatus("cannot list", dir, errno);
  std::vector<std::string> names;
  while (struct dirent* entry = ::readdir(d)) {
    std::string_view name(entry->d_name);
    if (name == "." || name == "..") continue;
    names.emplace_back(name);
  }
  std::sort(names.begin(), names.end());
  const int dir_fd = ::dirfd(d);  // stat relative to the open folder: no path walk per file
  for (const auto& name : names) {
    std::string path = dir.back() == '/' ? dir + name : dir + "/" + name;
    struct stat st;
    if (::fstatat(dir_fd, name.c_str(), &st, 0) != 0) continue;  // vanished, or a dangling link
    if (S_ISDIR(st.st_mode)) {
      // Symlink loops: a folder is listed once, by device and inode.
      uint64_t key = (static_cast<uint64_t>(st.st_dev) << 40) ^ static_cast<uint64_t>(st.st_ino);
      if (recursive && visited_dirs->insert(key).second) {
        EPOXY_RETURN_NOT_OK(ListInto(path, recursive, out, visited_dirs));
      }
    } else if (S_ISREG(st.st_mode)) {
      out->push_back(InfoFromStat(path, st));
    }
  }
  ::closedir(d);
  return Status::OK();
}

}  // namespace

std::string LocalPathOf(std::string_view uri) {
  if (uri.starts_with("file://")) uri.remove_prefix(7);
  return std::string(uri);
}

Result<FileInfo> LocalFileSystem::GetFileInfo(const std::string& uri) {
  std::string path = LocalPathOf(uri);
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return ErrnoStatus("cannot open", path, errno);
  return InfoFromStat(path, st);
}

Result<std::vector<FileInfo>> LocalFileSystem::ListFiles(const std::string& uri, bool recursive) {
  std::string dir = LocalPathOf(uri);
  std::vector<FileInfo> out;
  std::unordered_set<uint64_t> visited;
  struct stat st;
  if (::stat(dir.c_str(), &st) == 0) {
    visited.insert((static_cast<uint64_t>(st.st_dev) << 40) ^ static_cast<uint64_t>(st.st_ino));
  }
  EPOXY_RETURN_NOT_OK(ListInto(dir, recursive, &out, &visited));
  auto by_path = [](const FileInfo& a, const FileInfo& b) { return a.path < b.path; };
  if (!std::is_sorted(out.begin(), out.end(), by_path)) std::sort(out.begin(), out.end(), by_path);
  return out;
}

Result<std::vector<std::string>> LocalFileSystem::ListSubdirs(const std::string& uri) {
  std::string dir = LocalPathOf(uri);
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) return ErrnoStatus("cannot list", dir, errno);
  std::vector<std::string> out;
  while (struct dirent* entry = ::readdir(d)) {
    std::string_view name(entry->d_name);
    if (name == "." || name == "..") continue;
    std::string path = dir.back() == '/' ? dir + std::string(name) : dir + "/" + std::string(name);
    bool is_dir = entry->d_type == DT_DIR;
    if (entry->d_type == DT_UNKNOWN || entry->d_type == DT_LNK) {  // the file system did not say, or a link
      struct stat st;
      is_dir = ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
    }
    if (is_dir) out.push_back(uri.starts_with("file://") ? "file://" + path : path);
  }
  ::closedir(d);
  std::sort(out.begin(), out.end());
  return out;
}

Result<std::unique_ptr<RandomAccessFile>> LocalFileSystem::OpenForRead(const std::string& uri) {
  std::string path = LocalPathOf(uri);
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return ErrnoStatus("cannot open", path, errno);
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    int err = errno;
    ::close(fd);
    return ErrnoStatus("cannot stat", path, err);
  }
  if (S_ISDIR(st.st_mode)) {
    ::close(fd);
    return Status::InvalidInput("'{}' is a folder, not a file", path);
  }
  if (st.st_size > 0 && st.st_size < kSmallFileBytes) {
    auto bytes = ReadWhole(fd, st.st_size, path);
    ::close(fd);
    if (!bytes.ok()) return bytes.status();
    return std::unique_ptr<RandomAccessFile>(new LocalRandomAccessFile(path, std::move(*bytes), st.st_size));
  }
  auto mapping = std::make_shared<Mapping>();
  if (st.st_size > 0) {
    Status mapped = MapWithTail(fd, static_cast<size_t>(st.st_size), path, mapping.get());
    if (!mapped.ok()) {
      ::close(fd);
      return mapped;
    }
  }
  ::close(fd);
  BufferPtr whole = st.st_size > 0 ? Buffer::Wrap(static_cast<const uint8_t*>(mapping->addr), st.st_size, mapping)
                                   : Buffer::Wrap(nullptr, 0, nullptr);
  return std::unique_ptr<RandomAccessFile>(new LocalRandomAccessFile(path, std::move(whole), st.st_size, mapping));
}

Result<std::unique_ptr<FileWriter>> LocalFileSystem::OpenForWrite(const std::string& uri) {
  std::string path = LocalPathOf(uri);
  std::filesystem::path p(path);
  if (p.has_parent_path()) EPOXY_RETURN_NOT_OK(CreateDirs(p.parent_path().string()));
  static std::atomic<uint64_t> counter{0};
  std::string temp = fmt::format("{}/.{}.{}-{}.tmp", p.has_parent_path() ? p.parent_path().string() : ".",
                                 p.filename().string(), ::getpid(), counter.fetch_add(1));
  int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return ErrnoStatus("cannot create", temp, errno);
  return std::unique_ptr<FileWriter>(new LocalFileWriter(path, temp, fd));
}

Status LocalFileSystem::DeleteFile(const std::string& uri) {
  std::string path = LocalPathOf(uri);
  if (::unlink(path.c_str()) != 0) return ErrnoStatus("cannot delete", path, errno);
  return Status::OK();
}

Status LocalFileSystem::DeleteDirRecursive(const std::string& uri) {
  std::error_code ec;
  std::filesystem::remove_all(LocalPathOf(uri), ec);
  if (ec) return Status::IOError("cannot delete '{}': {}", LocalPathOf(uri), ec.message());
  return Status::OK();
}

Status LocalFileSystem::CreateDirs(const std::string& uri) {
  std::error_code ec;
  std::filesystem::create_directories(LocalPathOf(uri), ec);
  if (ec) return Status::IOError("cannot create folder '{}': {}", LocalPathOf(uri), ec.message());
  return Status::OK();
}

Status LocalFileSystem::Rename(const std::string& from, const std::string& to) {
  std::string src = LocalPathOf(from);
  std::string dst = LocalPathOf(to);
  if (::rename(src.c_str(), dst.c_str()) != 0) return ErrnoStatus("cannot rename", src, errno);
  return Status::OK();
}

}  // namespace epoxy
