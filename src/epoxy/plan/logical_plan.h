// SPDX-License-Identifier: Apache-2.0
// The logical plan shared by SQL, DataFrames and DynamicFrames: a tree of scans, filters,
// projections, aggregates, joins, sorts, windows, set operations and limits. Plans are lazy; the
// executor runs them. Expressions in a node are bound (by column index) against its input's schema.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "epoxy/expr/binder.h"
#include "epoxy/expr/expression.h"
#include "epoxy/format/record_reader.h"
#include "epoxy/plan/table_source.h"
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
/// Chooses which of a folder's listed data files a scan reads: a job bookmark's delta.
/// Thread-safe; a folder asked twice in one run gets the same answer.
class FileSelector {
 public:
  virtual ~FileSelector() = default;
  /// `files` were listed below `folder` (a partition's folder, or the source's root).
  virtual Result<std::vector<FileInfo>> Select(const std::string& folder, std::vector<FileInfo> files) = 0;
  /// Whether the answer depends on the order folders are asked in (a bound on files per run):
  /// then the scan asks in partition order, one folder at a time.
  virtual bool ordered() const { return false; }
};

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
  /// A job bookmark: chooses which listed files are read (null: all of them).
  std::shared_ptr<FileSelector> file_selector;
  /// Rows from somewhere other than files, a database table or query (format, root and the file
  /// options unused).
  std::shared_ptr<const TableSource> table_source;
};

struct PlanNode;
using PlanPtr = std::shared_ptr<const PlanNode>;

enum class PlanKind {
  kScan, kFilter, kProject, kAggregate, kUnion, kLimit, kDistinct, kJoin, kSort, kWindow, kReplicate, kRepartition,
  kExpand, kValues, kGenerate
};

/// Spark's join types. Semi and anti joins output the left side only.
enum class JoinType { kInner, kLeft, kRight, kFull, kSemi, kAnti, kCross };
std::string_view JoinTypeName(JoinType type);

/// A join hint: F.broadcast(df) or /*+ BROADCAST(t) */ names the side to build and send whole.
enum class JoinHint { kNone, kBroadcastLeft, kBroadcastRight };

enum class SetOpKind { kIntersect, kExcept };

using SortKey = expr::OrderItem;

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
  int64_t scan_limit = -1;         // rows a LIMIT right above needs at most (a database source sends it)

  // kFilter: the condition. kJoin: the residual condition, over the left columns then the right.
  expr::ExprPtr predicate;
  // kProject: one bound expression per output column. kAggregate: the aggregate calls, whose
  // values follow the group keys in the output.
  std::vector<expr::ExprPtr> exprs;
  // kAggregate: group keys; kWindow: PARTITION BY; kRepartition: the hash keys (none: round robin).
  std::vector<expr::ExprPtr> keys;
  // kLimit: at most `limit` rows (-1: all) after skipping `offset`.
  int64_t limit = 0;
  int64_t offset = 0;

  // kJoin: equality keys, left over the left input, right over the right input (same types).
  JoinType join_type = JoinType::kInner;
  std::vector<expr::ExprPtr> left_keys, right_keys;
  std::vector<bool> null_safe;  // per key: <=> (nulls match nulls)
  JoinHint hint = JoinHint::kNone;
  /// A scalar subquery's join: each left row matches at most one right row (an error otherwise).
  bool single_match = false;
  /// NOT IN's anti join: a null on either side makes the comparison unknown, so a right side
  /// holding a null key keeps no left row, and a null left key is kept only when the right side
  /// is empty.
  bool null_aware = false;

  // kSort and kWindow (its ORDER BY)
  std::vector<SortKey> sort_keys;
  // kWindow: windowed calls sharing `keys` and `sort_keys`; their values follow the input's columns.
  std::vector<expr::ExprPtr> window_calls;

  // kReplicate (INTERSECT ALL, EXCEPT ALL): each input row repeated as often as its last column
  // says, which is dropped.
  // kRepartition
  int64_t num_partitions = 0;
  bool coalesce = false;
  // kExpand: one projection of the input per output copy of each row (GROUPING SETS).
  std::vector<std::vector<expr::ExprPtr>> projections;
  // kGenerate: explode(exprs[0]) (an array or a map): the input's columns, then [pos,] col (or
  // key, value) once per element; `generate_outer` keeps a row whose array is null or empty, with
  // nulls.
  bool generate_outer = false;
  bool generate_position = false;
  // kValues: rows held in memory (a DataFrame built from Python rows, or SELECT's one row of no columns).
  std::vector<BatchPtr> rows;

  /// The plan as indented text, one node per line (what `explain` prints).
  std::string Explain(int indent = 0) const;
};

/// Builders. They bind expressions against the input's schema; errors name what is wrong.
Result<PlanPtr> Scan(ScanSource source);
Result<PlanPtr> Filter(PlanPtr input, const expr::ExprPtr& predicate, const std::vector<std::string>& qualifiers = {});
/// A filter whose condition is already bound over the input.
Result<PlanPtr> FilterBound(PlanPtr input, expr::ExprPtr predicate);
/// `names[i]` names `exprs[i]`'s output column ("" for Spark's default name). A `*` expands to
/// every input column. Aggregates in the list make it a global aggregate (GroupBy without keys).
Result<PlanPtr> Project(PlanPtr input, const std::vector<expr::ExprPtr>& exprs, const std::vector<std::string>& names,
                        const std::vector<std::string>& qualifiers = {});
