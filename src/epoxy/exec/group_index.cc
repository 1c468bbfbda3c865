// SPDX-License-Identifier: Apache-2.0
// GroupIndex: keys serialised to bytes, hashed with XXH3 into an open-addressing table.
#include "epoxy/exec/group_index.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "epoxy/common/bytes.h"

namespace epoxy::exec {
namespace {

template <typename T>
void Put(T v, std::string* out) {
  out->append(reinterpret_cast<const char*>(&v), sizeof(T));
}

/// -0.0 groups with 0.0 and every NaN with every other, as Spark normalises them.
template <typename T>
T NormalFloat(T v) {
  if (std::isnan(v)) return std::numeric_limits<T>::quiet_NaN();
  return v == 0 ? T(0) : v;
}

}  // namespace

void AppendGroupKey(const Array& a, int64_t i, std::string* out) {
  if (a.IsNull(i)) {
    out->push_back(0);
    return;
  }
  out->push_back(1);
  switch (a.type_id()) {
    case TypeId::kNull: return;
    case TypeId::kBoolean: out->push_back(a.GetBool(i) ? 1 : 0); return;
    case TypeId::kTinyInt: Put(a.values<int8_t>()[i], out); return;
    case TypeId::kSmallInt: Put(a.values<int16_t>()[i], out); return;
    case TypeId::kInt:
    case TypeId::kDate: Put(a.values<int32_t>()[i], out); return;
    case TypeId::kBigInt:
    case TypeId::kTimestamp: Put(a.values<int64_t>()[i], out); return;
    case TypeId::kFloat: Put(NormalFloat(a.values<float>()[i]), out); return;
    case TypeId::kDouble: Put(NormalFloat(a.values<double>()[i]), out); return;
    case TypeId::kDecimal: {
      __int128 v;
      std::memcpy(&v, a.values<__int128>() + i, sizeof(v));
      Put(v, out);
      return;
    }
    case TypeId::kString:
    case TypeId::kBinary: {
      std::string_view v = a.GetView(i);
      Put(static_cast<uint32_t>(v.size()), out);
      out->append(v);
      return;
    }
    case TypeId::kStruct:
      for (int c = 0; c < static_cast<int>(a.children().size()); ++c) AppendGroupKey(*a.child(c), i, out);
      return;
    case TypeId::kArray:
    case TypeId::kMap: {
      const int32_t* o = a.offsets();
      Put(static_cast<uint32_t>(o[i + 1] - o[i]), out);
      for (int32_t j = o[i]; j < o[i + 1]; ++j) AppendGroupKey(*a.child(0), j, out);
      return;
    }
    case TypeId::kChoice: {
      int member = a.choice_index(i);
      out->push_back(static_cast<char>(member));
      AppendGroupKey(*a.child(member), i, out);
      return;
    }
  }
}

GroupIndex::GroupIndex(MemoryPool* pool) : pool_(pool ? pool : &MemoryPool::Default()) {}

GroupIndex::~GroupIndex() { pool_->Release(charged_); }

Status GroupIndex::Charge() {
  const int64_t now = static_cast<int64_t>(arena_.capacity() + key_offsets_.capacity() * sizeof(uint64_t) +
                                           slots_.capacity() * sizeof(Slot));
  if (now > charged_) {
    EPOXY_RETURN_NOT_OK(pool_->Reserve(now - charged_, "distinct keys"));
    charged_ = now;
  }
  return Status::OK();
}

Status GroupIndex::Grow() {
  std::vector<Slot> old = std::move(slots_);
  slots_.assign(std::max<size_t>(1024, old.size() * 2), Slot());
  const size_t mask = slots_.size() - 1;
  for (const Slot& s : old) {
    if (s.id == UINT32_MAX) continue;
    size_t p = static_cast<size_t>(s.hash) & mask;
    while (slots_[p].id != UINT32_MAX) p = (p + 1) & mask;
    slots_[p] = s;
  }
  return Charge();
}

Status GroupIndex::Add(const std::vector<ArrayPtr>& keys, int64_t n, std::vector<int32_t>* new_rows,
                       std::vector<uint32_t>* ids) {
  new_rows->clear();
  if (ids != nullptr) ids->resize(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    if ((static_cast<size_t>(num_groups()) + 1) * 2 > slots_.size()) EPOXY_RETURN_NOT_OK(Grow());
    key_.clear();
    for (const auto& column : keys) AppendGroupKey(*column, i, &key_);
    const uint64_t hash = XXH3_64bits(key_.data(), key_.size());
    const size_t mask = slots_.size() - 1;
    size_t p = static_cast<size_t>(hash) & mask;
    while (slots_[p].id != UINT32_MAX && !(slots_[p].hash == hash && EqualBytes(Key(slots_[p].id), key_))) {
      p = (p + 1) & mask;
    }
    if (slots_[p].id == UINT32_MAX) {
      if (num_groups() >= static_cast<int64_t>(UINT32_MAX) - 1) return Status::OutOfMemory("more than 4 billion distinct keys");
      slots_[p] = {hash, static_cast<uint32_t>(num_groups())};
      arena_.append(key_);
      key_offsets_.push_back(arena_.size());
      new_rows->push_back(static_cast<int32_t>(i));
    }
    if (ids != nullptr) (*ids)[static_cast<size_t>(i)] = slots_[p].id;
  }
  return Charge();
}

}  // namespace epoxy::exec
