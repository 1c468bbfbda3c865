// SPDX-License-Identifier: Apache-2.0
// GroupTable: open addressing over (hash, group) slots, keys kept per group (words or bytes).
// JoinTable: per-partition bucket heads with chains through the rows, built by one task a
// partition.
#include "epoxy/exec/hash_table.h"

#include <algorithm>

#include "epoxy/common/bytes.h"

namespace epoxy::exec {

GroupTable::GroupTable(const KeyEncoder* encoder, MemoryPool* pool) : encoder_(encoder), charge_(pool) {}

Status GroupTable::Charge() {
  const int64_t bytes = static_cast<int64_t>(slots_.capacity() * sizeof(Slot) + hashes_.capacity() * 8 +
                                             words_.capacity() * 8 + key_at_.capacity() * 8 + key_length_.capacity() * 4) +
                        key_bytes_;
  return charge_.Set(bytes, "hash table");
}

Status GroupTable::Clear() {
  slots_ = {};
  hashes_ = {};
  words_ = {};
  blocks_ = {};
  key_at_ = {};
  key_length_ = {};
  key_bytes_ = 0;
  null_group_ = kEmpty;
  return Charge();
}

void GroupTable::StoreKey(std::string_view key) {
  constexpr size_t kBlock = 1 << 20;
  if (blocks_.empty() || blocks_.back().size() + key.size() > blocks_.back().capacity()) {
    blocks_.emplace_back();
    blocks_.back().reserve(std::max(kBlock, key.size()));
    key_bytes_ += static_cast<int64_t>(blocks_.back().capacity());
  }
  std::string& block = blocks_.back();
  key_at_.push_back((static_cast<uint64_t>(blocks_.size() - 1) << 32) | block.size());
  key_length_.push_back(static_cast<uint32_t>(key.size()));
  block.append(key);
}

Status GroupTable::Grow() {
  const size_t size = std::max<size_t>(1024, slots_.size() * 2);
  // Charged before it is allocated: a table that would pass the budget fails (or spills) first.
  EPOXY_RETURN_NOT_OK(charge_.Set(charge_.bytes() + static_cast<int64_t>(size * sizeof(Slot)), "hash table"));
  std::vector<Slot> old = std::move(slots_);
  slots_.assign(size, Slot{0, kEmpty});
  const size_t mask = slots_.size() - 1;
  for (const Slot& s : old) {
    if (s.group == kEmpty) continue;
    size_t p = static_cast<size_t>(s.hash) & mask;
    while (slots_[p].group != kEmpty) p = (p + 1) & mask;
    slots_[p] = s;
  }
  return Charge();
}

uint32_t GroupTable::NewGroup(uint64_t hash) {
  hashes_.push_back(hash);
  return static_cast<uint32_t>(hashes_.size() - 1);
}

template <int K>
Status GroupTable::InsertFixed(const EncodedKeys& keys, uint32_t* ids, std::vector<int32_t>* new_rows) {
  const int64_t n = keys.num_rows;
  const bool lone_nulls = !encoder_->encodes_nulls() && !keys.null_keys.empty();
  for (int64_t i = 0; i < n; ++i) {
    if (lone_nulls && keys.null_keys[static_cast<size_t>(i)] != 0) {
      if (null_group_ == kEmpty) {
        null_group_ = NewGroup(keys.hashes[static_cast<size_t>(i)]);
        for (int w = 0; w < K; ++w) words_.push_back(0);
        new_rows->push_back(static_cast<int32_t>(i));
      }
      ids[i] = null_group_;
      continue;
    }
    if ((hashes_.size() + 1) * 2 > slots_.size()) EPOXY_RETURN_NOT_OK(Grow());
    const uint64_t h = keys.hashes[static_cast<size_t>(i)];
    const uint64_t* key = keys.words.data() + i * K;
    const size_t mask = slots_.size() - 1;
    size_t p = static_cast<size_t>(h) & mask;
    while (true) {
      const Slot& s = slots_[p];
      if (s.group == kEmpty) break;
      if (s.hash == h) {
        const uint64_t* other = words_.data() + static_cast<size_t>(s.group) * K;
        bool same = true;
        for (int w = 0; w < K; ++w) same = same && other[w] == key[w];
        if (same) break;
      }
      p = (p + 1) & mask;
    }
    if (slots_[p].group == kEmpty) {
      if (hashes_.size() >= kEmpty - 1) return Status::OutOfMemory("more than 4 billion groups in one hash table");
      slots_[p] = {h, NewGroup(h)};
      for (int w = 0; w < K; ++w) words_.push_back(key[w]);
      new_rows->push_back(static_cast<int32_t>(i));
    }
    ids[i] = slots_[p].group;
  }
  return Status::OK();
}

Status GroupTable::InsertBytes(const EncodedKeys& keys, uint32_t* ids, std::vector<int32_t>* new_rows) {
  const int64_t n = keys.num_rows;
  const bool lone_nulls = !encoder_->encodes_nulls() && !keys.null_keys.empty();
  for (int64_t i = 0; i < n; ++i) {
    if (lone_nulls && keys.null_keys[static_cast<size_t>(i)] != 0) {
      if (null_group_ == kEmpty) {
        null_group_ = NewGroup(keys.hashes[static_cast<size_t>(i)]);
        StoreKey({});
        new_rows->push_back(static_cast<int32_t>(i));
      }
      ids[i] = null_group_;
      continue;
    }
    if ((hashes_.size() + 1) * 2 > slots_.size()) EPOXY_RETURN_NOT_OK(Grow());
    const uint64_t h = keys.hashes[static_cast<size_t>(i)];
    const std::string_view key = keys.Bytes(i);
    const size_t mask = slots_.size() - 1;
    size_t p = static_cast<size_t>(h) & mask;
    while (true) {
      const Slot& s = slots_[p];
      if (s.group == kEmpty) break;
      if (s.hash == h && EqualBytes(KeyBytes(s.group), key)) break;
      p = (p + 1) & mask;
    }
    if (slots_[p].group == kEmpty) {
      if (hashes_.size() >= kEmpty - 1) return Status::OutOfMemory("more than 4 billion groups in one hash table");
      slots_[p] = {h, NewGroup(h)};
      StoreKey(key);
      new_rows->push_back(static_cast<int32_t>(i));
    }
    ids[i] = slots_[p].group;
  }
  return Status::OK();
}

Status GroupTable::Insert(const EncodedKeys& keys, std::vector<uint32_t>* ids, std::vector<int32_t>* new_rows) {
  new_rows->clear();
  ids->resize(static_cast<size_t>(keys.num_rows));
  Status st;
  switch (encoder_->words()) {
    case 0: st = InsertBytes(keys, ids->data(), new_rows); break;
    case 1: st = InsertFixed<1>(keys, ids->data(), new_rows); break;
    case 2: st = InsertFixed<2>(keys, ids->data(), new_rows); break;
    case 3: st = InsertFixed<3>(keys, ids->data(), new_rows); break;
    default: st = InsertFixed<4>(keys, ids->data(), new_rows); break;
  }
  EPOXY_RETURN_NOT_OK(st);
  return Charge();
}

Result<bool> JoinTable::BuildDirect(const std::vector<uint8_t>& indexed) {
  if (encoder_->num_keys() != 1 || encoder_->words() != 1 || encoder_->encodes_nulls()) return false;
  switch (encoder_->types()[0]->id()) {
    case TypeId::kTinyInt: direct_width_ = 1; break;
    case TypeId::kSmallInt: direct_width_ = 2; break;
    case TypeId::kInt:
    case TypeId::kDate: direct_width_ = 4; break;
    case TypeId::kBigInt:
    case TypeId::kTimestamp: direct_width_ = 8; break;
    default: return false;
  }
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  for (int64_t g = 0; g < num_rows_; ++g) {
    if (!indexed[static_cast<size_t>(g)]) continue;
    const int64_t v = DirectValue(words_[static_cast<size_t>(g)]);
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  if (lo > hi) return false;
  // The span must not overflow, and the heads (4 bytes a value) must cost about what a hash
  // table's would.
  const uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo);  // hi >= lo: no overflow
  if (span >= std::max<uint64_t>(2 * static_cast<uint64_t>(num_rows_), 1024) || span >= (uint64_t{1} << 28)) return false;
  EPOXY_RETURN_NOT_OK(charge_.Set(static_cast<int64_t>(hashes_.capacity() * 8 + next_.capacity() * 4 + words_.capacity() * 8 +
                                                       (span + 1) * 4),
                                  "join hash table"));
  direct_min_ = lo;
  direct_heads_.assign(static_cast<size_t>(span + 1), kEnd);
  for (int64_t g = num_rows_ - 1; g >= 0; --g) {  // in reverse, so chains list rows in build order
    if (!indexed[static_cast<size_t>(g)]) continue;
    uint32_t& head = direct_heads_[static_cast<size_t>(DirectValue(words_[static_cast<size_t>(g)]) - lo)];
    next_[static_cast<size_t>(g)] = head;
    head = static_cast<uint32_t>(g);
  }
  direct_ = true;
  return true;
}

Result<std::unique_ptr<JoinTable>> JoinTable::Build(const KeyEncoder* encoder, std::vector<EncodedKeys> keys,
                                                    uint32_t null_safe_mask, ThreadPool* pool, MemoryPool* memory) {
  std::unique_ptr<JoinTable> table(new JoinTable(encoder, memory));
  int64_t total = 0, bytes = 0;
  for (const auto& k : keys) {
    total += k.num_rows;
    bytes += static_cast<int64_t>(k.bytes.size());
  }
  if (total >= static_cast<int64_t>(kEnd)) return Status::OutOfMemory("a join's build side has more than 4 billion rows");
  const int words = encoder->words();
  table->num_rows_ = total;
  // Reserve everything first, so the build fails before it allocates past the budget.
  const int64_t estimate = total * (8 + 4 + 8 * words + 8) + bytes + total * 8;
  EPOXY_RETURN_NOT_OK(table->charge_.Set(estimate, "join hash table"));
  table->hashes_.resize(static_cast<size_t>(total));
  table->next_.assign(static_cast<size_t>(total), kEnd);
  if (words > 0) {
    table->words_.resize(static_cast<size_t>(total * words));
  } else {
    table->offsets_.reserve(static_cast<size_t>(total) + 1);
    table->arena_.reserve(static_cast<size_t>(bytes));
  }
  std::vector<uint8_t> indexed(static_cast<size_t>(total), 0);
  {
    int64_t at = 0;
    table->offsets_.push_back(0);
    for (auto& k : keys) {
      std::copy(k.hashes.begin(), k.hashes.end(), table->hashes_.begin() + at);
      if (words > 0) {
        std::copy(k.words.begin(), k.words.end(), table->words_.begin() + at * words);
      } else {
        for (int64_t i = 0; i < k.num_rows; ++i) {
          table->arena_.append(k.Bytes(i));
          table->offsets_.push_back(table->arena_.size());
        }
      }
      for (int64_t i = 0; i < k.num_rows; ++i) {
        const uint32_t nulls = k.NullKeys(i);
        const bool excluded = (nulls & ~null_safe_mask) != 0;
        if (nulls != 0) table->has_null_key_ = true;
        indexed[static_cast<size_t>(at + i)] = excluded ? 0 : 1;
      }
      at += k.num_rows;
      k = EncodedKeys();  // copied: freed now, so the keys are not held twice
    }
  }
  keys.clear();
  EPOXY_ASSIGN_OR_RETURN(bool direct, table->BuildDirect(indexed));
  if (direct) return table;
  // Partitions by the hash's high bits: about 64K rows each, at most 1024.
  int bits = 1;
  while (bits < 10 && (total >> bits) > (1 << 16)) ++bits;
  table->shift_ = 64 - bits;
  const size_t num_partitions = size_t{1} << bits;
  table->partitions_.resize(num_partitions);
  std::vector<std::vector<uint32_t>> members(num_partitions);
  for (int64_t g = 0; g < total; ++g) {
    if (indexed[static_cast<size_t>(g)]) members[table->hashes_[static_cast<size_t>(g)] >> table->shift_].push_back(static_cast<uint32_t>(g));
  }
  TaskGroup tasks(*pool);
  for (size_t p = 0; p < num_partitions; ++p) {
    if (members[p].empty()) continue;
    tasks.Spawn([&, p]() -> Status {
      Partition& part = table->partitions_[p];
      size_t buckets = 16;
      while (buckets < members[p].size()) buckets *= 2;
      part.heads.assign(buckets, kEnd);
      part.mask = buckets - 1;
      // Rows are pushed in reverse so each chain lists its rows in build order.
      for (auto it = members[p].rbegin(); it != members[p].rend(); ++it) {
        const uint32_t g = *it;
        uint32_t& head = part.heads[table->hashes_[g] & part.mask];
        table->next_[g] = head;
        head = g;
      }
      return Status::OK();
    });
  }
  EPOXY_RETURN_NOT_OK(tasks.Wait());
  int64_t heads = 0;
  for (const auto& p : table->partitions_) heads += static_cast<int64_t>(p.heads.capacity() * 4);
  EPOXY_RETURN_NOT_OK(table->charge_.Set(static_cast<int64_t>(table->hashes_.capacity() * 8 + table->next_.capacity() * 4 +
                                                              table->words_.capacity() * 8 + table->arena_.capacity() +
                                                              table->offsets_.capacity() * 8) + heads,
                                         "join hash table"));
  return table;
}

}  // namespace epoxy::exec