/// A projection of expressions already bound over the input ("" names: Spark's default).
Result<PlanPtr> ProjectBound(PlanPtr input, std::vector<expr::ExprPtr> exprs, std::vector<std::string> names);
/// ProjectBound for expressions that may hold windowed calls: those become Window nodes below it.
Result<PlanPtr> ProjectWithWindows(PlanPtr input, std::vector<expr::ExprPtr> exprs, std::vector<std::string> names);
Result<PlanPtr> UnionAll(std::vector<PlanPtr> inputs);
/// LIMIT n [OFFSET m]: `limit` -1 keeps every row after the first `offset`.
Result<PlanPtr> Limit(PlanPtr input, int64_t limit, int64_t offset = 0);
/// The input's rows without repeats (SELECT DISTINCT, UNION, distinct()). Nulls equal nulls.
Result<PlanPtr> Distinct(PlanPtr input);
/// dropDuplicates(subset): one row per distinct value of the `columns` (all when empty).
Result<PlanPtr> DropDuplicates(PlanPtr input, const std::vector<std::string>& columns);
/// The input ordered by `keys` (bound over the input).
Result<PlanPtr> Sort(PlanPtr input, std::vector<SortKey> keys);
/// INTERSECT / EXCEPT [ALL]: the inputs need the same number of columns and compatible types.
/// Planned as Spark does: a semi (anti) join on every column, null-safe, then DISTINCT; the ALL
/// forms count each row on both sides and repeat it min(l, r) (l - r) times.
Result<PlanPtr> SetOperation(PlanPtr left, PlanPtr right, SetOpKind op, bool all);
/// repartition(n[, keys]) (`keys` bound over the input; none: round robin) and coalesce(n).
Result<PlanPtr> Repartition(PlanPtr input, int64_t n, std::vector<expr::ExprPtr> keys, bool coalesce);
/// One row of no columns (SELECT without FROM).
Result<PlanPtr> SingleRow();
/// explode / explode_outer / posexplode / posexplode_outer of `argument` (bound over the input);
/// `names` name the generated columns (pos, col or key, value by default).
Result<PlanPtr> Generate(PlanPtr input, expr::ExprPtr argument, bool outer, bool position, std::vector<std::string> names);
/// Rows held in memory, all of `schema`.
Result<PlanPtr> InMemoryRows(SchemaPtr schema, std::vector<BatchPtr> rows);

/// GROUP BY: the aggregate calls of `select` (and of `having`) computed per group of `group_by`;
/// each select expression may use group expressions and aggregates only. With `grouping_sets`
/// (each a list of indexes into `group_by`), every set is aggregated on its own (ROLLUP and CUBE
/// are sets too) and grouping()/grouping_id() tell them apart. Expressions are unbound.
struct GroupBySpec {
  std::vector<expr::ExprPtr> group_by;
  std::vector<std::vector<int>> grouping_sets;  // empty: one set of every group expression
  std::vector<expr::ExprPtr> select;
  std::vector<std::string> names;
  expr::ExprPtr having;
  /// More expressions (ORDER BY keys) that may use aggregates and group expressions; they come
  /// after the select list as hidden columns, named "" .
  std::vector<expr::ExprPtr> extra;
};
/// The aggregate with the select list (then `extra`) projected over it; windows in the select list
/// are computed over the grouped rows.
Result<PlanPtr> GroupBy(PlanPtr input, const GroupBySpec& spec, const expr::BindOptions& options);

/// Aggregate node: `keys` and `calls` bound over the input; the output is the keys then the calls.
Result<PlanPtr> Aggregate(PlanPtr input, std::vector<expr::ExprPtr> keys, std::vector<expr::ExprPtr> calls,
                          std::vector<std::string> names);

/// A join of `left` and `right` on `condition` (bound over the left columns then the right; null
/// for a cross join). Equalities between the two sides become hash keys (coerced to a common type,
/// as Spark's); the rest stays as the residual condition.
Result<PlanPtr> Join(PlanPtr left, PlanPtr right, JoinType type, expr::ExprPtr condition,
                     JoinHint hint = JoinHint::kNone);

/// Windowed calls (bound over the input) computed per row; their values follow the input's
/// columns, named `names`. Calls with different windows become a chain of Window nodes.
Result<PlanPtr> Window(PlanPtr input, std::vector<expr::ExprPtr> calls, std::vector<std::string> names);

/// Glue's push_down_predicate on a scan: a predicate over partition columns only, which prunes
/// partitions before their files are listed. Refers to another column: an error naming it.
Result<PlanPtr> PushDownPredicate(const PlanPtr& scan, const expr::ExprPtr& predicate);

/// Splits `a AND b AND c` into its conjuncts.
void SplitConjuncts(const expr::ExprPtr& e, std::vector<expr::ExprPtr>* out);
/// The conjunction of `parts` (null when empty).
expr::ExprPtr AndAll(const std::vector<expr::ExprPtr>& parts);

/// A bound reference to column `index` of `schema`.
expr::ExprPtr ColumnRef(const Schema& schema, int index);
/// `e` with every column index i replaced by mapping[i] (mapping[i] < 0: a bug).
expr::ExprPtr RemapColumns(const expr::ExprPtr& e, const std::vector<int>& mapping);
/// `e` with column indexes shifted by `delta` (from the right side of a join to the combined row).
expr::ExprPtr ShiftColumns(const expr::ExprPtr& e, int delta);

}  // namespace epoxy::plan
