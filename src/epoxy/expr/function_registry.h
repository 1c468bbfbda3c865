// SPDX-License-Identifier: Apache-2.0
// The function registry: every function the binder knows is one entry (its names, how it binds,
// the kernel that evaluates it, its documentation), so binding is a lookup, SHOW FUNCTIONS is a
// listing and DESCRIBE FUNCTION reads the entry.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "epoxy/expr/datum.h"
#include "epoxy/expr/expression.h"

namespace epoxy::expr {

class BindContext;

enum class FunctionKind {
  kScalar,     // one value per row
  kAggregate,  // one value per group (exec/ holds the accumulators, found by the entry's name)
  kWindow,     // only over a window: ranking and offsets (exec/ computes them)
  kGenerator,  // rows per row (explode, inline, stack, json_tuple): planned as a Generate node
};

/// One documented example: a query and the rows `spark-sql` prints for it (tab-separated
/// columns, Spark's rendering). The function examples test runs every one of them.
struct FunctionExample {
  std::string query;
  std::vector<std::string> rows;
  bool ordered = true;  // compare in order (false: as a multiset)
};

struct FunctionDoc {
  std::string group;  // Spark's group: "string_funcs", "agg_funcs", ...
  /// "lpad(str, len[, pad]) - Returns ...": the signature and what it does, in one paragraph.
  std::string usage;
  std::vector<FunctionExample> examples;
  std::string since;  // the Spark version that introduced it
  /// Where epoxy differs from Spark 3.5, said plainly (empty: it does not).
  std::string difference;
};

/// Types and checks a call whose arguments are bound (after the entry's signature, when it has
/// one, has cast them); returns the bound call (or an expression it rewrites to).
using BindCallback = std::function<Result<ExprPtr>(BindContext& ctx)>;
/// Evaluates a bound call over `n` rows from its evaluated arguments.
using ScalarKernel = Result<Datum> (*)(const Expr& call, const std::vector<Datum>& args, int64_t n,
                                       MemoryPool* pool);
/// Evaluates a bound call that evaluates its own arguments (conditionally, or over other rows:
/// CASE branches, lambdas of the higher-order functions).
using LazyKernel = Result<Datum> (*)(const Expr& call, const Batch& batch, MemoryPool* pool);
/// Spark's generated column name for a call, when it is not `name(arg, ...)`; `name` is the name
/// shown for the call.
using RenderCallback = std::string (*)(const Expr& call, std::string_view name);

/// A parsed argument signature ("string, int, [string] -> string"): see function_signature.h.
struct Signature;

struct FunctionEntry {
  std::string name;  // canonical, lower case: the bound call's `op`
  std::vector<std::string> aliases;
  FunctionKind kind = FunctionKind::kScalar;
  /// The argument types with Spark's implicit casts, and the result type (function_signature.h).
  /// Empty: `bind` does all of it.
  std::string signature;
  BindCallback bind;  // runs after the signature; may refine the type or rewrite the call
  ScalarKernel kernel = nullptr;
  LazyKernel lazy_kernel = nullptr;
  RenderCallback render = nullptr;
  /// Not deterministic (rand, uuid, monotonically_increasing_id): never folded, never
  /// deduplicated, computed once per row.
  bool deterministic = true;
  /// Whether a call over constants may be computed once while binding (false for
  /// current_timestamp-like values that the planner fixes per query instead, and for UDFs).
  bool foldable = true;
  /// Names shown in generated column names, by the name a call was written with (Spark keeps
  /// the name as written for most functions, a fixed one for some: `ACOS`, `date_add`).
  std::map<std::string, std::string> display;
  FunctionDoc doc;

  std::shared_ptr<const Signature> parsed_signature;  // set by Register
};

/// Every built-in function; built once, read-only afterwards (so thread-safe).
class FunctionRegistry {
 public:
  static const FunctionRegistry& Builtins();

  /// Adds an entry. Aborts on a duplicate name or a malformed signature (both are bugs).
  void Register(FunctionEntry entry);

  /// The entry for a name or alias, in any case; null when there is none.
  const FunctionEntry* Find(std::string_view name) const;
  /// Every name and alias, sorted (what SHOW FUNCTIONS lists).
  std::vector<std::string> Names() const;
  /// Every entry once, in name order.
  std::vector<const FunctionEntry*> Entries() const;
  /// Up to `max` names closest to `name` (for "did you mean" in errors).
  std::vector<std::string> Closest(std::string_view name, size_t max = 3) const;

 private:
  std::vector<std::unique_ptr<FunctionEntry>> entries_;
  std::map<std::string, const FunctionEntry*> by_name_;  // lower-case names and aliases
};

/// The name shown for a call written as `written` (lower case) of `entry`.
std::string DisplayName(const FunctionEntry& entry, const std::string& written);

}  // namespace epoxy::expr
