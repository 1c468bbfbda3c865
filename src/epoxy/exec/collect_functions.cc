// SPDX-License-Identifier: Apache-2.0
// collect_list / collect_set, DISTINCT aggregates and approx_count_distinct.
#include "epoxy/exec/collect_functions.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "epoxy/exec/group_index.h"
#include "epoxy/exec/value_store.h"
#include "epoxy/vector/builder.h"

namespace epoxy::exec {
namespace {

using expr::Expr;

constexpr uint32_t kNone = UINT32_MAX;

/// Each group's elements in arrival order: a linked list threaded through flat arrays.
class ElementLists {
 public:
  void Resize(int64_t n) {
    heads_.resize(static_cast<size_t>(n), kNone);
    tails_.resize(static_cast<size_t>(n), kNone);
    counts_.resize(static_cast<size_t>(n), 0);
  }
  void Append(uint32_t g, RowRef ref) {
    const uint32_t e = static_cast<uint32_t>(refs_.size());
    refs_.push_back(ref);
    next_.push_back(kNone);
    if (tails_[g] == kNone) heads_[g] = e;
    else next_[tails_[g]] = e;
    tails_[g] = e;
    ++counts_[g];
  }
  /// The lists as an array<T> column of one row per group (empty lists, never null).
  Result<ArrayPtr> ToArray(const ValueStore& store, const TypePtr& list_type, MemoryPool* pool) const {
    std::vector<RowRef> ordered;
    ordered.reserve(refs_.size());
    BufferBuilder offsets(pool);
    EPOXY_RETURN_NOT_OK(offsets.Resize(static_cast<int64_t>((heads_.size() + 1) * 4)));
    int32_t* o = reinterpret_cast<int32_t*>(offsets.mutable_data());
    o[0] = 0;
    for (size_t g = 0; g < heads_.size(); ++g) {
      for (uint32_t e = heads_[g]; e != kNone; e = next_[e]) ordered.push_back(refs_[e]);
      if (ordered.size() > INT32_MAX) return Status::OutOfMemory("collected lists of one batch exceed 2^31 values");
      o[g + 1] = static_cast<int32_t>(ordered.size());
    }
    EPOXY_ASSIGN_OR_RETURN(ArrayPtr values, store.Gather(ordered));
    EPOXY_ASSIGN_OR_RETURN(BufferPtr ob, offsets.Finish());
    return Array::Make(list_type, static_cast<int64_t>(heads_.size()), {BufferPtr(), ob}, {values}, 0);
  }
  /// Every element ref, for ValueStore::Compact (which rewrites them).
  std::vector<RowRef>* refs() { return &refs_; }
  int64_t memory_bytes() const {
    return static_cast<int64_t>(heads_.capacity() * 12 + refs_.capacity() * 8 + next_.capacity() * 4);
  }

