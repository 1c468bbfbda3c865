// SPDX-License-Identifier: Apache-2.0
// Spark's widening and common-type rules.
#include "epoxy/expr/type_coercion.h"

#include "epoxy/expr/cast.h"
#include "epoxy/expr/decimal.h"
#include "epoxy/expr/type_visit.h"

namespace epoxy::expr {
namespace {

int NumericRank(TypeId id) {
  switch (id) {
    case TypeId::kTinyInt: return 1;
    case TypeId::kSmallInt: return 2;
    case TypeId::kInt: return 3;
    case TypeId::kBigInt: return 4;
    case TypeId::kDecimal: return 5;
    case TypeId::kFloat: return 6;
    case TypeId::kDouble: return 7;
    default: return 0;
  }
}

bool SameNameIgnoringCase(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  }
  return true;
}

}  // namespace

TypePtr WiderNumeric(const TypePtr& a, const TypePtr& b) {
  if (a->Equals(*b)) return a;
  if (a->id() == TypeId::kDecimal || b->id() == TypeId::kDecimal) {
    if (IsFloating(a->id()) || IsFloating(b->id())) return DataType::Double();
    TypePtr da = a->id() == TypeId::kDecimal ? a : DecimalForIntegral(a->id());
    TypePtr db = b->id() == TypeId::kDecimal ? b : DecimalForIntegral(b->id());
    return WiderDecimal(*da, *db);
  }
  return NumericRank(a->id()) >= NumericRank(b->id()) ? a : b;
}

TypePtr AsDecimal(const Expr& e) {
  const TypeId id = e.type->id();
  if (id == TypeId::kDecimal) return e.type;
  if (e.kind == ExprKind::kLiteral && IsIntegral(id) && !e.literal.is_null()) {
    return DecimalForIntegerLiteral(std::get<int64_t>(e.literal.value));
  }
  return DecimalForIntegral(id);
}

Result<TypePtr> ComparisonType(const TypePtr& a, const TypePtr& b) {
  if (a->Equals(*b)) return a;
  if (a->id() == TypeId::kNull) return b;
  if (b->id() == TypeId::kNull) return a;
  if (IsNumeric(a->id()) && IsNumeric(b->id())) return WiderNumeric(a, b);
  // A string meets the other side's type (Spark casts the string).
  if (a->id() == TypeId::kString && b->id() != TypeId::kBinary && CanCast(*a, *b)) return b;
  if (b->id() == TypeId::kString && a->id() != TypeId::kBinary && CanCast(*b, *a)) return a;
  if ((a->id() == TypeId::kDate && b->id() == TypeId::kTimestamp) || (a->id() == TypeId::kTimestamp && b->id() == TypeId::kDate)) {
    return DataType::Timestamp();
  }
  return Status::InvalidInput("cannot compare {} with {}", a->ToString(), b->ToString());
}

Result<TypePtr> CommonType(const TypePtr& a, const TypePtr& b) {
  if (a->Equals(*b) || b->id() == TypeId::kNull) return a;
  if (a->id() == TypeId::kNull) return b;
  if (IsNumeric(a->id()) && IsNumeric(b->id())) return WiderNumeric(a, b);
  if (a->id() == TypeId::kString || b->id() == TypeId::kString) return DataType::String();
  if ((a->id() == TypeId::kDate && b->id() == TypeId::kTimestamp) || (a->id() == TypeId::kTimestamp && b->id() == TypeId::kDate)) {
    return DataType::Timestamp();
  }
  return Status::InvalidInput("no common type for {} and {}", a->ToString(), b->ToString());
}

TypePtr WiderTypeWithoutStringPromotion(const TypePtr& a, const TypePtr& b) {
  if (a->Equals(*b) || b->id() == TypeId::kNull) return a;
  if (a->id() == TypeId::kNull) return b;
  if (IsNumeric(a->id()) && IsNumeric(b->id())) return WiderNumeric(a, b);
  if ((a->id() == TypeId::kDate && b->id() == TypeId::kTimestamp) || (a->id() == TypeId::kTimestamp && b->id() == TypeId::kDate)) {
    return DataType::Timestamp();
  }
  if (a->id() != b->id()) return nullptr;
  switch (a->id()) {
    case TypeId::kArray: {
      TypePtr element = WiderTypeWithoutStringPromotion(a->element(), b->element());
      return element == nullptr ? nullptr : DataType::Array(element);
    }
    case TypeId::kMap: {
      TypePtr key = WiderTypeWithoutStringPromotion(a->key(), b->key());
      TypePtr value = WiderTypeWithoutStringPromotion(a->value(), b->value());
      return key == nullptr || value == nullptr ? nullptr : DataType::Map(key, value);
    }
    case TypeId::kStruct: {
      if (a->fields().size() != b->fields().size()) return nullptr;
      std::vector<Field> fields;
      for (size_t i = 0; i < a->fields().size(); ++i) {
        const Field& fa = a->fields()[i];
        const Field& fb = b->fields()[i];
        if (!SameNameIgnoringCase(fa.name, fb.name)) return nullptr;
        TypePtr t = WiderTypeWithoutStringPromotion(fa.type, fb.type);
        if (t == nullptr) return nullptr;
        fields.push_back({fa.name, t});
      }
      return DataType::Struct(std::move(fields));
    }
    default: return nullptr;
  }
}

}  // namespace epoxy::expr
