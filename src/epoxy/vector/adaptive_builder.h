// SPDX-License-Identifier: Apache-2.0
// AdaptiveBuilder: builds a column whose type is learned from the values appended, the way a
// DynamicFrame record describes itself. A field seen as bigint in one record and string in another
// becomes choice<bigint,string>; objects become structs whose fields appear as they are first seen.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "epoxy/common/bytes.h"
#include "epoxy/vector/builder.h"

namespace epoxy {

class AdaptiveStruct;
class AdaptiveList;

/// Not thread-safe. Every Append* adds exactly one row; for a struct value call AppendStruct(),
/// fill its fields, then AdaptiveStruct::EndRow(); for an array value AppendList(), the elements,
/// then AdaptiveList::EndRow().
class AdaptiveBuilder {
 public:
  explicit AdaptiveBuilder(MemoryPool* pool);
  ~AdaptiveBuilder();
  AdaptiveBuilder(const AdaptiveBuilder&) = delete;
  AdaptiveBuilder& operator=(const AdaptiveBuilder&) = delete;

  int64_t length() const { return length_; }

  Status AppendNull();
  Status AppendNulls(int64_t n);
  Status AppendBool(bool value) { return AppendScalar<BooleanBuilder>(TypeId::kBoolean, value); }
  Status AppendInt64(int64_t value) { return AppendScalar<Int64Builder>(TypeId::kBigInt, value); }
  /// An integer beyond int64 (up to 2^64 - 1), stored as decimal(20,0).
  Status AppendUInt64(uint64_t value) {
    return AppendScalar<DecimalBuilder>(TypeId::kDecimal, static_cast<__int128>(value));
  }
  Status AppendDouble(double value) { return AppendScalar<DoubleBuilder>(TypeId::kDouble, value); }
  Status AppendString(std::string_view value) { return AppendScalar<StringBuilder>(TypeId::kString, value); }
  /// Starts a struct value; the returned pointer stays valid until Finish().
  Result<AdaptiveStruct*> AppendStruct();
  Result<AdaptiveList*> AppendList();

  /// The array of everything appended (type null when only nulls were seen); resets the builder.
  Result<ArrayPtr> Finish();

 private:
  struct Member;
  /// Selects (creating if needed) the member of `kind` and records the row's member index.
  Result<Member*> Select(TypeId kind);
  Result<ArrayBuilder*> SelectScalar(TypeId kind);

  /// The common case inline: a column of one scalar type so far.
  template <typename Builder, typename Value>
  Status AppendScalar(TypeId kind, Value value) {
    ArrayBuilder* b;
    if (sole_kind_ == kind) {
      ++length_;
      b = sole_scalar_;
    } else {
      EPOXY_ASSIGN_OR_RETURN(b, SelectScalar(kind));
    }
    return static_cast<Builder*>(b)->Append(value);
  }

  MemoryPool* pool_;
  int64_t length_ = 0;
  std::vector<std::unique_ptr<Member>> members_;
  BufferBuilder member_ids_;  // int8 per row, kept once there are two members
  int last_member_ = -1;
  // The only member when it is a scalar (kind kNull otherwise, which no member has).
  TypeId sole_kind_ = TypeId::kNull;
  ArrayBuilder* sole_scalar_ = nullptr;
};

/// The struct member of an AdaptiveBuilder: fields in order of first appearance.
class AdaptiveStruct {
 public:
  explicit AdaptiveStruct(MemoryPool* pool);
  ~AdaptiveStruct();

  /// The builder for field `name` in the current row, created (and back-filled with nulls) on
  /// first sight; nullptr when the row already set that field (a duplicate key: the first wins).
  Result<AdaptiveBuilder*> Field(std::string_view name) {
    // Inline for the common case: records repeat the key order, so the expected field matches.
    const size_t i = cursor_;
    if (i < names_.size() && EqualBytes(names_[i], name)) {
      cursor_ = i + 1;
      return Take(i);
    }
    return FieldByName(name);
  }
  /// Pads the fields this row did not set and closes the row.
  Status EndRow();
  Status AppendNullRow();
  int64_t length() const { return length_; }
  int num_fields() const { return static_cast<int>(names_.size()); }

  /// The struct array; `fields_out` receives the field types in order.
  Result<ArrayPtr> Finish();
  /// Finishes into top-level columns instead of a struct (a batch's records).
  Result<BatchPtr> FinishBatch();

 private:
  Result<AdaptiveBuilder*> FieldByName(std::string_view name);
  /// Field i's builder for this row; nullptr when the row already set it.
  AdaptiveBuilder* Take(size_t i) {
    if (last_row_[i] == length_) return nullptr;  // duplicate key in one object
    last_row_[i] = length_;
    return fields_[i].get();
  }
  Result<std::vector<ArrayPtr>> FinishFields(std::vector<epoxy::Field>* fields);

  MemoryPool* pool_;
  std::vector<std::string> names_;
  std::vector<std::unique_ptr<AdaptiveBuilder>> fields_;
  std::vector<int64_t> last_row_;  // the row each field was last set in
  std::unordered_map<std::string, int> index_;
  size_t cursor_ = 0;  // records usually repeat the same key order; try the expected field first
  ValidityBuilder validity_;
  int64_t length_ = 0;
};

/// The array member of an AdaptiveBuilder.
class AdaptiveList {
 public:
  explicit AdaptiveList(MemoryPool* pool);
  AdaptiveBuilder* elements() { return &elements_; }
  Status EndRow();
  Status AppendNullRow();
  Result<ArrayPtr> Finish();

 private:
  AdaptiveBuilder elements_;
  BufferBuilder offsets_;
  ValidityBuilder validity_;
};

}  // namespace epoxy
