// SPDX-License-Identifier: Apache-2.0
// Key encoding: one typed pass per key column into the rows' words, then one hash pass.
#include "epoxy/exec/key_encoding.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "epoxy/common/bytes.h"
#include "epoxy/exec/group_index.h"
#include "epoxy/vector/take.h"

namespace epoxy::exec {
namespace {

constexpr int kMaxFixedBytes = 32;

int KeyWidth(TypeId id) { return id == TypeId::kBoolean ? 1 : FixedWidthOf(id); }

template <typename T>
T Normal(T v) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(v)) return std::numeric_limits<T>::quiet_NaN();
    return v == 0 ? T(0) : v;
  } else {
    return v;
  }
}

/// Writes the values of one fixed-width column into each row's words at byte `offset`.
template <typename T>
void PackColumn(const Array& a, int64_t n, int offset, int words, uint8_t* base) {
  const T* v = a.values<T>();
  const size_t stride = static_cast<size_t>(words) * 8;
  for (int64_t i = 0; i < n; ++i) {
    T x = Normal(v[i]);
    std::memcpy(base + static_cast<size_t>(i) * stride + static_cast<size_t>(offset), &x, sizeof(T));
  }
}

}  // namespace

Status KeyEncoder::EncodeBytes(const std::vector<ArrayPtr>& keys, int64_t n, EncodedKeys* out) const {
  // Column by column: the sizes of every row's key first, then each column's part of every row,
  // in the bytes AppendGroupKey would give (flat columns in typed loops, nested ones through it).
  std::vector<uint64_t> size(static_cast<size_t>(n), 0);
  std::vector<std::string> nested(keys.size());
  std::vector<std::vector<uint32_t>> nested_offsets(keys.size());
  auto skip = [&](size_t k, int64_t i) { return !encodes_nulls_ && (out->NullKeys(i) >> k & 1); };
  for (size_t k = 0; k < keys.size(); ++k) {
    const Array& a = *keys[k];
    const int width = KeyWidth(a.type_id());
    const bool text = a.type_id() == TypeId::kString || a.type_id() == TypeId::kBinary;
    if (width > 0 || text) {
      for (int64_t i = 0; i < n; ++i) {
        if (skip(k, i)) continue;
        size[static_cast<size_t>(i)] += a.IsNull(i) ? 1 : 1 + (text ? 4 + a.GetView(i).size() : static_cast<size_t>(width));
      }
    } else {
      nested_offsets[k].push_back(0);
      for (int64_t i = 0; i < n; ++i) {
        if (!skip(k, i)) AppendGroupKey(a, i, &nested[k]);
        nested_offsets[k].push_back(static_cast<uint32_t>(nested[k].size()));
        size[static_cast<size_t>(i)] += nested_offsets[k].back() - nested_offsets[k][static_cast<size_t>(i)];
      }
    }
  }
  out->offsets.resize(static_cast<size_t>(n) + 1);
  uint64_t total = 0;
  for (int64_t i = 0; i < n; ++i) {
    out->offsets[static_cast<size_t>(i)] = static_cast<uint32_t>(total);
    total += size[static_cast<size_t>(i)];
    if (total > UINT32_MAX) return Status::OutOfMemory("the keys of one batch exceed 4 GiB");
  }
  out->offsets[static_cast<size_t>(n)] = static_cast<uint32_t>(total);
  out->bytes.resize(total);
  std::vector<uint32_t> at(out->offsets.begin(), out->offsets.end() - 1);  // each row's next byte
  char* base = out->bytes.data();
  for (size_t k = 0; k < keys.size(); ++k) {
    const Array& a = *keys[k];
    const TypeId id = a.type_id();
    const int width = KeyWidth(id);
    auto put_fixed = [&](auto tag) {
      using T = decltype(tag);
      const T* v = a.values<T>();
      for (int64_t i = 0; i < n; ++i) {
        if (skip(k, i)) continue;
        char* p = base + at[static_cast<size_t>(i)];
        if (a.IsNull(i)) {
          *p = 0;
          at[static_cast<size_t>(i)] += 1;
          continue;
        }
        *p = 1;
        T x = Normal(v[i]);
        std::memcpy(p + 1, &x, sizeof(T));
        at[static_cast<size_t>(i)] += 1 + sizeof(T);
      }
    };
    switch (width > 0 ? id : id == TypeId::kBinary ? TypeId::kString : id) {
      case TypeId::kBoolean:
        for (int64_t i = 0; i < n; ++i) {
          if (skip(k, i)) continue;
          char* p = base + at[static_cast<size_t>(i)];
          p[0] = a.IsNull(i) ? 0 : 1;
          if (a.IsValid(i)) p[1] = a.GetBool(i) ? 1 : 0;
          at[static_cast<size_t>(i)] += a.IsNull(i) ? 1 : 2;
        }
        break;
      case TypeId::kTinyInt: put_fixed(int8_t{}); break;
      case TypeId::kSmallInt: put_fixed(int16_t{}); break;
      case TypeId::kInt:
      case TypeId::kDate: put_fixed(int32_t{}); break;
      case TypeId::kFloat: put_fixed(float{}); break;
      case TypeId::kBigInt:
      case TypeId::kTimestamp: put_fixed(int64_t{}); break;
      case TypeId::kDouble: put_fixed(double{}); break;
      case TypeId::kDecimal: put_fixed(__int128{}); break;
      case TypeId::kString:
        for (int64_t i = 0; i < n; ++i) {
          if (skip(k, i)) continue;
          char* p = base + at[static_cast<size_t>(i)];
          if (a.IsNull(i)) {
            *p = 0;
            at[static_cast<size_t>(i)] += 1;
            continue;
          }
          std::string_view v = a.GetView(i);
          const uint32_t len = static_cast<uint32_t>(v.size());
          *p = 1;
          std::memcpy(p + 1, &len, 4);
          CopyBytes(p + 5, v.data(), v.size());
          at[static_cast<size_t>(i)] += 5 + len;
        }
        break;
      default:
        for (int64_t i = 0; i < n; ++i) {
          const uint32_t from = nested_offsets[k][static_cast<size_t>(i)], to = nested_offsets[k][static_cast<size_t>(i) + 1];
          std::memcpy(base + at[static_cast<size_t>(i)], nested[k].data() + from, to - from);
          at[static_cast<size_t>(i)] += to - from;
        }
        break;
    }
  }
  return Status::OK();
}

