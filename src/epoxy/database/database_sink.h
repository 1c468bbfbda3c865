// SPDX-License-Identifier: Apache-2.0
// DatabaseSink: rows written into a PostgreSQL or SQLite table inside one transaction, which
// commits when the job run does (or at the end of the write outside a job). PostgreSQL rows go
// in by COPY; with an upsert key they are staged in a temporary table and merged with
// INSERT ... ON CONFLICT DO UPDATE, so a rerun that writes the same rows again changes nothing.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "epoxy/database/client.h"
#include "epoxy/types/schema.h"

namespace epoxy::database {

enum class SinkMode { kAppend, kOverwrite, kErrorIfExists, kIgnore };

struct WriteSpec {
  Endpoint endpoint;
  std::string table;  // dbtable, as written
  SinkMode mode = SinkMode::kAppend;
  std::vector<std::string> upsert_keys;
};

/// Glue's and Spark's options: url, dbtable, user, password, upsertKey (also upsertKeys) and, for
/// Spark's writer, the mode.
Result<WriteSpec> ParseWriteOptions(const std::map<std::string, std::string>& options, const std::string& mode);

class DatabaseSink {
 public:
  /// Connects, begins the transaction, creates the table when it is missing and starts the load.
  static Result<std::unique_ptr<DatabaseSink>> Begin(WriteSpec spec, SchemaPtr schema);
  /// Rolls back unless committed.
  ~DatabaseSink();

  Status Append(const Batch& batch);
  /// Ends the load (COPY, the merge of an upsert); the transaction stays open.
  Status Finish();
  Status Commit();
  int64_t rows() const { return rows_; }
  std::string Describe() const;

 private:
  DatabaseSink(WriteSpec spec, SchemaPtr schema) : spec_(std::move(spec)), schema_(std::move(schema)) {}
  Status Start();
  Status Flush();

  WriteSpec spec_;
  SchemaPtr schema_;
  std::unique_ptr<Client> client_;
  std::string staging_table_;  // PostgreSQL upserts: the temporary table COPY fills
  std::string insert_sql_;     // SQLite
  std::string buffer_;         // COPY text not yet sent
  int64_t rows_ = 0;
  bool finished_ = false, committed_ = false;
};

}  // namespace epoxy::database
