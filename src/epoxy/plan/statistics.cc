// SPDX-License-Identifier: Apache-2.0
// Estimates: sizes of sources (footers, file sizes) and propagation through the plan.
#include "epoxy/plan/statistics.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>

#include "epoxy/format/parquet/parquet_reader.h"
#include "epoxy/plan/source.h"
#include "epoxy/storage/glob.h"

namespace epoxy::plan {
namespace {

using expr::Expr;
using expr::ExprKind;

constexpr double kUnknownRows = 1e6;
constexpr int kMaxFootersRead = 64;
constexpr double kTextBytesPerRow = 100;

/// What a source's footers tell: its rows and, per integer or date column, the range of values.
struct SourceStats {
  double rows = kUnknownRows;
  std::map<std::string, std::pair<int64_t, int64_t>> ranges;  // column -> (min, max)
};

SourceStats ReadStats(const ScanSource& source) {
  SourceStats stats;
  auto listed = ExpandPaths({source.root});
  if (!listed.ok()) return stats;
  std::vector<FileInfo> files;
  for (auto& f : *listed) {
    if (IsDataFile(f)) files.push_back(std::move(f));
  }
  double total_bytes = 0;
  for (const auto& f : files) total_bytes += static_cast<double>(f.size);
  stats.rows = std::max(1.0, total_bytes / kTextBytesPerRow);
  if (source.format != FileFormat::kParquet) return stats;
  double rows = 0, sampled_bytes = 0;
  std::map<std::string, bool> unbounded;  // columns some row group gives no bounds for
  for (size_t i = 0; i < files.size() && i < static_cast<size_t>(kMaxFootersRead); ++i) {
    auto file = parquet::ParquetFile::Open(files[i].path);
    if (!file.ok()) continue;
    const parquet::ParquetFile& pf = **file;
    rows += static_cast<double>(pf.metadata().num_rows);
    sampled_bytes += static_cast<double>(files[i].size);
    const auto& fields = pf.schema().schema->fields();
    for (int g = 0; g < pf.num_row_groups(); ++g) {
      for (size_t c = 0; c < fields.size(); ++c) {
        const TypeId id = fields[c].type->id();
        if (!fields[c].type->is_integer() && id != TypeId::kDate) continue;
        auto rg = pf.RowGroupStats(g, static_cast<int>(c));
        const std::string& name = fields[c].name;
        if (rg == nullptr || !rg->has_bounds || !std::holds_alternative<int64_t>(rg->min)) {
          unbounded[name] = true;
          continue;
        }
        const int64_t lo = std::get<int64_t>(rg->min), hi = std::get<int64_t>(rg->max);
        auto [it, fresh] = stats.ranges.try_emplace(name, lo, hi);
        if (!fresh) it->second = {std::min(it->second.first, lo), std::max(it->second.second, hi)};
      }
    }
  }
  for (const auto& [name, _] : unbounded) stats.ranges.erase(name);
  // Ranges seen in a sample of the files may not hold for the rest.
  if (files.size() > static_cast<size_t>(kMaxFootersRead)) stats.ranges.clear();
  if (sampled_bytes > 0) stats.rows = std::max(1.0, rows * total_bytes / sampled_bytes);
  return stats;
}

const SourceStats& StatsOf(const ScanSource& source) {
  static std::mutex mu;
  static std::map<std::string, SourceStats> cache;
  const std::string key = std::string(FileFormatName(source.format)) + ":" + source.root;
  {
    std::lock_guard lock(mu);
    auto it = cache.find(key);
    if (it != cache.end()) return it->second;
  }
  SourceStats stats = ReadStats(source);
  std::lock_guard lock(mu);
  return cache.emplace(key, std::move(stats)).first->second;
}

/// The scan (below filters and projections) that column `column` of `plan` reads, and the
/// column's index there.
const PlanNode* BaseScan(const PlanNode& plan, int column, int* scan_column) {
  switch (plan.kind) {
    case PlanKind::kScan:
      *scan_column = column;
      return &plan;
    case PlanKind::kFilter:
    case PlanKind::kSort:
    case PlanKind::kLimit:
    case PlanKind::kRepartition:
    case PlanKind::kDistinct: return BaseScan(*plan.inputs[0], column, scan_column);
    case PlanKind::kProject: {
      const Expr& e = *plan.exprs[static_cast<size_t>(column)];
      if (e.kind == ExprKind::kColumn && e.column >= 0 && e.fields.empty()) return BaseScan(*plan.inputs[0], e.column, scan_column);
      return nullptr;
    }
    case PlanKind::kAggregate:
      // A group key keeps its column's values.
      if (column < static_cast<int>(plan.keys.size())) {
        const Expr& k = *plan.keys[static_cast<size_t>(column)];
        if (k.kind == ExprKind::kColumn && k.column >= 0 && k.fields.empty()) return BaseScan(*plan.inputs[0], k.column, scan_column);
      }
      return nullptr;
    case PlanKind::kJoin: {
      const int num_left = plan.inputs[0]->schema->num_fields();
      if (column < num_left) return BaseScan(*plan.inputs[0], column, scan_column);
      return BaseScan(*plan.inputs[1], column - num_left, scan_column);
    }
    case PlanKind::kWindow:
      if (column < plan.inputs[0]->schema->num_fields()) return BaseScan(*plan.inputs[0], column, scan_column);
      return nullptr;
    default: return nullptr;
  }
}

}  // namespace

double SourceRows(const ScanSource& source) { return StatsOf(source).rows; }

double Selectivity(const Expr& e) {
  if (e.kind == ExprKind::kLiteral) {
    if (e.literal.is_null()) return 0;
    return std::holds_alternative<bool>(e.literal.value) && !std::get<bool>(e.literal.value) ? 0 : 1;
  }
  if (e.kind != ExprKind::kCall) return 0.5;
  const std::string& op = e.op;
  if (op == "and") return Selectivity(*e.args[0]) * Selectivity(*e.args[1]);
  if (op == "or") {
    double a = Selectivity(*e.args[0]), b = Selectivity(*e.args[1]);
    return a + b - a * b;
  }
  if (op == "not") return 1 - Selectivity(*e.args[0]);
  if (op == "=" || op == "<=>") return 0.1;
  if (op == "!=") return 0.9;
  if (op == "<" || op == "<=" || op == ">" || op == ">=") return 1.0 / 3;
  if (op == "like" || op == "rlike") return 0.2;
  if (op == "in") return std::min(1.0, 0.1 * static_cast<double>(e.args.size() - 1));
  if (op == "is_null") return 0.05;
  if (op == "is_not_null") return 0.95;
  return 0.5;
}

double DistinctBound(const PlanNode& plan, int column) {
  int scan_column = -1;
  const PlanNode* scan = BaseScan(plan, column, &scan_column);
  if (scan == nullptr) return std::max(1.0, EstimateRows(plan));
  const SourceStats& stats = StatsOf(scan->source);
  double bound = stats.rows;
  // An integer or date column's values lie in its footer range: nation keys are at most 25.
  auto it = stats.ranges.find(scan->schema->field(scan_column).name);
  if (it != stats.ranges.end()) bound = std::min(bound, static_cast<double>(it->second.second - it->second.first) + 1);
  return std::max(1.0, bound);
}

double EstimateRows(const PlanNode& plan) {
  switch (plan.kind) {
    case PlanKind::kScan: {
      double rows = SourceRows(plan.source);
      if (plan.partition_filter) rows *= Selectivity(*plan.partition_filter);
      if (plan.row_filter) rows *= Selectivity(*plan.row_filter);
      return std::max(1.0, rows);
    }
    case PlanKind::kFilter: return std::max(1.0, EstimateRows(*plan.inputs[0]) * Selectivity(*plan.predicate));
    case PlanKind::kProject:
    case PlanKind::kSort:
    case PlanKind::kWindow:
    case PlanKind::kRepartition: return EstimateRows(*plan.inputs[0]);
    case PlanKind::kExpand: return EstimateRows(*plan.inputs[0]) * static_cast<double>(plan.projections.size());
    case PlanKind::kAggregate: {
      if (plan.keys.empty()) return 1;
      return std::max(1.0, EstimateRows(*plan.inputs[0]) * 0.5);
    }
    case PlanKind::kDistinct: return std::max(1.0, EstimateRows(*plan.inputs[0]) * 0.5);
    case PlanKind::kReplicate: return EstimateRows(*plan.inputs[0]);
    case PlanKind::kGenerate: return EstimateRows(*plan.inputs[0]) * 4;  // elements per array, a guess
    case PlanKind::kUnion: {
      double rows = 0;
      for (const auto& in : plan.inputs) rows += EstimateRows(*in);
      return rows;
    }
    case PlanKind::kLimit:
      return plan.limit < 0 ? EstimateRows(*plan.inputs[0]) : std::min(static_cast<double>(plan.limit), EstimateRows(*plan.inputs[0]));
    case PlanKind::kValues: {
      double rows = 0;
      for (const auto& batch : plan.rows) rows += static_cast<double>(batch->num_rows());
      return std::max(1.0, rows);
    }
    case PlanKind::kJoin: {
      const double left = EstimateRows(*plan.inputs[0]), right = EstimateRows(*plan.inputs[1]);
      double distinct = 1;
      for (size_t i = 0; i < plan.left_keys.size(); ++i) {
        std::vector<int> l, r;
        expr::ReferencedColumns(*plan.left_keys[i], &l);
        expr::ReferencedColumns(*plan.right_keys[i], &r);
        double dl = l.size() == 1 ? DistinctBound(*plan.inputs[0], l[0]) : left;
        double dr = r.size() == 1 ? DistinctBound(*plan.inputs[1], r[0]) : right;
        distinct = std::max(distinct, std::min(dl, dr));
      }
      double inner = left * right / distinct;
      if (plan.predicate) inner *= Selectivity(*plan.predicate);
      switch (plan.join_type) {
        case JoinType::kInner:
        case JoinType::kCross: return std::max(1.0, inner);
        case JoinType::kLeft: return std::max(left, inner);
        case JoinType::kRight: return std::max(right, inner);
        case JoinType::kFull: return std::max({left, right, inner});
        case JoinType::kSemi: return std::max(1.0, std::min(left, inner));
        case JoinType::kAnti: return std::max(1.0, left * 0.5);
      }
      return inner;
    }
  }
  return kUnknownRows;
}

}  // namespace epoxy::plan
