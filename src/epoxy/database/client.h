// SPDX-License-Identifier: Apache-2.0
// Client: one connection to a database, with what sources and sinks need of it: statements with
// parameters (values are always bound, never spliced into SQL), small queries read whole, large
// ones streamed a block of rows at a time, and a statement's columns without running it.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "epoxy/database/endpoint.h"
#include "epoxy/vector/array.h"

namespace epoxy::database {

/// Bound parameters, as text (the database converts them to the compared column's type); nullopt
/// binds NULL.
using Params = std::vector<std::optional<std::string>>;

/// The rows of one fetch: each cell as text (PostgreSQL's text format, SQLite's rendering of its
/// numbers; blobs raw). Views stay valid while the block lives.
class RowBlock {
 public:
  virtual ~RowBlock() = default;
  virtual int64_t num_rows() const = 0;
  virtual int num_columns() const = 0;
  virtual bool IsNull(int64_t row, int column) const = 0;
  virtual std::string_view Value(int64_t row, int column) const = 0;
};

class Cursor {
 public:
  virtual ~Cursor() = default;
  /// The next block of rows, or null at the end.
  virtual Result<std::unique_ptr<RowBlock>> Fetch() = 0;
};

/// A result column as the database describes it.
struct DescribedColumn {
  std::string name;
  uint32_t pg_oid = 0;   // PostgreSQL: the type's oid
  int pg_modifier = -1;  // PostgreSQL: the type modifier (numeric precision and scale)
  std::string declared;  // SQLite: the declared type ("" for expressions)
};

class Client {
 public:
  virtual ~Client() = default;
  virtual Engine engine() const = 0;
  /// The placeholder for parameter `n` (1-based): `$n` or `?n`.
  virtual std::string Placeholder(int n) const = 0;
  virtual Status Execute(const std::string& sql, const Params& params = {}) = 0;
  /// Every row of a query that returns few.
  virtual Result<std::unique_ptr<RowBlock>> QueryAll(const std::string& sql, const Params& params = {}) = 0;
  /// A query's rows `fetch_size` at a time (PostgreSQL: a server-side cursor, so inside a
  /// transaction the caller began).
  virtual Result<std::unique_ptr<Cursor>> Stream(const std::string& sql, const Params& params, int fetch_size) = 0;
  virtual Result<std::vector<DescribedColumn>> Describe(const std::string& sql) = 0;
  /// PostgreSQL: COPY ... FROM STDIN: begun, fed data in the COPY text format, ended.
  virtual Status BeginCopy(const std::string& copy_sql) = 0;
  virtual Status PutCopyData(std::string_view data) = 0;
  virtual Status EndCopy() = 0;
  /// SQLite: runs `insert_sql` once per row of `batch`, its columns bound in order as typed values.
  virtual Status InsertRows(const std::string& insert_sql, const Batch& batch) = 0;
  /// What the messages name: the URL without credentials.
  virtual const std::string& where() const = 0;
};

/// Connects (PostgreSQL: with a 10 s connect timeout; sessions run in UTC with ISO dates).
/// Errors name the endpoint, never the password.
Result<std::unique_ptr<Client>> Connect(const Endpoint& endpoint);

/// One identifier quoted for SQL ("a""b").
std::string QuoteIdentifier(std::string_view name);

}  // namespace epoxy::database
