// SPDX-License-Identifier: Apache-2.0
// ParquetWriter: shreds batches into per-leaf levels and values, then encodes each leaf's row
// group chunk into pages.
#include "epoxy/format/parquet/parquet_writer.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <atomic>
#include <cmath>
#include <cstring>

#include "epoxy/common/bytes.h"
#include "epoxy/common/thread_pool.h"
#include "epoxy/format/parquet/encoding.h"
#include "epoxy/format/parquet/page_codec.h"
#include "epoxy/format/parquet/schema.h"

namespace epoxy::parquet {

std::string CreatedBy() { return fmt::format("epoxy version {} (build {})", EPOXY_VERSION, "release"); }

namespace {

/// Levels and values of one leaf column for the current row group.
struct LeafBuffer {
  const SchemaNode* node = nullptr;
  PhysicalType physical = PhysicalType::kInt32;
  int fixed_width = 0;                 // FLBA width
  std::vector<int16_t> def, rep;
  std::string fixed;                   // fixed-width physical values (booleans one byte each)
  std::vector<uint32_t> offsets{0};    // byte arrays: offsets into `bytes`
  std::string bytes;
  int64_t num_values = 0;
  int64_t num_nulls = 0;               // entries below the max definition level

  void Clear() {
    def.clear();
    rep.clear();
    fixed.clear();
    offsets.assign(1, 0);
    bytes.clear();
    num_values = num_nulls = 0;
  }
  int64_t MemoryBytes() const {
    return static_cast<int64_t>(def.size() * 2 + rep.size() * 2 + fixed.size() + offsets.size() * 4 + bytes.size());
  }
  std::string_view Binary(int64_t k) const {
    return std::string_view(bytes).substr(offsets[k], offsets[k + 1] - offsets[k]);
  }
};

/// Writes the big-endian two's complement of `v` in `width` bytes.
void AppendBigEndian(__int128 v, int width, std::string* out) {
  for (int i = width - 1; i >= 0; --i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

class Shredder {
 public:
  explicit Shredder(std::vector<LeafBuffer>& leaves) : leaves_(leaves) {}

  /// Rows [begin, end) of `array`, a top-level column, into the leaves under `node`.
  Status ShredColumn(const SchemaNode& node, const Array& array, int64_t begin, int64_t end) {
    return ShredRange(node, array, begin, end, nullptr, 0);
  }

 private:
  /// Rows [begin, end) of `array` for `node`, which nothing above repeats: column by column, so a
  /// leaf's levels and values are appended in loops of one type. `parent_def` (indexed from
  /// `begin`) is the definition level each row reached above `node`, the parent being present
  /// where it equals `parent_level`; nullptr when the parent is present in every row.
  Status ShredRange(const SchemaNode& node, const Array& array, int64_t begin, int64_t end,
                    const int16_t* parent_def, int16_t parent_level) {
    switch (node.kind) {
      case SchemaNode::Kind::kPrimitive: return LeafRange(node, array, begin, end, parent_def, parent_level);
      case SchemaNode::Kind::kStruct: {
        std::vector<int16_t> def;
        const int16_t* child_def = nullptr;
        if (parent_def != nullptr || array.null_count() > 0) {
          def.resize(static_cast<size_t>(end - begin));
          for (int64_t i = begin; i < end; ++i) {
            EPOXY_ASSIGN_OR_RETURN(def[i - begin], DefOf(node, array, i, parent_def, begin, parent_level));
          }
          child_def = def.data();
        }
        for (size_t c = 0; c < node.children.size(); ++c) {
          EPOXY_RETURN_NOT_OK(ShredRange(node.children[c], *array.child(static_cast<int>(c)), begin, end,
                                         child_def, node.def_level));
        }
        return Status::OK();
      }
      case SchemaNode::Kind::kList:
      case SchemaNode::Kind::kMap:
        for (int64_t i = begin; i < end; ++i) {
          if (parent_def != nullptr && parent_def[i - begin] != parent_level) {
            EmitNull(node, 0, parent_def[i - begin]);
          } else {
            EPOXY_RETURN_NOT_OK(Shred(node, array, i, 0));
          }
        }
        return Status::OK();
    }
    return Status::Internal("unknown schema node kind");
  }

  /// The definition level row i reaches at `node`.
  static Result<int16_t> DefOf(const SchemaNode& node, const Array& array, int64_t i,
                               const int16_t* parent_def, int64_t begin, int16_t parent_level) {
    if (parent_def != nullptr && parent_def[i - begin] != parent_level) return parent_def[i - begin];
    if (!array.IsNull(i)) return node.def_level;
    if (node.def_level == parent_level) return Status::InvalidInput("a null value in required field '{}'", node.name);
    return static_cast<int16_t>(node.def_level - 1);
  }

  Status LeafRange(const SchemaNode& node, const Array& array, int64_t begin, int64_t end,
                   const int16_t* parent_def, int16_t parent_level) {
    LeafBuffer& leaf = leaves_[node.leaf];
    const int64_t n = end - begin;
    const bool has_levels = node.def_level > 0;
    if (parent_def == nullptr && array.null_count() == 0 && BulkCopy(leaf, array, begin, end)) {
      if (has_levels) leaf.def.insert(leaf.def.end(), static_cast<size_t>(n), node.def_level);
      leaf.num_values += n;
      return Status::OK();
    }
    rows_.clear();
    for (int64_t i = begin; i < end; ++i) {
      EPOXY_ASSIGN_OR_RETURN(int16_t d, DefOf(node, array, i, parent_def, begin, parent_level));
      if (has_levels) leaf.def.push_back(d);
      if (d == node.def_level) rows_.push_back(i);
    }
    leaf.num_nulls += n - static_cast<int64_t>(rows_.size());
    return AppendValues(leaf, array, rows_);
  }

  /// Copies rows [begin, end) of a null-free array whose physical layout matches the leaf's;
  /// false when it does not.
  static bool BulkCopy(LeafBuffer& leaf, const Array& array, int64_t begin, int64_t end) {
    const int64_t n = end - begin;
    switch (array.type_id()) {
      case TypeId::kInt:
      case TypeId::kDate:
      case TypeId::kBigInt:
      case TypeId::kTimestamp:
      case TypeId::kFloat:
      case TypeId::kDouble: {
        int width = array.type()->byte_width();
        leaf.fixed.append(reinterpret_cast<const char*>(array.buffers()[1]->data()) + (array.offset() + begin) * width,
                          static_cast<size_t>(n * width));
        return true;
      }
      case TypeId::kString:
      case TypeId::kBinary: {
        const int32_t* o = array.offsets() + begin;
        uint64_t base = leaf.bytes.size();
        if (base + static_cast<uint64_t>(o[n] - o[0]) > UINT32_MAX) return false;
        leaf.bytes.append(reinterpret_cast<const char*>(array.buffers()[2]->data()) + o[0],
                          static_cast<size_t>(o[n] - o[0]));
        size_t at = leaf.offsets.size();
        leaf.offsets.resize(at + static_cast<size_t>(n));
        for (int64_t i = 1; i <= n; ++i) {
          leaf.offsets[at + i - 1] = static_cast<uint32_t>(base + static_cast<uint64_t>(o[i] - o[0]));
        }
        return true;
      }
      default: return false;
    }
  }

  /// Appends the values at `rows` (all non-null): one type dispatch for the lot.
  Status AppendValues(LeafBuffer& leaf, const Array& array, const std::vector<int64_t>& rows) {
    switch (array.type_id()) {
      case TypeId::kString:
      case TypeId::kBinary: {
        const int32_t* o = array.offsets();
        const char* data = reinterpret_cast<const char*>(array.buffers()[2]->data());
        uint64_t total = leaf.bytes.size();
        for (int64_t i : rows) total += static_cast<uint64_t>(o[i + 1] - o[i]);
        if (total > UINT32_MAX) return Status::OutOfMemory("a column chunk of one row group exceeds 4 GiB");
        leaf.bytes.reserve(total);
        for (int64_t i : rows) {
          leaf.bytes.append(data + o[i], static_cast<size_t>(o[i + 1] - o[i]));
          leaf.offsets.push_back(static_cast<uint32_t>(leaf.bytes.size()));
        }
        leaf.num_values += static_cast<int64_t>(rows.size());
        return Status::OK();
      }
      case TypeId::kBigInt:
      case TypeId::kTimestamp: return AppendFixed<int64_t>(leaf, array, rows);
      case TypeId::kInt:
      case TypeId::kDate: return AppendFixed<int32_t>(leaf, array, rows);
      case TypeId::kDouble: return AppendFixed<double>(leaf, array, rows);
      default:
        for (int64_t i : rows) EPOXY_RETURN_NOT_OK(AppendValue(leaf, array, i));
        return Status::OK();
    }
  }

  /// Values whose physical form is their in-memory form.
  template <typename T>
  static Status AppendFixed(LeafBuffer& leaf, const Array& array, const std::vector<int64_t>& rows) {
    const T* v = array.values<T>();
    size_t at = leaf.fixed.size();
    leaf.fixed.resize(at + rows.size() * sizeof(T));
    char* out = leaf.fixed.data() + at;
    for (int64_t i : rows) {
      std::memcpy(out, v + i, sizeof(T));
      out += sizeof(T);
    }
    leaf.num_values += static_cast<int64_t>(rows.size());
    return Status::OK();
  }

  void EmitNull(const SchemaNode& node, int16_t rep, int16_t def) {
    if (node.kind == SchemaNode::Kind::kPrimitive) {
      LeafBuffer& leaf = leaves_[node.leaf];
      if (leaf.node->def_level > 0) leaf.def.push_back(def);
      if (leaf.node->rep_level > 0) leaf.rep.push_back(rep);
      ++leaf.num_nulls;
      return;
    }
    for (const auto& c : node.children) EmitNull(c, rep, def);
  }

  Status Shred(const SchemaNode& node, const Array& array, int64_t i, int16_t rep) {
    if (array.IsNull(i)) {
      if (node.def_level == 0) {
        return Status::InvalidInput("a null value in required field '{}'", node.name);
      }
      EmitNull(node, rep, static_cast<int16_t>(node.def_level - 1));
      return Status::OK();
    }
    switch (node.kind) {
      case SchemaNode::Kind::kPrimitive: {
        LeafBuffer& leaf = leaves_[node.leaf];
        if (node.def_level > 0) leaf.def.push_back(node.def_level);
        if (node.rep_level > 0) leaf.rep.push_back(rep);
        return AppendValue(leaf, array, i);
      }
      case SchemaNode::Kind::kStruct: {
        for (size_t c = 0; c < node.children.size(); ++c) {
          EPOXY_RETURN_NOT_OK(Shred(node.children[c], *array.child(static_cast<int>(c)), i, rep));
        }
        return Status::OK();
      }
      case SchemaNode::Kind::kList:
      case SchemaNode::Kind::kMap: {
        const int32_t* o = array.offsets();
        if (o[i] == o[i + 1]) {
          EmitNull(node, rep, node.def_level);  // an empty list
          return Status::OK();
        }
        for (int32_t j = o[i]; j < o[i + 1]; ++j) {
          int16_t r = j == o[i] ? rep : node.repeated_rep;
          if (node.kind == SchemaNode::Kind::kList) {
            EPOXY_RETURN_NOT_OK(Shred(node.children[0], *array.child(0), j, r));
          } else {
            const Array& entries = *array.child(0);
            if (entries.child(0)->IsNull(j)) return Status::InvalidInput("a map key is null in '{}'", node.name);
            EPOXY_RETURN_NOT_OK(Shred(node.children[0], *entries.child(0), j, r));
            if (node.children.size() > 1) EPOXY_RETURN_NOT_OK(Shred(node.children[1], *entries.child(1), j, r));
          }
        }
        return Status::OK();
      }
    }
    return Status::Internal("unknown schema node kind");
  }

  /// Appends the (non-null) value at row i, converted to the leaf's physical type.
  Status AppendValue(LeafBuffer& leaf, const Array& array, int64_t i) {
    ++leaf.num_values;
    const Array* a = &array;
    if (a->type_id() == TypeId::kChoice) a = a->child(a->choice_index(i)).get();
    switch (a->type_id()) {
      case TypeId::kBoolean: leaf.fixed.push_back(a->GetBool(i) ? 1 : 0); return Status::OK();
      case TypeId::kTinyInt: return PutFixed<int32_t>(leaf, a->values<int8_t>()[i]);
      case TypeId::kSmallInt: return PutFixed<int32_t>(leaf, a->values<int16_t>()[i]);
      case TypeId::kInt:
      case TypeId::kDate: return PutFixed<int32_t>(leaf, a->values<int32_t>()[i]);
      case TypeId::kBigInt:
      case TypeId::kTimestamp: return PutFixed<int64_t>(leaf, a->values<int64_t>()[i]);
      case TypeId::kFloat: return PutFixed<float>(leaf, a->values<float>()[i]);
      case TypeId::kDouble: return PutFixed<double>(leaf, a->values<double>()[i]);
      case TypeId::kDecimal: {
        __int128 v;
        std::memcpy(&v, a->values<__int128>() + i, sizeof(v));
        if (leaf.physical == PhysicalType::kInt32) return PutFixed<int32_t>(leaf, static_cast<int32_t>(v));
        if (leaf.physical == PhysicalType::kInt64) return PutFixed<int64_t>(leaf, static_cast<int64_t>(v));
        AppendBigEndian(v, leaf.fixed_width, &leaf.fixed);
        return Status::OK();
      }
      case TypeId::kString:
      case TypeId::kBinary: {
        std::string_view v = a->GetView(i);
        if (leaf.bytes.size() + v.size() > UINT32_MAX) {
          return Status::OutOfMemory("a column chunk of one row group exceeds 4 GiB");
        }
        leaf.bytes.append(v);
        leaf.offsets.push_back(static_cast<uint32_t>(leaf.bytes.size()));
        return Status::OK();
      }
      default:
        return Status::Internal("cannot write a {} value to Parquet column '{}'", a->type()->ToString(),
                                leaf.node->name);
    }
  }

  template <typename T>
  static Status PutFixed(LeafBuffer& leaf, T v) {
    leaf.fixed.append(reinterpret_cast<const char*>(&v), sizeof(T));
    return Status::OK();
  }

  std::vector<LeafBuffer>& leaves_;
  std::vector<int64_t> rows_;  // the present rows of the leaf being shredded
};

/// The dictionary's lookup: open addressing over entry numbers with a 64-bit key kept beside
/// each, so a probe compares bytes only when the keys agree (a node-based map chased a pointer and
/// compared keys per value). Values of up to 8 bytes are their own key and need no byte compare.
template <bool kSmallFixed>
class DictionaryIndex {
 public:
  /// The entry for `v`, appending it to `entries` when new.
  std::pair<uint32_t, bool> FindOrAdd(std::string_view v, std::vector<std::string_view>& entries) {
    if ((entries.size() + 1) * 2 > slots_.size()) Grow();
    const uint64_t key = KeyOf(v);
    const size_t mask = slots_.size() - 1;
    for (size_t i = Position(key) & mask;; i = (i + 1) & mask) {
      Slot& slot = slots_[i];
      if (slot.entry == kEmpty) {
        slot = {key, static_cast<uint32_t>(entries.size())};
        entries.push_back(v);
        return {slot.entry, true};
      }
      if (slot.key == key && (kSmallFixed || EqualBytes(entries[slot.entry], v))) return {slot.entry, false};
    }
  }

 private:
  static constexpr uint32_t kEmpty = UINT32_MAX;
  struct Slot {
    uint64_t key = 0;
    uint32_t entry = kEmpty;
  };

  static uint64_t KeyOf(std::string_view v) {
    if constexpr (kSmallFixed) {
      uint64_t x = 0;
      std::memcpy(&x, v.data(), v.size());
      return x;
    } else {
      return XXH3_64bits(v.data(), v.size());
    }
  }
  /// Where a key's probe starts: hashes are spread already, raw values are mixed first.
  static size_t Position(uint64_t key) {
    if constexpr (kSmallFixed) {  // a 64-bit finalizer: doubles keep their entropy in high bits
      key ^= key >> 33;
      key *= 0xff51afd7ed558ccdULL;
      key ^= key >> 33;
      key *= 0xc4ceb9fe1a85ec53ULL;
      key ^= key >> 33;
    }
    return static_cast<size_t>(key);
  }

  void Grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(std::max<size_t>(1024, old.size() * 2), Slot());
    size_t mask = slots_.size() - 1;
    for (const Slot& s : old) {
      if (s.entry == kEmpty) continue;
      size_t i = Position(s.key) & mask;
      while (slots_[i].entry != kEmpty) i = (i + 1) & mask;
      slots_[i] = s;
    }
  }

  std::vector<Slot> slots_;
};

/// Running min/max of a chunk or page, in the column's sort order.
class StatsAccumulator {
 public:
  StatsAccumulator(PhysicalType physical, bool unsigned_bytes) : physical_(physical), bytes_(unsigned_bytes) {}

  void Add(std::string_view value) {
    if (physical_ == PhysicalType::kFloat || physical_ == PhysicalType::kDouble) {
      double d = physical_ == PhysicalType::kFloat ? Load<float>(value) : Load<double>(value);
      if (std::isnan(d)) return;  // NaN never bounds
    }
    if (!has_ || Less(value, min_)) min_.assign(value);
    if (!has_ || Less(max_, value)) max_.assign(value);
    has_ = true;
  }
  bool has() const { return has_; }
  const std::string& min() const { return min_; }
  const std::string& max() const { return max_; }

  Statistics ToStatistics(int64_t nulls) const {
    Statistics s;
    s.null_count = nulls;
    if (has_) {
      std::string lo = min_, hi = max_;
      // -0.0 and +0.0 compare equal: widen zero bounds so neither hides the other.
      if (physical_ == PhysicalType::kDouble || physical_ == PhysicalType::kFloat) {
        FixZero(&lo, true);
        FixZero(&hi, false);
      }
      s.min_value = lo;
      s.max_value = hi;
      if (!bytes_) {  // legacy fields only for signed-order types, as Arrow writes them
        s.min = lo;
        s.max = hi;
      }
    }
    return s;
  }

 private:
  template <typename T>
  static T Load(std::string_view v) {
    T x;
    std::memcpy(&x, v.data(), sizeof(T));
    return x;
  }

  void FixZero(std::string* bound, bool is_min) const {
    if (physical_ == PhysicalType::kDouble) {
      double d = Load<double>(*bound);
      if (d == 0) d = is_min ? -0.0 : 0.0;
      bound->assign(reinterpret_cast<const char*>(&d), 8);
    } else {
      float f = Load<float>(*bound);
      if (f == 0) f = is_min ? -0.0f : 0.0f;
      bound->assign(reinterpret_cast<const char*>(&f), 4);
    }
  }

  bool Less(std::string_view a, std::string_view b) const {
    switch (physical_) {
      case PhysicalType::kBoolean: return a[0] < b[0];
      case PhysicalType::kInt32: return Load<int32_t>(a) < Load<int32_t>(b);
      case PhysicalType::kInt64: return Load<int64_t>(a) < Load<int64_t>(b);
      case PhysicalType::kFloat: return Load<float>(a) < Load<float>(b);
      case PhysicalType::kDouble: return Load<double>(a) < Load<double>(b);
      case PhysicalType::kFixedLenByteArray:
        if (!bytes_) {  // decimals: signed big-endian
          if ((static_cast<uint8_t>(a[0]) ^ 0x80) != (static_cast<uint8_t>(b[0]) ^ 0x80)) {
            return (static_cast<uint8_t>(a[0]) ^ 0x80) < (static_cast<uint8_t>(b[0]) ^ 0x80);
          }
          return a.substr(1) < b.substr(1);
        }
        return a < b;
      default: return a < b;  // unsigned byte-wise, as std::string_view compares char_traits
    }
  }

  PhysicalType physical_;
  bool bytes_;
  bool has_ = false;
  std::string min_, max_;
};

/// The encoded bytes of one column chunk and what the footer and page index need.
struct EncodedChunk {
  std::string bytes;
  ColumnMetaData meta;
  int64_t dictionary_offset = -1;  // relative to the chunk start
  int64_t data_offset = 0;
  OffsetIndex offset_index;        // offsets relative to the chunk start until placed
  ColumnIndex column_index;
  bool column_index_valid = true;
};

/// Page buffers kept by each encoding thread, so that pages reuse memory already faulted in.
struct PageScratch {
  std::string body;
  std::string compressed;
};
PageScratch& Scratch() {
  thread_local PageScratch scratch;
  return scratch;
}

class ChunkEncoder {
 public:
  ChunkEncoder(const LeafBuffer& leaf, const ParquetWriteOptions& options)
      : leaf_(leaf), options_(options),
        bytes_order_(leaf.physical == PhysicalType::kByteArray ||
                     (leaf.physical == PhysicalType::kFixedLenByteArray &&
                      leaf.node->element->logical.kind != LogicalType::kDecimal)) {}

  Result<EncodedChunk> Encode() {
    EncodedChunk out;
    ColumnMetaData& m = out.meta;
    m.type = leaf_.physical;
    m.codec = static_cast<int32_t>(options_.codec);
    const int64_t entries = leaf_.node->def_level > 0 ? static_cast<int64_t>(leaf_.def.size())
                            : leaf_.node->rep_level > 0 ? static_cast<int64_t>(leaf_.rep.size())
                                                        : leaf_.num_values;
    m.num_values = entries;
    BuildDictionary();
    std::vector<int32_t> encodings = {static_cast<int32_t>(Encoding::kRle)};
    if (use_dictionary_) {
      EPOXY_RETURN_NOT_OK(WriteDictionaryPage(&out));
      encodings.push_back(static_cast<int32_t>(Encoding::kPlain));
      encodings.push_back(static_cast<int32_t>(Encoding::kRleDictionary));
    } else {
      encodings.push_back(static_cast<int32_t>(Encoding::kPlain));
    }
    m.encodings = encodings;
    out.data_offset = static_cast<int64_t>(out.bytes.size());
    // Pages: cut at record starts (repetition level 0) once a page is big enough.
    StatsAccumulator chunk_stats(leaf_.physical, bytes_order_);
    int64_t entry = 0, value = 0;
    int64_t first_row = 0;
    int32_t pages = 0;
    const int64_t value_bytes = EstimateValueBytes();
    while (entry < entries || (entries == 0 && pages == 0)) {
      int64_t page_first = entry, page_first_value = value, rows = 0, bytes = 0;
      while (entry < entries) {
        bool record_start = leaf_.rep.empty() || leaf_.rep[entry] == 0;
        if (record_start) {
          if (rows >= options_.page_rows || bytes >= options_.page_bytes) break;
          ++rows;
        }
        if (IsValue(entry)) {
          bytes += value_bytes > 0 ? value_bytes : static_cast<int64_t>(leaf_.Binary(value).size()) + 4;
          ++value;
        }
        ++entry;
      }
      EPOXY_RETURN_NOT_OK(WriteDataPage(page_first, entry, page_first_value, value, first_row, rows,
                                        &chunk_stats, &out));
      first_row += rows;
      ++pages;
      if (entries == 0) break;
    }
    m.statistics = chunk_stats.ToStatistics(leaf_.num_nulls);
    m.total_compressed_size = static_cast<int64_t>(out.bytes.size());
    m.total_uncompressed_size = uncompressed_total_;
    PageEncodingStats data_stats{static_cast<int32_t>(PageType::kDataPage),
                                 static_cast<int32_t>(use_dictionary_ ? Encoding::kRleDictionary : Encoding::kPlain),
                                 pages};
    if (use_dictionary_) {
      m.encoding_stats.push_back({static_cast<int32_t>(PageType::kDictionaryPage),
                                  static_cast<int32_t>(Encoding::kPlain), 1});
    }
    m.encoding_stats.push_back(data_stats);
    out.column_index.boundary_order = 0;
    return out;
  }

 private:
  bool IsValue(int64_t entry) const {
    return leaf_.def.empty() || leaf_.def[entry] == leaf_.node->def_level;
  }

  int64_t EstimateValueBytes() const {
    switch (leaf_.physical) {
      case PhysicalType::kBoolean: return 1;
      case PhysicalType::kInt32:
      case PhysicalType::kFloat: return 4;
      case PhysicalType::kInt64:
      case PhysicalType::kDouble: return 8;
      case PhysicalType::kFixedLenByteArray: return leaf_.fixed_width;
      default: return 0;
    }
  }

  /// The physical bytes of value k (PLAIN form without the length prefix).
  std::string_view Value(int64_t k) const {
    switch (leaf_.physical) {
      case PhysicalType::kByteArray: return leaf_.Binary(k);
      case PhysicalType::kBoolean: return std::string_view(leaf_.fixed).substr(k, 1);
      default: {
        int64_t w = EstimateValueBytes();
        return std::string_view(leaf_.fixed).substr(k * w, w);
      }
    }
  }

  void BuildDictionary() {
    use_dictionary_ = false;
    if (leaf_.physical == PhysicalType::kBoolean || leaf_.num_values == 0) return;
    const int64_t width = EstimateValueBytes();
    use_dictionary_ = width > 0 && width <= 8 ? BuildDictionaryWith<DictionaryIndex<true>>()
                                              : BuildDictionaryWith<DictionaryIndex<false>>();
    if (!use_dictionary_) {
      dictionary_.clear();
      indices_.clear();
    }
  }

  /// False when the dictionary is not worth it: it outgrows its page, or values barely repeat.
  template <typename Index>
  bool BuildDictionaryWith() {
    Index index;
    int64_t dict_bytes = 0;
    const int64_t length_prefix = leaf_.physical == PhysicalType::kByteArray ? 4 : 0;
    indices_.resize(static_cast<size_t>(leaf_.num_values));
    for (int64_t k = 0; k < leaf_.num_values; ++k) {
      std::string_view v = Value(k);
      auto [entry, inserted] = index.FindOrAdd(v, dictionary_);
      if (inserted) {
        dict_bytes += static_cast<int64_t>(v.size()) + length_prefix;
        if (dict_bytes > options_.dictionary_bytes ||
            (k >= 10000 && static_cast<int64_t>(dictionary_.size()) * 2 > k)) {
          return false;
        }
      }
      indices_[static_cast<size_t>(k)] = entry;
    }
    return true;
  }

  Status AppendPage(const PageHeader& header_in, const std::string& body, EncodedChunk* out) {
    EPOXY_ASSIGN_OR_RETURN(std::string_view compressed, CompressPage(options_.codec, body, &Scratch().compressed));
    PageHeader header = header_in;
    header.uncompressed_page_size = static_cast<int32_t>(body.size());
    header.compressed_page_size = static_cast<int32_t>(compressed.size());
    std::string encoded = EncodePageHeader(header);
    uncompressed_total_ += static_cast<int64_t>(encoded.size() + body.size());
    out->bytes += encoded;
    out->bytes.append(compressed);
    last_page_size_ = static_cast<int32_t>(encoded.size() + compressed.size());
    return Status::OK();
  }

  Status WriteDictionaryPage(EncodedChunk* out) {
    std::string body;
    for (std::string_view v : dictionary_) {
      if (leaf_.physical == PhysicalType::kByteArray) {
        uint32_t len = static_cast<uint32_t>(v.size());
        body.append(reinterpret_cast<const char*>(&len), 4);
      }
      body.append(v);
    }
    PageHeader h;
    h.type = static_cast<int32_t>(PageType::kDictionaryPage);
    DictionaryPageHeader d;
    d.num_values = static_cast<int32_t>(dictionary_.size());
    d.encoding = static_cast<int32_t>(Encoding::kPlain);
    h.dictionary_page = d;
    out->dictionary_offset = 0;
    return AppendPage(h, body, out);
  }

  Status WriteDataPage(int64_t first, int64_t last, int64_t first_value, int64_t last_value,
                       int64_t first_row, int64_t rows, StatsAccumulator* chunk_stats,
                       EncodedChunk* out) {
    std::string& body = Scratch().body;
    body.clear();
    auto levels = [&](const std::vector<int16_t>& lv, int16_t max) {
      RleEncoder enc(BitWidth(static_cast<uint64_t>(max)));
      enc.PutAll(lv.data() + first, last - first);
      std::string encoded = enc.Finish();
      uint32_t len = static_cast<uint32_t>(encoded.size());
      body.append(reinterpret_cast<const char*>(&len), 4);
      body += encoded;
    };
    if (leaf_.node->rep_level > 0) levels(leaf_.rep, leaf_.node->rep_level);
    if (leaf_.node->def_level > 0) levels(leaf_.def, leaf_.node->def_level);
    StatsAccumulator page_stats(leaf_.physical, bytes_order_);
    if (use_dictionary_) {
      // Each distinct value of the page once: its dictionary entries, marked with the page's stamp.
      if (seen_.size() != dictionary_.size()) seen_.assign(dictionary_.size(), 0);
      ++stamp_;
      for (int64_t k = first_value; k < last_value; ++k) {
        uint32_t index = indices_[static_cast<size_t>(k)];
        if (seen_[index] == stamp_) continue;
        seen_[index] = stamp_;
        page_stats.Add(dictionary_[index]);
      }
    } else {
      for (int64_t k = first_value; k < last_value; ++k) page_stats.Add(Value(k));
    }
    if (use_dictionary_) {
      int width = BitWidth(dictionary_.empty() ? 0 : dictionary_.size() - 1);
      body.push_back(static_cast<char>(width));
      RleEncoder enc(width);
      enc.PutAll(indices_.data() + first_value, last_value - first_value);
      body += enc.Finish();
    } else if (leaf_.physical == PhysicalType::kBoolean) {
      size_t start = body.size();
      body.resize(start + static_cast<size_t>((last_value - first_value + 7) / 8), '\0');
      for (int64_t k = first_value; k < last_value; ++k) {
        if (leaf_.fixed[k]) body[start + (k - first_value) / 8] |= static_cast<char>(1 << ((k - first_value) % 8));
      }
    } else if (leaf_.physical == PhysicalType::kByteArray) {
      for (int64_t k = first_value; k < last_value; ++k) {
        std::string_view v = leaf_.Binary(k);
        uint32_t len = static_cast<uint32_t>(v.size());
        body.append(reinterpret_cast<const char*>(&len), 4);
        body.append(v);
      }
    } else {
      int64_t w = EstimateValueBytes();
      body.append(leaf_.fixed, static_cast<size_t>(first_value * w), static_cast<size_t>((last_value - first_value) * w));
    }
    int64_t nulls = (last - first) - (last_value - first_value);
    PageHeader h;
    h.type = static_cast<int32_t>(PageType::kDataPage);
    DataPageHeader d;
    d.num_values = static_cast<int32_t>(last - first);
    d.encoding = static_cast<int32_t>(use_dictionary_ ? Encoding::kRleDictionary : Encoding::kPlain);
    d.definition_level_encoding = static_cast<int32_t>(Encoding::kRle);
    d.repetition_level_encoding = static_cast<int32_t>(Encoding::kRle);
    d.statistics = page_stats.ToStatistics(nulls);
    h.data_page = d;
    int64_t offset = static_cast<int64_t>(out->bytes.size());
    EPOXY_RETURN_NOT_OK(AppendPage(h, body, out));
    out->offset_index.page_locations.push_back({offset, last_page_size_, first_row});
    out->column_index.null_pages.push_back(!page_stats.has());
    out->column_index.min_values.push_back(page_stats.has() ? *d.statistics->min_value : "");
    out->column_index.max_values.push_back(page_stats.has() ? *d.statistics->max_value : "");
    out->column_index.null_counts.push_back(nulls);
    if (page_stats.has()) {
      chunk_stats->Add(page_stats.min());
      chunk_stats->Add(page_stats.max());
    }
    (void)rows;
    return Status::OK();
  }

  const LeafBuffer& leaf_;
  const ParquetWriteOptions& options_;
  bool bytes_order_;
  bool use_dictionary_ = false;
  std::vector<std::string_view> dictionary_;
  std::vector<uint32_t> indices_;
  std::vector<uint32_t> seen_;  // per dictionary entry: the stamp of the last page that used it
  uint32_t stamp_ = 0;
  int64_t uncompressed_total_ = 0;
  int32_t last_page_size_ = 0;
};

}  // namespace

class ParquetWriter::Impl {
  struct PendingRowGroup;