KeyEncoder::KeyEncoder(std::vector<TypePtr> types, bool null_bits) : types_(std::move(types)) {
  encodes_nulls_ = null_bits || types_.size() > 1;
  int bytes = 0;
  bool all_fixed = !types_.empty();
  for (const auto& t : types_) {
    const int w = KeyWidth(t->id());
    if (w == 0) all_fixed = false;
    offsets_.push_back(bytes);
    bytes += w;
  }
  if (encodes_nulls_) {
    mask_offset_ = bytes;
    bytes += static_cast<int>((types_.size() + 7) / 8);
  }
  if (all_fixed && bytes <= kMaxFixedBytes && types_.size() <= 32) words_ = (bytes + 7) / 8;
}

Status KeyEncoder::Encode(const std::vector<ArrayPtr>& keys, int64_t n, EncodedKeys* out, const uint64_t* hashes) const {
  out->num_rows = n;
  out->null_keys.clear();
  bool any_null = false;
  for (const auto& k : keys) any_null = any_null || k->null_count() > 0;
  if (any_null) {
    out->null_keys.assign(static_cast<size_t>(n), 0);
    for (size_t k = 0; k < keys.size(); ++k) {
      const Array& a = *keys[k];
      if (a.null_count() == 0) continue;
      for (int64_t i = 0; i < n; ++i) {
        if (a.IsNull(i)) out->null_keys[static_cast<size_t>(i)] |= uint32_t{1} << k;
      }
    }
  }
  if (fixed()) {
    out->words.assign(static_cast<size_t>(n * words_), 0);
    uint8_t* base = reinterpret_cast<uint8_t*>(out->words.data());
    for (size_t k = 0; k < keys.size(); ++k) {
      const Array& a = *keys[k];
      const int offset = offsets_[k];
      switch (a.type_id()) {
        case TypeId::kBoolean:
          for (int64_t i = 0; i < n; ++i) base[static_cast<size_t>(i * words_ * 8 + offset)] = a.GetBool(i) ? 1 : 0;
          break;
        case TypeId::kTinyInt: PackColumn<int8_t>(a, n, offset, words_, base); break;
        case TypeId::kSmallInt: PackColumn<int16_t>(a, n, offset, words_, base); break;
        case TypeId::kInt:
        case TypeId::kDate: PackColumn<int32_t>(a, n, offset, words_, base); break;
        case TypeId::kFloat: PackColumn<float>(a, n, offset, words_, base); break;
        case TypeId::kBigInt:
        case TypeId::kTimestamp: PackColumn<int64_t>(a, n, offset, words_, base); break;
        case TypeId::kDouble: PackColumn<double>(a, n, offset, words_, base); break;
        case TypeId::kDecimal: PackColumn<__int128>(a, n, offset, words_, base); break;
        case TypeId::kNull: break;  // every row null: only the mask (or null_keys) says so
        default: return Status::Internal("a fixed key layout got a {} column", a.type()->ToString());
      }
    }
    if (any_null) {
      // A null key's value bytes are zero; with several keys the mask tells a null from a zero.
      const size_t stride = static_cast<size_t>(words_) * 8;
      for (int64_t i = 0; i < n; ++i) {
        const uint32_t nulls = out->null_keys[static_cast<size_t>(i)];
        if (nulls == 0) continue;
        uint8_t* row = base + static_cast<size_t>(i) * stride;
        for (size_t k = 0; k < keys.size(); ++k) {
          if ((nulls >> k & 1) == 0) continue;
          std::memset(row + offsets_[k], 0, static_cast<size_t>(KeyWidth(types_[k]->id())));
          if (mask_offset_ >= 0) row[mask_offset_ + static_cast<int>(k / 8)] |= static_cast<uint8_t>(1u << (k % 8));
        }
      }
    }
    out->hashes.resize(static_cast<size_t>(n));
    if (hashes != nullptr) {
      std::memcpy(out->hashes.data(), hashes, static_cast<size_t>(n) * 8);
    } else if (words_ == 1) {
      for (int64_t i = 0; i < n; ++i) out->hashes[static_cast<size_t>(i)] = MixHash(out->words[static_cast<size_t>(i)]);
    } else {
      for (int64_t i = 0; i < n; ++i) {
        out->hashes[static_cast<size_t>(i)] = XXH3_64bits(out->words.data() + i * words_, static_cast<size_t>(words_) * 8);
      }
    }
    return Status::OK();
  }
  EPOXY_RETURN_NOT_OK(EncodeBytes(keys, n, out));
  out->hashes.resize(static_cast<size_t>(n));
  if (hashes != nullptr) {
    std::memcpy(out->hashes.data(), hashes, static_cast<size_t>(n) * 8);
  } else {
    for (int64_t i = 0; i < n; ++i) {
      std::string_view b = out->Bytes(i);
      out->hashes[static_cast<size_t>(i)] = XXH3_64bits(b.data(), b.size());
    }
  }
  return Status::OK();
}

}  // namespace epoxy::exec
