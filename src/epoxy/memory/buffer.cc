// SPDX-License-Identifier: Apache-2.0
// Buffer and BufferBuilder.
#include "epoxy/memory/buffer.h"

#include <algorithm>

namespace epoxy {
namespace {
MemoryPool* OrDefault(MemoryPool* pool) { return pool ? pool : &MemoryPool::Default(); }
}  // namespace

Buffer::Buffer(const uint8_t* data, int64_t size, MemoryPool* pool, int64_t capacity,
               std::shared_ptr<const void> owner)
    : data_(data), size_(size), pool_(pool), capacity_(capacity), owner_(std::move(owner)) {}

Buffer::~Buffer() {
  if (pool_ != nullptr) pool_->Free(const_cast<uint8_t*>(data_), capacity_);
}

Result<BufferPtr> Buffer::AllocateZeroed(int64_t size, MemoryPool* pool) {
  BufferBuilder builder(pool);
  EPOXY_RETURN_NOT_OK(builder.AppendZeros(size));
  return builder.Finish();
}

Result<BufferPtr> Buffer::CopyOf(std::string_view bytes, MemoryPool* pool) {
  BufferBuilder builder(pool);
  EPOXY_RETURN_NOT_OK(builder.Append(bytes.data(), static_cast<int64_t>(bytes.size())));
  return builder.Finish();
}

BufferPtr Buffer::Wrap(const uint8_t* data, int64_t size, std::shared_ptr<const void> owner) {
  return BufferPtr(new Buffer(data, size, nullptr, 0, std::move(owner)));
}

BufferPtr Buffer::Slice(const BufferPtr& parent, int64_t offset, int64_t length) {
  return BufferPtr(new Buffer(parent->data() + offset, length, nullptr, 0, parent));
}

BufferBuilder::BufferBuilder(MemoryPool* pool) : pool_(OrDefault(pool)) {}

BufferBuilder::~BufferBuilder() { pool_->Free(data_, capacity_); }

BufferBuilder::BufferBuilder(BufferBuilder&& other) noexcept
    : pool_(other.pool_), data_(other.data_), size_(other.size_), capacity_(other.capacity_) {
  other.data_ = nullptr;
  other.size_ = other.capacity_ = 0;
}

BufferBuilder& BufferBuilder::operator=(BufferBuilder&& other) noexcept {
  if (this != &other) {
    pool_->Free(data_, capacity_);
    pool_ = other.pool_;
    data_ = other.data_;
    size_ = other.size_;
    capacity_ = other.capacity_;
    other.data_ = nullptr;
    other.size_ = other.capacity_ = 0;
  }
  return *this;
}

Status BufferBuilder::Grow(int64_t min_capacity) {
  int64_t new_capacity = std::max<int64_t>({min_capacity, capacity_ * 2, 64});
  new_capacity = (new_capacity + 63) & ~int64_t{63};
  EPOXY_ASSIGN_OR_RETURN(data_, pool_->Reallocate(data_, capacity_, new_capacity));
  capacity_ = new_capacity;
  return Status::OK();
}

Status BufferBuilder::AppendZeros(int64_t n) {
  EPOXY_RETURN_NOT_OK(Reserve(n));
  if (n > 0) std::memset(data_ + size_, 0, static_cast<size_t>(n));
  size_ += n;
  return Status::OK();
}

Status BufferBuilder::Resize(int64_t new_size) {
  if (new_size > size_) return AppendZeros(new_size - size_);
  size_ = new_size;
  return Status::OK();
}

Result<BufferPtr> BufferBuilder::Finish() {
  if (data_ == nullptr) {
    EPOXY_RETURN_NOT_OK(Grow(64));
  }
  BufferPtr out(new Buffer(data_, size_, pool_, capacity_, nullptr));
  data_ = nullptr;
  size_ = capacity_ = 0;
  return out;
}

}  // namespace epoxy
