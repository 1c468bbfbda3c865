// SPDX-License-Identifier: Apache-2.0
// Dispatch from a TypeId to the C++ type of its values, so kernels are written once as templates
// and instantiated per physical type (no per-row type switches).
#pragma once

#include <cstdint>

#include "epoxy/types/data_type.h"

namespace epoxy::expr {

inline bool IsIntegral(TypeId id) {
  return id == TypeId::kTinyInt || id == TypeId::kSmallInt || id == TypeId::kInt || id == TypeId::kBigInt;
}
inline bool IsFloating(TypeId id) { return id == TypeId::kFloat || id == TypeId::kDouble; }
inline bool IsNumeric(TypeId id) { return IsIntegral(id) || IsFloating(id) || id == TypeId::kDecimal; }

/// Calls `f.template operator()<T>()` with T the value type of an integer or floating-point type.
template <typename F>
void VisitPlainNumber(TypeId id, F&& f) {
  switch (id) {
    case TypeId::kTinyInt: f.template operator()<int8_t>(); break;
    case TypeId::kSmallInt: f.template operator()<int16_t>(); break;
    case TypeId::kInt: f.template operator()<int32_t>(); break;
    case TypeId::kBigInt: f.template operator()<int64_t>(); break;
    case TypeId::kFloat: f.template operator()<float>(); break;
    case TypeId::kDouble: f.template operator()<double>(); break;
    default: break;
  }
}

/// Like VisitPlainNumber, also for the fixed-width types compared as numbers: date (int32),
/// timestamp (int64) and decimal (int128, same scale on both sides).
template <typename F>
void VisitComparable(TypeId id, F&& f) {
  switch (id) {
    case TypeId::kDate: f.template operator()<int32_t>(); break;
    case TypeId::kTimestamp: f.template operator()<int64_t>(); break;
    case TypeId::kDecimal: f.template operator()<__int128>(); break;
    default: VisitPlainNumber(id, f); break;
  }
}

}  // namespace epoxy::expr
