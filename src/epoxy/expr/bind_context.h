// SPDX-License-Identifier: Apache-2.0
// BindContext: what a registry entry's bind callback works with: the call being bound (its
// arguments already bound), and the checks and casts Spark applies to function arguments.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "epoxy/expr/binder.h"
#include "epoxy/expr/expression.h"
#include "epoxy/expr/function_registry.h"

namespace epoxy::expr {

class BindContext {
 public:
  BindContext(std::shared_ptr<Expr> call, const FunctionEntry& entry, const BindOptions& options)
      : call_(std::move(call)), entry_(entry), options_(options) {}

  Expr& call() { return *call_; }
  const std::shared_ptr<Expr>& call_ptr() { return call_; }
  const FunctionEntry& entry() const { return entry_; }
  const BindOptions& options() const { return options_; }
  std::vector<ExprPtr>& args() { return call_->args; }
  size_t num_args() const { return call_->args.size(); }
  const ExprPtr& arg(size_t i) const { return call_->args[i]; }
  const TypePtr& type(size_t i) const { return call_->args[i]->type; }
  TypeId type_id(size_t i) const { return call_->args[i]->type->id(); }

  /// An error unless the call has `lo` to `hi` arguments (Spark's wording: "requires N
  /// parameters but the actual number is M").
  Status Arity(size_t lo, size_t hi) const;
  /// Casts argument i to `to` when a CAST could (an error naming the argument otherwise).
  Status Cast(size_t i, const TypePtr& to);
  /// Casts argument i to `to` as Spark casts function arguments implicitly (an error naming the
  /// argument, its type and the expected one otherwise).
  Status ImplicitCast(size_t i, const TypePtr& to);
  /// Folds argument i (cast to `type` when given) to a constant; an error when it is not one.
  Status Constant(size_t i, const TypePtr& type = nullptr);
  /// Argument i's literal. REQUIRES: Constant(i) succeeded.
  const Scalar& literal(size_t i) const { return call_->args[i]->literal; }
  bool IsConstant(size_t i) const { return call_->args[i]->kind == ExprKind::kLiteral; }
  /// Compiles constant argument i as a regular expression (Java syntax; a LIKE pattern with
  /// `like`) into the call; a null pattern leaves none.
  Status CompileRegex(size_t i, bool like, char escape = '\\');
  /// The common type of arguments [from, to) (numbers widen, a string absorbs the rest), and
  /// casts them to it.
  Result<TypePtr> CommonType(size_t from, size_t to);
  /// Appends a default argument (Spark shows defaults in generated names: `locate(a, b, 1)`).
  void AddDefault(Scalar value);

  /// "type error in 'f(...)': why".
  Status TypeError(std::string_view why) const;
  /// Spark's DATATYPE_MISMATCH wording for argument i: "argument 2 of f requires int, got ...".
  Status ArgumentError(size_t i, std::string_view expected) const;

  /// The bound call, of `type`.
  Result<ExprPtr> Done(TypePtr type);

 private:
  std::shared_ptr<Expr> call_;
  const FunctionEntry& entry_;
  const BindOptions& options_;
};

/// Replaces a deterministic call or cast over constants by its value (binder.cc).
Result<ExprPtr> FoldConstant(const ExprPtr& e);

/// A LIKE pattern as a regular expression: % is any run, _ any one character, `escape` escapes.
std::string LikeToRegex(std::string_view like, char escape = '\\');

/// A Java regular expression turned into RE2's dialect where they differ; compiled with Spark's
/// defaults (dot matches newline off, as Java). Errors carry RE2's message.
Result<std::shared_ptr<const re2::RE2>> CompileJavaRegex(std::string_view pattern);

}  // namespace epoxy::expr
