// SPDX-License-Identifier: Apache-2.0
// Client over libpq.
#include <libpq-fe.h>

#include <fmt/format.h>

#include "epoxy/database/client.h"

namespace epoxy::database {
namespace {

struct ResultDeleter {
  void operator()(PGresult* r) const { PQclear(r); }
};
using PgResult = std::unique_ptr<PGresult, ResultDeleter>;

class PostgresBlock final : public RowBlock {
 public:
  explicit PostgresBlock(PgResult result) : result_(std::move(result)) {}
  int64_t num_rows() const override { return PQntuples(result_.get()); }
  int num_columns() const override { return PQnfields(result_.get()); }
  bool IsNull(int64_t row, int column) const override { return PQgetisnull(result_.get(), static_cast<int>(row), column); }
  std::string_view Value(int64_t row, int column) const override {
    const int r = static_cast<int>(row);
    return {PQgetvalue(result_.get(), r, column), static_cast<size_t>(PQgetlength(result_.get(), r, column))};
  }

 private:
  PgResult result_;
};

class PostgresClient final : public Client {
 public:
  PostgresClient(PGconn* conn, std::string where) : conn_(conn), where_(std::move(where)) {}
  ~PostgresClient() override { PQfinish(conn_); }

  Engine engine() const override { return Engine::kPostgres; }
  std::string Placeholder(int n) const override { return fmt::format("${}", n); }
  const std::string& where() const override { return where_; }

  Status Execute(const std::string& sql, const Params& params) override {
    return Run(sql, params, PGRES_COMMAND_OK).status();
  }

  Result<std::unique_ptr<RowBlock>> QueryAll(const std::string& sql, const Params& params) override {
    EPOXY_ASSIGN_OR_RETURN(PgResult r, Run(sql, params, PGRES_TUPLES_OK));
    return std::unique_ptr<RowBlock>(std::make_unique<PostgresBlock>(std::move(r)));
  }

  Result<std::unique_ptr<Cursor>> Stream(const std::string& sql, const Params& params, int fetch_size) override;

  Result<std::vector<DescribedColumn>> Describe(const std::string& sql) override {
    PgResult prepared(PQprepare(conn_, "", sql.c_str(), 0, nullptr));
    EPOXY_RETURN_NOT_OK(Check(prepared.get(), PGRES_COMMAND_OK, sql));
    PgResult described(PQdescribePrepared(conn_, ""));
    EPOXY_RETURN_NOT_OK(Check(described.get(), PGRES_COMMAND_OK, sql));
    std::vector<DescribedColumn> out;
    for (int c = 0; c < PQnfields(described.get()); ++c) {
      out.push_back({PQfname(described.get(), c), PQftype(described.get(), c), PQfmod(described.get(), c), ""});
    }
    return out;
  }

  Status BeginCopy(const std::string& copy_sql) override { return Run(copy_sql, {}, PGRES_COPY_IN).status(); }

  Status PutCopyData(std::string_view data) override {
    if (!data.empty() && PQputCopyData(conn_, data.data(), static_cast<int>(data.size())) != 1) {
      return Lost("sending COPY data");
    }
    return Status::OK();
  }

  Status EndCopy() override {
    if (PQputCopyEnd(conn_, nullptr) != 1) return Lost("ending COPY");
    PgResult end(PQgetResult(conn_));
    while (PGresult* extra = PQgetResult(conn_)) PQclear(extra);
    return Check(end.get(), PGRES_COMMAND_OK, "COPY");
  }

  Status InsertRows(const std::string&, const Batch&) override {
    return Status::Internal("PostgreSQL sinks use COPY, not row inserts");
  }

  Result<PgResult> Run(const std::string& sql, const Params& params, ExecStatusType want) {
    std::vector<const char*> values;
    values.reserve(params.size());
    for (const auto& p : params) values.push_back(p ? p->c_str() : nullptr);
    PgResult r(PQexecParams(conn_, sql.c_str(), static_cast<int>(values.size()), nullptr, values.data(), nullptr,
                            nullptr, 0));
    EPOXY_RETURN_NOT_OK(Check(r.get(), want, sql));
    return r;
  }

 private:
  Status Lost(const char* doing) {
    return Status::IOError("lost the connection to {} while {}: {}", where_, doing, Message());
  }
  std::string Message() const {
    std::string m = PQerrorMessage(conn_);
    while (!m.empty() && (m.back() == '\n' || m.back() == ' ')) m.pop_back();
    return m;
  }
  Status Check(PGresult* r, ExecStatusType want, const std::string& sql) {
    if (r != nullptr && PQresultStatus(r) == want) return Status::OK();
    if (PQstatus(conn_) == CONNECTION_BAD) return Lost("running a statement");
    std::string m = r != nullptr ? PQresultErrorMessage(r) : Message();
    while (!m.empty() && (m.back() == '\n' || m.back() == ' ')) m.pop_back();
    const char* state = r != nullptr ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : nullptr;
    std::string code = state != nullptr ? state : "";
    std::string shown = sql.size() > 300 ? sql.substr(0, 300) + "..." : sql;
    if (code == "42P01" || code == "42703" || code == "3F000") {  // undefined table, column, schema
      return Status::NotFound("{}: {} (in: {})", where_, m, shown);
    }
    if (code.rfind("08", 0) == 0 || code.rfind("57P", 0) == 0) {  // connection exceptions, server shutdown
      return Status::IOError("{}: {}", where_, m);
    }
    return Status::InvalidInput("{}: {} (in: {})", where_, m, shown);
  }

