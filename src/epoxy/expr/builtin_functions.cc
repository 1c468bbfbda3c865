// SPDX-License-Identifier: Apache-2.0
// The list of function families that make up the built-in registry.
#include "epoxy/expr/builtin_functions.h"

namespace epoxy::expr {

void RegisterBuiltinFunctions(FunctionRegistry* r) {
  RegisterOperatorFunctions(r);
  RegisterConditionalFunctions(r);
  RegisterAggregateFunctions(r);
  RegisterWindowFunctions(r);
  RegisterLegacyScalarFunctions(r);
}

}  // namespace epoxy::expr
