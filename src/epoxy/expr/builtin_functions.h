// SPDX-License-Identifier: Apache-2.0
// The families of built-in functions, each registered from its own file.
#pragma once

#include "epoxy/expr/function_registry.h"

namespace epoxy::expr {

/// Registers every family below (builtin_functions.cc; called once, by FunctionRegistry::Builtins).
void RegisterBuiltinFunctions(FunctionRegistry* registry);

void RegisterOperatorFunctions(FunctionRegistry* registry);     // operator_functions.cc
void RegisterConditionalFunctions(FunctionRegistry* registry);  // conditional_functions.cc
void RegisterAggregateFunctions(FunctionRegistry* registry);    // aggregate_definitions.cc
void RegisterWindowFunctions(FunctionRegistry* registry);       // window_definitions.cc
void RegisterLegacyScalarFunctions(FunctionRegistry* registry); // legacy_functions.cc

}  // namespace epoxy::expr
