// SPDX-License-Identifier: Apache-2.0
// Client over SQLite's C API.
#include <sqlite3.h>

#include <fmt/format.h>

#include "epoxy/database/client.h"
#include "epoxy/types/value_text.h"

namespace epoxy::database {
namespace {

/// Rows copied out of a statement (SQLite's values live only until the next step).
class CopiedBlock final : public RowBlock {
 public:
  explicit CopiedBlock(int columns) : columns_(columns) {}
  int64_t num_rows() const override { return rows_; }
  int num_columns() const override { return columns_; }
  bool IsNull(int64_t row, int column) const override { return cells_[Index(row, column)].null; }
  std::string_view Value(int64_t row, int column) const override {
    const Cell& c = cells_[Index(row, column)];
    return std::string_view(text_).substr(c.offset, c.length);
  }
  void AddRow(sqlite3_stmt* stmt) {
    for (int c = 0; c < columns_; ++c) {
      Cell cell;
      int type = sqlite3_column_type(stmt, c);
      cell.null = type == SQLITE_NULL;
      if (!cell.null) {
        const void* data = type == SQLITE_BLOB ? sqlite3_column_blob(stmt, c) : sqlite3_column_text(stmt, c);
        cell.length = static_cast<size_t>(sqlite3_column_bytes(stmt, c));
        cell.offset = text_.size();
        if (data != nullptr) text_.append(static_cast<const char*>(data), cell.length);
      }
      cells_.push_back(cell);
    }
    ++rows_;
  }

 private:
  struct Cell {
    size_t offset = 0, length = 0;
    bool null = true;
  };
  size_t Index(int64_t row, int column) const { return static_cast<size_t>(row) * static_cast<size_t>(columns_) + static_cast<size_t>(column); }
  int columns_;
  int64_t rows_ = 0;
  std::vector<Cell> cells_;
  std::string text_;
};

struct StatementDeleter {
  void operator()(sqlite3_stmt* s) const { sqlite3_finalize(s); }
};
using Statement = std::unique_ptr<sqlite3_stmt, StatementDeleter>;

class SqliteClient final : public Client {
 public:
  SqliteClient(sqlite3* db, std::string where) : db_(db), where_(std::move(where)) {}
  ~SqliteClient() override { sqlite3_close_v2(db_); }

  Engine engine() const override { return Engine::kSqlite; }
  std::string Placeholder(int n) const override { return fmt::format("?{}", n); }
  const std::string& where() const override { return where_; }

  Status Execute(const std::string& sql, const Params& params) override {
    if (params.empty()) {
      char* error = nullptr;
      if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
        std::string m = error ? error : sqlite3_errmsg(db_);
        sqlite3_free(error);
        return Failure(m, sql);
      }
      return Status::OK();
    }
    EPOXY_ASSIGN_OR_RETURN(Statement stmt, Prepare(sql, params));
    int rc;
    while ((rc = sqlite3_step(stmt.get())) == SQLITE_ROW) {
    }
    if (rc != SQLITE_DONE) return Failure(sqlite3_errmsg(db_), sql);
    return Status::OK();
  }

  Result<std::unique_ptr<RowBlock>> QueryAll(const std::string& sql, const Params& params) override {
    EPOXY_ASSIGN_OR_RETURN(Statement stmt, Prepare(sql, params));
    auto block = std::make_unique<CopiedBlock>(sqlite3_column_count(stmt.get()));
    int rc;
    while ((rc = sqlite3_step(stmt.get())) == SQLITE_ROW) block->AddRow(stmt.get());
    if (rc != SQLITE_DONE) return Failure(sqlite3_errmsg(db_), sql);
    return std::unique_ptr<RowBlock>(std::move(block));
  }

  Result<std::unique_ptr<Cursor>> Stream(const std::string& sql, const Params& params, int fetch_size) override;

