// SPDX-License-Identifier: Apache-2.0
// Array and Batch.
#include "epoxy/vector/array.h"

#include "epoxy/common/check.h"

namespace epoxy {

Array::Array(TypePtr type, int64_t length, std::vector<BufferPtr> buffers,
             std::vector<ArrayPtr> children, int64_t null_count, int64_t offset)
    : type_(std::move(type)),
      length_(length),
      offset_(offset),
      null_count_(null_count),
      buffers_(std::move(buffers)),
      children_(std::move(children)) {
  if (buffers_.empty()) buffers_.resize(1);
}

ArrayPtr Array::MakeNull(int64_t length) {
  return Make(DataType::Null(), length, {nullptr}, {}, length);
}

ArrayPtr Array::Slice(int64_t offset, int64_t length) const {
  EPOXY_CHECK(offset >= 0 && length >= 0 && offset + length <= length_)
      << "slice [" << offset << ", " << offset + length << ") of " << length_;
  std::vector<ArrayPtr> children = children_;
  if (type_->id() == TypeId::kStruct || type_->id() == TypeId::kChoice) {
    for (auto& c : children) c = c->Slice(offset, length);
  }
  int64_t nulls = 0;
  if (type_->id() == TypeId::kNull) {
    nulls = length;
  } else if (null_count_ == 0) {
    nulls = 0;
  } else if (offset == 0 && length == length_) {
    nulls = null_count_;
  } else {
    // Recount: cheap next to the work that follows any slice.
    for (int64_t i = offset; i < offset + length; ++i) nulls += IsNull(i) ? 1 : 0;
  }
  return Make(type_, length, buffers_, std::move(children), nulls, offset_ + offset);
}

BatchPtr Batch::Slice(int64_t offset, int64_t length) const {
  std::vector<ArrayPtr> columns;
  columns.reserve(columns_.size());
  for (const auto& c : columns_) columns.push_back(c->Slice(offset, length));
  return Make(schema_, std::move(columns), length);
}

int64_t Array::buffer_bytes() const {
  int64_t total = 0;
  for (const auto& b : buffers_) total += b ? b->size() : 0;
  for (const auto& c : children_) total += c->buffer_bytes();
  return total;
}

int64_t Batch::buffer_bytes() const {
  int64_t total = 0;
  for (const auto& c : columns_) total += c->buffer_bytes();
  return total;
}

}  // namespace epoxy