 private:
  std::vector<uint32_t> heads_, tails_, counts_;
  std::vector<RowRef> refs_;
  std::vector<uint32_t> next_;
};

Result<ArrayPtr> GroupIds(const uint32_t* ids, const std::vector<int32_t>& rows, MemoryPool* pool) {
  Int32Builder b(DataType::Int(), pool);
  EPOXY_RETURN_NOT_OK(b.Reserve(static_cast<int64_t>(rows.size())));
  for (int32_t r : rows) EPOXY_RETURN_NOT_OK(b.Append(static_cast<int32_t>(ids[r])));
  return b.Finish();
}

/// Rows where every one of `args` is set.
std::vector<int32_t> NonNullRows(const std::vector<ArrayPtr>& args, int64_t n) {
  std::vector<int32_t> rows;
  rows.reserve(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    bool all = true;
    for (const auto& a : args) all = all && a->type_id() != TypeId::kNull && a->IsValid(i);
    if (all) rows.push_back(static_cast<int32_t>(i));
  }
  return rows;
}

/// The distinct (group, value) pairs among `rows` that `seen` had not met: their positions in
/// `rows`. With `seen` null every row is new.
Result<std::vector<int32_t>> NewPairs(GroupIndex* seen, const uint32_t* ids, const std::vector<int32_t>& rows,
                                      const std::vector<ArrayPtr>& taken, MemoryPool* pool) {
  std::vector<int32_t> fresh;
  if (seen == nullptr) {
    fresh.resize(rows.size());
    for (size_t i = 0; i < rows.size(); ++i) fresh[i] = static_cast<int32_t>(i);
    return fresh;
  }
  EPOXY_ASSIGN_OR_RETURN(ArrayPtr gids, GroupIds(ids, rows, pool));
  std::vector<ArrayPtr> keys = {gids};
  keys.insert(keys.end(), taken.begin(), taken.end());
  EPOXY_RETURN_NOT_OK(seen->Add(keys, static_cast<int64_t>(rows.size()), &fresh));
  return fresh;
}

std::vector<ArrayPtr> TakeAll(const std::vector<ArrayPtr>& args, const std::vector<int32_t>& rows, MemoryPool* pool,
                              Status* st) {
  std::vector<ArrayPtr> out;
  for (const auto& a : args) {
    auto t = Take(*a, rows, pool);
    if (!t.ok()) {
      *st = t.status();
      return {};
    }
    out.push_back(*t);
  }
  return out;
}

class CollectAccumulator final : public Accumulator {
 public:
  CollectAccumulator(TypePtr element, bool set, MemoryPool* pool)
      : element_(element), set_(set), pool_(pool), store_(std::move(element), pool) {
    if (set_) seen_ = std::make_unique<GroupIndex>(pool);
  }
  Status Resize(int64_t n) override {
    lists_.Resize(n);
    return Status::OK();
  }
  Status Update(const uint32_t* ids, const std::vector<ArrayPtr>& args, int64_t n) override {
    return Add(ids, args[0], n);
  }
  Status Merge(const uint32_t* ids, const std::vector<ArrayPtr>& states, int64_t n) override {
    // Each partial list's elements go to its row's group.
    const Array& lists = *states[0];
    const int32_t* o = lists.offsets();
    std::vector<uint32_t> element_ids;
    for (int64_t i = 0; i < n; ++i) {
      for (int32_t e = o[i]; e < o[i + 1]; ++e) element_ids.push_back(ids[i]);
    }
    ArrayPtr elements = lists.child(0)->Slice(o[0], o[n] - o[0]);
    return Add(element_ids.data(), elements, static_cast<int64_t>(element_ids.size()));
  }
  Result<std::vector<ArrayPtr>> States() override {
    EPOXY_ASSIGN_OR_RETURN(ArrayPtr lists, lists_.ToArray(store_, DataType::Array(element_), pool_));
    return std::vector<ArrayPtr>{lists};
  }
  std::vector<TypePtr> StateTypes() const override { return {DataType::Array(element_)}; }
  Result<ArrayPtr> Finalize() override { return lists_.ToArray(store_, DataType::Array(element_), pool_); }
  int64_t memory_bytes() const override { return lists_.memory_bytes() + store_.memory_bytes(); }

 private:
  Status Add(const uint32_t* ids, const ArrayPtr& values, int64_t n) {
    std::vector<int32_t> rows = NonNullRows({values}, n);  // collect_* skip nulls, as Spark's
    if (rows.empty()) return Status::OK();
    Status st;
    std::vector<ArrayPtr> taken = TakeAll({values}, rows, pool_, &st);
    EPOXY_RETURN_NOT_OK(st);
    EPOXY_ASSIGN_OR_RETURN(std::vector<int32_t> fresh, NewPairs(seen_.get(), ids, rows, taken, pool_));
    EPOXY_ASSIGN_OR_RETURN(uint32_t chunk, store_.Retain(taken[0]));
    for (int32_t k : fresh) lists_.Append(ids[rows[static_cast<size_t>(k)]], MakeRowRef(chunk, static_cast<uint32_t>(k)));
    if (store_.NeedsCompaction()) EPOXY_RETURN_NOT_OK(store_.Compact(lists_.refs()));
    return Status::OK();
  }

