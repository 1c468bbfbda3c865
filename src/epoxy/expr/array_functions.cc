// SPDX-License-Identifier: Apache-2.0
// Functions over arrays and maps: size, sort_array, array_sort.
#include "epoxy/expr/array_functions.h"

#include <algorithm>

#include "epoxy/vector/builder.h"
#include "epoxy/vector/compare.h"
#include "epoxy/vector/take.h"

namespace epoxy::expr {

Result<ArrayPtr> ArraySize(const Datum& a, int64_t n, MemoryPool* pool) {
  Int32Builder out(DataType::Int(), pool);
  EPOXY_RETURN_NOT_OK(out.Reserve(n));
  const Array& v = *a.array;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t r = a.Row(i);
    if (v.IsNull(r)) {
      EPOXY_RETURN_NOT_OK(out.Append(-1));  // spark.sql.legacy.sizeOfNull, on by default
      continue;
    }
    const int32_t* o = v.offsets();
    EPOXY_RETURN_NOT_OK(out.Append(o[r + 1] - o[r]));
  }
  return out.Finish();
}

Result<ArrayPtr> SortArray(const Datum& a, int64_t n, bool ascending, bool nulls_first, MemoryPool* pool) {
  const Array& v = *a.array;
  const ArrayPtr& elements = v.child(0);
  std::vector<RowRef> order;
  BufferBuilder offsets(pool);
  EPOXY_RETURN_NOT_OK(offsets.Resize((n + 1) * 4));
  int32_t* o = reinterpret_cast<int32_t*>(offsets.mutable_data());
  o[0] = 0;
  BufferBuilder bits(pool);
  EPOXY_RETURN_NOT_OK(bits.Resize(bit_util::BytesForBits(n)));
  int64_t nulls = 0;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t r = a.Row(i);
    if (v.IsNull(r)) {
      ++nulls;
      o[i + 1] = o[i];
      continue;
    }
    bit_util::SetBit(bits.mutable_data(), i);
    const int32_t* vo = v.offsets();
    const size_t start = order.size();
    for (int32_t e = vo[r]; e < vo[r + 1]; ++e) order.push_back(MakeRowRef(0, static_cast<uint32_t>(e)));
    std::stable_sort(order.begin() + static_cast<long>(start), order.end(), [&](RowRef x, RowRef y) {
      const int64_t ex = static_cast<int64_t>(x & 0xffffffffu), ey = static_cast<int64_t>(y & 0xffffffffu);
      const bool nx = elements->IsNull(ex), ny = elements->IsNull(ey);
      if (nx || ny) return nx != ny && nx == nulls_first;
      const int c = CompareValues(*elements, ex, *elements, ey);
      return ascending ? c < 0 : c > 0;
    });
    o[i + 1] = static_cast<int32_t>(order.size());
  }
  EPOXY_ASSIGN_OR_RETURN(ArrayPtr sorted, TakeFrom({elements}, order, elements->type(), pool));
  EPOXY_ASSIGN_OR_RETURN(BufferPtr ob, offsets.Finish());
  BufferPtr validity;
  if (nulls > 0) {
    EPOXY_ASSIGN_OR_RETURN(validity, bits.Finish());
  }
  return Array::Make(v.type(), n, {validity, ob}, {sorted}, nulls);
}

}  // namespace epoxy::expr