 public:
  Impl(std::unique_ptr<FileWriter> sink, SchemaPtr schema, const ParquetWriteOptions& options)
      : sink_(std::move(sink)), schema_(std::move(schema)), options_(options) {}

  Status Init() {
    metadata_.version = 1;
    metadata_.schema = ToParquetSchema(*schema_);
    metadata_.created_by = CreatedBy();
    metadata_.key_value_metadata = options_.key_value_metadata;
    EPOXY_ASSIGN_OR_RETURN(file_schema_, BuildFileSchema(metadata_));
    leaves_ = FreshLeaves();
    metadata_.column_orders.assign(leaves_.size(), 1);
    return Append("PAR1");
  }

  Status Write(const Batch& batch) {
    if (!batch.schema()->Equals(*schema_)) {
      return Status::InvalidInput("batch schema ({}) differs from the file's ({})",
                                  batch.schema()->ColumnNames(), schema_->ColumnNames());
    }
    // Large batches go in slices, so that row groups keep near their target size.
    constexpr int64_t kSliceRows = 1024;
    Shredder shredder(leaves_);
    for (int64_t start = 0; start < batch.num_rows(); start += kSliceRows) {
      int64_t n = std::min(kSliceRows, batch.num_rows() - start);
      for (int c = 0; c < batch.num_columns(); ++c) {
        EPOXY_RETURN_NOT_OK(shredder.ShredColumn(file_schema_->fields[c], *batch.column(c), start, start + n));
      }
      buffered_rows_ += n;
      int64_t bytes = 0;
      for (const auto& l : leaves_) bytes += l.MemoryBytes();
      if (bytes >= options_.row_group_bytes) EPOXY_RETURN_NOT_OK(FlushRowGroup());
    }
    return Status::OK();
  }

