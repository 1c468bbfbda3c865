// SPDX-License-Identifier: Apache-2.0
// Builders: append values row by row, then Finish() into an immutable Array. Capacity doubles, so
// appending n values costs O(n). Not thread-safe; one builder per thread.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "epoxy/vector/array.h"

namespace epoxy {

/// A validity bitmap that is only materialised once the first null arrives.
class ValidityBuilder {
 public:
  explicit ValidityBuilder(MemoryPool* pool) : bits_(pool) {}

  Status Append(bool valid) {
    if (valid && !materialized_) {  // the common case: no null so far
      ++length_;
      return Status::OK();
    }
    return AppendSlow(valid);
  }
  Status AppendValid(int64_t n);
  Status AppendNulls(int64_t n);
  /// Drops the slots from `length` on. REQUIRES: length <= this->length().
  void Truncate(int64_t length);
  int64_t length() const { return length_; }
  int64_t null_count() const { return null_count_; }
  /// The bitmap, or null when every slot is valid.
  Result<BufferPtr> Finish();

 private:
  Status AppendSlow(bool valid);
  Status Materialize();

  BufferBuilder bits_;
  int64_t length_ = 0;
  int64_t null_count_ = 0;
  bool materialized_ = false;
};

/// Base of all builders.
class ArrayBuilder {
 public:
  ArrayBuilder(TypePtr type, MemoryPool* pool) : type_(std::move(type)), pool_(pool), validity_(pool) {}
  virtual ~ArrayBuilder() = default;
  ArrayBuilder(const ArrayBuilder&) = delete;
  ArrayBuilder& operator=(const ArrayBuilder&) = delete;

  const TypePtr& type() const { return type_; }
  int64_t length() const { return validity_.length(); }
  int64_t null_count() const { return validity_.null_count(); }

  virtual Status AppendNull() = 0;
  virtual Status AppendNulls(int64_t n);
  /// Drops every value from row `length` on, so a kernel that builds a value speculatively (a
  /// parse that may fail half-way) can take it back. REQUIRES: length <= this->length().
  virtual void Truncate(int64_t length) = 0;
  /// Produces the array and resets the builder to empty.
  virtual Result<ArrayPtr> Finish() = 0;

 protected:
  TypePtr type_;
  MemoryPool* pool_;
  ValidityBuilder validity_;
};

/// Integers, floats, dates, timestamps: T is the physical C++ type.
template <typename T>
class NumericBuilder final : public ArrayBuilder {
 public:
  NumericBuilder(TypePtr type, MemoryPool* pool) : ArrayBuilder(std::move(type), pool), values_(pool) {}

  Status Reserve(int64_t n) { return values_.Reserve(n * static_cast<int64_t>(sizeof(T))); }
  Status Append(T value) {
    EPOXY_RETURN_NOT_OK(values_.Reserve(sizeof(T)));
    values_.UnsafeAppendValue(value);
    return validity_.Append(true);
  }
  Status AppendNull() override {
    EPOXY_RETURN_NOT_OK(values_.Reserve(sizeof(T)));
    values_.UnsafeAppendValue(T{});
    return validity_.Append(false);
  }
  /// The value at row i so far (for builders that revisit what they appended).
  T value(int64_t i) const { return reinterpret_cast<const T*>(values_.data())[i]; }
  void Truncate(int64_t length) override {
    validity_.Truncate(length);
    (void)values_.ResizeUninitialized(length * static_cast<int64_t>(sizeof(T)));  // shrinks
  }
  Result<ArrayPtr> Finish() override;

 private:
  BufferBuilder values_;
};

using Int8Builder = NumericBuilder<int8_t>;
using Int16Builder = NumericBuilder<int16_t>;
using Int32Builder = NumericBuilder<int32_t>;
using Int64Builder = NumericBuilder<int64_t>;
using FloatBuilder = NumericBuilder<float>;
using DoubleBuilder = NumericBuilder<double>;
using DecimalBuilder = NumericBuilder<__int128>;

class BooleanBuilder final : public ArrayBuilder {
 public:
  explicit BooleanBuilder(MemoryPool* pool) : ArrayBuilder(DataType::Boolean(), pool), bits_(pool) {}
  Status Append(bool value);
  Status AppendNull() override { return AppendSlot(false, false); }
  void Truncate(int64_t length) override;
  Result<ArrayPtr> Finish() override;

