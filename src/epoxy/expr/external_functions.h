// SPDX-License-Identifier: Apache-2.0
// Scalar functions defined outside the engine (Python UDFs): registered by name with their result
// type, called a batch at a time with the evaluated arguments. A registered name hides a built-in
// function of the same name.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "epoxy/vector/array.h"

namespace epoxy::expr {

/// Computes the result column for `n` rows of argument columns (each of `n` rows). Called from
/// worker threads, several batches at once: the function serializes itself if it must.
using ExternalFunction = std::function<Result<ArrayPtr>(const std::vector<ArrayPtr>& args, int64_t n)>;

struct ExternalFunctionDef {
  TypePtr result;
  ExternalFunction function;
};

/// Registers (or replaces) `name` (matched without case). Thread-safe.
void RegisterExternalFunction(const std::string& name, TypePtr result, ExternalFunction function);

/// The function registered under `name`, or null.
std::shared_ptr<const ExternalFunctionDef> FindExternalFunction(const std::string& name);

}  // namespace epoxy::expr