  /// Hands the buffered row group to the pool and returns at once: its column chunks are encoded
  /// as tasks, and the task that finishes last appends the row group to the file, so neither the
  /// encoding nor the write holds up the caller, which fills the next row group meanwhile. The
  /// previous row group is waited for first: at most two are in memory, and they reach the file in
  /// order.
  Status FlushRowGroup() {
    if (buffered_rows_ == 0 && row_groups_started_ > 0) return Status::OK();
    EPOXY_RETURN_NOT_OK(FinishPending());
    auto pending = std::make_unique<PendingRowGroup>(options_.pool ? *options_.pool : ThreadPool::Default());
    pending->rows = buffered_rows_;
    pending->leaves = std::move(leaves_);
    pending->chunks.assign(pending->leaves.size(), Status::Internal("not encoded"));
    pending->encoding_left = pending->leaves.size();
    PendingRowGroup* p = pending.get();
    pending_ = std::move(pending);
    leaves_ = FreshLeaves();
    buffered_rows_ = 0;
    ++row_groups_started_;
    for (size_t i = 0; i < p->leaves.size(); ++i) {
      p->tasks.Spawn([this, p, i]() -> Status {
        p->chunks[i] = ChunkEncoder(p->leaves[i], options_).Encode();
        Status encoded = p->chunks[i].status();
        if (p->encoding_left.fetch_sub(1) != 1) return encoded;
        return WriteRowGroup(p);  // the last chunk: every other one is encoded
      });
    }
    return Status::OK();
  }