 private:
  Status AppendSlot(bool value, bool valid);
  BufferBuilder bits_;
  int64_t num_values_ = 0;
};

/// string and binary.
class StringBuilder final : public ArrayBuilder {
 public:
  StringBuilder(TypePtr type, MemoryPool* pool);
  Status Append(std::string_view value) {
    if (data_.size() + static_cast<int64_t>(value.size()) > INT32_MAX) {
      return Status::OutOfMemory("a string column of one batch exceeds 2 GiB");
    }
    EPOXY_RETURN_NOT_OK(data_.Append(value.data(), static_cast<int64_t>(value.size())));
    EPOXY_RETURN_NOT_OK(offsets_.Reserve(4));
    offsets_.UnsafeAppendValue(static_cast<int32_t>(data_.size()));
    return validity_.Append(true);
  }
  Status AppendNull() override;
  Status ReserveData(int64_t bytes) { return data_.Reserve(bytes); }
  /// Room for `rows` more offsets.
  Status Reserve(int64_t rows) { return offsets_.Reserve(rows * 4); }
  int64_t data_size() const { return data_.size(); }
  void Truncate(int64_t length) override;
  Result<ArrayPtr> Finish() override;

 private:
  BufferBuilder offsets_;
  BufferBuilder data_;
};

/// array<T>: Append the elements to child(), then call AppendList().
class ListBuilder final : public ArrayBuilder {
 public:
  ListBuilder(TypePtr type, std::unique_ptr<ArrayBuilder> child, MemoryPool* pool);
  ArrayBuilder* child() { return child_.get(); }
  /// Closes a list holding every element appended to the child since the previous list.
  Status AppendList();
  Status AppendNull() override;
  void Truncate(int64_t length) override;
  Result<ArrayPtr> Finish() override;

 private:
  std::unique_ptr<ArrayBuilder> child_;
  BufferBuilder offsets_;
};

/// map<K,V>: append keys and values pairwise, then AppendMap().
class MapBuilder final : public ArrayBuilder {
 public:
  MapBuilder(TypePtr type, std::unique_ptr<ArrayBuilder> keys,
             std::unique_ptr<ArrayBuilder> values, MemoryPool* pool);
  ArrayBuilder* keys() { return keys_.get(); }
  ArrayBuilder* values() { return values_.get(); }
  Status AppendMap();
  Status AppendNull() override;
  void Truncate(int64_t length) override;
  Result<ArrayPtr> Finish() override;

 private:
  std::unique_ptr<ArrayBuilder> keys_;
  std::unique_ptr<ArrayBuilder> values_;
  BufferBuilder offsets_;
};

/// struct<...>: append one value (or null) to every field builder, then AppendStruct().
class StructBuilder final : public ArrayBuilder {
 public:
  StructBuilder(TypePtr type, std::vector<std::unique_ptr<ArrayBuilder>> fields, MemoryPool* pool);
  ArrayBuilder* field(int i) { return fields_[i].get(); }
  int num_fields() const { return static_cast<int>(fields_.size()); }
  Status AppendStruct() { return validity_.Append(true); }
  /// Appends a null struct (and a null to each field).
  Status AppendNull() override;
  void Truncate(int64_t length) override;
  Result<ArrayPtr> Finish() override;

 private:
  std::vector<std::unique_ptr<ArrayBuilder>> fields_;
};

/// choice<...>: Append to member(k) and call AppendMember(k); the other members get a null.
class ChoiceBuilder final : public ArrayBuilder {
 public:
  ChoiceBuilder(TypePtr type, std::vector<std::unique_ptr<ArrayBuilder>> members, MemoryPool* pool);
  ArrayBuilder* member(int k) { return members_[k].get(); }
  /// REQUIRES: one value was appended to member(k) for this row.
  Status AppendMember(int k);
  Status AppendNull() override;
  void Truncate(int64_t length) override;
  Result<ArrayPtr> Finish() override;

 private:
  std::vector<std::unique_ptr<ArrayBuilder>> members_;
  BufferBuilder type_ids_;
};

/// Only nulls, of type null.
class NullBuilder final : public ArrayBuilder {
 public:
  explicit NullBuilder(MemoryPool* pool) : ArrayBuilder(DataType::Null(), pool) {}
  Status AppendNull() override { return validity_.Append(false); }
  void Truncate(int64_t length) override { validity_.Truncate(length); }
  Result<ArrayPtr> Finish() override;
};

/// A builder for any type.
Result<std::unique_ptr<ArrayBuilder>> MakeBuilder(const TypePtr& type, MemoryPool* pool = nullptr);

/// Appends row `row` of `source` to `builder`. REQUIRES: builder->type() equals source.type().
Status AppendFrom(ArrayBuilder* builder, const Array& source, int64_t row);

/// Concatenates arrays of one type into one (for re-chunking and tests).
Result<ArrayPtr> Concatenate(const std::vector<ArrayPtr>& arrays, MemoryPool* pool = nullptr);

}  // namespace epoxy
