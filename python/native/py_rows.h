// SPDX-License-Identifier: Apache-2.0
// Python rows to a batch: createDataFrame's data, already normalised by the Python side (dates as
// days, timestamps as microseconds, decimals as their unscaled integer's digits, structs as
// tuples, maps as lists of pairs).
#pragma once

#include <pybind11/pybind11.h>

#include "epoxy/vector/array.h"

namespace epoxy::python {

/// Builds one batch of `schema` from a sequence of row tuples. Errors name the row and column.
Result<BatchPtr> RowsToBatch(const SchemaPtr& schema, const pybind11::sequence& rows);

/// One column of `type` from a sequence of values (normalised as for RowsToBatch).
Result<ArrayPtr> ValuesToArray(const TypePtr& type, const pybind11::sequence& values);

/// A column's values in the same normalised forms (dates as days, timestamps as microseconds,
/// decimals as their unscaled digits, structs as tuples, maps as lists of pairs, binary as bytes).
/// REQUIRES: the GIL.
pybind11::list ColumnToPython(const Array& column);

}  // namespace epoxy::python