  /// Waits for the row group in flight, then keeps its cleared buffers for the next one.
  Status FinishPending() {
    if (pending_ == nullptr) return Status::OK();
    std::unique_ptr<PendingRowGroup> p = std::move(pending_);
    EPOXY_RETURN_NOT_OK(p->tasks.Wait());
    // Keep the buffers (and their capacity) for a later row group: no fresh pages to fault in.
    for (auto& leaf : p->leaves) leaf.Clear();
    spare_ = std::move(p->leaves);
    return Status::OK();
  }

  /// Appends an encoded row group to the file and records it in the footer's metadata. Runs on
  /// the pool, one row group at a time (FlushRowGroup waits for the previous one).
  Status WriteRowGroup(PendingRowGroup* p) {
    for (auto& chunk : p->chunks) EPOXY_RETURN_NOT_OK(chunk.status());
    RowGroup group;
    group.num_rows = p->rows;
    group.file_offset = position_;
    int64_t compressed = 0;
    for (size_t i = 0; i < p->leaves.size(); ++i) {
      EncodedChunk& chunk = *p->chunks[i];
      int64_t start = position_;
      EPOXY_RETURN_NOT_OK(Append(chunk.bytes));
      ColumnChunk cc;
      ColumnMetaData meta = std::move(chunk.meta);
      std::vector<std::string> path;
      CollectPath(i, &path);
      meta.path_in_schema = path;
      meta.data_page_offset = start + chunk.data_offset;
      if (chunk.dictionary_offset >= 0) meta.dictionary_page_offset = start + chunk.dictionary_offset;
      group.total_byte_size += meta.total_uncompressed_size;
      compressed += meta.total_compressed_size;
      cc.meta_data = std::move(meta);
      for (auto& loc : chunk.offset_index.page_locations) loc.offset += start;
      offset_indexes_.push_back(std::move(chunk.offset_index));
      column_indexes_.push_back(std::move(chunk.column_index));
      group.columns.push_back(std::move(cc));
      chunk.bytes = std::string();  // give the encoded bytes back as soon as they are written
    }
    group.total_compressed_size = compressed;
    metadata_.row_groups.push_back(std::move(group));
    rows_flushed_ += p->rows;
    return Status::OK();
  }

