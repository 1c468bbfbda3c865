// SPDX-License-Identifier: Apache-2.0
#include "py_rows.h"

#include "epoxy/vector/builder.h"

namespace py = pybind11;

namespace epoxy::python {
namespace {

Result<__int128> ParseUnscaled(const std::string& digits) {
  __int128 value = 0;
  size_t i = 0;
  const bool negative = !digits.empty() && digits[0] == '-';
  if (negative) i = 1;
  if (i == digits.size() || digits.size() - i > 38) return Status::InvalidInput("'{}' is not a decimal of at most 38 digits", digits);
  for (; i < digits.size(); ++i) {
    if (digits[i] < '0' || digits[i] > '9') return Status::InvalidInput("'{}' is not a decimal", digits);
    value = value * 10 + (digits[i] - '0');
  }
  return negative ? -value : value;
}

template <typename Builder, typename T>
Status AppendNumber(ArrayBuilder* builder, py::handle value) {
  return static_cast<Builder*>(builder)->Append(value.cast<T>());
}

Status AppendValue(ArrayBuilder* builder, const TypePtr& type, py::handle value) {
  if (value.is_none()) return builder->AppendNull();
  switch (type->id()) {
    case TypeId::kNull: return builder->AppendNull();
    case TypeId::kBoolean: return static_cast<BooleanBuilder*>(builder)->Append(value.cast<bool>());
    case TypeId::kTinyInt: return AppendNumber<Int8Builder, int8_t>(builder, value);
    case TypeId::kSmallInt: return AppendNumber<Int16Builder, int16_t>(builder, value);
    case TypeId::kInt:
    case TypeId::kDate: return AppendNumber<Int32Builder, int32_t>(builder, value);
    case TypeId::kBigInt:
    case TypeId::kTimestamp: return AppendNumber<Int64Builder, int64_t>(builder, value);
    case TypeId::kFloat: return AppendNumber<FloatBuilder, float>(builder, value);
    case TypeId::kDouble: return AppendNumber<DoubleBuilder, double>(builder, value);
    case TypeId::kDecimal: {
      EPOXY_ASSIGN_OR_RETURN(__int128 unscaled, ParseUnscaled(py::str(value).cast<std::string>()));
      return static_cast<DecimalBuilder*>(builder)->Append(unscaled);
    }
    case TypeId::kString: return static_cast<StringBuilder*>(builder)->Append(value.cast<std::string>());
    case TypeId::kBinary: {
      std::string bytes = py::bytes(py::reinterpret_borrow<py::object>(value));
      return static_cast<StringBuilder*>(builder)->Append(bytes);
    }
    case TypeId::kArray: {
      auto* list = static_cast<ListBuilder*>(builder);
      for (py::handle element : value) EPOXY_RETURN_NOT_OK(AppendValue(list->child(), type->element(), element));
      return list->AppendList();
    }
    case TypeId::kMap: {
      auto* map = static_cast<MapBuilder*>(builder);
      for (py::handle pair : value) {
        py::sequence kv = py::reinterpret_borrow<py::sequence>(pair);
        EPOXY_RETURN_NOT_OK(AppendValue(map->keys(), type->key(), kv[0]));
        EPOXY_RETURN_NOT_OK(AppendValue(map->values(), type->value(), kv[1]));
      }
      return map->AppendMap();
    }
    case TypeId::kStruct: {
      auto* record = static_cast<StructBuilder*>(builder);
      py::sequence fields = py::reinterpret_borrow<py::sequence>(value);
      if (static_cast<int>(py::len(fields)) != record->num_fields()) {
        return Status::InvalidInput("a struct value has {} fields, its type {} has {}", py::len(fields), type->ToString(),
                                    record->num_fields());
      }
      for (int i = 0; i < record->num_fields(); ++i) {
        EPOXY_RETURN_NOT_OK(AppendValue(record->field(i), type->fields()[static_cast<size_t>(i)].type, fields[static_cast<size_t>(i)]));
      }
      return record->AppendStruct();
    }
    case TypeId::kChoice: return Status::InvalidInput("rows cannot be built of choice type {}", type->ToString());
  }
  return Status::Internal("no conversion for {}", type->ToString());
}

std::string UnscaledDigits(__int128 v) {
  if (v == 0) return "0";
  const bool negative = v < 0;
  unsigned __int128 u = negative ? static_cast<unsigned __int128>(-(v + 1)) + 1 : static_cast<unsigned __int128>(v);
  std::string out;
  while (u > 0) {
    out.insert(out.begin(), static_cast<char>('0' + static_cast<int>(u % 10)));
    u /= 10;
  }
  return negative ? "-" + out : out;
}

py::object ValueToPython(const Array& a, int64_t i) {
  if (a.IsNull(i)) return py::none();
  switch (a.type_id()) {
    case TypeId::kNull: return py::none();
    case TypeId::kBoolean: return py::bool_(a.GetBool(i));
    case TypeId::kTinyInt: return py::int_(a.values<int8_t>()[i]);
    case TypeId::kSmallInt: return py::int_(a.values<int16_t>()[i]);
    case TypeId::kInt:
    case TypeId::kDate: return py::int_(a.values<int32_t>()[i]);
    case TypeId::kBigInt:
    case TypeId::kTimestamp: return py::int_(a.values<int64_t>()[i]);
    case TypeId::kFloat: return py::float_(a.values<float>()[i]);
    case TypeId::kDouble: return py::float_(a.values<double>()[i]);
    case TypeId::kDecimal: return py::str(UnscaledDigits(a.values<__int128>()[i]));
    case TypeId::kString: {
      std::string_view v = a.GetView(i);
      return py::str(v.data(), v.size());
    }
    case TypeId::kBinary: {
      std::string_view v = a.GetView(i);
      return py::bytes(v.data(), v.size());
    }
    case TypeId::kArray: {
      const int32_t* o = a.offsets();
      py::list out;
      for (int32_t e = o[i]; e < o[i + 1]; ++e) out.append(ValueToPython(*a.child(0), e));
      return std::move(out);
    }
    case TypeId::kMap: {
      const int32_t* o = a.offsets();
      const Array& entries = *a.child(0);
      py::list out;
      for (int32_t e = o[i]; e < o[i + 1]; ++e) {
        out.append(py::make_tuple(ValueToPython(*entries.child(0), e), ValueToPython(*entries.child(1), e)));
      }
      return std::move(out);
    }
    case TypeId::kStruct: {
      py::tuple out(a.type()->fields().size());
      for (size_t f = 0; f < a.type()->fields().size(); ++f) out[f] = ValueToPython(*a.child(static_cast<int>(f)), i);
      return std::move(out);
    }
    case TypeId::kChoice: return ValueToPython(*a.child(a.choice_index(i)), i);
  }
  return py::none();
}

}  // namespace

Result<ArrayPtr> ValuesToArray(const TypePtr& type, const py::sequence& values) {
  EPOXY_ASSIGN_OR_RETURN(auto builder, MakeBuilder(type));
  int64_t row = 0;
  for (py::handle v : values) {
    Status st;
    try {
      st = AppendValue(builder.get(), type, v);
    } catch (const py::cast_error&) {
      st = Status::InvalidInput("the value is not a {}", type->ToString());
    }
    if (!st.ok()) return Status::InvalidInput("value {}: {}", row + 1, st.message());
    ++row;
  }
  return builder->Finish();
}

py::list ColumnToPython(const Array& column) {
  py::list out;
  for (int64_t i = 0; i < column.length(); ++i) out.append(ValueToPython(column, i));
  return out;
}

Result<BatchPtr> RowsToBatch(const SchemaPtr& schema, const py::sequence& rows) {
  const int width = schema->num_fields();
  std::vector<std::unique_ptr<ArrayBuilder>> builders;
  for (const auto& field : schema->fields()) {
    EPOXY_ASSIGN_OR_RETURN(auto b, MakeBuilder(field.type));
    builders.push_back(std::move(b));
  }
  int64_t num_rows = 0;
  for (py::handle row : rows) {
    py::sequence values = py::reinterpret_borrow<py::sequence>(row);
    if (static_cast<int>(py::len(values)) != width) {
      return Status::InvalidInput("row {} has {} values, the schema {} columns", num_rows + 1, py::len(values), width);
    }
    for (int c = 0; c < width; ++c) {
      const Field& field = schema->fields()[static_cast<size_t>(c)];
      Status st;
      try {
        st = AppendValue(builders[static_cast<size_t>(c)].get(), field.type, values[static_cast<size_t>(c)]);
      } catch (const py::cast_error&) {
        st = Status::InvalidInput("the value is not a {}", field.type->ToString());
      }
      if (!st.ok()) return Status::InvalidInput("row {}, column '{}': {}", num_rows + 1, field.name, st.message());
    }
    ++num_rows;
  }
  std::vector<ArrayPtr> columns;
  for (auto& b : builders) {
    EPOXY_ASSIGN_OR_RETURN(ArrayPtr column, b->Finish());
    columns.push_back(std::move(column));
  }
  return Batch::Make(schema, std::move(columns), num_rows);
}

}  // namespace epoxy::python
