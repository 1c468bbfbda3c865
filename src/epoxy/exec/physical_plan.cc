// SPDX-License-Identifier: Apache-2.0
// Printing the physical plan: the same walk the operator builder makes (streaming nodes fold into
// their source's pipeline, joins choose their build side the same way), with an Exchange line
// and a new stage wherever data crosses between pipelines.
#include "epoxy/exec/physical_plan.h"

#include <cmath>

#include "epoxy/exec/hash_join.h"
#include "epoxy/exec/operator.h"

namespace epoxy::exec {
namespace {

using plan::PlanKind;
using plan::PlanNode;
using plan::PlanPtr;

std::string List(const std::vector<expr::ExprPtr>& exprs) {
  std::vector<std::string> parts;
  for (const auto& e : exprs) parts.push_back(e->ToString());
  return fmt::format("{}", fmt::join(parts, ", "));
}

std::string Sorts(const std::vector<plan::SortKey>& keys) {
  std::vector<std::string> parts;
  for (const auto& k : keys) {
    parts.push_back(fmt::format("{} {} NULLS {}", k.expr->ToString(), k.ascending ? "ASC" : "DESC", k.nulls_first ? "FIRST" : "LAST"));
  }
  return fmt::format("{}", fmt::join(parts, ", "));
}

std::string Rows(double n) {
  if (n >= 1e6) return fmt::format("~{:.1f}M rows", n / 1e6);
  if (n >= 1e3) return fmt::format("~{:.0f}K rows", n / 1e3);
  return fmt::format("~{:.0f} rows", n);
}

class Printer {
 public:
  std::string Print(const PlanPtr& plan) {
    Stage(plan, 0, "output");
    return out_;
  }

 private:
  void Line(int indent, const std::string& text) { out_ += std::string(static_cast<size_t>(indent) * 2, ' ') + text + "\n"; }

  /// A new stage: the pipeline of `plan`.
  void Stage(const PlanPtr& plan, int indent, const std::string& what) {
    Line(indent, fmt::format("Stage {} ({})", next_stage_++, what));
    Pipeline(plan, indent + 1);
  }

  /// An exchange below `indent`, feeding from a new stage.
  void Exchange(const std::string& kind, const PlanPtr& below, int indent) {
    Line(indent, "Exchange " + kind);
    Stage(below, indent + 1, "its input");
  }

  /// The streaming nodes of one pipeline down to its source.
  void Pipeline(PlanPtr node, int indent) {
    while (true) {
      switch (node->kind) {
        case PlanKind::kFilter: Line(indent, "Filter " + node->predicate->ToString()); break;
        case PlanKind::kProject: Line(indent, "Project " + List(node->exprs)); break;
        case PlanKind::kExpand: Line(indent, fmt::format("Expand {} grouping sets", node->projections.size())); break;
        case PlanKind::kGenerate:
          Line(indent, fmt::format("Generate {}explode{}({})", node->generate_position ? "pos" : "",
                                   node->generate_outer ? "_outer" : "", node->exprs[0]->ToString()));
          break;
        case PlanKind::kReplicate: Line(indent, "Replicate rows by count"); break;
        case PlanKind::kJoin: {
          const JoinStrategy s = ChooseJoinStrategy(*node);
          std::vector<std::string> keys;
          for (size_t i = 0; i < node->left_keys.size(); ++i) {
            keys.push_back(fmt::format("{} {} {}", node->left_keys[i]->ToString(), node->null_safe[i] ? "<=>" : "=",
                                       node->right_keys[i]->ToString()));
          }
          std::string text = fmt::format("{} {} join", s.nested_loop ? "NestedLoop" : "HashJoin", plan::JoinTypeName(node->join_type));
          if (!keys.empty()) text += fmt::format(" on [{}]", fmt::join(keys, ", "));
          if (node->predicate) text += " condition " + node->predicate->ToString();
          text += fmt::format(", probe {} ({}), build {} ({})", s.build_left ? "right" : "left", Rows(s.probe_rows),
                              s.build_left ? "left" : "right", Rows(s.build_rows));
          if (node->null_aware) text += ", null-aware";
          if (s.nested_loop && s.probe_rows * s.build_rows > 1e8) {
            text += fmt::format(", a cross product of ~{:.0f}M row pairs", s.probe_rows * s.build_rows / 1e6);
          }
          Line(indent, text);
          Exchange(s.broadcast ? "broadcast (the build side, whole, to every probe task)" : "hash by the join keys (the build side)",
                   node->inputs[s.build_left ? 0 : 1], indent + 1);
          node = node->inputs[s.build_left ? 1 : 0];
          continue;
        }
        default:
          Source(node, indent);
          return;
      }
      node = node->inputs[0];
    }
  }

