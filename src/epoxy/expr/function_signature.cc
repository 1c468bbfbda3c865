// SPDX-License-Identifier: Apache-2.0
// Parsing signatures and Spark's implicit casts of function arguments.
#include "epoxy/expr/function_signature.h"

#include <fmt/format.h>

#include "epoxy/expr/type_visit.h"

namespace epoxy::expr {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

/// Splits at commas outside <> and [].
std::vector<std::string_view> SplitTopLevel(std::string_view s) {
  std::vector<std::string_view> parts;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '<' || s[i] == '[') ++depth;
    if (s[i] == '>' || s[i] == ']') --depth;
    if (s[i] == ',' && depth == 0) {
      parts.push_back(Trim(s.substr(start, i - start)));
      start = i + 1;
    }
  }
  parts.push_back(Trim(s.substr(start)));
  return parts;
}

Result<ArgSpec> ParseArg(std::string_view t) {
  ArgSpec spec;
  if (t == "any") return spec;
  if (t == "numeric") spec.kind = ArgSpec::Kind::kNumeric;
  else if (t == "integral") spec.kind = ArgSpec::Kind::kIntegral;
  else if (t == "string|binary") spec.kind = ArgSpec::Kind::kStringOrBinary;
  else if (t == "array") spec.kind = ArgSpec::Kind::kArray;
  else if (t == "map") spec.kind = ArgSpec::Kind::kMap;
  else if (t == "struct") spec.kind = ArgSpec::Kind::kStruct;
  else if (t == "T") spec.kind = ArgSpec::Kind::kCommon;
  else {
    EPOXY_ASSIGN_OR_RETURN(spec.type, ParseType(t));
    spec.kind = ArgSpec::Kind::kConcrete;
  }
  return spec;
}

}  // namespace

Result<Signature> ParseSignature(std::string_view text) {
  size_t arrow = text.find("->");
  if (arrow == std::string_view::npos) return Status::InvalidInput("signature '{}' has no '->'", text);
  Signature sig;
  std::string_view args = Trim(text.substr(0, arrow));
  std::string_view result = Trim(text.substr(arrow + 2));
  bool optional = false;
  if (!args.empty()) {
    for (std::string_view part : SplitTopLevel(args)) {
      if (part.empty()) return Status::InvalidInput("signature '{}' has an empty argument", text);
      if (part.front() == '[') {
        // "[a, b]" arrives split as "[a" and "b]", or whole as "[a]".
        optional = true;
        part = Trim(part.substr(1));
      }
      if (!part.empty() && part.back() == ']') part = Trim(part.substr(0, part.size() - 1));
      if (part.size() > 3 && part.substr(part.size() - 3) == "...") {
        sig.variadic = true;
        part = Trim(part.substr(0, part.size() - 3));
      }
      EPOXY_ASSIGN_OR_RETURN(ArgSpec spec, ParseArg(part));
      sig.args.push_back(spec);
      if (!optional && !sig.variadic) sig.required = sig.args.size();
    }
  }
  if (sig.variadic && sig.required == sig.args.size()) --sig.required;  // t... may be absent
  if (result == "T") {
    sig.result = Signature::Result::kCommon;
  } else if (result == "array<T>") {
    sig.result = Signature::Result::kArrayOfCommon;
  } else if (result.size() > 3 && result.substr(0, 3) == "arg") {
    sig.result = Signature::Result::kArgument;
    sig.result_argument = static_cast<size_t>(std::stoul(std::string(result.substr(3))));
  } else {
    EPOXY_ASSIGN_OR_RETURN(sig.result_type, ParseType(result));
  }
  return sig;
}

bool CanCastImplicitly(const DataType& from, const DataType& to) {
  const TypeId f = from.id(), t = to.id();
  if (from.Equals(to) || f == TypeId::kNull) return true;
  if (IsNumeric(f) && IsNumeric(t)) return true;
  if (f == TypeId::kString) {
    return IsNumeric(t) || t == TypeId::kDate || t == TypeId::kTimestamp || t == TypeId::kBinary;
  }
  if (t == TypeId::kString) return !from.is_nested() && f != TypeId::kChoice;  // any atomic value
  if (f == TypeId::kDate && t == TypeId::kTimestamp) return true;
  if (f == TypeId::kTimestamp && t == TypeId::kDate) return true;
  if (f == TypeId::kArray && t == TypeId::kArray) return CanCastImplicitly(*from.element(), *to.element());
  return false;
}

Result<TypePtr> ImplicitCastTarget(const TypePtr& from, const ArgSpec& spec) {
  const TypeId id = from->id();
  auto refuse = [&]() -> Result<TypePtr> {
    return Status::InvalidInput("needs {}, got {}", DescribeArgSpec(spec), from->ToString());
  };
  switch (spec.kind) {
    case ArgSpec::Kind::kAny:
    case ArgSpec::Kind::kCommon: return from;
    case ArgSpec::Kind::kNumeric:
      if (IsNumeric(id)) return from;
      if (id == TypeId::kString || id == TypeId::kNull) return DataType::Double();
      return refuse();
    case ArgSpec::Kind::kIntegral:
      if (IsIntegral(id)) return from;
      if (id == TypeId::kString || id == TypeId::kNull || IsNumeric(id)) return DataType::BigInt();
      return refuse();
    case ArgSpec::Kind::kStringOrBinary:
      if (id == TypeId::kString || id == TypeId::kBinary) return from;
      if (CanCastImplicitly(*from, *DataType::String())) return DataType::String();
      return refuse();
    case ArgSpec::Kind::kArray:
      if (id == TypeId::kArray) return from;
      if (id == TypeId::kNull) return DataType::Array(DataType::Null());
      return refuse();
    case ArgSpec::Kind::kMap:
      if (id == TypeId::kMap) return from;
      if (id == TypeId::kNull) return DataType::Map(DataType::Null(), DataType::Null());
      return refuse();
    case ArgSpec::Kind::kStruct:
      if (id == TypeId::kStruct || id == TypeId::kNull) return from;
      return refuse();
    case ArgSpec::Kind::kConcrete:
      if (from->Equals(*spec.type)) return from;
      // A decimal argument stays a decimal where a decimal is asked for, whatever its scale.
      if (spec.type->id() == TypeId::kDecimal && id == TypeId::kDecimal) return from;
      if (CanCastImplicitly(*from, *spec.type)) return spec.type;
      return refuse();
  }
  return refuse();
}

std::string DescribeArgSpec(const ArgSpec& spec) {
  switch (spec.kind) {
    case ArgSpec::Kind::kAny: return "any value";
    case ArgSpec::Kind::kNumeric: return "a number";
    case ArgSpec::Kind::kIntegral: return "an integer";
    case ArgSpec::Kind::kConcrete: return spec.type->ToString();
    case ArgSpec::Kind::kStringOrBinary: return "a string or binary";
    case ArgSpec::Kind::kArray: return "an array";
    case ArgSpec::Kind::kMap: return "a map";
    case ArgSpec::Kind::kStruct: return "a struct";
    case ArgSpec::Kind::kCommon: return "a value of the common type";
  }
  return "?";
}

}  // namespace epoxy::expr
