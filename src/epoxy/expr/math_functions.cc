// SPDX-License-Identifier: Apache-2.0
#include "epoxy/expr/math_functions.h"

#include <cmath>
#include <map>
#include <set>

#include "epoxy/expr/binder.h"
#include "epoxy/expr/row_kernels_internal.h"
#include "epoxy/expr/type_visit.h"
#include "epoxy/vector/builder.h"

namespace epoxy::expr {
namespace {

using Unary = double (*)(double);

const std::map<std::string, Unary>& UnaryFunctions() {
  static const std::map<std::string, Unary> kUnary = {
      {"sqrt", [](double x) { return x < 0 ? NAN : std::sqrt(x); }},
      {"cbrt", [](double x) { return std::cbrt(x); }},
      {"exp", [](double x) { return std::exp(x); }},
      {"expm1", [](double x) { return std::expm1(x); }},
      {"ln", [](double x) { return std::log(x); }},
      {"log2", [](double x) { return std::log2(x); }},
      {"log10", [](double x) { return std::log10(x); }},
      {"log1p", [](double x) { return std::log1p(x); }},
      {"sin", [](double x) { return std::sin(x); }},
      {"cos", [](double x) { return std::cos(x); }},
      {"tan", [](double x) { return std::tan(x); }},
      {"asin", [](double x) { return std::asin(x); }},
      {"acos", [](double x) { return std::acos(x); }},
      {"atan", [](double x) { return std::atan(x); }},
      {"sinh", [](double x) { return std::sinh(x); }},
      {"cosh", [](double x) { return std::cosh(x); }},
      {"tanh", [](double x) { return std::tanh(x); }},
      {"degrees", [](double x) { return x * 180.0 / M_PI; }},
      {"radians", [](double x) { return x * M_PI / 180.0; }},
      {"rint", [](double x) { return std::nearbyint(x); }},
      {"signum", [](double x) { return x > 0 ? 1.0 : x < 0 ? -1.0 : x; }},
      {"sign", [](double x) { return x > 0 ? 1.0 : x < 0 ? -1.0 : x; }},
  };
  return kUnary;
}

// Logarithms of zero or less are null in Spark (not -Infinity or NaN).
bool NullForDomain(const std::string& op, double x) {
  if (op == "ln" || op == "log2" || op == "log10") return x <= 0;
  if (op == "log1p") return x <= -1;
  return false;
}

const std::set<std::string> kBinary = {"pow", "power", "atan2", "hypot", "log", "pmod"};

double DoubleAt(const Datum& d, int64_t i) { return d.array->values<double>()[d.Row(i)]; }

}  // namespace

Result<bool> BindMathFunction(Expr* call) {
  const std::string op = call->op;
  auto& args = call->args;
  auto arity = [&](size_t lo, size_t hi) { return CheckArity(*call, lo, hi); };
  auto numeric = [&](size_t i) -> Status {
    TypeId id = args[i]->type->id();
    if (!IsNumeric(id) && id != TypeId::kString && id != TypeId::kNull) {
      return Status::InvalidInput("{} needs numbers, got {} ('{}')", op, args[i]->type->ToString(), call->ToString());
    }
    args[i] = CastTo(args[i], DataType::Double());
    return Status::OK();
  };
  if (UnaryFunctions().count(op)) {
    EPOXY_RETURN_NOT_OK(arity(1, 1));
    EPOXY_RETURN_NOT_OK(numeric(0));
    call->type = DataType::Double();
    return true;
  }
  if (op == "log" && args.size() == 1) {  // log(x) is ln(x)
    EPOXY_RETURN_NOT_OK(numeric(0));
    call->op = "ln";
    call->type = DataType::Double();
    return true;
  }
  if (kBinary.count(op)) {
    EPOXY_RETURN_NOT_OK(arity(2, 2));
    if (op == "pmod" && IsIntegral(args[0]->type->id()) && IsIntegral(args[1]->type->id())) {
      args[0] = CastTo(args[0], DataType::BigInt());
      args[1] = CastTo(args[1], DataType::BigInt());
      call->type = DataType::BigInt();
      return true;
    }
    EPOXY_RETURN_NOT_OK(numeric(0));
    EPOXY_RETURN_NOT_OK(numeric(1));
    call->type = DataType::Double();
    return true;
  }
  if (op == "factorial") {
    EPOXY_RETURN_NOT_OK(arity(1, 1));
    args[0] = CastTo(args[0], DataType::Int());
    call->type = DataType::BigInt();
    return true;
  }
  if (op == "e" || op == "pi") {
    EPOXY_RETURN_NOT_OK(arity(0, 0));
    call->type = DataType::Double();
    return true;
  }
  return false;
}

Result<std::optional<Datum>> CallMathFunction(const Expr& call, const std::vector<Datum>& args, int64_t n,
                                              MemoryPool* pool) {
  const std::string& op = call.op;
  const auto& unary = UnaryFunctions();
  const bool is_unary = unary.count(op) > 0;
  if (!is_unary && !kBinary.count(op) && op != "factorial" && op != "e" && op != "pi") return std::optional<Datum>();
  EPOXY_ASSIGN_OR_RETURN(auto builder, MakeBuilder(call.type, pool));
  // Only the builder's own type is cast to (a cast to the other is undefined behaviour).
  const bool bigint = call.type->id() == TypeId::kBigInt;
  auto* doubles = bigint ? nullptr : static_cast<DoubleBuilder*>(builder.get());
  auto* longs = bigint ? static_cast<Int64Builder*>(builder.get()) : nullptr;
  for (int64_t i = 0; i < n; ++i) {
    bool null = false;
    for (const auto& a : args) null = null || a.IsNull(i);
    if (null) {
      EPOXY_RETURN_NOT_OK(builder->AppendNull());
      continue;
    }
    if (op == "e" || op == "pi") {
      EPOXY_RETURN_NOT_OK(doubles->Append(op == "e" ? M_E : M_PI));
    } else if (is_unary) {
      const double x = DoubleAt(args[0], i);
      if (NullForDomain(op, x)) EPOXY_RETURN_NOT_OK(builder->AppendNull());
      else EPOXY_RETURN_NOT_OK(doubles->Append(unary.at(op)(x)));
    } else if (op == "factorial") {
      const int64_t k = args[0].array->values<int32_t>()[args[0].Row(i)];
      if (k < 0 || k > 20) {
        EPOXY_RETURN_NOT_OK(builder->AppendNull());  // Spark: null outside 0..20
        continue;
      }
      int64_t f = 1;
      for (int64_t j = 2; j <= k; ++j) f *= j;
      EPOXY_RETURN_NOT_OK(longs->Append(f));
    } else if (op == "pmod" && call.type->id() == TypeId::kBigInt) {
      const int64_t a = args[0].array->values<int64_t>()[args[0].Row(i)];
      const int64_t b = args[1].array->values<int64_t>()[args[1].Row(i)];
      if (b == 0) {
        EPOXY_RETURN_NOT_OK(builder->AppendNull());
        continue;
      }
      const int64_t r = a % b;
      EPOXY_RETURN_NOT_OK(longs->Append(r < 0 ? (r + b) % b : r));
    } else {
      const double a = DoubleAt(args[0], i), b = DoubleAt(args[1], i);
      double v = 0;
      if (op == "pow" || op == "power") {
        v = std::pow(a, b);
      } else if (op == "atan2") {
        v = std::atan2(a, b);
      } else if (op == "hypot") {
        v = std::hypot(a, b);
      } else if (op == "pmod") {
        if (b == 0) {
          EPOXY_RETURN_NOT_OK(builder->AppendNull());
          continue;
        }
        v = std::fmod(a, b);
        if (v < 0) v = std::fmod(v + b, b);
      } else {  // log(base, x)
        if (a <= 0 || b <= 0) {
          EPOXY_RETURN_NOT_OK(builder->AppendNull());
          continue;
        }
        v = std::log(b) / std::log(a);
      }
      EPOXY_RETURN_NOT_OK(doubles->Append(v));
    }
  }
  EPOXY_ASSIGN_OR_RETURN(ArrayPtr out, builder->Finish());
  return std::optional<Datum>(Datum{out, false});
}

}  // namespace epoxy::expr
