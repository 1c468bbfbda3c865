// SPDX-License-Identifier: Apache-2.0
// Sort keys: prefixes that order as their values do, full comparisons, parallel sorting.
#include "epoxy/exec/sort_keys.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "epoxy/common/thread_pool.h"
#include "epoxy/exec/radix_sort.h"
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

/// Sets `prefix` (and `null`) of out[i] from row i of `a`, for every row: the type's loop chosen
/// once, not per row.
void FillPrefixes(const Array& a, bool descending, SortEntry* out, uint64_t SortEntry::*prefix, bool SortEntry::*null) {
  const int64_t n = a.length();
  const uint64_t flip = descending ? ~uint64_t{0} : 0;
  auto fill = [&](auto&& value_of) {
    if (a.null_count() == 0 && a.type_id() != TypeId::kNull) {
      for (int64_t i = 0; i < n; ++i) out[i].*prefix = value_of(i) ^ flip;
      return;
    }
    for (int64_t i = 0; i < n; ++i) {
      const bool is_null = a.IsNull(i);
      out[i].*null = is_null;
      out[i].*prefix = is_null ? 0 : value_of(i) ^ flip;
    }
  };
  switch (a.type_id()) {
    case TypeId::kInt:
    case TypeId::kDate: {
      const int32_t* v = a.values<int32_t>();
      return fill([v](int64_t i) { return FromSigned(v[i]); });
    }
    case TypeId::kBigInt:
    case TypeId::kTimestamp: {
      const int64_t* v = a.values<int64_t>();
      return fill([v](int64_t i) { return FromSigned(v[i]); });
    }
    case TypeId::kDouble: {
      const double* v = a.values<double>();
      return fill([v](int64_t i) { return FromDouble(v[i]); });
    }
    case TypeId::kNull: return fill([](int64_t) { return uint64_t{0}; });
    default: return fill([&a](int64_t i) { return Prefix(a, i); });
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

/// Merges the sorted ranges [lo, mid) and [mid, hi) of `in` into `out[lo, hi)`, as `pieces` tasks:
/// piece k writes output positions [lo + k·len/pieces, ...), its inputs found by a binary search
/// along that diagonal (stable: ties take the left range first).
template <typename Less>
void MergeInPieces(const SortEntry* in, size_t lo, size_t mid, size_t hi, SortEntry* out, const Less& less,
                   size_t pieces, TaskGroup* tasks) {
  const size_t left = mid - lo, right = hi - mid, total = hi - lo;
  // How many of the first d outputs come from the left range.
  auto split = [=](size_t d) {
    size_t a = d > right ? d - right : 0, b = std::min(d, left);
    while (a < b) {
      const size_t i = (a + b) / 2;  // take i from the left, d - i from the right
      if (less(in[mid + (d - i - 1)], in[lo + i])) {
        b = i;
      } else {
        a = i + 1;
      }
    }
    return a;
  };
  for (size_t k = 0; k < pieces; ++k) {
    const size_t d0 = total * k / pieces, d1 = total * (k + 1) / pieces;
    if (d0 == d1) continue;
    tasks->Spawn([=] {
      const size_t i0 = split(d0), i1 = split(d1);
      std::merge(in + lo + i0, in + lo + i1, in + mid + (d0 - i0), in + mid + (d1 - i1), out + lo + d0, less);
      return Status::OK();
    });
  }
}

}  // namespace

RowOrder::RowOrder(std::vector<plan::SortKey> keys, int first_key) : keys_(std::move(keys)), first_key_(first_key) {
  if (!keys_.empty() && ExactPrefix(*keys_[0].expr->type)) {
    decided_ = keys_.size() > 1 && ExactPrefix(*keys_[1].expr->type) ? 2 : 1;
    decided_ = std::min(decided_, keys_.size());
  }
}

void RowOrder::AddEntries(const Batch& batch, uint32_t batch_index, std::vector<SortEntry>* out) const {
  const size_t at = out->size();
  out->resize(at + static_cast<size_t>(batch.num_rows()));
  FillEntries(batch, batch_index, out->data() + at);
}

std::vector<SortEntry> RowOrder::EntriesOf(const std::vector<BatchPtr>& batches, ThreadPool* pool) const {
  std::vector<size_t> offsets = {0};
  for (const auto& b : batches) offsets.push_back(offsets.back() + static_cast<size_t>(b->num_rows()));
  std::vector<SortEntry> entries(offsets.back());
  if (pool == nullptr || entries.size() < (1 << 16)) {
    for (size_t b = 0; b < batches.size(); ++b) FillEntries(*batches[b], static_cast<uint32_t>(b), entries.data() + offsets[b]);
    return entries;
  }
  TaskGroup tasks(*pool);
  const size_t parts = static_cast<size_t>(pool->num_threads()) * 4;
  for (size_t p = 0; p < parts; ++p) {
    tasks.Spawn([&, p] {
      for (size_t b = p; b < batches.size(); b += parts) FillEntries(*batches[b], static_cast<uint32_t>(b), entries.data() + offsets[b]);
      return Status::OK();
    });
  }
  (void)tasks.Wait();
  return entries;
}

void RowOrder::FillEntries(const Batch& batch, uint32_t batch_index, SortEntry* out) const {
  const int64_t n = batch.num_rows();
  for (int64_t i = 0; i < n; ++i) out[i] = SortEntry{0, 0, MakeRowRef(batch_index, static_cast<uint32_t>(i)), false, false};
  FillPrefixes(*batch.column(first_key_), !keys_[0].ascending, out, &SortEntry::prefix, &SortEntry::null);
  // The second key's prefix matters only after an exact first one.
  if (decided_ >= 1 && keys_.size() > 1) {
    FillPrefixes(*batch.column(first_key_ + 1), !keys_[1].ascending, out, &SortEntry::prefix2, &SortEntry::null2);
  }
}

int RowOrder::Compare(const Batch& x, int64_t a, const Batch& y, int64_t b) const { return Compare(x, a, y, b, 0); }

int RowOrder::Compare(const Batch& x, int64_t a, const Batch& y, int64_t b, size_t from_key) const {
  for (size_t k = from_key; k < keys_.size(); ++k) {
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
  // Prefixes without nulls order like their bytes: a radix sort, with the full order for ties.
  const bool any_null = std::any_of(entries->begin(), entries->end(), [](const SortEntry& e) { return e.null || e.null2; });
  if (!any_null && n > radix::kComparisonSortBelow) {
    std::vector<SortEntry> scratch(n);
    const int bytes = decided_ >= 2 ? 16 : 8;
    if (pool != nullptr) {
      radix::ParallelSort(entries->data(), scratch.data(), n, 0, bytes, less, *pool);
    } else {
      radix::SortRange(entries->data(), scratch.data(), n, 0, bytes, less);
    }
    return;
  }
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
  std::vector<SortEntry> scratch(n);
  while (bounds.size() > 2) {
    std::vector<size_t> merged = {0};
    TaskGroup tasks(*pool);
    for (size_t p = 0; p + 2 < bounds.size(); p += 2) {
      MergeInPieces(entries->data(), bounds[p], bounds[p + 1], bounds[p + 2], scratch.data(), less, parts, &tasks);
      merged.push_back(bounds[p + 2]);
    }
    if (bounds.size() % 2 == 0) {  // an odd part waits a round, copied over as it is
      std::copy(entries->begin() + static_cast<long>(bounds[bounds.size() - 2]), entries->end(),
                scratch.begin() + static_cast<long>(bounds[bounds.size() - 2]));
      merged.push_back(bounds.back());
    }
    (void)tasks.Wait();
    entries->swap(scratch);
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