  PGconn* conn_;
  std::string where_;
  int cursors_ = 0;
  friend class PostgresCursor;
};

class PostgresCursor final : public Cursor {
 public:
  PostgresCursor(PostgresClient* client, std::string name, int fetch_size)
      : client_(client), name_(std::move(name)), fetch_(fmt::format("FETCH FORWARD {} FROM {}", fetch_size, name_)) {}
  ~PostgresCursor() override {
    if (!done_) (void)client_->Execute("CLOSE " + name_, {});
  }
  Result<std::unique_ptr<RowBlock>> Fetch() override {
    if (done_) return std::unique_ptr<RowBlock>();
    EPOXY_ASSIGN_OR_RETURN(PgResult r, client_->Run(fetch_, {}, PGRES_TUPLES_OK));
    if (PQntuples(r.get()) == 0) {
      done_ = true;
      EPOXY_RETURN_NOT_OK(client_->Execute("CLOSE " + name_, {}));
      return std::unique_ptr<RowBlock>();
    }
    return std::unique_ptr<RowBlock>(std::make_unique<PostgresBlock>(std::move(r)));
  }

 private:
  PostgresClient* client_;
  std::string name_, fetch_;
  bool done_ = false;
};

Result<std::unique_ptr<Cursor>> PostgresClient::Stream(const std::string& sql, const Params& params, int fetch_size) {
  std::string name = fmt::format("epoxy_cursor_{}", ++cursors_);
  EPOXY_RETURN_NOT_OK(Execute(fmt::format("DECLARE {} NO SCROLL CURSOR FOR {}", name, sql), params));
  return std::unique_ptr<Cursor>(std::make_unique<PostgresCursor>(this, std::move(name), fetch_size));
}

}  // namespace

Result<std::unique_ptr<Client>> ConnectPostgres(const Endpoint& endpoint) {
  // Sessions print values the readers parse the same way whatever the server's defaults: UTC
  // timestamps, ISO dates, round-trip floats, hex bytea.
  std::vector<std::string> keys = {"host", "port", "dbname", "application_name", "connect_timeout", "options"};
  std::vector<std::string> values = {
      endpoint.host, std::to_string(endpoint.port), endpoint.database, "epoxy", "10",
      "-c TimeZone=UTC -c DateStyle=ISO,YMD -c extra_float_digits=3 -c bytea_output=hex -c IntervalStyle=postgres"};
  if (!endpoint.user.empty()) keys.push_back("user"), values.push_back(endpoint.user);
  if (!endpoint.password.empty()) keys.push_back("password"), values.push_back(endpoint.password);
  for (const auto& [k, v] : endpoint.params) {
    if (k == "sslmode" || k == "connect_timeout" || k == "sslrootcert" || k == "target_session_attrs" ||
        k == "application_name") {
      keys.push_back(k), values.push_back(v);
    }
  }
  std::vector<const char*> k_ptrs, v_ptrs;
  for (size_t i = 0; i < keys.size(); ++i) k_ptrs.push_back(keys[i].c_str()), v_ptrs.push_back(values[i].c_str());
  k_ptrs.push_back(nullptr), v_ptrs.push_back(nullptr);
  PGconn* conn = PQconnectdbParams(k_ptrs.data(), v_ptrs.data(), 0);
  if (conn == nullptr) return Status::OutOfMemory("connecting to {}", endpoint.Describe());
  if (PQstatus(conn) != CONNECTION_OK) {
    std::string m = PQerrorMessage(conn);
    PQfinish(conn);
    while (!m.empty() && (m.back() == '\n' || m.back() == ' ')) m.pop_back();
    if (m.find("password authentication failed") != std::string::npos || m.find("no password supplied") != std::string::npos) {
      return Status::InvalidInput("cannot connect to {} as user '{}': {}", endpoint.Describe(), endpoint.user, m);
    }
    return Status::IOError("cannot connect to {}: {}", endpoint.Describe(), m);
  }
  auto client = std::make_unique<PostgresClient>(conn, endpoint.Describe());
  return std::unique_ptr<Client>(std::move(client));
}

std::string QuoteIdentifier(std::string_view name) {
  std::string out = "\"";
  for (char c : name) {
    if (c == '"') out.push_back('"');
    out.push_back(c);
  }
  out.push_back('"');
  return out;
}

}  // namespace epoxy::database
