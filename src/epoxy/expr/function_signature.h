// SPDX-License-Identifier: Apache-2.0
// Declarative argument signatures for registry entries, and Spark's implicit casts for them.
//
// Grammar: `args -> result`. Arguments are comma-separated; `[a, b]` makes trailing arguments
// optional; `t...` as the last argument repeats it (zero or more). An argument is a type:
//   any                  accepted as it is
//   numeric | integral   any number (integral: any integer); a string becomes double (bigint)
//   string binary boolean date timestamp tinyint smallint int bigint float double
//                        that type, cast implicitly as Spark does (a string to a number, a
//                        number to a string, a date to a timestamp, ...)
//   string|binary        either, as it is; anything else is cast to the first
//   array map struct     that kind of type, as it is
//   T                    every T argument is cast to their common type
// The result is a type name (`array<string>`), `argN` (argument N's type after casting), `T`,
// or `array<T>`.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "epoxy/expr/expression.h"

namespace epoxy::expr {

struct ArgSpec {
  enum class Kind { kAny, kNumeric, kIntegral, kConcrete, kStringOrBinary, kArray, kMap, kStruct, kCommon };
  Kind kind = Kind::kAny;
  TypePtr type;  // kConcrete
};

struct Signature {
  std::vector<ArgSpec> args;
  size_t required = 0;  // the first `required` args are not optional
  bool variadic = false;  // the last arg repeats
  enum class Result { kConcrete, kArgument, kCommon, kArrayOfCommon };
  Result result = Result::kConcrete;
  TypePtr result_type;  // kConcrete
  size_t result_argument = 0;  // kArgument
};

/// Parses a signature; errors say where it is malformed.
Result<Signature> ParseSignature(std::string_view text);

/// The type `from` becomes as an argument of `spec` under Spark's implicit casts (itself when it
/// is accepted as it is); kInvalidInput when Spark would refuse it.
Result<TypePtr> ImplicitCastTarget(const TypePtr& from, const ArgSpec& spec);

/// Whether Spark casts `from` to `to` implicitly (function arguments, not CAST).
bool CanCastImplicitly(const DataType& from, const DataType& to);

/// A readable name of what `spec` accepts ("a number", "string", "an array").
std::string DescribeArgSpec(const ArgSpec& spec);

}  // namespace epoxy::expr
