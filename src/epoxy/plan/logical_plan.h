// SPDX-License-Identifier: Apache-2.0
// The logical plan shared by SQL, DataFrames and DynamicFrames: a tree of scan, filter, project,
// aggregate, union and limit nodes. Plans are lazy; the executor runs them. Expressions in a
// node are bound against the node's input schema.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "epoxy/expr/expression.h"
#include "epoxy/format/record_reader.h"
#include "epoxy/types/schema.h"

namespace epoxy::plan {

/// One partition folder and its key values (as text, in key order; nullopt for Hive's
/// __HIVE_DEFAULT_PARTITION__).
struct PartitionDir {
  std::string path;
  std::vector<std::optional<std::string>> values;
};

/// Where a scan reads: a folder (or file, or glob) of one format, or a catalog table's location.
/// Partition keys come from `key=value` folders below the root (or from the catalog table).
struct ScanSource {
  FileFormat format = FileFormat::kParquet;
  std::string root;            // folder, file or glob
  FormatOptions options;       // the reader's format_options
  SchemaPtr data_schema;       // columns in the files
  std::vector<Field> partition_keys;  // after the data columns in the scan's output
  std::string catalog_table;   // "db.table" when it came from the catalog, for explain
  bool from_catalog = false;
  int sampled_files = 0;  // folders: how many files the data schema was inferred from
  /// Glue's connection options for file sources: `exclusions` (globs relative to the root; matching
  /// files are not read), `recurse` (read files in subfolders below each partition).
  std::vector<std::string> exclusions;
  bool recurse = true;
  /// Glue's groupSize: small files are read together in tasks of about this many bytes (0: the
  /// readers' default; groupFiles "none" sets -1, one task a file).
  int64_t group_size = 0;
  /// Glue's catalogPartitionPredicate: a catalog expression the catalog store filters partitions
  /// with, before epoxy sees them.
  std::string catalog_partition_predicate;
  /// A folder's partitions as found while resolving it, so the scan need not walk them again.
  std::vector<PartitionDir> discovered;
};


struct PlanNode;
using PlanPtr = std::shared_ptr<const PlanNode>;

enum class PlanKind { kScan, kFilter, kProject, kAggregate, kUnion, kLimit, kDistinct };

struct PlanNode {
  PlanKind kind = PlanKind::kScan;
  std::vector<PlanPtr> inputs;
  SchemaPtr schema;  // the node's output

  // kScan: the source, and what the planner pushed into it.
  ScanSource source;
  expr::ExprPtr partition_filter;  // over partition keys only (bound on the scan's full schema)
  expr::ExprPtr row_filter;        // the rest of the pushed filter; also lowered to statistics
  std::vector<int> columns;        // with columns_pushed: the only data columns read
  bool columns_pushed = false;

  // kFilter
  expr::ExprPtr predicate;
  // kProject and kAggregate: one bound expression per output column
  std::vector<expr::ExprPtr> exprs;
  // kLimit
  int64_t limit = 0;

  /// The plan as indented text, one node per line (what `explain` prints).
  std::string Explain(int indent = 0) const;
};

/// Builders. They bind expressions against the input's schema; errors name what is wrong.
Result<PlanPtr> Scan(ScanSource source);
Result<PlanPtr> Filter(PlanPtr input, const expr::ExprPtr& predicate, const std::vector<std::string>& qualifiers = {});
/// `names[i]` names `exprs[i]`'s output column ("" for Spark's default name). A `*` expands to
/// every input column.
Result<PlanPtr> Project(PlanPtr input, const std::vector<expr::ExprPtr>& exprs, const std::vector<std::string>& names,
                        const std::vector<std::string>& qualifiers = {});
Result<PlanPtr> UnionAll(std::vector<PlanPtr> inputs);
Result<PlanPtr> Limit(PlanPtr input, int64_t limit);
/// The input's rows without repeats (SELECT DISTINCT, UNION, dropDuplicates()): each row's first
/// occurrence, in input order. Nulls equal nulls.
Result<PlanPtr> Distinct(PlanPtr input);

/// Glue's push_down_predicate on a scan: a predicate over partition columns only, which prunes
/// partitions before their files are listed. Refers to another column: an error naming it.
Result<PlanPtr> PushDownPredicate(const PlanPtr& scan, const expr::ExprPtr& predicate);

/// Moves filters into scans: conjuncts over partition keys prune partitions before their files
/// are listed, the others run in the scan (and prune Parquet row groups by statistics).
PlanPtr PushDownFilters(const PlanPtr& plan);

/// Splits `a AND b AND c` into its conjuncts.
void SplitConjuncts(const expr::ExprPtr& e, std::vector<expr::ExprPtr>* out);

}  // namespace epoxy::plan
