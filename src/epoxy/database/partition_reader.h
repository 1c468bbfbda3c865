// SPDX-License-Identifier: Apache-2.0
// The reader behind a database scan: one statement per partition, each streamed on its own
// connection (on a thread of its own when there are several), converted to batches as they
// arrive; a bounded queue between the partitions and the scan keeps memory to a few fetches.
#pragma once

#include <memory>
#include <unordered_set>
#include <vector>

#include "epoxy/database/client.h"
#include "epoxy/database/key_bookmark.h"
#include "epoxy/database/type_mapping.h"
#include "epoxy/format/record_reader.h"
#include "epoxy/types/schema.h"

namespace epoxy::database {

struct PartitionQuery {
  std::string sql;
  Params params;
};

struct PartitionReadSpec {
  /// clients[i] runs queries[i], inside the transaction (and snapshot) the caller began on it.
  std::vector<std::unique_ptr<Client>> clients;
  std::vector<PartitionQuery> queries;
  int fetch_size = 10000;
  /// The statements' first columns, what the reader outputs.
  std::vector<ColumnMapping> columns;
  SchemaPtr schema;
  /// Rows whose identity (the hash of the `identity_count` columns after the output ones) is in
  /// `skip` were read by an earlier run and are left out.
  std::shared_ptr<const std::unordered_set<uint64_t>> skip;
  int identity_count = 0;
  std::shared_ptr<KeyBookmark> bookmark;  // counts the rows read, when bookmarked
  MemoryPool* memory = nullptr;
};

Result<std::unique_ptr<RecordReader>> MakePartitionReader(PartitionReadSpec spec);

}  // namespace epoxy::database
