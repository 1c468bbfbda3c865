// SPDX-License-Identifier: Apache-2.0
// Comparing two values of one type, recursively for nested ones.
#include "epoxy/vector/compare.h"

#include <cmath>
#include <cstring>

namespace epoxy {
namespace {

template <typename T>
int Three(T x, T y) {
  if constexpr (std::is_floating_point_v<T>) {
    const bool nx = std::isnan(x), ny = std::isnan(y);
    if (nx || ny) return nx == ny ? 0 : nx ? 1 : -1;
  }
  return x < y ? -1 : y < x ? 1 : 0;
}

int CompareNullable(const Array& a, int64_t i, const Array& b, int64_t j) {
  const bool na = a.IsNull(i), nb = b.IsNull(j);
  if (na || nb) return na == nb ? 0 : na ? -1 : 1;  // nulls first inside nested values
  return CompareValues(a, i, b, j);
}

}  // namespace

bool IsOrderable(const DataType& type) {
  switch (type.id()) {
    case TypeId::kMap:
    case TypeId::kChoice: return false;
    case TypeId::kArray: return IsOrderable(*type.element());
    case TypeId::kStruct:
      for (const auto& f : type.fields()) {
        if (!IsOrderable(*f.type)) return false;
      }
      return true;
    default: return true;
  }
}

int CompareValues(const Array& a, int64_t i, const Array& b, int64_t j) {
  switch (a.type_id()) {
    case TypeId::kNull: return 0;
    case TypeId::kBoolean: return Three<int>(a.GetBool(i), b.GetBool(j));
    case TypeId::kTinyInt: return Three(a.values<int8_t>()[i], b.values<int8_t>()[j]);
    case TypeId::kSmallInt: return Three(a.values<int16_t>()[i], b.values<int16_t>()[j]);
    case TypeId::kInt:
    case TypeId::kDate: return Three(a.values<int32_t>()[i], b.values<int32_t>()[j]);
    case TypeId::kBigInt:
    case TypeId::kTimestamp: return Three(a.values<int64_t>()[i], b.values<int64_t>()[j]);
    case TypeId::kFloat: return Three(a.values<float>()[i], b.values<float>()[j]);
    case TypeId::kDouble: return Three(a.values<double>()[i], b.values<double>()[j]);
    case TypeId::kDecimal: {
      __int128 x, y;
      std::memcpy(&x, a.values<__int128>() + i, 16);
      std::memcpy(&y, b.values<__int128>() + j, 16);
      return Three(x, y);
    }
    case TypeId::kString:
    case TypeId::kBinary: {
      std::string_view x = a.GetView(i), y = b.GetView(j);
      const size_t n = std::min(x.size(), y.size());
      const int c = n == 0 ? 0 : std::memcmp(x.data(), y.data(), n);
      if (c != 0) return c;
      return Three(x.size(), y.size());
    }
    case TypeId::kStruct:
      for (size_t f = 0; f < a.children().size(); ++f) {
        const int c = CompareNullable(*a.child(static_cast<int>(f)), i, *b.child(static_cast<int>(f)), j);
        if (c != 0) return c;
      }
      return 0;
    case TypeId::kArray: {
      const int32_t* oa = a.offsets();
      const int32_t* ob = b.offsets();
      const int64_t la = oa[i + 1] - oa[i], lb = ob[j + 1] - ob[j];
      for (int64_t k = 0; k < std::min(la, lb); ++k) {
        const int c = CompareNullable(*a.child(0), oa[i] + k, *b.child(0), ob[j] + k);
        if (c != 0) return c;
      }
      return Three(la, lb);
    }
    default: return 0;  // maps and choices are not orderable (refused when the plan is built)
  }
}

}  // namespace epoxy
