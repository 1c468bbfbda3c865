// SPDX-License-Identifier: Apache-2.0
// AdaptiveBuilder, AdaptiveStruct and AdaptiveList.
#include "epoxy/vector/adaptive_builder.h"

namespace epoxy {

/// One type seen in a column: exactly one of the three builders is set.
struct AdaptiveBuilder::Member {
  TypeId kind;
  std::unique_ptr<ArrayBuilder> scalar;
  std::unique_ptr<AdaptiveStruct> structure;
  std::unique_ptr<AdaptiveList> list;

  Status AppendNull() {
    if (scalar) return scalar->AppendNull();
    if (structure) return structure->AppendNullRow();
    return list->AppendNullRow();
  }
};

namespace {
TypePtr ScalarType(TypeId kind) {
  switch (kind) {
    case TypeId::kBoolean: return DataType::Boolean();
    case TypeId::kBigInt: return DataType::BigInt();
    case TypeId::kDouble: return DataType::Double();
    case TypeId::kDecimal: return DataType::Decimal(20, 0);
    default: return DataType::String();
  }
}
}  // namespace

AdaptiveBuilder::AdaptiveBuilder(MemoryPool* pool) : pool_(pool), member_ids_(pool) {}
AdaptiveBuilder::~AdaptiveBuilder() = default;

Result<AdaptiveBuilder::Member*> AdaptiveBuilder::Select(TypeId kind) {
  int k = -1;
  if (last_member_ >= 0 && members_[last_member_]->kind == kind) {
    k = last_member_;
  } else {
    for (size_t i = 0; i < members_.size(); ++i) {
      if (members_[i]->kind == kind) k = static_cast<int>(i);
    }
  }
  if (k < 0) {
    if (members_.size() >= 127) return Status::InvalidData("more than 127 types in one column");
    auto m = std::make_unique<Member>();
    m->kind = kind;
    if (kind == TypeId::kStruct) {
      m->structure = std::make_unique<AdaptiveStruct>(pool_);
    } else if (kind == TypeId::kArray) {
      m->list = std::make_unique<AdaptiveList>(pool_);
    } else {
      EPOXY_ASSIGN_OR_RETURN(m->scalar, MakeBuilder(ScalarType(kind), pool_));
    }
    for (int64_t i = 0; i < length_; ++i) EPOXY_RETURN_NOT_OK(m->AppendNull());
    if (members_.size() == 1) {
      // Becoming a choice: every earlier row belongs to member 0.
      EPOXY_RETURN_NOT_OK(member_ids_.AppendZeros(length_));
    }
    members_.push_back(std::move(m));
    k = static_cast<int>(members_.size()) - 1;
  }
  last_member_ = k;
  if (members_.size() == 1 && members_[0]->scalar) {
    sole_kind_ = kind;
    sole_scalar_ = members_[0]->scalar.get();
  } else {
    sole_kind_ = TypeId::kNull;
    sole_scalar_ = nullptr;
  }
  if (members_.size() > 1) {
    for (size_t i = 0; i < members_.size(); ++i) {
      if (static_cast<int>(i) != k) EPOXY_RETURN_NOT_OK(members_[i]->AppendNull());
    }
    EPOXY_RETURN_NOT_OK(member_ids_.Reserve(1));
    member_ids_.UnsafeAppendValue(static_cast<int8_t>(k));
  }
  ++length_;
  return members_[k].get();
}

Status AdaptiveBuilder::AppendNull() {
  for (auto& m : members_) EPOXY_RETURN_NOT_OK(m->AppendNull());
  if (members_.size() > 1) {
    EPOXY_RETURN_NOT_OK(member_ids_.Reserve(1));
    member_ids_.UnsafeAppendValue(static_cast<int8_t>(0));
  }
  ++length_;
  return Status::OK();
}

Status AdaptiveBuilder::AppendNulls(int64_t n) {
  for (int64_t i = 0; i < n; ++i) EPOXY_RETURN_NOT_OK(AppendNull());
  return Status::OK();
}

Result<ArrayBuilder*> AdaptiveBuilder::SelectScalar(TypeId kind) {
  EPOXY_ASSIGN_OR_RETURN(Member * m, Select(kind));
  return m->scalar.get();
}

Result<AdaptiveStruct*> AdaptiveBuilder::AppendStruct() {
  EPOXY_ASSIGN_OR_RETURN(Member * m, Select(TypeId::kStruct));
  return m->structure.get();
}

Result<AdaptiveList*> AdaptiveBuilder::AppendList() {
  EPOXY_ASSIGN_OR_RETURN(Member * m, Select(TypeId::kArray));
  return m->list.get();
}

Result<ArrayPtr> AdaptiveBuilder::Finish() {
  int64_t n = length_;
  std::vector<ArrayPtr> children;
  for (auto& m : members_) {
    ArrayPtr child;
    if (m->scalar) {
      EPOXY_ASSIGN_OR_RETURN(child, m->scalar->Finish());
    } else if (m->structure) {
      EPOXY_ASSIGN_OR_RETURN(child, m->structure->Finish());
    } else {
      EPOXY_ASSIGN_OR_RETURN(child, m->list->Finish());
    }
    children.push_back(std::move(child));
  }
  members_.clear();
  last_member_ = -1;
  sole_kind_ = TypeId::kNull;
  sole_scalar_ = nullptr;
  length_ = 0;
  if (children.empty()) {
    EPOXY_RETURN_NOT_OK(member_ids_.Resize(0));
    return Array::MakeNull(n);
  }
  if (children.size() == 1) {
    EPOXY_RETURN_NOT_OK(member_ids_.Resize(0));
    return children[0];
  }
  std::vector<TypePtr> types;
  int64_t nulls = 0;
  for (const auto& c : children) types.push_back(c->type());
  EPOXY_ASSIGN_OR_RETURN(BufferPtr ids, member_ids_.Finish());
  const int8_t* id = ids->data_as<int8_t>();
  for (int64_t i = 0; i < n; ++i) nulls += children[id[i]]->IsNull(i) ? 1 : 0;
  // Member types are distinct kinds, so the choice keeps every member in order.
  return Array::Make(DataType::Choice(std::move(types)), n, {nullptr, std::move(ids)},
                     std::move(children), nulls);
}

AdaptiveStruct::AdaptiveStruct(MemoryPool* pool) : pool_(pool), validity_(pool) {}
AdaptiveStruct::~AdaptiveStruct() = default;

Result<AdaptiveBuilder*> AdaptiveStruct::FieldByName(std::string_view name) {
  int i = -1;
  auto it = index_.find(std::string(name));
  if (it != index_.end()) {
    i = it->second;
  } else {
    i = static_cast<int>(names_.size());
    names_.emplace_back(name);
    fields_.push_back(std::make_unique<AdaptiveBuilder>(pool_));
    last_row_.push_back(-1);
    index_.emplace(std::string(name), i);
    EPOXY_RETURN_NOT_OK(fields_.back()->AppendNulls(length_));
  }
  cursor_ = static_cast<size_t>(i) + 1;
  return Take(static_cast<size_t>(i));
}

Status AdaptiveStruct::EndRow() {
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (last_row_[i] != length_) EPOXY_RETURN_NOT_OK(fields_[i]->AppendNull());
  }
  cursor_ = 0;
  ++length_;
  return validity_.Append(true);
}

