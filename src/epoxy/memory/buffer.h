// SPDX-License-Identifier: Apache-2.0
// Buffer: an immutable, shareable span of bytes; BufferBuilder grows one without quadratic copying.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>

#include "epoxy/common/bytes.h"
#include "epoxy/common/result.h"
#include "epoxy/memory/memory_pool.h"

namespace epoxy {

class Buffer;
using BufferPtr = std::shared_ptr<const Buffer>;

/// Bytes owned by a MemoryPool allocation or by an external owner (an mmap, a parent buffer).
class Buffer {
 public:
  ~Buffer();
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  /// A zero-filled buffer of `size` bytes charged to `pool`.
  static Result<BufferPtr> AllocateZeroed(int64_t size, MemoryPool* pool = nullptr);
  /// Copies `bytes` into a pool buffer.
  static Result<BufferPtr> CopyOf(std::string_view bytes, MemoryPool* pool = nullptr);
  /// Views memory kept alive by `owner`.
  static BufferPtr Wrap(const uint8_t* data, int64_t size, std::shared_ptr<const void> owner);
  /// A view of [offset, offset + length) that keeps `parent` alive.
  static BufferPtr Slice(const BufferPtr& parent, int64_t offset, int64_t length);

  const uint8_t* data() const { return data_; }
  int64_t size() const { return size_; }
  std::string_view view() const {
    return {reinterpret_cast<const char*>(data_), static_cast<size_t>(size_)};
  }
  template <typename T>
  const T* data_as() const {
    return reinterpret_cast<const T*>(data_);
  }

 private:
  friend class BufferBuilder;
  Buffer(const uint8_t* data, int64_t size, MemoryPool* pool, int64_t capacity,
         std::shared_ptr<const void> owner);

  const uint8_t* data_;
  int64_t size_;
  MemoryPool* pool_;    // non-null when this buffer owns a pool allocation
  int64_t capacity_;    // bytes charged to pool_
  std::shared_ptr<const void> owner_;
};

/// Append-only byte storage that doubles its capacity; Finish() hands the bytes to a Buffer
/// without copying. Not thread-safe.
class BufferBuilder {
 public:
  explicit BufferBuilder(MemoryPool* pool = nullptr);
  ~BufferBuilder();
  BufferBuilder(BufferBuilder&& other) noexcept;
  BufferBuilder& operator=(BufferBuilder&& other) noexcept;
  BufferBuilder(const BufferBuilder&) = delete;
  BufferBuilder& operator=(const BufferBuilder&) = delete;

  /// Ensures room for `additional` more bytes.
  Status Reserve(int64_t additional) {
    if (size_ + additional <= capacity_) return Status::OK();
    return Grow(size_ + additional);
  }
  Status Append(const void* bytes, int64_t n) {
    EPOXY_RETURN_NOT_OK(Reserve(n));
    UnsafeAppend(bytes, n);
    return Status::OK();
  }
  /// REQUIRES: Reserve() made room.
  void UnsafeAppend(const void* bytes, int64_t n) {
    CopyBytes(data_ + size_, bytes, static_cast<size_t>(n));
    size_ += n;
  }
  template <typename T>
  void UnsafeAppendValue(T value) {
    std::memcpy(data_ + size_, &value, sizeof(T));
    size_ += sizeof(T);
  }
  /// Counts `n` bytes the caller wrote past size() into mutable_data().
  /// REQUIRES: Reserve() made room for them.
  void UnsafeAdvance(int64_t n) { size_ += n; }
  /// Appends `n` zero bytes.
  Status AppendZeros(int64_t n);
  /// Sets the size; new bytes are zero. Capacity grows as needed.
  Status Resize(int64_t new_size);
  /// Sets the size leaving new bytes unset: for kernels that write every byte themselves.
  Status ResizeUninitialized(int64_t new_size) {
    if (new_size > size_) EPOXY_RETURN_NOT_OK(Reserve(new_size - size_));
    size_ = new_size;
    return Status::OK();
  }

  uint8_t* mutable_data() { return data_; }
  const uint8_t* data() const { return data_; }
  int64_t size() const { return size_; }
  int64_t capacity() const { return capacity_; }

  /// Moves the bytes into an immutable Buffer and leaves the builder empty.
  Result<BufferPtr> Finish();

 private:
  Status Grow(int64_t min_capacity);

  MemoryPool* pool_;
  uint8_t* data_ = nullptr;
  int64_t size_ = 0;
  int64_t capacity_ = 0;
};

}  // namespace epoxy
