// SPDX-License-Identifier: Apache-2.0
#include "epoxy/database/database_sink.h"

#include <cctype>
#include <charconv>

#include <fmt/format.h>

#include "epoxy/database/option_text_internal.h"
#include "epoxy/database/type_mapping.h"
#include "epoxy/types/value_text.h"

namespace epoxy::database {
namespace {

/// Appends `text` escaped for COPY's text format.
void AppendCopyEscaped(std::string* out, std::string_view text) {
  for (char c : text) {
    switch (c) {
      case '\\': *out += "\\\\"; break;
      case '\n': *out += "\\n"; break;
      case '\r': *out += "\\r"; break;
      case '\t': *out += "\\t"; break;
      default: out->push_back(c);
    }
  }
}

void AppendHex(std::string* out, std::string_view bytes) {
  static const char* kHex = "0123456789abcdef";
  *out += "\\x";
  for (unsigned char c : bytes) {
    out->push_back(kHex[c >> 4]);
    out->push_back(kHex[c & 15]);
  }
}

/// A scalar value's PostgreSQL text (before COPY's escaping).
Status ScalarText(const Array& column, int64_t r, std::string* out) {
  char buf[64];
  switch (column.type_id()) {
    case TypeId::kBoolean: *out += column.GetBool(r) ? "t" : "f"; return Status::OK();
    case TypeId::kTinyInt: *out += std::to_string(column.values<int8_t>()[r]); return Status::OK();
    case TypeId::kSmallInt: *out += std::to_string(column.values<int16_t>()[r]); return Status::OK();
    case TypeId::kInt: *out += std::to_string(column.values<int32_t>()[r]); return Status::OK();
    case TypeId::kBigInt: {
      auto [p, ec] = std::to_chars(buf, buf + sizeof(buf), column.values<int64_t>()[r]);
      (void)ec;
      out->append(buf, p);
      return Status::OK();
    }
    case TypeId::kFloat: *out += FormatDouble(column.values<float>()[r]); return Status::OK();
    case TypeId::kDouble: *out += FormatDouble(column.values<double>()[r]); return Status::OK();
    case TypeId::kDecimal: *out += FormatDecimal(column.values<__int128>()[r], column.type()->scale()); return Status::OK();
    case TypeId::kDate: *out += FormatDate(column.values<int32_t>()[r]); return Status::OK();
    case TypeId::kTimestamp: *out += FormatTimestamp(column.values<int64_t>()[r]); return Status::OK();
    case TypeId::kString: out->append(column.GetView(r)); return Status::OK();
    case TypeId::kBinary: AppendHex(out, column.GetView(r)); return Status::OK();
    default: return Status::NotSupported("a {} value cannot be written to PostgreSQL", column.type()->ToString());
  }
}

/// One cell in COPY's text format.
Status AppendCopyCell(const Array& column, int64_t r, std::string* out) {
  if (column.IsNull(r)) {
    *out += "\\N";
    return Status::OK();
  }
  std::string text;
  if (column.type_id() == TypeId::kArray) {
    // An array literal: {1,2,NULL}, {"a b","c\"d"}.
    const int32_t* offsets = column.offsets();
    const Array& elements = *column.child(0);
    text.push_back('{');
    for (int32_t e = offsets[r]; e < offsets[r + 1]; ++e) {
      if (e > offsets[r]) text.push_back(',');
      if (elements.IsNull(e)) {
        text += "NULL";
        continue;
      }
      std::string value;
      EPOXY_RETURN_NOT_OK(ScalarText(elements, e, &value));
      text.push_back('"');
      for (char c : value) {
        if (c == '"' || c == '\\') text.push_back('\\');
        text.push_back(c);
      }
      text.push_back('"');
    }
    text.push_back('}');
  } else {
    EPOXY_RETURN_NOT_OK(ScalarText(column, r, &text));
  }
  AppendCopyEscaped(out, text);
  return Status::OK();
}

std::string Unquoted(const std::string& name) {
  if (name.size() > 2 && name.front() == '"' && name.back() == '"') return name.substr(1, name.size() - 2);
  return name;
}

}  // namespace

Result<WriteSpec> ParseWriteOptions(const std::map<std::string, std::string>& raw, const std::string& mode) {
  std::map<std::string, std::string> options;
  for (const auto& [k, v] : raw) options[Lower(k)] = v;
  auto get = [&](const char* name) -> std::string {
    auto it = options.find(name);
    return it == options.end() ? "" : it->second;
  };
  WriteSpec spec;
  if (get("url").empty()) return Status::InvalidInput("a database sink needs 'url' (or a connectionName)");
  EPOXY_ASSIGN_OR_RETURN(spec.endpoint, ParseJdbcUrl(get("url")));
  spec.endpoint.create_if_missing = true;
  if (!get("user").empty()) spec.endpoint.user = get("user");
  if (!get("password").empty()) spec.endpoint.password = get("password");
  spec.table = get("dbtable");
  if (spec.table.empty()) return Status::InvalidInput("a database sink needs 'dbtable'");
  spec.upsert_keys = ListValue(get("upsertkey").empty() ? get("upsertkeys") : get("upsertkey"));
  const std::string m = Lower(mode);
  if (m.empty() || m == "append") {
    spec.mode = SinkMode::kAppend;
  } else if (m == "overwrite") {
    spec.mode = SinkMode::kOverwrite;
  } else if (m == "error" || m == "errorifexists" || m == "default") {
    spec.mode = SinkMode::kErrorIfExists;
  } else if (m == "ignore") {
    spec.mode = SinkMode::kIgnore;
  } else {
    return Status::InvalidInput("unknown save mode '{}' (append, overwrite, error, errorifexists, ignore)", mode);
  }
  return spec;
}

Result<std::unique_ptr<DatabaseSink>> DatabaseSink::Begin(WriteSpec spec, SchemaPtr schema) {
  std::unique_ptr<DatabaseSink> sink(new DatabaseSink(std::move(spec), std::move(schema)));
  EPOXY_RETURN_NOT_OK(sink->Start());
  return sink;
}

DatabaseSink::~DatabaseSink() {
  if (client_ != nullptr && !committed_) (void)client_->Execute("ROLLBACK");
}

std::string DatabaseSink::Describe() const { return fmt::format("{} table {}", spec_.endpoint.Describe(), spec_.table); }

Status DatabaseSink::Start() {
  EPOXY_ASSIGN_OR_RETURN(client_, Connect(spec_.endpoint));
  const bool pg = client_->engine() == Engine::kPostgres;
  EPOXY_RETURN_NOT_OK(client_->Execute(pg ? "BEGIN" : "BEGIN IMMEDIATE"));
  EPOXY_ASSIGN_OR_RETURN(auto found, pg ? client_->QueryAll("SELECT to_regclass($1) IS NOT NULL", {spec_.table})
                                        : client_->QueryAll("SELECT count(*) > 0 FROM sqlite_master WHERE type = 'table' "
                                                            "AND name = ?1", {Unquoted(spec_.table)}));
  const std::string_view answer = found->Value(0, 0);
  const bool exists = answer == "t" || answer == "1";
  for (const auto& k : spec_.upsert_keys) {
    if (schema_->FieldIndex(k) < 0) return Status::InvalidInput("upsertKey {} is not a column of the frame written", k);
  }
  std::vector<std::string> columns;
  for (const auto& f : schema_->fields()) columns.push_back(QuoteIdentifier(f.name));
  if (exists && spec_.mode == SinkMode::kErrorIfExists) {
    return Status::AlreadyExists("table {} already exists in {} (save mode errorifexists; use append or overwrite)",
                                 spec_.table, spec_.endpoint.Describe());
  }
  if (!exists) {
    std::string ddl = "CREATE TABLE " + spec_.table + " (";
    for (size_t i = 0; i < schema_->fields().size(); ++i) {
      const Field& f = schema_->field(static_cast<int>(i));
      EPOXY_ASSIGN_OR_RETURN(std::string type, SinkColumnType(client_->engine(), *f.type, f.name));
      ddl += (i ? ", " : "") + columns[i] + " " + type;
    }
    if (!spec_.upsert_keys.empty()) {
      std::vector<std::string> keys;
      for (const auto& k : spec_.upsert_keys) keys.push_back(QuoteIdentifier(k));
      ddl += fmt::format(", PRIMARY KEY ({})", fmt::join(keys, ", "));
    }
    EPOXY_RETURN_NOT_OK(client_->Execute(ddl + ")"));
  } else if (spec_.mode == SinkMode::kOverwrite) {
    EPOXY_RETURN_NOT_OK(client_->Execute((pg ? "TRUNCATE " : "DELETE FROM ") + spec_.table));
  }
  if (exists && spec_.mode == SinkMode::kIgnore) {
    finished_ = true;  // Spark's ignore: an existing table is left as it is
    return Status::OK();
  }
  const std::string column_list = fmt::format("{}", fmt::join(columns, ", "));
  std::string conflict;
  if (!spec_.upsert_keys.empty()) {
    std::vector<std::string> keys, updates;
    for (const auto& k : spec_.upsert_keys) keys.push_back(QuoteIdentifier(k));
    for (size_t i = 0; i < columns.size(); ++i) {
      if (std::find(spec_.upsert_keys.begin(), spec_.upsert_keys.end(), schema_->field(static_cast<int>(i)).name) ==
          spec_.upsert_keys.end()) {
        updates.push_back(fmt::format("{0} = EXCLUDED.{0}", columns[i]));
      }
    }
    conflict = fmt::format(" ON CONFLICT ({}) DO {}", fmt::join(keys, ", "),
                           updates.empty() ? "NOTHING" : fmt::format("UPDATE SET {}", fmt::join(updates, ", ")));
  }
  if (pg) {
    if (spec_.upsert_keys.empty()) {
      return client_->BeginCopy(fmt::format("COPY {} ({}) FROM STDIN", spec_.table, column_list));
    }
    staging_table_ = "epoxy_upsert_stage";
    EPOXY_RETURN_NOT_OK(client_->Execute(fmt::format("CREATE TEMP TABLE {} ON COMMIT DROP AS SELECT {} FROM {} WITH NO DATA",
                                                     staging_table_, column_list, spec_.table)));
    insert_sql_ = fmt::format("INSERT INTO {0} ({1}) SELECT {1} FROM {2}{3}", spec_.table, column_list, staging_table_, conflict);
    return client_->BeginCopy(fmt::format("COPY {} ({}) FROM STDIN", staging_table_, column_list));
  }
  std::vector<std::string> placeholders;
  for (size_t i = 0; i < columns.size(); ++i) placeholders.push_back(client_->Placeholder(static_cast<int>(i + 1)));
  insert_sql_ = fmt::format("INSERT INTO {} ({}) VALUES ({}){}", spec_.table, column_list, fmt::join(placeholders, ", "), conflict);
  return Status::OK();
}

Status DatabaseSink::Append(const Batch& batch) {
  if (finished_) return Status::OK();
  rows_ += batch.num_rows();
  if (client_->engine() == Engine::kSqlite) return client_->InsertRows(insert_sql_, batch);
  for (int64_t r = 0; r < batch.num_rows(); ++r) {
    for (int c = 0; c < batch.num_columns(); ++c) {
      if (c > 0) buffer_.push_back('\t');
      EPOXY_RETURN_NOT_OK(AppendCopyCell(*batch.column(c), r, &buffer_));
    }
    buffer_.push_back('\n');
    if (buffer_.size() >= (1 << 20)) EPOXY_RETURN_NOT_OK(Flush());
  }
  return Status::OK();
}

Status DatabaseSink::Flush() {
  EPOXY_RETURN_NOT_OK(client_->PutCopyData(buffer_));
  buffer_.clear();
  return Status::OK();
}

Status DatabaseSink::Finish() {
  if (finished_) return Status::OK();
  finished_ = true;
  if (client_->engine() == Engine::kSqlite) return Status::OK();
  EPOXY_RETURN_NOT_OK(Flush());
  EPOXY_RETURN_NOT_OK(client_->EndCopy());
  if (!insert_sql_.empty()) EPOXY_RETURN_NOT_OK(client_->Execute(insert_sql_));
  return Status::OK();
}

Status DatabaseSink::Commit() {
  EPOXY_RETURN_NOT_OK(Finish());
  EPOXY_RETURN_NOT_OK(client_->Execute("COMMIT"));
  committed_ = true;
  return Status::OK();
}

}  // namespace epoxy::database
