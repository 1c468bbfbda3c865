// SPDX-License-Identifier: Apache-2.0
// TableSource: what a scan reads when its rows come from somewhere other than files (a database
// table or query). The layer that knows the source implements it (database/); plans and the
// executor see only this interface.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "epoxy/expr/expression.h"
#include "epoxy/format/record_reader.h"
#include "epoxy/memory/memory_pool.h"
#include "epoxy/types/schema.h"

namespace epoxy::plan {

/// A source of rows that takes the scan's projection, filter and limit and decides itself how
/// much of them it can apply (the scan still filters the rows it gets). Plans hold it as const and
/// may be run more than once, so OpenReader may be called again, one reader per run.
class TableSource {
 public:
  virtual ~TableSource() = default;

  /// The columns it yields; `OpenReader`'s column indexes and filter refer to them.
  virtual const SchemaPtr& schema() const = 0;
  /// One line naming the source ("postgresql://host:5432/db table public.orders"), for explain
  /// and logs.
  virtual std::string Describe() const = 0;
  /// A reader of `columns` (indexes into schema(); empty: all) with `filter` (bound over schema(),
  /// may be null) applied where the source can, and at most `limit` rows when it applied all of
  /// the filter (-1: no limit). Batches come from `pool`.
  virtual Result<std::unique_ptr<RecordReader>> OpenReader(const std::vector<int>& columns,
                                                           const expr::ExprPtr& filter, int64_t limit,
                                                           MemoryPool* pool) const = 0;
};

}  // namespace epoxy::plan
