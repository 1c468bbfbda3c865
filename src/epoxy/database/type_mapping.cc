// SPDX-License-Identifier: Apache-2.0
#include "epoxy/database/type_mapping.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

#include <fmt/format.h>

namespace epoxy::database {
namespace {

struct PgScalar {
  uint32_t oid;
  const char* name;
  TypePtr (*type)();
  Decoding decoding;
  bool comparable;
};

TypePtr Str() { return DataType::String(); }

// PostgreSQL's built-in type oids (pg_type.dat), and the array type of each.
const PgScalar kPgScalars[] = {
    {16, "boolean", DataType::Boolean, Decoding::kText, true},
    {17, "bytea", DataType::Binary, Decoding::kPgBytea, false},
    {18, "char", Str, Decoding::kText, true},
    {19, "name", Str, Decoding::kText, true},
    {20, "bigint", DataType::BigInt, Decoding::kText, true},
    {21, "smallint", DataType::SmallInt, Decoding::kText, true},
    {23, "integer", DataType::Int, Decoding::kText, true},
    {25, "text", Str, Decoding::kText, true},
    {26, "oid", DataType::BigInt, Decoding::kText, true},
    {114, "json", Str, Decoding::kText, false},
    {700, "real", DataType::Float, Decoding::kText, true},
    {701, "double precision", DataType::Double, Decoding::kText, true},
    {1042, "character", Str, Decoding::kText, true},
    {1043, "character varying", Str, Decoding::kText, true},
    {1082, "date", DataType::Date, Decoding::kText, true},
    {1083, "time", Str, Decoding::kText, true},
    {1114, "timestamp", DataType::Timestamp, Decoding::kText, true},
    {1184, "timestamptz", DataType::Timestamp, Decoding::kPgTimestampTz, true},
    {1186, "interval", Str, Decoding::kText, true},
    {1266, "timetz", Str, Decoding::kText, true},
    {2950, "uuid", Str, Decoding::kText, true},
    {3802, "jsonb", Str, Decoding::kText, false},
};

struct PgArray {
  uint32_t oid, element;
};
const PgArray kPgArrays[] = {
    {1000, 16}, {1001, 17}, {1002, 18}, {1003, 19}, {1016, 20}, {1005, 21}, {1007, 23}, {1009, 25}, {1028, 26},
    {199, 114}, {1021, 700}, {1022, 701}, {1014, 1042}, {1015, 1043}, {1182, 1082}, {1183, 1083}, {1115, 1114},
    {1185, 1184}, {1187, 1186}, {1270, 1266}, {2951, 2950}, {3807, 3802}, {1231, 1700},
};

constexpr uint32_t kNumericOid = 1700;

/// numeric(p, s) from its type modifier; unconstrained numeric as Spark maps it, decimal(38,18).
TypePtr NumericType(int modifier, std::string* name) {
  if (modifier < 4) {
    *name = "numeric";
    return DataType::Decimal(38, 18);
  }
  int precision = ((modifier - 4) >> 16) & 0xffff, scale = (modifier - 4) & 0xffff;
  *name = fmt::format("numeric({},{})", precision, scale);
  precision = std::min(precision, 38);
  scale = std::min(scale, precision);
  return DataType::Decimal(precision, scale);
}

Result<ColumnMapping> ScalarMapping(uint32_t oid, int modifier, const std::string& column) {
  ColumnMapping m;
  m.name = column;
  if (oid == kNumericOid) {
    m.type = NumericType(modifier, &m.source_type);
    return m;
  }
  for (const auto& s : kPgScalars) {
    if (s.oid != oid) continue;
    m.type = s.type();
    m.source_type = s.name;
    m.decoding = s.decoding;
    m.comparable = s.comparable;
    if (oid == 1043 && modifier > 4) m.source_type = fmt::format("character varying({})", modifier - 4);
    if (oid == 1042 && modifier > 4) m.source_type = fmt::format("character({})", modifier - 4);
    return m;
  }
  // Enums, domains over text, inet, money and other types read as their text, as Spark reads
  // unknown types through getString.
  m.type = DataType::String();
  m.source_type = fmt::format("oid {}", oid);
  return m;
}

std::string Upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

Result<ColumnMapping> MapPostgresColumn(const DescribedColumn& column) {
  for (const auto& a : kPgArrays) {
    if (a.oid != column.pg_oid) continue;
    EPOXY_ASSIGN_OR_RETURN(ColumnMapping element, ScalarMapping(a.element, column.pg_modifier, column.name));
    element.type = DataType::Array(element.type);
    element.source_type += "[]";
    element.array = true;
    element.comparable = false;
    return element;
  }
  return ScalarMapping(column.pg_oid, column.pg_modifier, column.name);
}

ColumnMapping MapSqliteColumn(const DescribedColumn& column) {
  // SQLite's affinity rules (https://sqlite.org/datatype3.html §3.1), with the declared names
  // that mean a date, timestamp, boolean or fixed-point decimal read as those types.
  ColumnMapping m;
  m.name = column.name;
  m.source_type = column.declared;
  const std::string d = Upper(column.declared);
  int precision = 0, scale = 0;
  if (d.find("BOOL") != std::string::npos) {
    m.type = DataType::Boolean();
  } else if (d.find("INT") != std::string::npos) {
    m.type = DataType::BigInt();
  } else if (d.find("CHAR") != std::string::npos || d.find("CLOB") != std::string::npos ||
             d.find("TEXT") != std::string::npos) {
    m.type = DataType::String();
  } else if (d.find("BLOB") != std::string::npos) {
    m.type = DataType::Binary();
    m.decoding = Decoding::kBlob;
    m.comparable = false;
  } else if (d.find("REAL") != std::string::npos || d.find("FLOA") != std::string::npos ||
             d.find("DOUB") != std::string::npos) {
    m.type = DataType::Double();
  } else if (d.find("DATETIME") != std::string::npos || d.find("TIMESTAMP") != std::string::npos) {
    m.type = DataType::Timestamp();
  } else if (d.find("DATE") != std::string::npos) {
    m.type = DataType::Date();
  } else if ((d.find("DECIMAL") != std::string::npos || d.find("NUMERIC") != std::string::npos) &&
             d.find('(') != std::string::npos &&
             std::sscanf(d.c_str() + d.find('('), "( %d , %d )", &precision, &scale) == 2 &&
             precision > 0 && precision <= 38 && scale >= 0 && scale <= precision) {
    m.type = DataType::Decimal(precision, scale);
  } else if (d.find("DECIMAL") != std::string::npos || d.find("NUMERIC") != std::string::npos) {
    m.type = DataType::Double();
  } else {
    m.type = DataType::String();  // no declared type (an expression, or a column declared without one)
  }
  return m;
}

Result<std::string> SinkColumnType(Engine engine, const DataType& type, const std::string& column) {
  const bool pg = engine == Engine::kPostgres;
  switch (type.id()) {
    case TypeId::kBoolean: return std::string(pg ? "boolean" : "BOOLEAN");
    case TypeId::kTinyInt:
    case TypeId::kSmallInt: return std::string(pg ? "smallint" : "INTEGER");
    case TypeId::kInt: return std::string(pg ? "integer" : "INTEGER");
    case TypeId::kBigInt: return std::string(pg ? "bigint" : "INTEGER");
    case TypeId::kFloat: return std::string(pg ? "real" : "REAL");
    case TypeId::kDouble: return std::string(pg ? "double precision" : "REAL");
    case TypeId::kDecimal: return fmt::format("{}({},{})", pg ? "numeric" : "DECIMAL", type.precision(), type.scale());
    case TypeId::kString: return std::string(pg ? "text" : "TEXT");
    case TypeId::kBinary: return std::string(pg ? "bytea" : "BLOB");
    case TypeId::kDate: return std::string(pg ? "date" : "DATE");
    case TypeId::kTimestamp: return std::string(pg ? "timestamp" : "TIMESTAMP");
    case TypeId::kArray:
      if (pg && type.element()->id() != TypeId::kArray && type.element()->id() != TypeId::kStruct &&
          type.element()->id() != TypeId::kMap) {
        EPOXY_ASSIGN_OR_RETURN(std::string element, SinkColumnType(engine, *type.element(), column));
        return element + "[]";
      }
      break;
    default:
      break;
  }
  return Status::NotSupported("column {} is {}, which a {} table cannot hold (as in Spark's JDBC writer); flatten it or "
                              "turn it into a string with to_json first", column, type.ToString(), EngineName(engine));
}

}  // namespace epoxy::database