  Status Close() {
    if (buffered_rows_ > 0 || row_groups_started_ == 0) EPOXY_RETURN_NOT_OK(FlushRowGroup());
    EPOXY_RETURN_NOT_OK(FinishPending());
    metadata_.num_rows = rows_flushed_;
    // Page indexes: all column indexes, then all offset indexes, before the footer.
    size_t k = 0;
    for (auto& group : metadata_.row_groups) {
      for (auto& c : group.columns) {
        std::string bytes = EncodeColumnIndex(column_indexes_[k++]);
        c.column_index_offset = position_;
        c.column_index_length = static_cast<int32_t>(bytes.size());
        EPOXY_RETURN_NOT_OK(Append(bytes));
      }
    }
    k = 0;
    for (auto& group : metadata_.row_groups) {
      for (auto& c : group.columns) {
        std::string bytes = EncodeOffsetIndex(offset_indexes_[k++]);
        c.offset_index_offset = position_;
        c.offset_index_length = static_cast<int32_t>(bytes.size());
        EPOXY_RETURN_NOT_OK(Append(bytes));
      }
    }
    std::string footer = EncodeFileMetaData(metadata_);
    uint32_t len = static_cast<uint32_t>(footer.size());
    EPOXY_RETURN_NOT_OK(Append(footer));
    EPOXY_RETURN_NOT_OK(Append(std::string_view(reinterpret_cast<const char*>(&len), 4)));
    EPOXY_RETURN_NOT_OK(Append("PAR1"));
    return sink_->Close();
  }

