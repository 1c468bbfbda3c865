// SPDX-License-Identifier: Apache-2.0
// Builders for every type.
#include "epoxy/vector/builder.h"

#include <cstring>

namespace epoxy {

Status ValidityBuilder::Materialize() {
  EPOXY_RETURN_NOT_OK(bits_.Resize(bit_util::BytesForBits(length_)));
  if (length_ > 0) std::memset(bits_.mutable_data(), 0xFF, static_cast<size_t>(bits_.size()));
  // Bits past length_ in the last byte must read as 0 for the next Append's SetBit logic to hold.
  for (int64_t i = length_; i < bits_.size() * 8; ++i) bit_util::ClearBit(bits_.mutable_data(), i);
  materialized_ = true;
  return Status::OK();
}

Status ValidityBuilder::AppendSlow(bool valid) {
  if (!valid && !materialized_) EPOXY_RETURN_NOT_OK(Materialize());
  if ((length_ & 7) == 0) EPOXY_RETURN_NOT_OK(bits_.AppendZeros(1));
  if (valid) bit_util::SetBit(bits_.mutable_data(), length_);
  if (!valid) ++null_count_;
  ++length_;
  return Status::OK();
}

Status ValidityBuilder::AppendValid(int64_t n) {
  if (!materialized_) {
    length_ += n;
    return Status::OK();
  }
  for (int64_t i = 0; i < n; ++i) EPOXY_RETURN_NOT_OK(Append(true));
  return Status::OK();
}

Status ValidityBuilder::AppendNulls(int64_t n) {
  for (int64_t i = 0; i < n; ++i) EPOXY_RETURN_NOT_OK(Append(false));
  return Status::OK();
}

void ValidityBuilder::Truncate(int64_t length) {
  if (materialized_) {
    for (int64_t i = length; i < length_; ++i) {
      if (!bit_util::GetBit(bits_.mutable_data(), i)) --null_count_;
      bit_util::ClearBit(bits_.mutable_data(), i);  // bits past length_ must read as 0
    }
    (void)bits_.ResizeUninitialized(bit_util::BytesForBits(length));
  }
  length_ = length;
}

Result<BufferPtr> ValidityBuilder::Finish() {
  BufferPtr out;
  if (materialized_ && null_count_ > 0) {
    EPOXY_ASSIGN_OR_RETURN(out, bits_.Finish());
  }
  EPOXY_RETURN_NOT_OK(bits_.Resize(0));  // keeps the capacity for the next batch
  length_ = null_count_ = 0;
  materialized_ = false;
  return out;
}

Status ArrayBuilder::AppendNulls(int64_t n) {
  for (int64_t i = 0; i < n; ++i) EPOXY_RETURN_NOT_OK(AppendNull());
  return Status::OK();
}

Result<ArrayPtr> NullBuilder::Finish() {
  int64_t n = length();
  EPOXY_ASSIGN_OR_RETURN(auto unused, validity_.Finish());
  (void)unused;
  return Array::MakeNull(n);
}

template <typename T>
Result<ArrayPtr> NumericBuilder<T>::Finish() {
  int64_t n = length();
  int64_t nulls = null_count();
  EPOXY_ASSIGN_OR_RETURN(BufferPtr validity, validity_.Finish());
  EPOXY_ASSIGN_OR_RETURN(BufferPtr values, values_.Finish());
  return Array::Make(type_, n, {std::move(validity), std::move(values)}, {}, nulls);
}

template class NumericBuilder<int8_t>;
template class NumericBuilder<int16_t>;
template class NumericBuilder<int32_t>;
template class NumericBuilder<int64_t>;
template class NumericBuilder<float>;
template class NumericBuilder<double>;
template class NumericBuilder<__int128>;

Status BooleanBuilder::AppendSlot(bool value, bool valid) {
  if ((num_values_ & 7) == 0) EPOXY_RETURN_NOT_OK(bits_.AppendZeros(1));
  if (value) bit_util::SetBit(bits_.mutable_data(), num_values_);
  ++num_values_;
  return validity_.Append(valid);
}

Status BooleanBuilder::Append(bool value) { return AppendSlot(value, true); }

void BooleanBuilder::Truncate(int64_t length) {
  for (int64_t i = length; i < num_values_; ++i) bit_util::ClearBit(bits_.mutable_data(), i);
  (void)bits_.ResizeUninitialized(bit_util::BytesForBits(length));
  num_values_ = length;
  validity_.Truncate(length);
}

Result<ArrayPtr> BooleanBuilder::Finish() {
  int64_t n = length();
  int64_t nulls = null_count();
  EPOXY_ASSIGN_OR_RETURN(BufferPtr validity, validity_.Finish());
  EPOXY_ASSIGN_OR_RETURN(BufferPtr values, bits_.Finish());
  num_values_ = 0;
  return Array::Make(type_, n, {std::move(validity), std::move(values)}, {}, nulls);
}

StringBuilder::StringBuilder(TypePtr type, MemoryPool* pool)
    : ArrayBuilder(std::move(type), pool), offsets_(pool), data_(pool) {
  (void)offsets_.Append("\0\0\0\0", 4);  // the leading 0 offset; 4 bytes cannot fail in practice
}

Status StringBuilder::AppendNull() {
  EPOXY_RETURN_NOT_OK(offsets_.Reserve(4));
  offsets_.UnsafeAppendValue(static_cast<int32_t>(data_.size()));
  return validity_.Append(false);
}

void StringBuilder::Truncate(int64_t length) {
  const int32_t end = reinterpret_cast<const int32_t*>(offsets_.data())[length];
  (void)offsets_.ResizeUninitialized((length + 1) * 4);
  (void)data_.ResizeUninitialized(end);
  validity_.Truncate(length);
}

Result<ArrayPtr> StringBuilder::Finish() {
  int64_t n = length();
  int64_t nulls = null_count();
  if (offsets_.size() == 0) EPOXY_RETURN_NOT_OK(offsets_.AppendZeros(4));
  EPOXY_ASSIGN_OR_RETURN(BufferPtr validity, validity_.Finish());
  EPOXY_ASSIGN_OR_RETURN(BufferPtr offsets, offsets_.Finish());
  EPOXY_ASSIGN_OR_RETURN(BufferPtr data, data_.Finish());
  EPOXY_RETURN_NOT_OK(offsets_.AppendZeros(4));
  return Array::Make(type_, n, {std::move(validity), std::move(offsets), std::move(data)}, {},
                     nulls);
}

ListBuilder::ListBuilder(TypePtr type, std::unique_ptr<ArrayBuilder> child, MemoryPool* pool)
    : ArrayBuilder(std::move(type), pool), child_(std::move(child)), offsets_(pool) {
  (void)offsets_.AppendZeros(4);
}

Status ListBuilder::AppendList() {
  if (child_->length() > INT32_MAX) return Status::OutOfMemory("a list column of one batch exceeds 2^31 elements");
  EPOXY_RETURN_NOT_OK(offsets_.Reserve(4));
  offsets_.UnsafeAppendValue(static_cast<int32_t>(child_->length()));
  return validity_.Append(true);
}

Status ListBuilder::AppendNull() {
  EPOXY_RETURN_NOT_OK(offsets_.Reserve(4));
  offsets_.UnsafeAppendValue(static_cast<int32_t>(child_->length()));
  return validity_.Append(false);
}

void ListBuilder::Truncate(int64_t length) {
  child_->Truncate(reinterpret_cast<const int32_t*>(offsets_.data())[length]);
  (void)offsets_.ResizeUninitialized((length + 1) * 4);
  validity_.Truncate(length);
}

Result<ArrayPtr> ListBuilder::Finish() {
  int64_t n = length();
  int64_t nulls = null_count();
  if (offsets_.size() == 0) EPOXY_RETURN_NOT_OK(offsets_.AppendZeros(4));
  EPOXY_ASSIGN_OR_RETURN(BufferPtr validity, validity_.Finish());
  EPOXY_ASSIGN_OR_RETURN(BufferPtr offsets, offsets_.Finish());
  EPOXY_ASSIGN_OR_RETURN(ArrayPtr child, child_->Finish());
  EPOXY_RETURN_NOT_OK(offsets_.AppendZeros(4));
  return Array::Make(type_, n, {std::move(validity), std::move(offsets)}, {std::move(child)}, nulls);
}

MapBuilder::MapBuilder(TypePtr type, std::unique_ptr<ArrayBuilder> keys,
                       std::unique_ptr<ArrayBuilder> values, MemoryPool* pool)
    : ArrayBuilder(std::move(type), pool),
      keys_(std::move(keys)),
      values_(std::move(values)),
      offsets_(pool) {
  (void)offsets_.AppendZeros(4);
}

Status MapBuilder::AppendMap() {
  EPOXY_RETURN_NOT_OK(offsets_.Reserve(4));
  offsets_.UnsafeAppendValue(static_cast<int32_t>(keys_->length()));
  return validity_.Append(true);
}

Status MapBuilder::AppendNull() {
  EPOXY_RETURN_NOT_OK(offsets_.Reserve(4));
  offsets_.UnsafeAppendValue(static_cast<int32_t>(keys_->length()));
  return validity_.Append(false);
}

void MapBuilder::Truncate(int64_t length) {
  const int32_t end = reinterpret_cast<const int32_t*>(offsets_.data())[length];
  keys_->Truncate(end);
  values_->Truncate(end);
  (void)offsets_.ResizeUninitialized((length + 1) * 4);
  validity_.Truncate(length);
}

Result<ArrayPtr> MapBuilder::Finish() {
  int64_t n = length();
  int64_t nulls = null_count();
  if (offsets_.size() == 0) EPOXY_RETURN_NOT_OK(offsets_.AppendZeros(4));
  EPOXY_ASSIGN_OR_RETURN(BufferPtr validity, validity_.Finish());
  EPOXY_ASSIGN_OR_RETURN(BufferPtr offsets, offsets_.Finish());
  int64_t num_entries = keys_->length();
  EPOXY_ASSIGN_OR_RETURN(ArrayPtr keys, keys_->Finish());
  EPOXY_ASSIGN_OR_RETURN(ArrayPtr values, values_->Finish());
  EPOXY_RETURN_NOT_OK(offsets_.AppendZeros(4));
  TypePtr entry_type = DataType::Struct({{"key", type_->key()}, {"value", type_->value()}});
  ArrayPtr entries =
      Array::Make(entry_type, num_entries, {nullptr}, {std::move(keys), std::move(values)}, 0);
  return Array::Make(type_, n, {std::move(validity), std::move(offsets)}, {std::move(entries)},
                     nulls);
}

StructBuilder::StructBuilder(TypePtr type, std::vector<std::unique_ptr<ArrayBuilder>> fields,
                             MemoryPool* pool)
    : ArrayBuilder(std::move(type), pool), fields_(std::move(fields)) {}

Status StructBuilder::AppendNull() {
  for (auto& f : fields_) EPOXY_RETURN_NOT_OK(f->AppendNull());
  return validity_.Append(false);
}

void StructBuilder::Truncate(int64_t length) {
  for (auto& f : fields_) f->Truncate(length);
  validity_.Truncate(length);
}

Result<ArrayPtr> StructBuilder::Finish() {
  int64_t n = length();
  int64_t nulls = null_count();
  EPOXY_ASSIGN_OR_RETURN(BufferPtr validity, validity_.Finish());
  std::vector<ArrayPtr> children;
  for (auto& f : fields_) {
    EPOXY_ASSIGN_OR_RETURN(ArrayPtr child, f->Finish());
    children.push_back(std::move(child));
  }
  return Array::Make(type_, n, {std::move(validity)}, std::move(children), nulls);
}

ChoiceBuilder::ChoiceBuilder(TypePtr type, std::vector<std::unique_ptr<ArrayBuilder>> members,
                             MemoryPool* pool)
    : ArrayBuilder(std::move(type), pool), members_(std::move(members)), type_ids_(pool) {}

Status ChoiceBuilder::AppendMember(int k) {
  for (int i = 0; i < static_cast<int>(members_.size()); ++i) {
    if (i != k) EPOXY_RETURN_NOT_OK(members_[i]->AppendNull());
  }
  EPOXY_RETURN_NOT_OK(type_ids_.Reserve(1));
  type_ids_.UnsafeAppendValue(static_cast<int8_t>(k));
  return validity_.Append(true);
}

Status ChoiceBuilder::AppendNull() {
  for (auto& m : members_) EPOXY_RETURN_NOT_OK(m->AppendNull());
  EPOXY_RETURN_NOT_OK(type_ids_.Reserve(1));
  type_ids_.UnsafeAppendValue(static_cast<int8_t>(0));
  return validity_.Append(false);
}

void ChoiceBuilder::Truncate(int64_t length) {
  for (auto& m : members_) m->Truncate(length);
  (void)type_ids_.ResizeUninitialized(length);
  validity_.Truncate(length);
}

Result<ArrayPtr> ChoiceBuilder::Finish() {
  int64_t n = length();
  int64_t nulls = null_count();
  EPOXY_ASSIGN_OR_RETURN(BufferPtr ignored_validity, validity_.Finish());
  (void)ignored_validity;  // a sparse union has no validity of its own
  EPOXY_ASSIGN_OR_RETURN(BufferPtr ids, type_ids_.Finish());
  std::vector<ArrayPtr> children;
  for (auto& m : members_) {
    EPOXY_ASSIGN_OR_RETURN(ArrayPtr child, m->Finish());
    children.push_back(std::move(child));
  }
  return Array::Make(type_, n, {nullptr, std::move(ids)}, std::move(children), nulls);
}

Result<std::unique_ptr<ArrayBuilder>> MakeBuilder(const TypePtr& type, MemoryPool* pool) {
  if (pool == nullptr) pool = &MemoryPool::Default();
  switch (type->id()) {
    case TypeId::kNull: return std::unique_ptr<ArrayBuilder>(new NullBuilder(pool));
    case TypeId::kBoolean: return std::unique_ptr<ArrayBuilder>(new BooleanBuilder(pool));
    case TypeId::kTinyInt: return std::unique_ptr<ArrayBuilder>(new Int8Builder(type, pool));
    case TypeId::kSmallInt: return std::unique_ptr<ArrayBuilder>(new Int16Builder(type, pool));
    case TypeId::kInt:
    case TypeId::kDate: return std::unique_ptr<ArrayBuilder>(new Int32Builder(type, pool));
    case TypeId::kBigInt:
    case TypeId::kTimestamp: return std::unique_ptr<ArrayBuilder>(new Int64Builder(type, pool));
    case TypeId::kFloat: return std::unique_ptr<ArrayBuilder>(new FloatBuilder(type, pool));
    case TypeId::kDouble: return std::unique_ptr<ArrayBuilder>(new DoubleBuilder(type, pool));
    case TypeId::kDecimal: return std::unique_ptr<ArrayBuilder>(new DecimalBuilder(type, pool));
    case TypeId::kString:
    case TypeId::kBinary: return std::unique_ptr<ArrayBuilder>(new StringBuilder(type, pool));
    case TypeId::kArray: {
      EPOXY_ASSIGN_OR_RETURN(auto child, MakeBuilder(type->element(), pool));
      return std::unique_ptr<ArrayBuilder>(new ListBuilder(type, std::move(child), pool));
    }
    case TypeId::kMap: {
      EPOXY_ASSIGN_OR_RETURN(auto keys, MakeBuilder(type->key(), pool));
      EPOXY_ASSIGN_OR_RETURN(auto values, MakeBuilder(type->value(), pool));
      return std::unique_ptr<ArrayBuilder>(
          new MapBuilder(type, std::move(keys), std::move(values), pool));
    }
    case TypeId::kStruct: {
      std::vector<std::unique_ptr<ArrayBuilder>> fields;
      for (const auto& f : type->fields()) {
        EPOXY_ASSIGN_OR_RETURN(auto b, MakeBuilder(f.type, pool));
        fields.push_back(std::move(b));
      }
      return std::unique_ptr<ArrayBuilder>(new StructBuilder(type, std::move(fields), pool));
    }
    case TypeId::kChoice: {
      std::vector<std::unique_ptr<ArrayBuilder>> members;
      for (const auto& m : type->members()) {
        EPOXY_ASSIGN_OR_RETURN(auto b, MakeBuilder(m, pool));
        members.push_back(std::move(b));
      }
      return std::unique_ptr<ArrayBuilder>(new ChoiceBuilder(type, std::move(members), pool));
    }
  }
  return Status::Internal("no builder for type {}", type->ToString());
}

Status AppendFrom(ArrayBuilder* builder, const Array& source, int64_t row) {
  if (source.IsNull(row)) return builder->AppendNull();
  switch (source.type_id()) {
    case TypeId::kNull: return builder->AppendNull();
    case TypeId::kBoolean:
      return static_cast<BooleanBuilder*>(builder)->Append(source.GetBool(row));
    case TypeId::kTinyInt:
      return static_cast<Int8Builder*>(builder)->Append(source.values<int8_t>()[row]);
    case TypeId::kSmallInt:
      return static_cast<Int16Builder*>(builder)->Append(source.values<int16_t>()[row]);
    case TypeId::kInt:
    case TypeId::kDate:
      return static_cast<Int32Builder*>(builder)->Append(source.values<int32_t>()[row]);
    case TypeId::kBigInt:
    case TypeId::kTimestamp:
      return static_cast<Int64Builder*>(builder)->Append(source.values<int64_t>()[row]);
    case TypeId::kFloat:
      return static_cast<FloatBuilder*>(builder)->Append(source.values<float>()[row]);
    case TypeId::kDouble:
      return static_cast<DoubleBuilder*>(builder)->Append(source.values<double>()[row]);
    case TypeId::kDecimal: {
      __int128 v;
      std::memcpy(&v, source.values<__int128>() + row, sizeof(v));
      return static_cast<DecimalBuilder*>(builder)->Append(v);
    }
    case TypeId::kString:
    case TypeId::kBinary: return static_cast<StringBuilder*>(builder)->Append(source.GetView(row));
    case TypeId::kArray: {
      auto* list = static_cast<ListBuilder*>(builder);
      const int32_t* o = source.offsets();
      for (int32_t i = o[row]; i < o[row + 1]; ++i) {
        EPOXY_RETURN_NOT_OK(AppendFrom(list->child(), *source.child(0), i));
      }
      return list->AppendList();
    }
    case TypeId::kMap: {
      auto* map = static_cast<MapBuilder*>(builder);
      const int32_t* o = source.offsets();
      const Array& entries = *source.child(0);
      for (int32_t i = o[row]; i < o[row + 1]; ++i) {
        EPOXY_RETURN_NOT_OK(AppendFrom(map->keys(), *entries.child(0), i));
        EPOXY_RETURN_NOT_OK(AppendFrom(map->values(), *entries.child(1), i));
      }
      return map->AppendMap();
    }
    case TypeId::kStruct: {
      auto* st = static_cast<StructBuilder*>(builder);
      for (int f = 0; f < st->num_fields(); ++f) {
        EPOXY_RETURN_NOT_OK(AppendFrom(st->field(f), *source.child(f), row));
      }
      return st->AppendStruct();
    }
    case TypeId::kChoice: {
      auto* choice = static_cast<ChoiceBuilder*>(builder);
      int k = source.choice_index(row);
      EPOXY_RETURN_NOT_OK(AppendFrom(choice->member(k), *source.child(k), row));
      return choice->AppendMember(k);
    }
  }
  return Status::Internal("AppendFrom: unhandled type {}", source.type()->ToString());
}

Result<ArrayPtr> Concatenate(const std::vector<ArrayPtr>& arrays, MemoryPool* pool) {
  if (arrays.empty()) return Status::InvalidInput("Concatenate needs at least one array");
  EPOXY_ASSIGN_OR_RETURN(auto builder, MakeBuilder(arrays[0]->type(), pool));
  for (const auto& a : arrays) {
    if (!a->type()->Equals(*arrays[0]->type())) {
      return Status::InvalidInput("Concatenate: {} differs from {}", a->type()->ToString(),
                                  arrays[0]->type()->ToString());
    }
    for (int64_t i = 0; i < a->length(); ++i) EPOXY_RETURN_NOT_OK(AppendFrom(builder.get(), *a, i));
  }
  return builder->Finish();
}

}  // namespace epoxy
