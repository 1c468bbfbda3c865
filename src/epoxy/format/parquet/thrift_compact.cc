// SPDX-License-Identifier: Apache-2.0
// Thrift compact protocol reader and writer.
#include "epoxy/format/parquet/thrift_compact.h"

#include <cstring>

namespace epoxy::parquet {
namespace {

constexpr int kMaxDepth = 64;
constexpr uint64_t kMaxBinary = 100 << 20;
constexpr int64_t kMaxElements = 10 << 20;

}  // namespace

Status ThriftReader::Need(size_t n) const {
  if (n > size_ - pos_) {
    return Status::InvalidData("Thrift metadata is truncated (need {} bytes at offset {} of {})", n,
                               pos_, size_);
  }
  return Status::OK();
}

Result<uint64_t> ThriftReader::ReadVarint() {
  uint64_t result = 0;
  for (int shift = 0; shift < 70; shift += 7) {
    EPOXY_RETURN_NOT_OK(Need(1));
    uint8_t byte = data_[pos_++];
    result |= static_cast<uint64_t>(byte & 0x7F) << shift;
    if ((byte & 0x80) == 0) return result;
  }
  return Status::InvalidData("Thrift metadata has an over-long varint at offset {}", pos_);
}

Result<bool> ThriftReader::ReadBool(ThriftType type) {
  if (pending_bool_ != ThriftType::kStop) {
    bool value = pending_bool_ == ThriftType::kTrue;
    pending_bool_ = ThriftType::kStop;
    return value;
  }
  (void)type;
  // A list element: one byte, 1 meaning true (C++ and Java write 1/2, the spec 1/0).
  EPOXY_RETURN_NOT_OK(Need(1));
  return data_[pos_++] == 1;
}

Result<int8_t> ThriftReader::ReadI8() {
  EPOXY_RETURN_NOT_OK(Need(1));
  return static_cast<int8_t>(data_[pos_++]);
}

Result<int16_t> ThriftReader::ReadI16() {
  EPOXY_ASSIGN_OR_RETURN(int64_t v, ReadI64());
  return static_cast<int16_t>(v);
}

Result<int32_t> ThriftReader::ReadI32() {
  EPOXY_ASSIGN_OR_RETURN(int64_t v, ReadI64());
  return static_cast<int32_t>(v);
}

Result<int64_t> ThriftReader::ReadI64() {
  EPOXY_ASSIGN_OR_RETURN(uint64_t u, ReadVarint());
  return static_cast<int64_t>((u >> 1) ^ (~(u & 1) + 1));
}

Result<double> ThriftReader::ReadDouble() {
  EPOXY_RETURN_NOT_OK(Need(8));
  double v;
  std::memcpy(&v, data_ + pos_, 8);
  pos_ += 8;
  return v;
}

Result<std::string_view> ThriftReader::ReadBinary() {
  EPOXY_ASSIGN_OR_RETURN(uint64_t n, ReadVarint());
  if (n > kMaxBinary) return Status::InvalidData("Thrift string of {} bytes is too long", n);
  EPOXY_RETURN_NOT_OK(Need(static_cast<size_t>(n)));
  std::string_view out(reinterpret_cast<const char*>(data_ + pos_), static_cast<size_t>(n));
  pos_ += static_cast<size_t>(n);
  return out;
}

Result<std::string> ThriftReader::ReadString() {
  EPOXY_ASSIGN_OR_RETURN(std::string_view v, ReadBinary());
  return std::string(v);
}

Status ThriftReader::ReadListHeader(ThriftType* element, int64_t* count) {
  EPOXY_RETURN_NOT_OK(Need(1));
  uint8_t header = data_[pos_++];
  *element = static_cast<ThriftType>(header & 0x0F);
  uint64_t n = header >> 4;
  if (n == 15) {
    EPOXY_ASSIGN_OR_RETURN(n, ReadVarint());
  }
  if (n > static_cast<uint64_t>(kMaxElements)) {
    return Status::InvalidData("Thrift list of {} elements is too long", n);
  }
  // Every element takes at least one byte, except bools in some writers; a cheap sanity bound.
  if (*element != ThriftType::kTrue && *element != ThriftType::kFalse && n > size_ - pos_) {
    return Status::InvalidData("Thrift list of {} elements exceeds the {} bytes left", n,
                               size_ - pos_);
  }
  *count = static_cast<int64_t>(n);
  return Status::OK();
}

Status ThriftReader::ReadList(const std::function<Status(ThriftType element)>& element) {
  ThriftType type;
  int64_t count;
  EPOXY_RETURN_NOT_OK(ReadListHeader(&type, &count));
  for (int64_t i = 0; i < count; ++i) EPOXY_RETURN_NOT_OK(element(type));
  return Status::OK();
}

Status ThriftReader::ReadStruct(const std::function<Status(int16_t id, ThriftType type)>& field) {
  if (++depth_ > kMaxDepth) return Status::InvalidData("Thrift metadata nested too deeply");
  int16_t last_id = 0;
  while (true) {
    EPOXY_RETURN_NOT_OK(Need(1));
    uint8_t header = data_[pos_++];
    auto type = static_cast<ThriftType>(header & 0x0F);
    if (type == ThriftType::kStop) break;
    int16_t delta = header >> 4;
    int16_t id;
    if (delta != 0) {
      id = static_cast<int16_t>(last_id + delta);
    } else {
      EPOXY_ASSIGN_OR_RETURN(id, ReadI16());
    }
    last_id = id;
    if (type == ThriftType::kTrue || type == ThriftType::kFalse) pending_bool_ = type;
    if (static_cast<uint8_t>(type) > static_cast<uint8_t>(ThriftType::kUuid)) {
      return Status::InvalidData("Thrift metadata has an unknown field type {} at offset {}",
                                 static_cast<int>(type), pos_);
    }
    EPOXY_RETURN_NOT_OK(field(id, type));
    pending_bool_ = ThriftType::kStop;
  }
  --depth_;
  return Status::OK();
}

Status ThriftReader::Skip(ThriftType type) { return SkipDepth(type, 0); }

Status ThriftReader::SkipDepth(ThriftType type, int depth) {
  if (depth > kMaxDepth) return Status::InvalidData("Thrift metadata nested too deeply");
  switch (type) {
    case ThriftType::kTrue:
    case ThriftType::kFalse:
      if (pending_bool_ != ThriftType::kStop) {
        pending_bool_ = ThriftType::kStop;
        return Status::OK();
      }
      EPOXY_RETURN_NOT_OK(Need(1));
      ++pos_;
      return Status::OK();
    case ThriftType::kByte:
      EPOXY_RETURN_NOT_OK(Need(1));
      ++pos_;
      return Status::OK();
    case ThriftType::kI16:
    case ThriftType::kI32:
    case ThriftType::kI64: return ReadVarint().status();
    case ThriftType::kDouble:
      EPOXY_RETURN_NOT_OK(Need(8));
      pos_ += 8;
      return Status::OK();
    case ThriftType::kBinary: return ReadBinary().status();
    case ThriftType::kUuid:
      EPOXY_RETURN_NOT_OK(Need(16));
      pos_ += 16;
      return Status::OK();
    case ThriftType::kList:
    case ThriftType::kSet: {
      ThriftType element;
      int64_t count;
      EPOXY_RETURN_NOT_OK(ReadListHeader(&element, &count));
      for (int64_t i = 0; i < count; ++i) EPOXY_RETURN_NOT_OK(SkipDepth(element, depth + 1));
      return Status::OK();
    }
    case ThriftType::kMap: {
      EPOXY_ASSIGN_OR_RETURN(uint64_t count, ReadVarint());
      if (count == 0) return Status::OK();
      if (count > static_cast<uint64_t>(kMaxElements) || count > size_ - pos_) {
        return Status::InvalidData("Thrift map of {} entries is too long", count);
      }
      EPOXY_RETURN_NOT_OK(Need(1));
      uint8_t types = data_[pos_++];
      for (uint64_t i = 0; i < count; ++i) {
        EPOXY_RETURN_NOT_OK(SkipDepth(static_cast<ThriftType>(types >> 4), depth + 1));
        EPOXY_RETURN_NOT_OK(SkipDepth(static_cast<ThriftType>(types & 0x0F), depth + 1));
      }
      return Status::OK();
    }
    case ThriftType::kStruct:
      return ReadStruct([this, depth](int16_t, ThriftType t) { return SkipDepth(t, depth + 1); });
    case ThriftType::kStop: break;
  }
  return Status::InvalidData("Thrift metadata has an unknown type {}", static_cast<int>(type));
}

void ThriftWriter::Varint(uint64_t v) {
  while (v >= 0x80) {
    out_.push_back(static_cast<char>((v & 0x7F) | 0x80));
    v >>= 7;
  }
  out_.push_back(static_cast<char>(v));
}

void ThriftWriter::FieldHeader(int16_t id, ThriftType type) {
  int delta = id - last_id_;
  if (delta > 0 && delta <= 15) {
    out_.push_back(static_cast<char>((delta << 4) | static_cast<int>(type)));
  } else {
    out_.push_back(static_cast<char>(type));
    Varint(ZigZag(id));
  }
  last_id_ = id;
}

void ThriftWriter::FieldI32(int16_t id, int32_t value) {
  FieldHeader(id, ThriftType::kI32);
  Varint(ZigZag(value));
}

void ThriftWriter::FieldI64(int16_t id, int64_t value) {
  FieldHeader(id, ThriftType::kI64);
  Varint(ZigZag(value));
}

void ThriftWriter::FieldI8(int16_t id, int8_t value) {
  FieldHeader(id, ThriftType::kByte);
  out_.push_back(static_cast<char>(value));
}

void ThriftWriter::FieldBool(int16_t id, bool value) {
  FieldHeader(id, value ? ThriftType::kTrue : ThriftType::kFalse);
}

void ThriftWriter::FieldBinary(int16_t id, std::string_view value) {
  FieldHeader(id, ThriftType::kBinary);
  Varint(value.size());
  out_.append(value);
}

void ThriftWriter::BeginStructField(int16_t id) {
  FieldHeader(id, ThriftType::kStruct);
  saved_ids_.push_back(last_id_);
  last_id_ = 0;
}

void ThriftWriter::EndStruct() {
  out_.push_back(0);
  last_id_ = saved_ids_.back();
  saved_ids_.pop_back();
}

void ThriftWriter::BeginListField(int16_t id, ThriftType element, int64_t count) {
  FieldHeader(id, ThriftType::kList);
  if (count < 15) {
    out_.push_back(static_cast<char>((count << 4) | static_cast<int>(element)));
  } else {
    out_.push_back(static_cast<char>(0xF0 | static_cast<int>(element)));
    Varint(static_cast<uint64_t>(count));
  }
}

void ThriftWriter::ElementBinary(std::string_view value) {
  Varint(value.size());
  out_.append(value);
}

void ThriftWriter::BeginStructElement() {
  saved_ids_.push_back(last_id_);
  last_id_ = 0;
}

}  // namespace epoxy::parquet
