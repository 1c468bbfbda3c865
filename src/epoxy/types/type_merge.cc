// SPDX-License-Identifier: Apache-2.0
// MergeTypes and the catalog projection of DynamicFrame types.
#include "epoxy/types/type_merge.h"

#include <algorithm>

namespace epoxy {
namespace {

int IntegerRank(TypeId id) {
  switch (id) {
    case TypeId::kTinyInt: return 1;
    case TypeId::kSmallInt: return 2;
    case TypeId::kInt: return 3;
    case TypeId::kBigInt: return 4;
    default: return 0;
  }
}

/// Decimal digits needed left of the point to hold any value of an integer type.
int IntegerDigits(TypeId id) {
  switch (id) {
    case TypeId::kTinyInt: return 3;
    case TypeId::kSmallInt: return 5;
    case TypeId::kInt: return 10;
    default: return 19;
  }
}

TypePtr WidenDecimals(int int_digits_a, int scale_a, int int_digits_b, int scale_b) {
  int scale = std::max(scale_a, scale_b);
  int int_digits = std::max(int_digits_a, int_digits_b);
  if (int_digits + scale > 38) return DataType::Double();  // cannot hold both exactly
  return DataType::Decimal(std::max(1, int_digits + scale), scale);
}

TypePtr MergeStructs(const DataType& a, const DataType& b, MergeMode mode) {
  std::vector<Field> fields = a.fields();
  for (const auto& fb : b.fields()) {
    int i = a.FieldIndex(fb.name);
    if (i < 0) {
      fields.push_back(fb);
    } else {
      fields[i].type = MergeTypes(fields[i].type, fb.type, mode);
    }
  }
  return DataType::Struct(std::move(fields));
}

TypePtr MergeForCatalog(const TypePtr& a, const TypePtr& b) {
  const DataType& x = *a;
  const DataType& y = *b;
  if (x.is_integer() && y.is_integer()) {
    return IntegerRank(x.id()) >= IntegerRank(y.id()) ? a : b;
  }
  if (x.is_numeric() && y.is_numeric()) {
    if (x.is_floating() || y.is_floating()) return DataType::Double();
    // decimal with decimal, or decimal with an integer
    int digits_x = x.id() == TypeId::kDecimal ? x.precision() - x.scale() : IntegerDigits(x.id());
    int digits_y = y.id() == TypeId::kDecimal ? y.precision() - y.scale() : IntegerDigits(y.id());
    return WidenDecimals(digits_x, x.scale(), digits_y, y.scale());
  }
  if ((x.id() == TypeId::kDate && y.id() == TypeId::kTimestamp) ||
      (x.id() == TypeId::kTimestamp && y.id() == TypeId::kDate)) {
    return DataType::Timestamp();
  }
  return DataType::String();
}

}  // namespace

TypePtr MergeTypes(const TypePtr& a, const TypePtr& b, MergeMode mode) {
  if (a->id() == TypeId::kNull) return b;
  if (b->id() == TypeId::kNull) return a;
  if (a->Equals(*b)) return a;
  if (a->id() == TypeId::kStruct && b->id() == TypeId::kStruct) return MergeStructs(*a, *b, mode);
  if (a->id() == TypeId::kArray && b->id() == TypeId::kArray) {
    return DataType::Array(MergeTypes(a->element(), b->element(), mode));
  }
  if (a->id() == TypeId::kMap && b->id() == TypeId::kMap) {
    return DataType::Map(MergeTypes(a->key(), b->key(), mode),
                         MergeTypes(a->value(), b->value(), mode));
  }
  if (mode == MergeMode::kDynamicFrame) {
    // A choice member that is a struct (or array, map) absorbs a new struct rather than adding a
    // second struct member.
    std::vector<TypePtr> members =
        a->id() == TypeId::kChoice ? a->members() : std::vector<TypePtr>{a};
    std::vector<TypePtr> incoming =
        b->id() == TypeId::kChoice ? b->members() : std::vector<TypePtr>{b};
    for (const auto& m : incoming) {
      bool merged = false;
      for (auto& existing : members) {
        if (existing->Equals(*m) ||
            (existing->is_nested() && existing->id() == m->id())) {
          existing = MergeTypes(existing, m, mode);
          merged = true;
          break;
        }
      }
      if (!merged) members.push_back(m);
    }
    return DataType::Choice(std::move(members));
  }
  // Catalog: a choice on either side collapses first.
  if (a->id() == TypeId::kChoice || b->id() == TypeId::kChoice) {
    return MergeTypes(ToCatalogType(a), ToCatalogType(b), mode);
  }
  if (a->is_nested() || b->is_nested()) return DataType::String();
  return MergeForCatalog(a, b);
}

SchemaPtr MergeSchemas(const Schema& a, const Schema& b, MergeMode mode) {
  TypePtr merged = MergeTypes(a.AsStruct(), b.AsStruct(), mode);
  return Schema::Make(merged->fields());
}

TypePtr ToCatalogType(const TypePtr& type) {
  switch (type->id()) {
    case TypeId::kNull: return DataType::String();
    case TypeId::kChoice: {
      TypePtr out = DataType::Null();
      for (const auto& m : type->members()) {
        out = MergeTypes(out, ToCatalogType(m), MergeMode::kCatalog);
      }
      return ToCatalogType(out);
    }
    case TypeId::kArray: return DataType::Array(ToCatalogType(type->element()));
    case TypeId::kMap:
      return DataType::Map(ToCatalogType(type->key()), ToCatalogType(type->value()));
    case TypeId::kStruct: {
      std::vector<Field> fields;
      for (const auto& f : type->fields()) fields.push_back({f.name, ToCatalogType(f.type)});
      return DataType::Struct(std::move(fields));
    }
    default: return type;
  }
}

SchemaPtr ToCatalogSchema(const Schema& schema) {
  std::vector<Field> fields;
  for (const auto& f : schema.fields()) fields.push_back({f.name, ToCatalogType(f.type)});
  return Schema::Make(std::move(fields));
}

}  // namespace epoxy