  Result<std::vector<DescribedColumn>> Describe(const std::string& sql) override {
    EPOXY_ASSIGN_OR_RETURN(Statement stmt, Prepare(sql, {}));
    std::vector<DescribedColumn> out;
    for (int c = 0; c < sqlite3_column_count(stmt.get()); ++c) {
      const char* declared = sqlite3_column_decltype(stmt.get(), c);
      out.push_back({sqlite3_column_name(stmt.get(), c), 0, -1, declared ? declared : ""});
    }
    return out;
  }

  Status BeginCopy(const std::string&) override { return Status::Internal("SQLite sinks insert rows, they do not COPY"); }
  Status PutCopyData(std::string_view) override { return Status::Internal("SQLite sinks insert rows"); }
  Status EndCopy() override { return Status::Internal("SQLite sinks insert rows"); }

  Status InsertRows(const std::string& insert_sql, const Batch& batch) override {
    EPOXY_ASSIGN_OR_RETURN(Statement stmt, Prepare(insert_sql, {}));
    for (int64_t r = 0; r < batch.num_rows(); ++r) {
      sqlite3_reset(stmt.get());
      for (int c = 0; c < batch.num_columns(); ++c) {
        EPOXY_RETURN_NOT_OK(BindValue(stmt.get(), c + 1, *batch.column(c), r));
      }
      if (sqlite3_step(stmt.get()) != SQLITE_DONE) return Failure(sqlite3_errmsg(db_), insert_sql);
    }
    return Status::OK();
  }

  Result<Statement> Prepare(const std::string& sql, const Params& params) {
    sqlite3_stmt* raw = nullptr;
    if (sqlite3_prepare_v2(db_, sql.c_str(), static_cast<int>(sql.size()), &raw, nullptr) != SQLITE_OK) {
      return Failure(sqlite3_errmsg(db_), sql);
    }
    Statement stmt(raw);
    for (size_t i = 0; i < params.size(); ++i) {
      const int n = static_cast<int>(i + 1);
      int rc = params[i] ? sqlite3_bind_text(raw, n, params[i]->data(), static_cast<int>(params[i]->size()), SQLITE_TRANSIENT)
                         : sqlite3_bind_null(raw, n);
      if (rc != SQLITE_OK) return Failure(sqlite3_errmsg(db_), sql);
    }
    return stmt;
  }

  Status Failure(const std::string& message, const std::string& sql) const {
    std::string shown = sql.size() > 300 ? sql.substr(0, 300) + "..." : sql;
    if (message.rfind("no such table", 0) == 0 || message.rfind("no such column", 0) == 0) {
      return Status::NotFound("{}: {} (in: {})", where_, message, shown);
    }
    return Status::InvalidInput("{}: {} (in: {})", where_, message, shown);
  }

 private:
  /// Values as SQLite stores them: integers, reals, text (dates, timestamps and decimals as their
  /// ISO or plain text), blobs; booleans as 0 and 1.
  Status BindValue(sqlite3_stmt* stmt, int n, const Array& column, int64_t r) {
    if (column.IsNull(r)) return Ok(sqlite3_bind_null(stmt, n));
    switch (column.type_id()) {
      case TypeId::kBoolean: return Ok(sqlite3_bind_int(stmt, n, column.GetBool(r) ? 1 : 0));
      case TypeId::kTinyInt: return Ok(sqlite3_bind_int64(stmt, n, column.values<int8_t>()[r]));
      case TypeId::kSmallInt: return Ok(sqlite3_bind_int64(stmt, n, column.values<int16_t>()[r]));
      case TypeId::kInt: return Ok(sqlite3_bind_int64(stmt, n, column.values<int32_t>()[r]));
      case TypeId::kBigInt: return Ok(sqlite3_bind_int64(stmt, n, column.values<int64_t>()[r]));
      case TypeId::kFloat: return Ok(sqlite3_bind_double(stmt, n, column.values<float>()[r]));
      case TypeId::kDouble: return Ok(sqlite3_bind_double(stmt, n, column.values<double>()[r]));
      case TypeId::kString: {
        auto v = column.GetView(r);
        return Ok(sqlite3_bind_text(stmt, n, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT));
      }
      case TypeId::kBinary: {
        auto v = column.GetView(r);
        return Ok(sqlite3_bind_blob(stmt, n, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT));
      }
      case TypeId::kDate: return BindText(stmt, n, FormatDate(column.values<int32_t>()[r]));
      case TypeId::kTimestamp: return BindText(stmt, n, FormatTimestamp(column.values<int64_t>()[r]));
      case TypeId::kDecimal:
        return BindText(stmt, n, FormatDecimal(column.values<__int128>()[r], column.type()->scale()));
      default:
        return Status::NotSupported("a {} value cannot be written to SQLite", column.type()->ToString());
    }
  }
  Status BindText(sqlite3_stmt* stmt, int n, const std::string& text) {
    return Ok(sqlite3_bind_text(stmt, n, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT));
  }
  Status Ok(int rc) const {
    if (rc != SQLITE_OK) return Status::InvalidInput("{}: binding a value: {}", where_, sqlite3_errmsg(db_));
    return Status::OK();
  }

