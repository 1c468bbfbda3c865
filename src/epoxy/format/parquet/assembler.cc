// SPDX-License-Identifier: Apache-2.0
// Level-driven assembly. A node's "slots" are the ranges of level entries that make up each of its
// values; they are computed from the first leaf under the node by walking down from the field,
// since every leaf of a subtree agrees on the levels of the nodes above it.
#include "epoxy/format/parquet/assembler.h"

#include <cstring>

#include "epoxy/types/value_text.h"
#include "epoxy/vector/builder.h"

namespace epoxy::parquet {
namespace {

/// Level entries [begin, end) of one value of a node.
struct Slot {
  int64_t begin;
  int64_t end;
};
using Slots = std::vector<Slot>;

int16_t DefAt(const LeafData& leaf, int64_t i) { return leaf.DefAt(i); }
int16_t RepAt(const LeafData& leaf, int64_t i) { return leaf.rep.empty() ? 0 : leaf.rep[i]; }

/// The field's slots: one per record (entries starting with repetition level 0).
Slots TopSlots(const LeafData& leaf) {
  Slots slots;
  int64_t n = leaf.num_entries;
  if (leaf.rep.empty()) {
    slots.resize(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) slots[i] = {i, i + 1};
    return slots;
  }
  for (int64_t i = 0; i < n; ++i) {
    if (leaf.rep[i] == 0) {
      if (!slots.empty()) slots.back().end = i;
      slots.push_back({i, n});
    }
  }
  return slots;
}

/// The element slots of a list or map node, from its own slots.
Slots ElementSlots(const SchemaNode& node, const Slots& slots, const LeafData& leaf) {
  Slots out;
  for (const Slot& s : slots) {
    if (DefAt(leaf, s.begin) < node.repeated_def) continue;  // null or empty
    int64_t start = s.begin;
    for (int64_t j = s.begin + 1; j < s.end; ++j) {
      if (RepAt(leaf, j) == node.repeated_rep) {
        out.push_back({start, j});
        start = j;
      }
    }
    out.push_back({start, s.end});
  }
  return out;
}

/// Slots of path.back(), walking from path.front() with `leaf`'s levels.
Slots SlotsAlong(const std::vector<const SchemaNode*>& path, const LeafData& leaf) {
  Slots slots = TopSlots(leaf);
  for (size_t i = 0; i + 1 < path.size(); ++i) {
    const SchemaNode* n = path[i];
    if (n->kind == SchemaNode::Kind::kList || n->kind == SchemaNode::Kind::kMap) {
      slots = ElementSlots(*n, slots, leaf);
    }
  }
  return slots;
}

Result<BufferPtr> Validity(const Slots& slots, const LeafData& leaf, int16_t def_level,
                           int64_t* null_count) {
  *null_count = 0;
  if (def_level == 0) return BufferPtr();
  ValidityBuilder validity(&MemoryPool::Default());
  for (const Slot& s : slots) EPOXY_RETURN_NOT_OK(validity.Append(DefAt(leaf, s.begin) >= def_level));
  *null_count = validity.null_count();
  return validity.Finish();
}

__int128 BigEndianToInt128(std::string_view bytes) {
  if (bytes.empty()) return 0;
  __int128 v = static_cast<int8_t>(bytes[0]) < 0 ? -1 : 0;  // sign-extend
  for (char c : bytes) v = (v << 8) | static_cast<uint8_t>(c);
  return v;
}

float HalfToFloat(uint16_t h) {
  uint32_t sign = static_cast<uint32_t>(h & 0x8000) << 16;
  int exp = (h >> 10) & 0x1F;
  uint32_t mant = h & 0x3FF;
  uint32_t bits;
  if (exp == 0) {
    if (mant == 0) {
      bits = sign;
    } else {  // subnormal
      float f = static_cast<float>(mant) / 1024.0f / 16384.0f;
      return sign ? -f : f;
    }
  } else if (exp == 31) {
    bits = sign | 0x7F800000 | (mant << 13);
  } else {
    bits = sign | (static_cast<uint32_t>(exp - 15 + 127) << 23) | (mant << 13);
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

std::string FormatUuid(std::string_view b) {
  static const char* kHex = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < b.size(); ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out.push_back('-');
    out.push_back(kHex[static_cast<uint8_t>(b[i]) >> 4]);
    out.push_back(kHex[static_cast<uint8_t>(b[i]) & 15]);
  }
  return out;
}

std::string FormatTimeOfDay(int64_t micros) {
  std::string ts = FormatTimestamp(micros);  // 1970-01-01 HH:MM:SS[.f]
  return ts.substr(11);
}

/// Appends one leaf's values for `slots`, converting physical values to `node.type`.
class LeafAppender {
 public:
  LeafAppender(const SchemaNode& node, const LeafData& data)
      : node_(node), e_(*node.element), data_(data) {}

  Result<ArrayPtr> Build(const Slots& slots) {
    EPOXY_ASSIGN_OR_RETURN(auto builder, MakeBuilder(node_.type));
    const int16_t max_def = node_.def_level;
    int64_t k = 0;  // next value
    for (const Slot& s : slots) {
      if (DefAt(data_, s.begin) < max_def) {
        EPOXY_RETURN_NOT_OK(builder->AppendNull());
        continue;
      }
      if (k >= data_.num_values) return Status::InvalidData("column '{}' has fewer values than its levels", e_.name);
      EPOXY_RETURN_NOT_OK(AppendValue(builder.get(), k++));
    }
    return builder->Finish();
  }

 private:
  template <typename T>
  T Fixed(int64_t k) const {
    T v;
    std::memcpy(&v, data_.fixed.data() + k * data_.width, sizeof(T));
    return v;
  }

  Status AppendValue(ArrayBuilder* b, int64_t k) {
    const TypeId target = node_.type->id();
    const LogicalType& lt = e_.logical;
    int converted = e_.converted_type.value_or(-1);
    switch (*e_.type) {
      case PhysicalType::kBoolean: return static_cast<BooleanBuilder*>(b)->Append(data_.fixed[k] != 0);
      case PhysicalType::kInt32: {
        int32_t v = Fixed<int32_t>(k);
        switch (target) {
          case TypeId::kTinyInt: return static_cast<Int8Builder*>(b)->Append(static_cast<int8_t>(v));
          case TypeId::kSmallInt: {
            bool unsigned8 = converted == static_cast<int>(ConvertedType::kUint8) ||
                             (lt.kind == LogicalType::kInteger && !lt.is_signed);
            return static_cast<Int16Builder*>(b)->Append(
                unsigned8 ? static_cast<int16_t>(static_cast<uint8_t>(v)) : static_cast<int16_t>(v));
          }
          case TypeId::kInt: {
            bool unsigned16 = converted == static_cast<int>(ConvertedType::kUint16) ||
                              (lt.kind == LogicalType::kInteger && !lt.is_signed && lt.bit_width == 16);
            return static_cast<Int32Builder*>(b)->Append(unsigned16 ? static_cast<int32_t>(static_cast<uint16_t>(v)) : v);
          }
          case TypeId::kBigInt: return static_cast<Int64Builder*>(b)->Append(static_cast<int64_t>(static_cast<uint32_t>(v)));
          case TypeId::kDate: return static_cast<Int32Builder*>(b)->Append(v);
          case TypeId::kDecimal: return static_cast<DecimalBuilder*>(b)->Append(static_cast<__int128>(v));
          case TypeId::kString: return static_cast<StringBuilder*>(b)->Append(FormatTimeOfDay(int64_t{v} * 1000));
          default: break;
        }
        break;
      }
      case PhysicalType::kInt64: {
        int64_t v = Fixed<int64_t>(k);
        switch (target) {
          case TypeId::kBigInt: return static_cast<Int64Builder*>(b)->Append(v);
          case TypeId::kTimestamp: {
            TimeUnit unit = lt.kind == LogicalType::kTimestamp ? lt.unit
                            : converted == static_cast<int>(ConvertedType::kTimestampMillis) ? TimeUnit::kMillis
                                                                                               : TimeUnit::kMicros;
            int64_t micros = unit == TimeUnit::kMillis ? v * 1000 : unit == TimeUnit::kNanos ? FloorDiv(v, 1000) : v;
            return static_cast<Int64Builder*>(b)->Append(micros);
          }
          case TypeId::kDecimal: {
            bool is_unsigned = (lt.kind == LogicalType::kInteger && !lt.is_signed) ||
                               converted == static_cast<int>(ConvertedType::kUint64);
            __int128 d = is_unsigned ? static_cast<__int128>(static_cast<uint64_t>(v)) : static_cast<__int128>(v);
            return static_cast<DecimalBuilder*>(b)->Append(d);
          }
          case TypeId::kString: {
            int64_t micros = lt.kind == LogicalType::kTime && lt.unit == TimeUnit::kNanos ? v / 1000 : v;
            return static_cast<StringBuilder*>(b)->Append(FormatTimeOfDay(micros));
          }
          default: break;
        }
        break;
      }
      case PhysicalType::kInt96: {
        int64_t nanos;
        int32_t julian;
        std::memcpy(&nanos, data_.fixed.data() + k * 12, 8);
        std::memcpy(&julian, data_.fixed.data() + k * 12 + 8, 4);
        int64_t micros = (static_cast<int64_t>(julian) - 2440588) * 86400LL * 1000000LL + FloorDiv(nanos, 1000);
        return static_cast<Int64Builder*>(b)->Append(micros);
      }
      case PhysicalType::kFloat: return static_cast<FloatBuilder*>(b)->Append(Fixed<float>(k));
      case PhysicalType::kDouble: return static_cast<DoubleBuilder*>(b)->Append(Fixed<double>(k));
      case PhysicalType::kByteArray:
      case PhysicalType::kFixedLenByteArray: {
        std::string_view v = data_.binary[k];
        switch (target) {
          case TypeId::kDecimal: {
            if (v.size() > 16) return Status::InvalidData("decimal value of {} bytes in column '{}'", v.size(), e_.name);
            return static_cast<DecimalBuilder*>(b)->Append(BigEndianToInt128(v));
          }
          case TypeId::kFloat: {
            if (v.size() != 2) return Status::InvalidData("FLOAT16 value of {} bytes", v.size());
            uint16_t h = static_cast<uint16_t>(static_cast<uint8_t>(v[0]) | (static_cast<uint8_t>(v[1]) << 8));
            return static_cast<FloatBuilder*>(b)->Append(HalfToFloat(h));
          }
          case TypeId::kString:
            if (lt.kind == LogicalType::kUuid) return static_cast<StringBuilder*>(b)->Append(FormatUuid(v));
            return static_cast<StringBuilder*>(b)->Append(v);
          default: return static_cast<StringBuilder*>(b)->Append(v);
        }
      }
    }
    return Status::Internal("no conversion from {} to {} for column '{}'", PhysicalTypeName(*e_.type),
                            node_.type->ToString(), e_.name);
  }

  static int64_t FloorDiv(int64_t a, int64_t b) {
    int64_t q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
  }

  const SchemaNode& node_;
  const SchemaElement& e_;
  const LeafData& data_;
};

class Assembler {
 public:
  explicit Assembler(const std::vector<LeafData>& leaves) : leaves_(leaves) {}

  /// Builds path.back() given its slots (computed with its first leaf).
  Result<ArrayPtr> Build(std::vector<const SchemaNode*>& path, const Slots& slots) {
    const SchemaNode& node = *path.back();
    const LeafData& leaf = leaves_[node.first_leaf];
    switch (node.kind) {
      case SchemaNode::Kind::kPrimitive: return LeafAppender(node, leaf).Build(slots);
      case SchemaNode::Kind::kStruct: {
        int64_t nulls = 0;
        EPOXY_ASSIGN_OR_RETURN(BufferPtr validity, Validity(slots, leaf, node.def_level, &nulls));
        std::vector<ArrayPtr> children;
        for (const SchemaNode& child : node.children) {
          path.push_back(&child);
          EPOXY_ASSIGN_OR_RETURN(ArrayPtr array, BuildChild(path));
          path.pop_back();
          children.push_back(std::move(array));
        }
        return Array::Make(node.type, static_cast<int64_t>(slots.size()), {std::move(validity)},
                           std::move(children), nulls);
      }
      case SchemaNode::Kind::kList:
      case SchemaNode::Kind::kMap: {
        int64_t nulls = 0;
        EPOXY_ASSIGN_OR_RETURN(BufferPtr validity, Validity(slots, leaf, node.def_level, &nulls));
        BufferBuilder offsets;
        EPOXY_RETURN_NOT_OK(offsets.Reserve(static_cast<int64_t>(slots.size() + 1) * 4));
        int32_t total = 0;
        offsets.UnsafeAppendValue(total);
        for (const Slot& s : slots) {
          if (DefAt(leaf, s.begin) >= node.repeated_def) {
            int64_t count = 1;
            for (int64_t j = s.begin + 1; j < s.end; ++j) count += RepAt(leaf, j) == node.repeated_rep ? 1 : 0;
            if (total + count > INT32_MAX) return Status::OutOfMemory("a list column of one row group exceeds 2^31 elements");
            total += static_cast<int32_t>(count);
          }
          offsets.UnsafeAppendValue(total);
        }
        EPOXY_ASSIGN_OR_RETURN(BufferPtr offsets_buffer, offsets.Finish());
        std::vector<ArrayPtr> element_arrays;
        for (const SchemaNode& child : node.children) {
          path.push_back(&child);
          EPOXY_ASSIGN_OR_RETURN(ArrayPtr array, BuildChild(path));
          path.pop_back();
          if (array->length() != total) {
            return Status::InvalidData("column '{}' has {} elements where its list needs {}", child.name,
                                       array->length(), total);
          }
          element_arrays.push_back(std::move(array));
        }
        ArrayPtr child;
        if (node.kind == SchemaNode::Kind::kList) {
          child = element_arrays[0];
        } else {
          if (element_arrays.size() == 1) element_arrays.push_back(Array::MakeNull(total));
          TypePtr entry = DataType::Struct({{"key", node.type->key()}, {"value", node.type->value()}});
          child = Array::Make(std::move(entry), total, {nullptr}, std::move(element_arrays), 0);
        }
        return Array::Make(node.type, static_cast<int64_t>(slots.size()),
                           {std::move(validity), std::move(offsets_buffer)}, {std::move(child)}, nulls);
      }
    }
    return Status::Internal("unknown schema node kind");
  }

 private:
  /// Builds path.back() with slots computed from its own first leaf.
  Result<ArrayPtr> BuildChild(std::vector<const SchemaNode*>& path) {
    const SchemaNode& node = *path.back();
    if (node.first_leaf < 0) return Status::NotSupported("empty group '{}'", node.name);
    Slots slots = SlotsAlong(path, leaves_[node.first_leaf]);
    return Build(path, slots);
  }

  const std::vector<LeafData>& leaves_;
};

/// Flat columns of the common types, built from whole buffers instead of value by value. Returns
/// null when the column needs the general path (nesting, or a conversion).
Result<ArrayPtr> BuildFlat(const SchemaNode& node, LeafData& leaf, int64_t num_rows) {
  const SchemaElement& e = *node.element;
  const TypeId target = node.type->id();
  const PhysicalType physical = *e.type;
  const LogicalType& lt = e.logical;
  int width = 0;
  bool direct = false;
  switch (target) {
    case TypeId::kInt:
    case TypeId::kDate:
      direct = physical == PhysicalType::kInt32 && !(lt.kind == LogicalType::kInteger && !lt.is_signed) &&
               e.converted_type.value_or(-1) != static_cast<int>(ConvertedType::kUint16);
      width = 4;
      break;
    case TypeId::kBigInt:
      direct = physical == PhysicalType::kInt64;
      width = 8;
      break;
    case TypeId::kTimestamp:
      direct = physical == PhysicalType::kInt64 &&
               ((lt.kind == LogicalType::kTimestamp && lt.unit == TimeUnit::kMicros) ||
                (lt.kind != LogicalType::kTimestamp &&
                 e.converted_type.value_or(-1) == static_cast<int>(ConvertedType::kTimestampMicros)));
      width = 8;
      break;
    case TypeId::kFloat:
      direct = physical == PhysicalType::kFloat;
      width = 4;
      break;
    case TypeId::kDouble:
      direct = physical == PhysicalType::kDouble;
      width = 8;
      break;
    case TypeId::kString:
    case TypeId::kBinary:
      direct = physical == PhysicalType::kByteArray;
      break;
    case TypeId::kDecimal:
      // Decimals stored as signed INT32 or INT64, widened to 128 bits below.
      direct = (physical == PhysicalType::kInt32 || physical == PhysicalType::kInt64) &&
               !(lt.kind == LogicalType::kInteger && !lt.is_signed);
      break;
    default: break;
  }
  if (!direct || leaf.num_entries != num_rows) return ArrayPtr();
  const bool has_levels = !leaf.def.empty();
  const int16_t max_def = node.def_level;
  // Validity from the definition levels.
  BufferPtr validity;
  int64_t nulls = num_rows - leaf.num_values;
  if (has_levels && nulls > 0) {
    EPOXY_ASSIGN_OR_RETURN(BufferPtr bits, Buffer::AllocateZeroed(bit_util::BytesForBits(num_rows)));
    uint8_t* b = const_cast<uint8_t*>(bits->data());
    for (int64_t i = 0; i < num_rows; ++i) {
      if (leaf.def[i] == max_def) bit_util::SetBit(b, i);
    }
    validity = std::move(bits);
  }
  if (target == TypeId::kDecimal) {
    BufferBuilder builder;
    // Every slot is written when nothing is null; null slots stay zero otherwise.
    EPOXY_RETURN_NOT_OK(nulls == 0 ? builder.ResizeUninitialized(num_rows * 16) : builder.Resize(num_rows * 16));
    __int128* dst = reinterpret_cast<__int128*>(builder.mutable_data());
    const char* src = leaf.fixed.data();
    auto widen = [&](auto tag) {
      using T = decltype(tag);
      for (int64_t i = 0, k = 0; i < num_rows; ++i) {
        if (has_levels && nulls > 0 && leaf.def[i] != max_def) continue;  // stays zero
        T v;
        std::memcpy(&v, src + (k++) * sizeof(T), sizeof(T));
        dst[i] = v;
      }
    };
    if (physical == PhysicalType::kInt32) {
      widen(int32_t{});
    } else {
      widen(int64_t{});
    }
    EPOXY_ASSIGN_OR_RETURN(BufferPtr values, builder.Finish());
    return Array::Make(node.type, num_rows, {std::move(validity), std::move(values)}, {}, nulls);
  }
  if (width > 0) {
    BufferPtr values;
    if (nulls == 0) {
      // The decoded values are the column: hand the bytes over without copying.
      auto holder = std::make_shared<std::string>(std::move(leaf.fixed));
      values = Buffer::Wrap(reinterpret_cast<const uint8_t*>(holder->data()),
                            static_cast<int64_t>(holder->size()), holder);
    } else {
      BufferBuilder builder;
      EPOXY_RETURN_NOT_OK(builder.AppendZeros(num_rows * width));
      uint8_t* dst = builder.mutable_data();
      const char* src = leaf.fixed.data();
      auto spread = [&](auto tag) {  // one width per loop: a fixed-size copy, not a call
        constexpr size_t w = sizeof(tag);
        for (int64_t i = 0, k = 0; i < num_rows; ++i) {
          if (leaf.def[i] == max_def) std::memcpy(dst + i * w, src + (k++) * w, w);
        }
      };
      if (width == 4) {
        spread(int32_t{});
      } else {
        spread(int64_t{});
      }
      EPOXY_ASSIGN_OR_RETURN(values, builder.Finish());
    }
    return Array::Make(node.type, num_rows, {std::move(validity), std::move(values)}, {}, nulls);
  }
  // Strings: one pass for the offsets, one copy of the bytes.
  BufferBuilder offsets;
  EPOXY_RETURN_NOT_OK(offsets.Reserve((num_rows + 1) * 4));
  const int64_t total = leaf.binary_bytes;
  if (total > INT32_MAX) return Status::OutOfMemory("a string column of one row group exceeds 2 GiB");
  BufferBuilder data;
  EPOXY_RETURN_NOT_OK(data.Reserve(total));
  int32_t at = 0;
  offsets.UnsafeAppendValue(at);
  for (int64_t i = 0, k = 0; i < num_rows; ++i) {
    if (!has_levels || leaf.def[i] == max_def) {
      std::string_view v = leaf.binary[static_cast<size_t>(k++)];
      data.UnsafeAppend(v.data(), static_cast<int64_t>(v.size()));
      at += static_cast<int32_t>(v.size());
    }
    offsets.UnsafeAppendValue(at);
  }
  EPOXY_ASSIGN_OR_RETURN(BufferPtr offsets_buffer, offsets.Finish());
  EPOXY_ASSIGN_OR_RETURN(BufferPtr data_buffer, data.Finish());
  return Array::Make(node.type, num_rows, {std::move(validity), std::move(offsets_buffer), std::move(data_buffer)},
                     {}, nulls);
}

}  // namespace

Result<ArrayPtr> AssembleField(const SchemaNode& field, std::vector<LeafData>& leaves,
                               int64_t num_rows) {
  if (field.first_leaf < 0) return Status::NotSupported("empty group '{}'", field.name);
  if (field.kind == SchemaNode::Kind::kPrimitive && field.rep_level == 0) {
    EPOXY_ASSIGN_OR_RETURN(ArrayPtr flat, BuildFlat(field, leaves[field.leaf], num_rows));
    if (flat != nullptr) return flat;
  }
  std::vector<const SchemaNode*> path{&field};
  Slots slots = TopSlots(leaves[field.first_leaf]);
  if (static_cast<int64_t>(slots.size()) != num_rows) {
    return Status::InvalidData("column '{}' holds {} rows, its row group {}", field.name, slots.size(),
                               num_rows);
  }
  return Assembler(leaves).Build(path, slots);
}

}  // namespace epoxy::parquet