  TypePtr element_;
  bool set_;
  MemoryPool* pool_;
  ValueStore store_;
  ElementLists lists_;
  std::unique_ptr<GroupIndex> seen_;
};

/// f(DISTINCT args): a set of (group, args) decides which rows reach the inner accumulator; the
/// partial state is each group's distinct argument tuples.
class DistinctAccumulator final : public Accumulator {
 public:
  DistinctAccumulator(std::unique_ptr<Accumulator> inner, std::vector<TypePtr> arg_types, MemoryPool* pool)
      : inner_(std::move(inner)), arg_types_(std::move(arg_types)), pool_(pool), seen_(pool),
        store_(ElementType(), pool) {}

  Status Resize(int64_t n) override {
    lists_.Resize(n);
    return inner_->Resize(n);
  }
  Status Update(const uint32_t* ids, const std::vector<ArrayPtr>& args, int64_t n) override { return Add(ids, args, n); }
  Status Merge(const uint32_t* ids, const std::vector<ArrayPtr>& states, int64_t n) override {
    const Array& lists = *states[0];
    const int32_t* o = lists.offsets();
    std::vector<uint32_t> element_ids;
    for (int64_t i = 0; i < n; ++i) {
      for (int32_t e = o[i]; e < o[i + 1]; ++e) element_ids.push_back(ids[i]);
    }
    ArrayPtr elements = lists.child(0)->Slice(o[0], o[n] - o[0]);
    std::vector<ArrayPtr> args = arg_types_.size() == 1 ? std::vector<ArrayPtr>{elements} : elements->children();
    return Add(element_ids.data(), args, static_cast<int64_t>(element_ids.size()));
  }
  Result<std::vector<ArrayPtr>> States() override {
    EPOXY_ASSIGN_OR_RETURN(ArrayPtr lists, lists_.ToArray(store_, DataType::Array(ElementType()), pool_));
    return std::vector<ArrayPtr>{lists};
  }
  std::vector<TypePtr> StateTypes() const override { return {DataType::Array(ElementType())}; }
  Result<ArrayPtr> Finalize() override { return inner_->Finalize(); }
  int64_t memory_bytes() const override {
    return inner_->memory_bytes() + lists_.memory_bytes() + store_.memory_bytes();
  }

 private:
  TypePtr ElementType() const {
    if (arg_types_.size() == 1) return arg_types_[0];
    std::vector<Field> fields;
    for (size_t i = 0; i < arg_types_.size(); ++i) fields.push_back({"_" + std::to_string(i + 1), arg_types_[i]});
    return DataType::Struct(std::move(fields));
  }

  Status Add(const uint32_t* ids, const std::vector<ArrayPtr>& args, int64_t n) {
    std::vector<int32_t> rows = NonNullRows(args, n);
    if (rows.empty()) return Status::OK();
    Status st;
    std::vector<ArrayPtr> taken = TakeAll(args, rows, pool_, &st);
    EPOXY_RETURN_NOT_OK(st);
    EPOXY_ASSIGN_OR_RETURN(std::vector<int32_t> fresh, NewPairs(&seen_, ids, rows, taken, pool_));
    if (fresh.empty()) return Status::OK();
    std::vector<ArrayPtr> distinct = TakeAll(taken, fresh, pool_, &st);
    EPOXY_RETURN_NOT_OK(st);
    std::vector<uint32_t> fresh_ids;
    for (int32_t k : fresh) fresh_ids.push_back(ids[rows[static_cast<size_t>(k)]]);
    EPOXY_RETURN_NOT_OK(inner_->Update(fresh_ids.data(), distinct, static_cast<int64_t>(fresh.size())));
    ArrayPtr element = distinct[0];
    if (arg_types_.size() > 1) {
      element = Array::Make(ElementType(), static_cast<int64_t>(fresh.size()), {BufferPtr()}, distinct, 0);
    }
    EPOXY_ASSIGN_OR_RETURN(uint32_t chunk, store_.Retain(element));
    for (size_t k = 0; k < fresh.size(); ++k) lists_.Append(fresh_ids[k], MakeRowRef(chunk, static_cast<uint32_t>(k)));
    if (store_.NeedsCompaction()) EPOXY_RETURN_NOT_OK(store_.Compact(lists_.refs()));
    return Status::OK();
  }

