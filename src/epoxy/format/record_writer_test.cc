// SPDX-License-Identifier: Apache-2.0
#include "epoxy/format/record_writer.h"

#include <gtest/gtest.h>

#include "epoxy/testing/test_util.h"
#include "epoxy/types/value_text.h"
#include "epoxy/vector/builder.h"

namespace epoxy {
namespace {

BatchPtr SampleBatch() {
  MemoryPool* pool = &MemoryPool::Default();
  Int64Builder id(DataType::BigInt(), pool);
  StringBuilder name(DataType::String(), pool);
  Int32Builder day(DataType::Date(), pool);
  Int64Builder ts(DataType::Timestamp(), pool);
  DecimalBuilder price(DataType::Decimal(10, 2), pool);
  StringBuilder blob(DataType::Binary(), pool);
  DoubleBuilder ratio(DataType::Double(), pool);
  int32_t d;
  int64_t t;
  EXPECT_TRUE(ParseDate("2026-08-17", &d));
  EXPECT_TRUE(ParseTimestamp("2026-08-17 09:05:00.25", &t));
  EXPECT_TRUE(id.Append(1).ok());
  EXPECT_TRUE(name.Append("a,\"b\"\nc").ok());
  EXPECT_TRUE(day.Append(d).ok());
  EXPECT_TRUE(ts.Append(t).ok());
  EXPECT_TRUE(price.Append(-1250).ok());
  EXPECT_TRUE(blob.Append(std::string_view("\x00\xff\x10", 3)).ok());
  EXPECT_TRUE(ratio.Append(std::numeric_limits<double>::quiet_NaN()).ok());
  EXPECT_TRUE(id.AppendNull().ok());
  EXPECT_TRUE(name.Append("").ok());
  EXPECT_TRUE(day.AppendNull().ok());
  EXPECT_TRUE(ts.AppendNull().ok());
  EXPECT_TRUE(price.AppendNull().ok());
  EXPECT_TRUE(blob.AppendNull().ok());
  EXPECT_TRUE(ratio.Append(0.5).ok());
  std::vector<ArrayPtr> columns = {*id.Finish(), *name.Finish(), *day.Finish(), *ts.Finish(),
                                   *price.Finish(), *blob.Finish(), *ratio.Finish()};
  std::vector<Field> fields;
  for (const char* n : {"id", "name", "day", "ts", "price", "blob", "ratio"}) {
    fields.push_back({n, nullptr});
  }
  for (size_t i = 0; i < fields.size(); ++i) fields[i].type = columns[i]->type();
  return Batch::Make(Schema::Make(fields), columns, 2);
}

std::string Render(TextFormat format, int64_t max_rows = -1) {
  std::string out;
  auto writer = RecordWriter::Make(format, [&out](std::string_view s) {
    out.append(s);
    return Status::OK();
  }, max_rows);
  EXPECT_TRUE(writer->Write(*SampleBatch()).ok());
  EXPECT_TRUE(writer->Finish().ok());
  return out;
}

TEST(RecordWriterTest, JsonLinesIsTheStableForm) {
  EXPECT_EQ(Render(TextFormat::kJsonLines),
            "{\"id\":1,\"name\":\"a,\\\"b\\\"\\nc\",\"day\":\"2026-08-17\","
            "\"ts\":\"2026-08-17T09:05:00.25\",\"price\":\"-12.50\",\"blob\":\"AP8Q\","
            "\"ratio\":\"NaN\"}\n"
            "{\"id\":null,\"name\":\"\",\"day\":null,\"ts\":null,\"price\":null,\"blob\":null,"
            "\"ratio\":0.5}\n");
}

TEST(RecordWriterTest, CsvQuotesWhatNeedsIt) {
  EXPECT_EQ(Render(TextFormat::kCsv),
            "id,name,day,ts,price,blob,ratio\n"
            "1,\"a,\"\"b\"\"\nc\",2026-08-17,2026-08-17 09:05:00.25,-12.50,AP8Q,NaN\n"
            ",\"\",,,,,0.5\n");
}

TEST(RecordWriterTest, TableAlignsAndLimits) {
  std::string table = Render(TextFormat::kTable, 1);
  EXPECT_NE(table.find("| id | name"), std::string::npos);
  EXPECT_NE(table.find("| 1  | a,\"b\" c"), std::string::npos);
  EXPECT_NE(table.find("only showing the first 1 rows"), std::string::npos);
}

}  // namespace
}  // namespace epoxy
