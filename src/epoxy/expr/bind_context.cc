// SPDX-License-Identifier: Apache-2.0
// The argument checks and casts bind callbacks share.
#include "epoxy/expr/bind_context.h"

#include <re2/re2.h>

#include "epoxy/expr/cast.h"
#include "epoxy/expr/function_signature.h"

namespace epoxy::expr {

Status BindContext::Arity(size_t lo, size_t hi) const {
  const size_t n = num_args();
  if (n >= lo && n <= hi) return Status::OK();
  std::string expected = lo == hi ? fmt::format("{}", lo)
                         : hi > 1000 ? fmt::format("at least {}", lo)
                                     : fmt::format("{} to {}", lo, hi);
  return Status::InvalidInput(
      "[WRONG_NUM_ARGS] the function {} requires {} parameter(s) but the actual number is {} in '{}'", call_->op,
      expected, n, call_->ToString());
}

Status BindContext::Cast(size_t i, const TypePtr& to) {
  if (!CanCast(*type(i), *to)) return ArgumentError(i, to->ToString());
  call_->args[i] = CastTo(call_->args[i], to);
  return Status::OK();
}

Status BindContext::ImplicitCast(size_t i, const TypePtr& to) {
  if (!CanCastImplicitly(*type(i), *to)) return ArgumentError(i, to->ToString());
  call_->args[i] = CastTo(call_->args[i], to);
  return Status::OK();
}

Status BindContext::Constant(size_t i, const TypePtr& type) {
  ExprPtr arg = type == nullptr ? call_->args[i] : CastTo(call_->args[i], type);
  EPOXY_ASSIGN_OR_RETURN(ExprPtr folded, FoldConstant(arg));
  if (folded->kind != ExprKind::kLiteral) {
    return Status::InvalidInput("[DATATYPE_MISMATCH.NON_FOLDABLE_INPUT] argument {} of {} must be a constant in '{}'",
                                i + 1, call_->op, call_->ToString());
  }
  call_->args[i] = folded;
  return Status::OK();
}

Status BindContext::CompileRegex(size_t i, bool like, char escape) {
  EPOXY_RETURN_NOT_OK(Constant(i, DataType::String()));
  const Scalar& pattern = literal(i);
  if (pattern.is_null()) return Status::OK();
  const std::string& text = std::get<std::string>(pattern.value);
  if (like) {
    RE2::Options options;
    options.set_log_errors(false);
    options.set_dot_nl(true);  // % and _ match any character, newlines too
    auto re = std::make_shared<RE2>(LikeToRegex(text, escape), options);
    if (!re->ok()) return TypeError(fmt::format("invalid LIKE pattern '{}': {}", text, re->error()));
    call_->regex = std::move(re);
    return Status::OK();
  }
  auto re = CompileJavaRegex(text);
  if (!re.ok()) return TypeError(re.status().message());
  call_->regex = *re;
  return Status::OK();
}

Result<TypePtr> BindContext::CommonType(size_t from, size_t to) {
  TypePtr common = DataType::Null();
  for (size_t i = from; i < to; ++i) {
    auto t = expr::CommonType(common, type(i));
    if (!t.ok()) return TypeError(t.status().message());
    common = *t;
  }
  for (size_t i = from; i < to; ++i) call_->args[i] = CastTo(call_->args[i], common);
  return common;
}

void BindContext::AddDefault(Scalar value) {
  auto literal = std::make_shared<Expr>(*Expr::Literal(std::move(value)));
  call_->args.push_back(literal);
}

Status BindContext::TypeError(std::string_view why) const {
  return Status::InvalidInput("type error in '{}': {}", call_->ToString(), why);
}

Status BindContext::ArgumentError(size_t i, std::string_view expected) const {
  return Status::InvalidInput(
      "[DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE] cannot resolve '{}': argument {} of {} requires {}, but '{}' is of "
      "type {}",
      call_->ToString(), i + 1, call_->op, expected, call_->args[i]->ToString(), type(i)->ToString());
}

Result<ExprPtr> BindContext::Done(TypePtr type) {
  call_->type = std::move(type);
  return ExprPtr(call_);
}

std::string LikeToRegex(std::string_view like, char escape) {
  std::string out;
  for (size_t i = 0; i < like.size(); ++i) {
    char c = like[i];
    if (c == escape && i + 1 < like.size()) {
      out += RE2::QuoteMeta(std::string(1, like[++i]));
    } else if (c == '%') {
      out += ".*";
    } else if (c == '_') {
      out += ".";
    } else {
      out += RE2::QuoteMeta(std::string(1, c));
    }
  }
  return out;
}

Result<std::shared_ptr<const re2::RE2>> CompileJavaRegex(std::string_view pattern) {
  RE2::Options options;
  options.set_log_errors(false);
  options.set_dot_nl(false);  // Java's default: '.' stops at a line terminator
  auto re = std::make_shared<RE2>(std::string(pattern), options);
  if (!re->ok()) {
    return Status::InvalidInput("[INVALID_PARAMETER_VALUE.PATTERN] invalid regular expression '{}': {}", pattern,
                                re->error());
  }
  return std::shared_ptr<const re2::RE2>(std::move(re));
}

}  // namespace epoxy::expr