  std::unique_ptr<Accumulator> inner_;
  std::vector<TypePtr> arg_types_;
  MemoryPool* pool_;
  GroupIndex seen_;
  ValueStore store_;
  ElementLists lists_;
};

/// HyperLogLog: per group, 2^p one-byte registers (sparse until a group has many values).
class ApproxDistinctAccumulator final : public Accumulator {
 public:
  ApproxDistinctAccumulator(int p, MemoryPool* pool) : p_(p), m_(size_t{1} << p), pool_(pool) {}

  Status Resize(int64_t n) override {
    sparse_.resize(static_cast<size_t>(n));
    dense_.resize(static_cast<size_t>(n));
    return Status::OK();
  }
  Status Update(const uint32_t* ids, const std::vector<ArrayPtr>& args, int64_t n) override {
    const Array& a = *args[0];
    if (a.type_id() == TypeId::kNull) return Status::OK();
    std::string key;
    for (int64_t i = 0; i < n; ++i) {
      if (a.IsNull(i)) continue;
      key.clear();
      AppendGroupKey(a, i, &key);  // -0.0 and 0.0, and every NaN, count as one value
      const uint64_t h = XXH3_64bits(key.data(), key.size());
      const uint32_t index = static_cast<uint32_t>(h >> (64 - p_));
      const uint64_t rest = (h << p_) | (uint64_t{1} << (p_ - 1));
      Set(ids[i], index, static_cast<uint8_t>(__builtin_clzll(rest) + 1));
    }
    return Status::OK();
  }
  Status Merge(const uint32_t* ids, const std::vector<ArrayPtr>& states, int64_t n) override {
    const Array& s = *states[0];
    for (int64_t i = 0; i < n; ++i) {
      std::string_view registers = s.GetView(i);
      if (registers.size() != m_) return Status::Internal("approx_count_distinct state of {} bytes, expected {}", registers.size(), m_);
      for (size_t j = 0; j < m_; ++j) {
        const uint8_t r = static_cast<uint8_t>(registers[j]);
        if (r != 0) Set(ids[i], static_cast<uint32_t>(j), r);
      }
    }
    return Status::OK();
  }
  Result<std::vector<ArrayPtr>> States() override {
    StringBuilder b(DataType::Binary(), pool_);
    std::string registers;
    for (size_t g = 0; g < dense_.size(); ++g) {
      Registers(g, &registers);
      EPOXY_RETURN_NOT_OK(b.Append(registers));
    }
    EPOXY_ASSIGN_OR_RETURN(ArrayPtr out, b.Finish());
    return std::vector<ArrayPtr>{out};
  }
  std::vector<TypePtr> StateTypes() const override { return {DataType::Binary()}; }
  Result<ArrayPtr> Finalize() override {
    Int64Builder b(DataType::BigInt(), pool_);
    std::string registers;
    const double m = static_cast<double>(m_);
    const double alpha = m_ == 16 ? 0.673 : m_ == 32 ? 0.697 : m_ == 64 ? 0.709 : 0.7213 / (1 + 1.079 / m);
    for (size_t g = 0; g < dense_.size(); ++g) {
      Registers(g, &registers);
      double sum = 0;
      int64_t zeros = 0;
      for (char r : registers) {
        sum += std::ldexp(1.0, -static_cast<int>(static_cast<uint8_t>(r)));
        zeros += r == 0 ? 1 : 0;
      }
      double estimate = alpha * m * m / sum;
      if (estimate <= 2.5 * m && zeros > 0) estimate = m * std::log(m / static_cast<double>(zeros));  // linear counting
      EPOXY_RETURN_NOT_OK(b.Append(static_cast<int64_t>(std::llround(estimate))));
    }
    return b.Finish();
  }
  int64_t memory_bytes() const override { return bytes_ + static_cast<int64_t>(dense_.capacity() * 48); }

