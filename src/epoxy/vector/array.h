// SPDX-License-Identifier: Apache-2.0
// Array: one immutable column in the Apache Arrow memory layout; Batch: columns of equal length.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "epoxy/memory/buffer.h"
#include "epoxy/types/schema.h"
#include "epoxy/vector/bit_util.h"

namespace epoxy {

class Array;
using ArrayPtr = std::shared_ptr<const Array>;

/// Layout by type (buffer 0 is always the validity bitmap, null when every slot is valid):
/// - null: no buffers; every slot is null.
/// - boolean: buffer 1 holds bit-packed values.
/// - fixed width (integers, float, double, date int32, timestamp int64, decimal 16-byte
///   little-endian two's complement): buffer 1 holds the values.
/// - string, binary: buffer 1 int32 offsets (length + 1), buffer 2 the bytes.
/// - array: buffer 1 int32 offsets into child 0.
/// - map: buffer 1 int32 offsets into child 0, a struct<key,value> (Arrow's map layout).
/// - struct: one child per field.
/// - choice: an Arrow sparse union; buffer 1 holds an int8 member index per row and child k holds
///   member k, as long as the parent. A null row has member 0 and a null in child 0.
/// Children of struct and choice arrays are aligned with the parent's rows (Slice slices them
/// too); children of array and map arrays are indexed through the offsets.
class Array {
 public:
  Array(TypePtr type, int64_t length, std::vector<BufferPtr> buffers,
        std::vector<ArrayPtr> children, int64_t null_count, int64_t offset = 0);
  static ArrayPtr Make(TypePtr type, int64_t length, std::vector<BufferPtr> buffers,
                       std::vector<ArrayPtr> children, int64_t null_count, int64_t offset = 0) {
    return std::make_shared<const Array>(std::move(type), length, std::move(buffers),
                                         std::move(children), null_count, offset);
  }
  /// An array of `length` nulls of type null.
  static ArrayPtr MakeNull(int64_t length);

  const TypePtr& type() const { return type_; }
  TypeId type_id() const { return type_->id(); }
  int64_t length() const { return length_; }
  int64_t offset() const { return offset_; }
  int64_t null_count() const { return null_count_; }
  const std::vector<BufferPtr>& buffers() const { return buffers_; }
  const std::vector<ArrayPtr>& children() const { return children_; }
  const ArrayPtr& child(int i) const { return children_[i]; }

  bool IsNull(int64_t i) const {
    if (type_->id() == TypeId::kNull) return true;
    if (type_->id() == TypeId::kChoice) return children_[choice_index(i)]->IsNull(i);
    const BufferPtr& validity = buffers_[0];
    return validity != nullptr && !bit_util::GetBit(validity->data(), offset_ + i);
  }
  bool IsValid(int64_t i) const { return !IsNull(i); }

  /// Fixed-width values, already adjusted by offset().
  template <typename T>
  const T* values() const {
    return buffers_[1]->data_as<T>() + offset_;
  }
  bool GetBool(int64_t i) const { return bit_util::GetBit(buffers_[1]->data(), offset_ + i); }
  /// REQUIRES: string, binary, array or map.
  const int32_t* offsets() const { return buffers_[1]->data_as<int32_t>() + offset_; }
  std::string_view GetView(int64_t i) const {
    const int32_t* o = offsets();
    return {reinterpret_cast<const char*>(buffers_[2]->data()) + o[i],
            static_cast<size_t>(o[i + 1] - o[i])};
  }
  /// REQUIRES: choice. The member index of row i.
  int choice_index(int64_t i) const { return buffers_[1]->data_as<int8_t>()[offset_ + i]; }

  /// A zero-copy view of rows [offset, offset + length).
  ArrayPtr Slice(int64_t offset, int64_t length) const;

  /// Bytes held by this array's buffers and its children's (whole buffers, even when sliced).
  int64_t buffer_bytes() const;

 private:
  TypePtr type_;
  int64_t length_;
  int64_t offset_;
  int64_t null_count_;
  std::vector<BufferPtr> buffers_;
  std::vector<ArrayPtr> children_;
};

class Batch;
using BatchPtr = std::shared_ptr<const Batch>;

/// Equal-length columns under a schema. Immutable once built; Slice is zero-copy.
class Batch {
 public:
  Batch(SchemaPtr schema, std::vector<ArrayPtr> columns, int64_t num_rows)
      : schema_(std::move(schema)), columns_(std::move(columns)), num_rows_(num_rows) {}
  static BatchPtr Make(SchemaPtr schema, std::vector<ArrayPtr> columns, int64_t num_rows) {
    return std::make_shared<const Batch>(std::move(schema), std::move(columns), num_rows);
  }

  const SchemaPtr& schema() const { return schema_; }
  int64_t num_rows() const { return num_rows_; }
  int num_columns() const { return static_cast<int>(columns_.size()); }
  const ArrayPtr& column(int i) const { return columns_[i]; }
  const std::vector<ArrayPtr>& columns() const { return columns_; }

  BatchPtr Slice(int64_t offset, int64_t length) const;
  int64_t buffer_bytes() const;

 private:
  SchemaPtr schema_;
  std::vector<ArrayPtr> columns_;
  int64_t num_rows_;
};

}  // namespace epoxy
