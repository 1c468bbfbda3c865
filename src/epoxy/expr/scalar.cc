// SPDX-License-Identifier: Apache-2.0
// Scalars and the arrays made of them.
#include "epoxy/expr/scalar.h"

#include "epoxy/types/value_text.h"

namespace epoxy::expr {

std::string Scalar::ToSql() const {
  if (is_null()) return "NULL";
  switch (type->id()) {
    case TypeId::kBoolean: return std::get<bool>(value) ? "true" : "false";
    case TypeId::kDate: return "DATE '" + FormatDate(static_cast<int32_t>(std::get<int64_t>(value))) + "'";
    case TypeId::kTimestamp: return "TIMESTAMP '" + FormatTimestamp(std::get<int64_t>(value)) + "'";
    case TypeId::kFloat:
    case TypeId::kDouble: return fmt::format("{}", std::get<double>(value));
    case TypeId::kDecimal: return FormatDecimal(std::get<__int128>(value), type->scale());
    case TypeId::kString:
    case TypeId::kBinary: {
      std::string out = "'";
      for (char c : std::get<std::string>(value)) {
        if (c == '\'' || c == '\\') out.push_back('\\');
        out.push_back(c);
      }
      return out + "'";
    }
    default: return std::to_string(std::get<int64_t>(value));
  }
}

Status AppendScalar(ArrayBuilder* b, const Scalar& scalar) {
  if (scalar.is_null()) return b->AppendNull();
  switch (b->type()->id()) {
    case TypeId::kBoolean: return static_cast<BooleanBuilder*>(b)->Append(std::get<bool>(scalar.value));
    case TypeId::kTinyInt: return static_cast<Int8Builder*>(b)->Append(static_cast<int8_t>(std::get<int64_t>(scalar.value)));
    case TypeId::kSmallInt: return static_cast<Int16Builder*>(b)->Append(static_cast<int16_t>(std::get<int64_t>(scalar.value)));
    case TypeId::kInt:
    case TypeId::kDate: return static_cast<Int32Builder*>(b)->Append(static_cast<int32_t>(std::get<int64_t>(scalar.value)));
    case TypeId::kBigInt:
    case TypeId::kTimestamp: return static_cast<Int64Builder*>(b)->Append(std::get<int64_t>(scalar.value));
    case TypeId::kFloat: return static_cast<FloatBuilder*>(b)->Append(static_cast<float>(std::get<double>(scalar.value)));
    case TypeId::kDouble: return static_cast<DoubleBuilder*>(b)->Append(std::get<double>(scalar.value));
    case TypeId::kDecimal: return static_cast<DecimalBuilder*>(b)->Append(std::get<__int128>(scalar.value));
    case TypeId::kString:
    case TypeId::kBinary: return static_cast<StringBuilder*>(b)->Append(std::get<std::string>(scalar.value));
    default: return Status::NotSupported("a constant of type {}", b->type()->ToString());
  }
}

Result<ArrayPtr> MakeArrayFromScalar(const Scalar& scalar, int64_t length, MemoryPool* pool) {
  if (scalar.type->id() == TypeId::kNull) return Array::MakeNull(length);
  EPOXY_ASSIGN_OR_RETURN(auto builder, MakeBuilder(scalar.type, pool));
  for (int64_t i = 0; i < length; ++i) EPOXY_RETURN_NOT_OK(AppendScalar(builder.get(), scalar));
  return builder->Finish();
}

Scalar ScalarAt(const Array& array, int64_t row) {
  if (array.IsNull(row)) return Scalar::Null(array.type());
  switch (array.type_id()) {
    case TypeId::kBoolean: return Scalar::Boolean(array.GetBool(row));
    case TypeId::kTinyInt: return Scalar::Integer(array.type(), array.values<int8_t>()[row]);
    case TypeId::kSmallInt: return Scalar::Integer(array.type(), array.values<int16_t>()[row]);
    case TypeId::kInt:
    case TypeId::kDate: return Scalar::Integer(array.type(), array.values<int32_t>()[row]);
    case TypeId::kBigInt:
    case TypeId::kTimestamp: return Scalar::Integer(array.type(), array.values<int64_t>()[row]);
    case TypeId::kFloat: return Scalar{array.type(), static_cast<double>(array.values<float>()[row])};
    case TypeId::kDouble: return Scalar{array.type(), array.values<double>()[row]};
    case TypeId::kDecimal: return Scalar{array.type(), array.values<__int128>()[row]};
    case TypeId::kString:
    case TypeId::kBinary: return Scalar{array.type(), std::string(array.GetView(row))};
    default: return Scalar::Null(array.type());  // nested values are not scalars
  }
}

}  // namespace epoxy::expr