Status AdaptiveStruct::AppendNullRow() {
  for (auto& f : fields_) EPOXY_RETURN_NOT_OK(f->AppendNull());
  ++length_;
  return validity_.Append(false);
}

Result<std::vector<ArrayPtr>> AdaptiveStruct::FinishFields(std::vector<epoxy::Field>* fields) {
  std::vector<ArrayPtr> children;
  for (size_t i = 0; i < fields_.size(); ++i) {
    EPOXY_ASSIGN_OR_RETURN(ArrayPtr child, fields_[i]->Finish());
    fields->push_back({names_[i], child->type()});
    children.push_back(std::move(child));
  }
  names_.clear();
  fields_.clear();
  last_row_.clear();
  index_.clear();
  cursor_ = 0;
  length_ = 0;
  return children;
}

Result<ArrayPtr> AdaptiveStruct::Finish() {
  int64_t n = length_;
  int64_t nulls = validity_.null_count();
  EPOXY_ASSIGN_OR_RETURN(BufferPtr validity, validity_.Finish());
  std::vector<epoxy::Field> fields;
  EPOXY_ASSIGN_OR_RETURN(auto children, FinishFields(&fields));
  return Array::Make(DataType::Struct(std::move(fields)), n, {std::move(validity)},
                     std::move(children), nulls);
}

Result<BatchPtr> AdaptiveStruct::FinishBatch() {
  int64_t n = length_;
  EPOXY_ASSIGN_OR_RETURN(BufferPtr unused, validity_.Finish());
  (void)unused;
  std::vector<epoxy::Field> fields;
  EPOXY_ASSIGN_OR_RETURN(auto columns, FinishFields(&fields));
  return Batch::Make(Schema::Make(std::move(fields)), std::move(columns), n);
}

AdaptiveList::AdaptiveList(MemoryPool* pool)
    : elements_(pool), offsets_(pool), validity_(pool) {
  (void)offsets_.AppendZeros(4);
}

Status AdaptiveList::EndRow() {
  EPOXY_RETURN_NOT_OK(offsets_.Reserve(4));
  offsets_.UnsafeAppendValue(static_cast<int32_t>(elements_.length()));
  return validity_.Append(true);
}

Status AdaptiveList::AppendNullRow() {
  EPOXY_RETURN_NOT_OK(offsets_.Reserve(4));
  offsets_.UnsafeAppendValue(static_cast<int32_t>(elements_.length()));
  return validity_.Append(false);
}

Result<ArrayPtr> AdaptiveList::Finish() {
  int64_t n = validity_.length();
  int64_t nulls = validity_.null_count();
  EPOXY_ASSIGN_OR_RETURN(BufferPtr validity, validity_.Finish());
  EPOXY_ASSIGN_OR_RETURN(BufferPtr offsets, offsets_.Finish());
  EPOXY_RETURN_NOT_OK(offsets_.AppendZeros(4));
  EPOXY_ASSIGN_OR_RETURN(ArrayPtr elements, elements_.Finish());
  TypePtr type = DataType::Array(elements->type());  // before `elements` is moved below
  return Array::Make(std::move(type), n, {std::move(validity), std::move(offsets)},
                     {std::move(elements)}, nulls);
}

}  // namespace epoxy
