// SPDX-License-Identifier: Apache-2.0
// Spill files: each batch as its row count and, per column, the Arrow buffers rebased to offset 0
// (children recursively); read back with pread into pool buffers.
#include "epoxy/exec/spill_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "epoxy/memory/memory_pool.h"
#include "epoxy/vector/take.h"

namespace epoxy::exec {
namespace {

constexpr size_t kWriteBuffer = 1 << 20;

std::string SpillFolder() {
  for (const char* name : {"EPOXY_TMPDIR", "TMPDIR"}) {
    const char* v = std::getenv(name);
    if (v != nullptr && *v != '\0') return v;
  }
  return "/tmp";
}

int64_t SpillCap() {
  const char* v = std::getenv("EPOXY_MAX_TEMP_SIZE");
  if (v == nullptr || *v == '\0') return 0;
  auto bytes = ParseByteSize(v);
  return bytes.ok() ? *bytes : 0;
}

/// Bits [offset, offset + length) of `bits` as a new bitmap starting at bit 0.
std::string RebasedBits(const uint8_t* bits, int64_t offset, int64_t length) {
  std::string out(static_cast<size_t>(bit_util::BytesForBits(length)), '\0');
  if (offset % 8 == 0) {
    std::memcpy(out.data(), bits + offset / 8, out.size());
    return out;
  }
  for (int64_t i = 0; i < length; ++i) {
    if (bit_util::GetBit(bits, offset + i)) bit_util::SetBit(reinterpret_cast<uint8_t*>(out.data()), i);
  }
  return out;
}

}  // namespace

SpillSpace& SpillSpace::Default() {
  static SpillSpace space(SpillFolder(), SpillCap());
  return space;
}

SpillSpace::SpillSpace(std::string folder, int64_t max_bytes) : folder_(std::move(folder)), max_bytes_(max_bytes) {}

Status SpillSpace::Claim(int64_t bytes) {
  const int64_t now = in_use_.fetch_add(bytes) + bytes;
  if (max_bytes_ > 0 && now > max_bytes_) {
    in_use_.fetch_sub(bytes);
    return Status::IOError(
        "temporary files would exceed EPOXY_MAX_TEMP_SIZE ({} bytes) in {}: the query needs more space to spill than it "
        "may take", max_bytes_, folder_);
  }
  total_written_.fetch_add(bytes);
  return Status::OK();
}

void SpillSpace::Unclaim(int64_t bytes) { in_use_.fetch_sub(bytes); }

Result<std::unique_ptr<SpillFile>> SpillFile::Create(SpillSpace* space) {
  if (space == nullptr) space = &SpillSpace::Default();
  int fd = ::open(space->folder().c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd < 0) {
    // No O_TMPFILE on this file system: a named file, unlinked at once.
    std::string path = space->folder() + "/epoxy-spill-XXXXXX";
    fd = ::mkstemp(path.data());
    if (fd < 0) {
      return Status::IOError("cannot create a temporary file in {} (set EPOXY_TMPDIR to another folder): {}",
                             space->folder(), std::strerror(errno));
    }
    ::unlink(path.c_str());
  }
  space->CountFile();
  return std::unique_ptr<SpillFile>(new SpillFile(fd, space));
}

SpillFile::~SpillFile() {
  ::close(fd_);
  space_->Unclaim(size_);
}

Status SpillFile::Write(const void* data, int64_t n) {
  if (buffer_.size() + static_cast<size_t>(n) > kWriteBuffer) EPOXY_RETURN_NOT_OK(Flush());
  if (static_cast<size_t>(n) >= kWriteBuffer) {
    buffer_.assign(static_cast<const char*>(data), static_cast<size_t>(n));
    return Flush();
  }
  buffer_.append(static_cast<const char*>(data), static_cast<size_t>(n));
  return Status::OK();
}

Status SpillFile::Flush() {
  if (buffer_.empty()) return Status::OK();
  EPOXY_RETURN_NOT_OK(space_->Claim(static_cast<int64_t>(buffer_.size())));
  size_t done = 0;
  while (done < buffer_.size()) {
    ssize_t n = ::pwrite(fd_, buffer_.data() + done, buffer_.size() - done, size_ + static_cast<int64_t>(done));
    if (n < 0) {
      if (errno == EINTR) continue;
      const int error = errno;
      space_->Unclaim(static_cast<int64_t>(buffer_.size()));
      if (error == ENOSPC || error == EDQUOT) {
        return Status::IOError("no space left for temporary files in {} after spilling {} bytes (set EPOXY_TMPDIR to a "
                               "folder with more room, or raise --memory-limit)", space_->folder(), size_);
      }
      return Status::IOError("writing a temporary file in {}: {}", space_->folder(), std::strerror(error));
    }
    done += static_cast<size_t>(n);
  }
  size_ += static_cast<int64_t>(buffer_.size());
  buffer_.clear();
  return Status::OK();
}

Status SpillFile::Append(const Batch& batch) {
  const int64_t rows = batch.num_rows();
  EPOXY_RETURN_NOT_OK(Write(&rows, 8));
  for (const auto& column : batch.columns()) EPOXY_RETURN_NOT_OK(WriteArray(*column));
  ++num_batches_;
  num_rows_ += rows;
  // Written at once: a query may hold hundreds of spill files, and none keeps a buffer.
  EPOXY_RETURN_NOT_OK(Flush());
  std::string().swap(buffer_);
  return Status::OK();
}

Status SpillFile::WriteArray(const Array& a) {
  const int64_t length = a.length(), nulls = a.null_count();
  EPOXY_RETURN_NOT_OK(Write(&length, 8));
  EPOXY_RETURN_NOT_OK(Write(&nulls, 8));
  const TypeId id = a.type_id();
  // 0: an all-null column of type null (also a pruned column's placeholder); 1: no nulls; 2: a bitmap.
  const uint8_t kind = id == TypeId::kNull ? 0 : id != TypeId::kChoice && a.buffers()[0] != nullptr ? 2 : 1;
  EPOXY_RETURN_NOT_OK(Write(&kind, 1));
  if (kind == 0) return Status::OK();
  const bool has_validity = kind == 2;
  if (has_validity) {
    std::string bits = RebasedBits(a.buffers()[0]->data(), a.offset(), length);
    EPOXY_RETURN_NOT_OK(Write(bits.data(), static_cast<int64_t>(bits.size())));
  }
  const int width = FixedWidthOf(id);
  if (width > 0) return Write(a.buffers()[1]->data() + a.offset() * width, length * width);
  switch (id) {
    case TypeId::kBoolean: {
      std::string bits = RebasedBits(a.buffers()[1]->data(), a.offset(), length);
      return Write(bits.data(), static_cast<int64_t>(bits.size()));
    }
    case TypeId::kString:
    case TypeId::kBinary:
    case TypeId::kArray:
    case TypeId::kMap: {
      const int32_t* o = a.offsets();
      const int32_t base = o[0];
      std::vector<int32_t> rebased(static_cast<size_t>(length + 1));
      for (int64_t i = 0; i <= length; ++i) rebased[static_cast<size_t>(i)] = o[i] - base;
      EPOXY_RETURN_NOT_OK(Write(rebased.data(), (length + 1) * 4));
      const int64_t span = o[length] - base;
      if (id == TypeId::kString || id == TypeId::kBinary) return Write(a.buffers()[2]->data() + base, span);
      return WriteArray(*a.child(0)->Slice(base, span));
    }
    case TypeId::kStruct:
      for (const auto& child : a.children()) EPOXY_RETURN_NOT_OK(WriteArray(*child));
      return Status::OK();
    case TypeId::kChoice: {
      EPOXY_RETURN_NOT_OK(Write(a.buffers()[1]->data() + a.offset(), length));
      for (const auto& child : a.children()) EPOXY_RETURN_NOT_OK(WriteArray(*child));
      return Status::OK();
    }
    default: return Status::Internal("cannot spill a column of type {}", a.type()->ToString());
  }
}

Result<SpillFile::Reader> SpillFile::Read(SchemaPtr schema, MemoryPool* pool) {
  EPOXY_RETURN_NOT_OK(Flush());
  return Reader(this, std::move(schema), pool);
}

Status SpillFile::Reader::ReadBytes(void* out, int64_t n) {
  int64_t done = 0;
  while (done < n) {
    ssize_t got = ::pread(file_->fd_, static_cast<char*>(out) + done, static_cast<size_t>(n - done), position_ + done);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return Status::IOError("reading a temporary file in {}: {}", file_->space_->folder(), got < 0 ? std::strerror(errno) : "unexpected end");
    done += got;
  }
  position_ += n;
  return Status::OK();
}

Result<BatchPtr> SpillFile::Reader::Next() {
  if (batches_read_ >= file_->num_batches_) return BatchPtr();
  int64_t rows = 0;
  EPOXY_RETURN_NOT_OK(ReadBytes(&rows, 8));
  std::vector<ArrayPtr> columns;
  for (const auto& field : schema_->fields()) {
    EPOXY_ASSIGN_OR_RETURN(ArrayPtr column, ReadArray(field.type));
    columns.push_back(std::move(column));
  }
  ++batches_read_;
  return Batch::Make(schema_, std::move(columns), rows);
}

Result<ArrayPtr> SpillFile::Reader::ReadArray(const TypePtr& type) {
  int64_t length = 0, nulls = 0;
  EPOXY_RETURN_NOT_OK(ReadBytes(&length, 8));
  EPOXY_RETURN_NOT_OK(ReadBytes(&nulls, 8));
  uint8_t kind = 0;
  EPOXY_RETURN_NOT_OK(ReadBytes(&kind, 1));
  if (kind == 0) return Array::MakeNull(length);
  auto buffer = [&](int64_t n) -> Result<BufferPtr> {
    BufferBuilder b(pool_);
    EPOXY_RETURN_NOT_OK(b.Resize(n));
    EPOXY_RETURN_NOT_OK(ReadBytes(b.mutable_data(), n));
    return b.Finish();
  };
  BufferPtr validity;
  if (kind == 2) {
    EPOXY_ASSIGN_OR_RETURN(validity, buffer(bit_util::BytesForBits(length)));
  }
  const TypeId id = type->id();
  const int width = FixedWidthOf(id);
  if (width > 0) {
    EPOXY_ASSIGN_OR_RETURN(BufferPtr values, buffer(length * width));
    return Array::Make(type, length, {validity, values}, {}, nulls);
  }
  switch (id) {
    case TypeId::kBoolean: {
      EPOXY_ASSIGN_OR_RETURN(BufferPtr values, buffer(bit_util::BytesForBits(length)));
      return Array::Make(type, length, {validity, values}, {}, nulls);
    }
    case TypeId::kString:
    case TypeId::kBinary:
    case TypeId::kArray:
    case TypeId::kMap: {
      EPOXY_ASSIGN_OR_RETURN(BufferPtr offsets, buffer((length + 1) * 4));
      const int64_t span = offsets->data_as<int32_t>()[length];
      if (id == TypeId::kString || id == TypeId::kBinary) {
        EPOXY_ASSIGN_OR_RETURN(BufferPtr data, buffer(span));
        return Array::Make(type, length, {validity, offsets, data}, {}, nulls);
      }
      TypePtr child_type = id == TypeId::kArray ? type->element() : DataType::Struct(type->fields());
      EPOXY_ASSIGN_OR_RETURN(ArrayPtr child, ReadArray(child_type));
      return Array::Make(type, length, {validity, offsets}, {child}, nulls);
    }
    case TypeId::kStruct: {
      std::vector<ArrayPtr> children;
      for (const auto& f : type->fields()) {
        EPOXY_ASSIGN_OR_RETURN(ArrayPtr child, ReadArray(f.type));
        children.push_back(std::move(child));
      }
      return Array::Make(type, length, {validity}, std::move(children), nulls);
    }
    case TypeId::kChoice: {
      EPOXY_ASSIGN_OR_RETURN(BufferPtr ids, buffer(length));
      std::vector<ArrayPtr> children;
      for (const auto& m : type->members()) {
        EPOXY_ASSIGN_OR_RETURN(ArrayPtr child, ReadArray(m));
        children.push_back(std::move(child));
      }
      return Array::Make(type, length, {BufferPtr(), ids}, std::move(children), nulls);
    }
    default: return Status::Internal("cannot read a spilled column of type {}", type->ToString());
  }
}

}  // namespace epoxy::exec
