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

double CountRows(const ScanSource& source) {
  auto listed = ExpandPaths({source.root});
  if (!listed.ok()) return kUnknownRows;
  std::vector<FileInfo> files;
  for (auto& f : *listed) {
    if (IsDataFile(f)) files.push_back(std::move(f));
  }
  double total_bytes = 0;
  for (const auto& f : files) total_bytes += static_cast<double>(f.size);
  if (source.format != FileFormat::kParquet) return std::max(1.0, total_bytes / kTextBytesPerRow);
  double rows = 0, sampled_bytes = 0;
  for (size_t i = 0; i < files.size() && i < static_cast<size_t>(kMaxFootersRead); ++i) {
    auto file = parquet::ParquetFile::Open(files[i].path);
    if (!file.ok()) continue;
    rows += static_cast<double>((*file)->metadata().num_rows);
    sampled_bytes += static_cast<double>(files[i].size);
  }
  if (sampled_bytes <= 0) return std::max(1.0, total_bytes / kTextBytesPerRow);
  return std::max(1.0, rows * total_bytes / sampled_bytes);
}

/// The scan (below filters and projections) that column `column` of `plan` reads, if any.
const PlanNode* BaseScan(const PlanNode& plan, int column) {
  switch (plan.kind) {
    case PlanKind::kScan: return &plan;
    case PlanKind::kFilter:
    case PlanKind::kSort:
    case PlanKind::kLimit:
    case PlanKind::kRepartition:
    case PlanKind::kDistinct: return BaseScan(*plan.inputs[0], column);
    case PlanKind::kProject: {
      const Expr& e = *plan.exprs[static_cast<size_t>(column)];
      if (e.kind == ExprKind::kColumn && e.column >= 0) return BaseScan(*plan.inputs[0], e.column);
      std::vector<int> used;
      expr::ReferencedColumns(e, &used);
      return used.size() == 1 ? BaseScan(*plan.inputs[0], used[0]) : nullptr;
    }
    case PlanKind::kJoin: {
      const int num_left = plan.inputs[0]->schema->num_fields();
      if (column < num_left) return BaseScan(*plan.inputs[0], column);
      return BaseScan(*plan.inputs[1], column - num_left);
    }
    case PlanKind::kWindow:
      if (column < plan.inputs[0]->schema->num_fields()) return BaseScan(*plan.inputs[0], column);
      return nullptr;
    default: return nullptr;
  }
}

}  // namespace

double SourceRows(const ScanSource& source) {
  static std::mutex mu;
  static std::map<std::string, double> cache;
  const std::string key = std::string(FileFormatName(source.format)) + ":" + source.root;
  {
    std::lock_guard lock(mu);
    auto it = cache.find(key);
    if (it != cache.end()) return it->second;
  }
  double rows = CountRows(source);
  std::lock_guard lock(mu);
  cache[key] = rows;
  return rows;
}

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
  const PlanNode* scan = BaseScan(plan, column);
  if (scan != nullptr) return SourceRows(scan->source);
  return std::max(1.0, EstimateRows(plan));
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
    case PlanKind::kUnion: {
      double rows = 0;
      for (const auto& in : plan.inputs) rows += EstimateRows(*in);
      return rows;
    }
    case PlanKind::kLimit:
      return plan.limit < 0 ? EstimateRows(*plan.inputs[0]) : std::min(static_cast<double>(plan.limit), EstimateRows(*plan.inputs[0]));
    case PlanKind::kValues: return 1;
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