  /// Rows and bytes in the file so far (row groups still being encoded are not counted).
  int64_t rows_written() const { return rows_flushed_; }
  int64_t bytes_written() const { return position_; }

 private:
  /// A row group whose column chunks are being encoded on the pool.
  struct PendingRowGroup {
    explicit PendingRowGroup(ThreadPool& pool) : tasks(pool) {}
    int64_t rows = 0;
    std::vector<LeafBuffer> leaves;
    std::vector<Result<EncodedChunk>> chunks;
    std::atomic<size_t> encoding_left{0};
    TaskGroup tasks;  // last member: destroyed (waited for) first
  };

  std::vector<LeafBuffer> FreshLeaves() {
    if (!spare_.empty()) return std::move(spare_);
    std::vector<LeafBuffer> leaves(file_schema_->leaves.size());
    for (size_t i = 0; i < leaves.size(); ++i) {
      const SchemaNode* node = file_schema_->leaves[i];
      leaves[i].node = node;
      leaves[i].physical = *node->element->type;
      leaves[i].fixed_width = node->element->type_length;
    }
    return leaves;
  }

  Status Append(std::string_view bytes) {
    EPOXY_RETURN_NOT_OK(sink_->Append(bytes));
    position_ += static_cast<int64_t>(bytes.size());
    return Status::OK();
  }

