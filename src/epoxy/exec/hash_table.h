// SPDX-License-Identifier: Apache-2.0
// Hash tables over encoded keys: GroupTable gives dense group ids (aggregation, dedup, distinct);
// JoinTable is built once from a join's build side and probed by many threads.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "epoxy/common/thread_pool.h"
#include "epoxy/exec/key_encoding.h"
#include "epoxy/memory/memory_pool.h"

namespace epoxy::exec {

/// Dense ids for distinct keys, in order of first appearance. Not thread-safe: each thread of an
/// aggregation has its own (their groups merge by partition afterwards).
class GroupTable {
 public:
  GroupTable(const KeyEncoder* encoder, MemoryPool* pool);
  GroupTable(const GroupTable&) = delete;
  GroupTable& operator=(const GroupTable&) = delete;

  /// The group id of each of `keys`' rows (a new group for a new key); `new_rows` gets the rows
  /// that started a group, in id order.
  Status Insert(const EncodedKeys& keys, std::vector<uint32_t>* ids, std::vector<int32_t>* new_rows);

  int64_t num_groups() const { return static_cast<int64_t>(hashes_.size()); }
  uint64_t hash(uint32_t group) const { return hashes_[group]; }
  const std::vector<uint64_t>& hashes() const { return hashes_; }
  int64_t memory_bytes() const { return charge_.bytes(); }
  /// Forgets every group (the table is reused after a flush).
  Status Clear();

 private:
  struct Slot {
    uint64_t hash;
    uint32_t group;  // kEmpty when free
  };
  static constexpr uint32_t kEmpty = UINT32_MAX;

  template <int K>
  Status InsertFixed(const EncodedKeys& keys, uint32_t* ids, std::vector<int32_t>* new_rows);
  Status InsertBytes(const EncodedKeys& keys, uint32_t* ids, std::vector<int32_t>* new_rows);
  Status Grow();
  Status Charge();
  uint32_t NewGroup(uint64_t hash);

  /// Variable layout: the key of `group`.
  std::string_view KeyBytes(uint32_t group) const {
    const uint64_t at = key_at_[group];
    return std::string_view(blocks_[at >> 32].data() + (at & 0xffffffffu), key_length_[group]);
  }
  /// Stores a new group's key bytes in the blocks (a key never spans two).
  void StoreKey(std::string_view key);

  const KeyEncoder* encoder_;
  MemoryReservation charge_;
  std::vector<Slot> slots_;
  std::vector<uint64_t> hashes_;  // per group
  std::vector<uint64_t> words_;   // fixed layout: the groups' key words
  // Variable layout: the groups' key bytes in blocks of about 1 MiB (never reallocated, so the
  // table grows without holding its keys twice), and where each key is.
  std::vector<std::string> blocks_;
  std::vector<uint64_t> key_at_;      // (block << 32) | offset
  std::vector<uint32_t> key_length_;
  int64_t key_bytes_ = 0;             // capacity of the blocks
  uint32_t null_group_ = kEmpty;  // the group of a lone null key (single-key layouts)
};

/// A join's build side, indexed by key: rows are partitioned by hash so the partitions are built
/// in parallel; probing is thread-safe. Row ids are the rows' positions in the build side.
class JoinTable {
 public:
  /// Indexes every row of `keys` (one entry per build batch, in order) except those with a null
  /// in a key outside `null_safe_mask` (bit k: key k matches nulls).
  static Result<std::unique_ptr<JoinTable>> Build(const KeyEncoder* encoder, std::vector<EncodedKeys> keys,
                                                  uint32_t null_safe_mask, ThreadPool* pool, MemoryPool* memory);

  int64_t num_rows() const { return num_rows_; }
  /// Calls `match(row)` for every build row whose key equals probe row `i` of `probe`.
  template <typename F>
  void ForEachMatch(const EncodedKeys& probe, int64_t i, F&& match) const {
    if (direct_) {
      const uint64_t at = static_cast<uint64_t>(DirectValue(probe.words[static_cast<size_t>(i)])) - static_cast<uint64_t>(direct_min_);
      if (at >= direct_heads_.size()) return;  // below the minimum wraps around past the end
      for (uint32_t g = direct_heads_[at]; g != kEnd; g = next_[g]) match(g);
      return;
    }
    const uint64_t h = probe.hashes[static_cast<size_t>(i)];
    const Partition& p = partitions_[h >> shift_];
    if (p.heads.empty()) return;
    const int k = encoder_->words();
    for (uint32_t g = p.heads[h & p.mask]; g != kEnd; g = next_[g]) {
      if (hashes_[g] != h) continue;
      if (k > 0) {
        const uint64_t* a = words_.data() + static_cast<size_t>(g) * k;
        const uint64_t* b = probe.words.data() + static_cast<size_t>(i) * k;
        bool same = a[0] == b[0];
        for (int w = 1; w < k && same; ++w) same = a[w] == b[w];
        if (!same) continue;
      } else if (Bytes(g) != probe.Bytes(i)) {
        continue;
      }
      match(g);
    }
  }
  /// Whether the build side had a row with a null key (NOT IN's null-aware anti join).
  bool has_null_key() const { return has_null_key_; }
  int64_t memory_bytes() const { return charge_.bytes(); }

 private:
  static constexpr uint32_t kEnd = UINT32_MAX;
  struct Partition {
    std::vector<uint32_t> heads;
    uint64_t mask = 0;
  };
  JoinTable(const KeyEncoder* encoder, MemoryPool* memory) : encoder_(encoder), charge_(memory) {}
  std::string_view Bytes(uint32_t g) const {
    return std::string_view(arena_).substr(offsets_[g], offsets_[g + 1] - offsets_[g]);
  }
  /// The integer a one-word key of one integer column holds (sign-extended from its width).
  int64_t DirectValue(uint64_t word) const {
    return direct_width_ == 8 ? static_cast<int64_t>(word)
                              : static_cast<int64_t>(word << (64 - 8 * direct_width_)) >> (64 - 8 * direct_width_);
  }
  /// Indexes the rows by key value when the key is one integer column whose values span a range
  /// not much larger than the rows: no hashing or key comparison when probing.
  Result<bool> BuildDirect(const std::vector<uint8_t>& indexed);

  const KeyEncoder* encoder_;
  MemoryReservation charge_;
  int64_t num_rows_ = 0;
  int shift_ = 63;
  std::vector<Partition> partitions_;
  std::vector<uint64_t> hashes_;
  std::vector<uint32_t> next_;
  std::vector<uint64_t> words_;
  std::string arena_;
  std::vector<uint64_t> offsets_;
  bool has_null_key_ = false;
  bool direct_ = false;
  int direct_width_ = 8;
  int64_t direct_min_ = 0;
  std::vector<uint32_t> direct_heads_;  // by key value - direct_min_
};

}  // namespace epoxy::exec
