// SPDX-License-Identifier: Apache-2.0
#include "epoxy/format/parquet/thrift_compact.h"

#include <gtest/gtest.h>

#include "epoxy/format/parquet/metadata.h"

namespace epoxy::parquet {
namespace {

TEST(ThriftCompactTest, KeyValueBytes) {
  ThriftWriter w;
  w.FieldBinary(1, "a");
  w.FieldBinary(2, "b");
  w.EndTopLevel();
  EXPECT_EQ(w.bytes(), std::string("\x18\x01" "a" "\x18\x01" "b" "\x00", 7));
}

TEST(ThriftCompactTest, UnknownFieldsAreSkipped) {
  ThriftWriter w;
  w.FieldI32(1, 7);
  w.FieldBinary(2, "known");
  w.BeginListField(20, ThriftType::kI64, 3);  // a field from a newer writer
  w.ElementI64(1);
  w.ElementI64(-2);
  w.ElementI64(3);
  w.BeginStructField(21);
  w.FieldBool(1, true);
  w.EndStruct();
  w.FieldI64(22, -5);
  w.EndTopLevel();
  std::string bytes = w.Release();
  ThriftReader r(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  int32_t a = 0;
  std::string b;
  ASSERT_TRUE(r.ReadStruct([&](int16_t id, ThriftType type) -> Status {
    if (id == 1) {
      EPOXY_ASSIGN_OR_RETURN(a, r.ReadI32());
      return Status::OK();
    }
    if (id == 2) {
      EPOXY_ASSIGN_OR_RETURN(b, r.ReadString());
      return Status::OK();
    }
    return r.Skip(type);
  }).ok());
  EXPECT_EQ(a, 7);
  EXPECT_EQ(b, "known");
  EXPECT_EQ(r.position(), bytes.size());
}

TEST(ThriftCompactTest, CorruptInputIsAnError) {
  const uint8_t truncated[] = {0x18, 0x05, 'a'};  // a 5-byte string with 1 byte present
  ThriftReader r(truncated, sizeof(truncated));
  Status st = r.ReadStruct([&](int16_t, ThriftType t) { return r.Skip(t); });
  EXPECT_EQ(st.code(), StatusCode::kInvalidData);
  std::string deep(1000, '\x1c');  // struct fields nested 1000 deep
  ThriftReader d(reinterpret_cast<const uint8_t*>(deep.data()), deep.size());
  EXPECT_FALSE(d.ReadStruct([&](int16_t, ThriftType t) { return d.Skip(t); }).ok());
  const uint8_t huge_list[] = {0x19, 0xF5, 0xFF, 0xFF, 0xFF, 0x7F};  // a list claiming 2^31 i32s
  ThriftReader l(huge_list, sizeof(huge_list));
  EXPECT_FALSE(l.ReadStruct([&](int16_t, ThriftType t) { return l.Skip(t); }).ok());
}

TEST(ThriftCompactTest, MetadataRoundTrips) {
  FileMetaData md;
  md.schema.resize(2);
  md.schema[0].name = "schema";
  md.schema[0].num_children = 1;
  md.schema[1].name = "x";
  md.schema[1].type = PhysicalType::kInt64;
  md.schema[1].repetition = Repetition::kOptional;
  md.schema[1].logical.kind = LogicalType::kTimestamp;
  md.schema[1].logical.unit = TimeUnit::kMillis;
  md.schema[1].logical.adjusted_to_utc = true;
  md.num_rows = 42;
  md.created_by = "test";
  md.key_value_metadata.push_back({"k", std::string("v")});
  std::string bytes = EncodeFileMetaData(md);
  auto back = DecodeFileMetaData(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->num_rows, 42);
  EXPECT_EQ(back->schema[1].logical.kind, LogicalType::kTimestamp);
  EXPECT_EQ(back->schema[1].logical.unit, TimeUnit::kMillis);
  EXPECT_TRUE(back->schema[1].logical.adjusted_to_utc);
  EXPECT_EQ(*back->created_by, "test");
  EXPECT_EQ(*back->key_value_metadata[0].value, "v");
}

}  // namespace
}  // namespace epoxy::parquet
