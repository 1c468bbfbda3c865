// SPDX-License-Identifier: Apache-2.0
// GroupIndex: dense ids for the distinct values of a row's key columns, the core of DISTINCT,
// dropDuplicates and (to come) GROUP BY and hash joins.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "epoxy/memory/memory_pool.h"
#include "epoxy/vector/array.h"

namespace epoxy::exec {

/// Keys compare as Spark groups them: nulls equal each other, -0.0 equals 0.0, NaN equals NaN,
/// and nested values (structs, arrays, maps, choices) compare member by member. Ids count from 0
/// in order of first appearance. Each key is kept once, serialised, in memory charged to `pool`.
/// Not thread-safe.
class GroupIndex {
 public:
  explicit GroupIndex(MemoryPool* pool);
  ~GroupIndex();
  GroupIndex(const GroupIndex&) = delete;
  GroupIndex& operator=(const GroupIndex&) = delete;

  /// Rows [0, n) of `keys` (columns of equal length): `ids` (when not null) receives each row's
  /// group id, `new_rows` the rows that started a group.
  Status Add(const std::vector<ArrayPtr>& keys, int64_t n, std::vector<int32_t>* new_rows,
             std::vector<uint32_t>* ids = nullptr);

  int64_t num_groups() const { return static_cast<int64_t>(key_offsets_.size()) - 1; }

 private:
  struct Slot {
    uint64_t hash = 0;
    uint32_t id = UINT32_MAX;  // empty
  };
  std::string_view Key(uint32_t id) const {
    return std::string_view(arena_).substr(key_offsets_[id], key_offsets_[id + 1] - key_offsets_[id]);
  }
  Status Grow();
  Status Charge();

  MemoryPool* pool_;
  std::vector<Slot> slots_;
  std::string arena_;                        // the serialised keys, one after another
  std::vector<uint64_t> key_offsets_{0};     // key i is arena_[key_offsets_[i], key_offsets_[i + 1])
  int64_t charged_ = 0;                      // bytes reserved in `pool_`
  std::string key_;                          // the row being looked up
};

/// Appends a self-delimiting serialisation of row i of `array` to `out`: equal under GroupIndex's
/// rules exactly when the bytes are equal.
void AppendGroupKey(const Array& array, int64_t i, std::string* out);

}  // namespace epoxy::exec
