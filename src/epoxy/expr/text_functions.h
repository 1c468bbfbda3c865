// SPDX-License-Identifier: Apache-2.0
// More of Spark's string and null functions: hex, unhex, sha1, crc32, base64, unbase64, ascii,
// startswith, endswith, contains, lpad, rpad, repeat, instr, locate, translate, substring_index,
// split_part, left, right, levenshtein, bit_length, octet_length, chr; and the rewrites
// nvl2, zeroifnull, nullifzero, equal_null.
#pragma once

#include <optional>

#include "epoxy/expr/datum.h"
#include "epoxy/expr/expression.h"

namespace epoxy::expr {

/// Types a bound call (casting its arguments). Returns the expression to use (the call itself or
/// its rewrite), or null when `call->op` is not one of these functions.
Result<ExprPtr> BindTextFunction(std::shared_ptr<Expr> call);

/// Evaluates a bound call; nullopt when `call.op` is not one of these functions.
Result<std::optional<Datum>> CallTextFunction(const Expr& call, const std::vector<Datum>& args, int64_t n,
                                              MemoryPool* pool);

}  // namespace epoxy::expr
