// SPDX-License-Identifier: Apache-2.0
// Datum: an evaluated operand, either a column of the batch's length or a constant held as a
// one-row array that kernels read with stride 0 (constants are never copied per row).
#pragma once

#include "epoxy/vector/array.h"

namespace epoxy::expr {

struct Datum {
  ArrayPtr array;
  bool constant = false;  // one row standing for every row

  int64_t stride() const { return constant ? 0 : 1; }
  /// Row `i` of the batch maps to this row of `array`.
  int64_t Row(int64_t i) const { return constant ? 0 : i; }
  bool IsNull(int64_t i) const { return array->IsNull(Row(i)); }
  const TypePtr& type() const { return array->type(); }
};

}  // namespace epoxy::expr