  /// path_in_schema of leaf i: the element names from the root's child down to the leaf.
  void CollectPath(size_t leaf, std::vector<std::string>* out) const {
    // Walk the flattened schema: a depth-first listing with child counts.
    std::vector<std::pair<std::string, int>> stack;  // name, children left
    size_t seen = 0;
    for (size_t i = 1; i < metadata_.schema.size(); ++i) {
      const SchemaElement& e = metadata_.schema[i];
      while (!stack.empty() && stack.back().second == 0) stack.pop_back();
      if (!stack.empty()) --stack.back().second;
      if (e.num_children > 0) {
        stack.push_back({e.name, e.num_children});
        continue;
      }
      if (seen++ == leaf) {
        for (const auto& [name, left] : stack) out->push_back(name);
        out->push_back(e.name);
        return;
      }
    }
  }

  std::unique_ptr<FileWriter> sink_;
  SchemaPtr schema_;
  ParquetWriteOptions options_;
  FileMetaData metadata_;
  std::unique_ptr<FileSchema> file_schema_;
  std::vector<LeafBuffer> leaves_;
  std::vector<OffsetIndex> offset_indexes_;
  std::vector<ColumnIndex> column_indexes_;
  int64_t buffered_rows_ = 0;
  int64_t row_groups_started_ = 0;
  // Advanced by WriteRowGroup on the pool, read by the caller (an output's size so far).
  std::atomic<int64_t> position_{0};
  std::atomic<int64_t> rows_flushed_{0};
  std::vector<LeafBuffer> spare_;  // cleared buffers of a written row group
  std::unique_ptr<PendingRowGroup> pending_;  // declared last: its tasks finish before the rest goes
};

ParquetWriter::ParquetWriter(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ParquetWriter::~ParquetWriter() = default;

Result<std::unique_ptr<ParquetWriter>> ParquetWriter::Open(std::unique_ptr<FileWriter> sink,
                                                           SchemaPtr schema,
                                                           const ParquetWriteOptions& options) {
  auto impl = std::make_unique<Impl>(std::move(sink), std::move(schema), options);
  EPOXY_RETURN_NOT_OK(impl->Init());
  return std::unique_ptr<ParquetWriter>(new ParquetWriter(std::move(impl)));
}

Status ParquetWriter::Write(const Batch& batch) { return impl_->Write(batch); }
Status ParquetWriter::Close() { return impl_->Close(); }
int64_t ParquetWriter::rows_written() const { return impl_->rows_written(); }
int64_t ParquetWriter::bytes_written() const { return impl_->bytes_written(); }

}  // namespace epoxy::parquet