  void Source(const PlanPtr& node, int indent) {
    switch (node->kind) {
      case PlanKind::kScan: {
        std::string text = node->Explain(0);
        if (!text.empty() && text.back() == '\n') text.pop_back();
        Line(indent, text);
        return;
      }
      case PlanKind::kAggregate:
      case PlanKind::kDistinct: {
        const bool distinct = node->kind == PlanKind::kDistinct;
        const std::string keys = distinct ? "every column" : List(node->keys);
        const std::string aggs = distinct ? "" : List(node->exprs);
        Line(indent, fmt::format("HashAggregate final keys [{}] aggregates [{}]", keys, aggs));
        Line(indent + 1, node->keys.empty() && !distinct ? "Exchange gather (partial states to one table)"
                                                         : fmt::format("Exchange hash [{}] into 32 partitions (spilled past the memory budget)", keys));
        Line(indent + 2, fmt::format("Stage {} (its input)", next_stage_++));
        Line(indent + 3, fmt::format("HashAggregate partial keys [{}] aggregates [{}] (one table per task)", keys, aggs));
        Pipeline(node->inputs[0], indent + 4);
        return;
      }
      case PlanKind::kSort:
        Line(indent, "Sort [" + Sorts(node->sort_keys) + "] (merge of sorted runs, spilled past the memory budget)");
        Exchange("gather", node->inputs[0], indent + 1);
        return;
      case PlanKind::kLimit:
        if (UsesTopN(*node)) {
          Line(indent, fmt::format("TopN {} [{}]", node->limit, Sorts(node->inputs[0]->sort_keys)));
          Exchange("gather", node->inputs[0]->inputs[0], indent + 1);
          return;
        }
        Line(indent, fmt::format("Limit {}", node->limit));
        Pipeline(node->inputs[0], indent + 1);
        return;
      case PlanKind::kWindow: {
        std::string text = fmt::format("Window [{}]", List(node->window_calls));
        if (!node->sort_keys.empty()) text += " order by [" + Sorts(node->sort_keys) + "]";
        Line(indent, text);
        Exchange(node->keys.empty() ? "gather" : fmt::format("hash [{}] into 32 partitions", List(node->keys)), node->inputs[0], indent + 1);
        return;
      }
      case PlanKind::kRepartition:
        Line(indent, fmt::format("{} {}", node->coalesce ? "Coalesce" : "Repartition", node->num_partitions));
        Exchange(node->keys.empty() ? (node->coalesce ? "by batches" : "round robin")
                                    : fmt::format("hash [{}] into {} groups", List(node->keys), node->num_partitions),
                 node->inputs[0], indent + 1);
        return;
      case PlanKind::kUnion:
        Line(indent, "Union");
        for (const auto& in : node->inputs) Stage(in, indent + 1, "an input");
        return;
      case PlanKind::kValues: Line(indent, node->schema->num_fields() == 0 ? "OneRow" : "InMemoryRows"); return;
      default: Line(indent, "?"); return;
    }
  }

  std::string out_;
  int next_stage_ = 1;
};

}  // namespace

std::string ExplainPhysical(const PlanPtr& optimized) {
  Printer printer;
  return printer.Print(optimized);
}

}  // namespace epoxy::exec