 private:
  void Set(uint32_t g, uint32_t index, uint8_t rank) {
    if (!dense_[g].empty()) {
      if (rank > static_cast<uint8_t>(dense_[g][index])) dense_[g][index] = static_cast<char>(rank);
      return;
    }
    auto& sparse = sparse_[g];
    for (auto& e : sparse) {
      if ((e >> 8) == index) {
        if (rank > (e & 0xff)) e = (index << 8) | rank;
        return;
      }
    }
    sparse.push_back((index << 8) | rank);
    bytes_ += 4;
    if (sparse.size() * 4 >= m_ / 4) {  // a quarter of the dense size: switch to registers
      dense_[g].assign(m_, '\0');
      for (uint32_t e : sparse) dense_[g][e >> 8] = static_cast<char>(e & 0xff);
      bytes_ += static_cast<int64_t>(m_) - static_cast<int64_t>(sparse.size()) * 4;
      sparse = {};
    }
  }
  void Registers(size_t g, std::string* out) const {
    if (!dense_[g].empty()) {
      *out = dense_[g];
      return;
    }
    out->assign(m_, '\0');
    for (uint32_t e : sparse_[g]) (*out)[e >> 8] = static_cast<char>(e & 0xff);
  }

  int p_;
  size_t m_;
  MemoryPool* pool_;
  std::vector<std::vector<uint32_t>> sparse_;
  std::vector<std::string> dense_;
  int64_t bytes_ = 0;
};

}  // namespace

Result<std::unique_ptr<Accumulator>> MakeCollectAccumulator(const Expr& call, bool set, MemoryPool* pool) {
  return std::unique_ptr<Accumulator>(new CollectAccumulator(call.args[0]->type, set, pool));
}

Result<std::unique_ptr<Accumulator>> MakeDistinctAccumulator(const Expr& call, MemoryPool* pool) {
  auto plain = std::make_shared<Expr>(call);
  plain->distinct = false;
  EPOXY_ASSIGN_OR_RETURN(std::unique_ptr<Accumulator> inner, MakeAccumulator(*plain, pool));
  std::vector<TypePtr> types;
  for (const auto& a : call.args) types.push_back(a->type);
  if (types.empty()) return inner;  // count(DISTINCT *) does not parse; count() counts rows
  return std::unique_ptr<Accumulator>(new DistinctAccumulator(std::move(inner), std::move(types), pool));
}

Result<std::unique_ptr<Accumulator>> MakeApproxDistinctAccumulator(const Expr& call, MemoryPool* pool) {
  double rsd = 0.05;
  if (call.args.size() > 1 && !call.args[1]->literal.is_null()) rsd = std::get<double>(call.args[1]->literal.value);
  if (!(rsd > 0) || rsd >= 0.4) {
    return Status::InvalidInput("approx_count_distinct needs a relative standard deviation in (0, 0.4), got {}", rsd);
  }
  // Spark's HyperLogLogPlusPlus: p = ceil(2 log2(1.106 / rsd)), at least 4.
  int p = static_cast<int>(std::ceil(2.0 * std::log(1.106 / rsd) / std::log(2.0)));
  p = std::clamp(p, 4, 18);
  return std::unique_ptr<Accumulator>(new ApproxDistinctAccumulator(p, pool));
}

}  // namespace epoxy::exec
