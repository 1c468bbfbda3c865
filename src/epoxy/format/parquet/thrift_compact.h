// SPDX-License-Identifier: Apache-2.0
// The Thrift compact protocol, as Parquet metadata uses it: a bounds-checked reader that skips
// what it does not know, and a writer.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "epoxy/common/result.h"

namespace epoxy::parquet {

/// Compact-protocol wire types.
enum class ThriftType : uint8_t {
  kStop = 0,
  kTrue = 1,
  kFalse = 2,
  kByte = 3,
  kI16 = 4,
  kI32 = 5,
  kI64 = 6,
  kDouble = 7,
  kBinary = 8,
  kList = 9,
  kSet = 10,
  kMap = 11,
  kStruct = 12,
  kUuid = 13,
};

/// Reads untrusted bytes: every read is bounds-checked, nesting is limited, and lengths and counts
/// are capped, so corrupt metadata gives an InvalidData error, never a crash or a huge allocation.
class ThriftReader {
 public:
  ThriftReader(const uint8_t* data, size_t size) : data_(data), size_(size) {}

  /// Calls `field(id, type)` for each field of the struct at the current position, up to STOP.
  /// The callback must consume the field's value (or call Skip(type)).
  Status ReadStruct(const std::function<Status(int16_t id, ThriftType type)>& field);
  /// The value of a bool field (carried in its header) or a bool list element.
  Result<bool> ReadBool(ThriftType type);
  Result<int8_t> ReadI8();
  Result<int16_t> ReadI16();
  Result<int32_t> ReadI32();
  Result<int64_t> ReadI64();
  Result<double> ReadDouble();
  /// A view into the input; valid as long as the input is.
  Result<std::string_view> ReadBinary();
  Result<std::string> ReadString();
  /// A list or set header: element type and count.
  Status ReadListHeader(ThriftType* element, int64_t* count);
  /// Reads a list, calling `element(type)` once per element.
  Status ReadList(const std::function<Status(ThriftType element)>& element);
  Status Skip(ThriftType type);

  size_t position() const { return pos_; }

 private:
  Result<uint64_t> ReadVarint();
  Status Need(size_t n) const;
  Status SkipDepth(ThriftType type, int depth);

  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
  int depth_ = 0;
  ThriftType pending_bool_ = ThriftType::kStop;
};

/// Appends compact-protocol bytes to a string. Fields must be written in increasing id order.
class ThriftWriter {
 public:
  const std::string& bytes() const { return out_; }
  std::string Release() { return std::move(out_); }

  void FieldI32(int16_t id, int32_t value);
  void FieldI64(int16_t id, int64_t value);
  void FieldI8(int16_t id, int8_t value);
  void FieldBool(int16_t id, bool value);
  void FieldBinary(int16_t id, std::string_view value);
  /// Starts a struct field; close it with EndStruct().
  void BeginStructField(int16_t id);
  void EndStruct();
  /// Starts a list field of `count` elements; write them with the Element* calls.
  void BeginListField(int16_t id, ThriftType element, int64_t count);
  void ElementI32(int32_t value) { Varint(ZigZag(value)); }
  void ElementI64(int64_t value) { Varint(ZigZag(value)); }
  void ElementBool(bool value) { out_.push_back(value ? 1 : 2); }
  void ElementBinary(std::string_view value);
  /// Starts a struct list element; close it with EndStruct().
  void BeginStructElement();
  /// Ends the top-level struct (writes its STOP).
  void EndTopLevel() { out_.push_back(0); }

 private:
  void FieldHeader(int16_t id, ThriftType type);
  void Varint(uint64_t v);
  static uint64_t ZigZag(int64_t v) {
    return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
  }

  std::string out_;
  int16_t last_id_ = 0;
  std::vector<int16_t> saved_ids_;
};

}  // namespace epoxy::parquet
