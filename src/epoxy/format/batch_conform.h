// SPDX-License-Identifier: Apache-2.0
// Fitting a batch to a target schema: reordering columns by name, filling absent or all-null
// columns with nulls of the target type.
#pragma once

#include "epoxy/vector/array.h"

namespace epoxy {

/// `batch` with the columns of `target`, or nullopt-like nullptr when it cannot be fitted without
/// changing a value (a column of another type, or a column `target` lacks).
Result<BatchPtr> ConformBatch(const BatchPtr& batch, const SchemaPtr& target);

}  // namespace epoxy
