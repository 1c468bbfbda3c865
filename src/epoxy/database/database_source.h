// SPDX-License-Identifier: Apache-2.0
// DatabaseSource: a table or query of a PostgreSQL or SQLite database, read as Glue's JDBC
// sources and Spark's jdbc format read it; a scan reads it as a plan::TableSource. Columns come from the database's description of the
// statement; a read sends one statement per partition (hash or range partitions, each on its own
// connection, all in one exported snapshot), with the scan's columns, the pushable part of its
// filter and its limit, and streams the rows a fetch at a time.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "epoxy/database/endpoint.h"
#include "epoxy/database/key_bookmark.h"
#include "epoxy/database/type_mapping.h"
#include "epoxy/expr/expression.h"
#include "epoxy/format/record_reader.h"
#include "epoxy/plan/table_source.h"
#include "epoxy/types/schema.h"

namespace epoxy::database {

struct ReadSpec {
  Endpoint endpoint;
  std::string table;  // dbtable, used in FROM as written (as Spark does)
  std::string query;  // query or sampleQuery: read instead of a table
  /// enablePartitioningForSampleQuery: the query ends in WHERE or AND, and each partition's
  /// condition is appended to it.
  bool partition_query = false;
  int fetch_size = 10000;
  // Glue's parallel reads: rows split by the hash of a column, or by an integer expression.
  std::string hash_field, hash_expression;
  int hash_partitions = 0;
  // Spark's: ranges of a numeric column.
  std::string partition_column;
  int64_t lower_bound = 0, upper_bound = 0;
  int num_partitions = 0;
  // jobBookmarkKeys (empty: the primary key) and jobBookmarkKeysSortOrder.
  std::vector<std::string> bookmark_keys;
  bool bookmark_descending = false;
};

/// Glue's connection_options and Spark's jdbc options (names case-insensitive) into a spec; the
/// values are text as Python passes them (lists as JSON or comma-separated).
Result<ReadSpec> ParseReadOptions(const std::map<std::string, std::string>& options);

class DatabaseSource final : public plan::TableSource {
 public:
  /// Connects once to describe the columns (and find the primary key of a table).
  static Result<std::shared_ptr<DatabaseSource>> Open(ReadSpec spec);

  const ReadSpec& spec() const { return spec_; }
  const SchemaPtr& schema() const override { return schema_; }
  const std::vector<ColumnMapping>& columns() const { return columns_; }
  const std::vector<std::string>& primary_key() const { return primary_key_; }
  /// "postgresql://host:5432/db table public.orders", for explain and logs.
  std::string Describe() const override;

  /// Makes every read of this source bookmarked. Checks the keys: they exist, order, and default
  /// to the primary key.
  Status SetBookmark(std::shared_ptr<KeyBookmark> bookmark);
  const std::shared_ptr<KeyBookmark>& bookmark() const { return bookmark_; }

  /// A reader of `columns` (indexes into schema(); empty: all) with `filter` (bound over schema())
  /// pushed where it can be, and at most `limit` rows when it all was (-1: no limit).
  Result<std::unique_ptr<RecordReader>> OpenReader(const std::vector<int>& columns, const expr::ExprPtr& filter,
                                                   int64_t limit, MemoryPool* pool) const override;

 private:
  explicit DatabaseSource(ReadSpec spec) : spec_(std::move(spec)) {}
  std::string Relation() const;

  ReadSpec spec_;
  SchemaPtr schema_;
  std::vector<ColumnMapping> columns_;
  std::vector<std::string> primary_key_;
  std::vector<int> key_columns_;  // the bookmark keys' indexes
  std::shared_ptr<KeyBookmark> bookmark_;
};

}  // namespace epoxy::database