  sqlite3* db_;
  std::string where_;
};

class SqliteCursor final : public Cursor {
 public:
  SqliteCursor(SqliteClient* client, Statement stmt, int fetch_size)
      : client_(client), stmt_(std::move(stmt)), fetch_(fetch_size) {}
  Result<std::unique_ptr<RowBlock>> Fetch() override {
    if (done_) return std::unique_ptr<RowBlock>();
    auto block = std::make_unique<CopiedBlock>(sqlite3_column_count(stmt_.get()));
    while (block->num_rows() < fetch_) {
      int rc = sqlite3_step(stmt_.get());
      if (rc == SQLITE_DONE) {
        done_ = true;
        break;
      }
      if (rc != SQLITE_ROW) return client_->Failure(sqlite3_errmsg(sqlite3_db_handle(stmt_.get())), sqlite3_sql(stmt_.get()));
      block->AddRow(stmt_.get());
    }
    if (block->num_rows() == 0) return std::unique_ptr<RowBlock>();
    return std::unique_ptr<RowBlock>(std::move(block));
  }

 private:
  SqliteClient* client_;
  Statement stmt_;
  int fetch_;
  bool done_ = false;
};

Result<std::unique_ptr<Cursor>> SqliteClient::Stream(const std::string& sql, const Params& params, int fetch_size) {
  EPOXY_ASSIGN_OR_RETURN(Statement stmt, Prepare(sql, params));
  return std::unique_ptr<Cursor>(std::make_unique<SqliteCursor>(this, std::move(stmt), fetch_size));
}

}  // namespace

Result<std::unique_ptr<Client>> ConnectPostgres(const Endpoint& endpoint);

Result<std::unique_ptr<Client>> Connect(const Endpoint& endpoint) {
  if (endpoint.engine == Engine::kPostgres) return ConnectPostgres(endpoint);
  sqlite3* db = nullptr;
  int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | (endpoint.create_if_missing ? SQLITE_OPEN_CREATE : 0);
  int rc = sqlite3_open_v2(endpoint.path.c_str(), &db, flags, nullptr);
  if (rc != SQLITE_OK) {
    std::string m = db ? sqlite3_errmsg(db) : "out of memory";
    sqlite3_close_v2(db);
    if (rc == SQLITE_CANTOPEN) return Status::NotFound("cannot open SQLite database '{}': {}", endpoint.path, m);
    return Status::IOError("cannot open SQLite database '{}': {}", endpoint.path, m);
  }
  sqlite3_busy_timeout(db, 30000);
  auto client = std::make_unique<SqliteClient>(db, endpoint.Describe());
  // A file that is not a database fails here, not in the middle of a read.
  EPOXY_RETURN_NOT_OK(client->Execute("SELECT count(*) FROM sqlite_master", {}));
  return std::unique_ptr<Client>(std::move(client));
}

}  // namespace epoxy::database
