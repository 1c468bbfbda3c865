// SPDX-License-Identifier: Apache-2.0
// Sort keys: prefixes that order as their values do, full comparisons, parallel sorting.
#include "epoxy/exec/sort_keys.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "epoxy/common/thread_pool.h"
#include "epoxy/vector/compare.h"

namespace epoxy::exec {
namespace {

constexpr uint64_t kSignBit = uint64_t{1} << 63;

uint64_t FromSigned(int64_t v) { return static_cast<uint64_t>(v) ^ kSignBit; }

uint64_t FromDouble(double v) {
  if (std::isnan(v)) v = std::numeric_limits<double>::quiet_NaN();  // every NaN above +Infinity
  if (v == 0) v = 0;                                                 // -0.0 orders as 0.0
  uint64_t bits;
  std::memcpy(&bits, &v, 8);
  return (bits & kSignBit) ? ~bits : bits | kSignBit;
}

/// The prefix of row i of a non-null value (ascending). `exact`: whether it orders fully.
uint64_t Prefix(const Array& a, int64_t i) {
  switch (a.type_id()) {
    case TypeId::kBoolean: return a.GetBool(i) ? 1 : 0;
    case TypeId::kTinyInt: return FromSigned(a.values<int8_t>()[i]);
    case TypeId::kSmallInt: return FromSigned(a.values<int16_t>()[i]);
    case TypeId::kInt:
    case TypeId::kDate: return FromSigned(a.values<int32_t>()[i]);
    case TypeId::kBigInt:
    case TypeId::kTimestamp: return FromSigned(a.values<int64_t>()[i]);
    case TypeId::kFloat: return FromDouble(a.values<float>()[i]);
    case TypeId::kDouble: return FromDouble(a.values<double>()[i]);
    case TypeId::kDecimal: {
      __int128 v;
      std::memcpy(&v, a.values<__int128>() + i, 16);
      if (v > INT64_MAX) return UINT64_MAX;  // ties with other large values are compared fully
      if (v < INT64_MIN) return 0;
      return FromSigned(static_cast<int64_t>(v));
    }
    case TypeId::kString:
    case TypeId::kBinary: {
      std::string_view s = a.GetView(i);
      uint64_t p = 0;
      for (size_t k = 0; k < 8; ++k) p = (p << 8) | (k < s.size() ? static_cast<uint8_t>(s[k]) : 0);
      return p;
    }
    default: return 0;
  }
}

bool ExactPrefix(const DataType& type) {
  switch (type.id()) {
    case TypeId::kBoolean:
    case TypeId::kTinyInt:
    case TypeId::kSmallInt:
    case TypeId::kInt:
    case TypeId::kDate:
    case TypeId::kBigInt:
    case TypeId::kTimestamp:
    case TypeId::kFloat:
    case TypeId::kDouble: return true;
    default: return false;
  }
}

}  // namespace

RowOrder::RowOrder(std::vector<plan::SortKey> keys, int first_key) : keys_(std::move(keys)), first_key_(first_key) {
  exact_ = keys_.size() == 1 && ExactPrefix(*keys_[0].expr->type);
}

void RowOrder::AddEntries(const Batch& batch, uint32_t batch_index, std::vector<SortEntry>* out) const {
  const Array& first = *batch.column(first_key_);
  const bool desc = !keys_[0].ascending;
  const bool nulls = first.null_count() > 0 || first.type_id() == TypeId::kNull;
  for (int64_t i = 0; i < batch.num_rows(); ++i) {
    SortEntry e;
    e.ref = MakeRowRef(batch_index, static_cast<uint32_t>(i));
    e.null = nulls && first.IsNull(i);
    e.prefix = e.null ? 0 : Prefix(first, i);
    if (desc) e.prefix = ~e.prefix;
    out->push_back(e);
  }
}

int RowOrder::Compare(const Batch& x, int64_t a, const Batch& y, int64_t b) const {
  for (size_t k = 0; k < keys_.size(); ++k) {
    const Array& u = *x.column(first_key_ + static_cast<int>(k));
    const Array& v = *y.column(first_key_ + static_cast<int>(k));
    const bool nu = u.IsNull(a), nv = v.IsNull(b);
    if (nu || nv) {
      if (nu && nv) continue;
      return nu == keys_[k].nulls_first ? -1 : 1;
    }
    int c = CompareValues(u, a, v, b);
    if (c != 0) return keys_[k].ascending ? c : -c;
  }
  return 0;
}

void RowOrder::Sort(std::vector<SortEntry>* entries, const std::vector<BatchPtr>& batches, ThreadPool* pool) const {
  auto less = [&](const SortEntry& a, const SortEntry& b) { return Less(a, b, batches); };
  const size_t n = entries->size();
  const size_t parts = pool == nullptr || n < (1 << 16) ? 1 : static_cast<size_t>(pool->num_threads());
  if (parts <= 1) {
    std::sort(entries->begin(), entries->end(), less);
    return;
  }
  // Each part sorted by its own task, then merged pairwise (the merges of a round in parallel).
  std::vector<size_t> bounds;
  for (size_t p = 0; p <= parts; ++p) bounds.push_back(n * p / parts);
  {
    TaskGroup tasks(*pool);
    for (size_t p = 0; p < parts; ++p) {
      tasks.Spawn([&, p] {
        std::sort(entries->begin() + static_cast<long>(bounds[p]), entries->begin() + static_cast<long>(bounds[p + 1]), less);
        return Status::OK();
      });
    }
    (void)tasks.Wait();
  }
  while (bounds.size() > 2) {
    std::vector<size_t> merged = {0};
    TaskGroup tasks(*pool);
    for (size_t p = 0; p + 2 < bounds.size(); p += 2) {
      const size_t lo = bounds[p], mid = bounds[p + 1], hi = bounds[p + 2];
      tasks.Spawn([&, lo, mid, hi] {
        std::inplace_merge(entries->begin() + static_cast<long>(lo), entries->begin() + static_cast<long>(mid),
                           entries->begin() + static_cast<long>(hi), less);
        return Status::OK();
      });
      merged.push_back(hi);
    }
    if (bounds.size() % 2 == 0) merged.push_back(bounds.back());  // an odd part waits a round
    (void)tasks.Wait();
    bounds = std::move(merged);
  }
}

Result<std::vector<BatchPtr>> GatherSorted(const std::vector<SortEntry>& entries, const std::vector<BatchPtr>& batches,
                                           const SchemaPtr& schema, int64_t batch_rows, MemoryPool* pool) {
  std::vector<BatchPtr> out;
  const int width = schema->num_fields();
  std::vector<std::vector<ArrayPtr>> sources(static_cast<size_t>(width));
  for (const auto& b : batches) {
    for (int c = 0; c < width; ++c) sources[static_cast<size_t>(c)].push_back(b->column(c));
  }
  for (size_t start = 0; start < entries.size(); start += static_cast<size_t>(batch_rows)) {
    const size_t end = std::min(entries.size(), start + static_cast<size_t>(batch_rows));
    std::vector<RowRef> refs;
    refs.reserve(end - start);
    for (size_t i = start; i < end; ++i) refs.push_back(entries[i].ref);
    std::vector<ArrayPtr> columns;
    for (int c = 0; c < width; ++c) {
      EPOXY_ASSIGN_OR_RETURN(ArrayPtr a, TakeFrom(sources[static_cast<size_t>(c)], refs, schema->field(c).type, pool));
      columns.push_back(std::move(a));
    }
    out.push_back(Batch::Make(schema, std::move(columns), static_cast<int64_t>(refs.size())));
  }
  return out;
}

}  // namespace epoxy::exec
