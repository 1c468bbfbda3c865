// SPDX-License-Identifier: Apache-2.0
#include "epoxy/format/spark_row_writer.h"

#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "epoxy/format/java_number_text.h"
#include "epoxy/testing/test_util.h"
#include "epoxy/types/value_text.h"
#include "epoxy/vector/builder.h"

namespace epoxy {
namespace {

std::string JavaDouble(double v) {
  std::string out;
  AppendJavaDouble(v, &out);
  return out;
}

std::string JavaFloat(float v) {
  std::string out;
  AppendJavaFloat(v, &out);
  return out;
}

std::string Text(const Array& array, int64_t row, bool nested = false,
                 const SparkTextOptions& options = {}) {
  std::string out;
  AppendSparkValue(array, row, nested, options, &out);
  return out;
}

TEST(JavaNumberTextTest, DoublesAsJavaPrintsThem) {
  EXPECT_EQ(JavaDouble(1.0), "1.0");
  EXPECT_EQ(JavaDouble(0.5), "0.5");
  EXPECT_EQ(JavaDouble(-2.25), "-2.25");
  EXPECT_EQ(JavaDouble(100.0), "100.0");
  EXPECT_EQ(JavaDouble(1234567.0), "1234567.0");
  EXPECT_EQ(JavaDouble(9999999.0), "9999999.0");
  EXPECT_EQ(JavaDouble(1e7), "1.0E7");
  EXPECT_EQ(JavaDouble(1e10), "1.0E10");
  EXPECT_EQ(JavaDouble(1.5e300), "1.5E300");
  EXPECT_EQ(JavaDouble(0.001), "0.001");
  EXPECT_EQ(JavaDouble(0.0123), "0.0123");
  EXPECT_EQ(JavaDouble(1e-4), "1.0E-4");
  EXPECT_EQ(JavaDouble(-1.2345e-10), "-1.2345E-10");
  EXPECT_EQ(JavaDouble(0.1 + 0.2), "0.30000000000000004");
  EXPECT_EQ(JavaDouble(3.141592653589793), "3.141592653589793");
  EXPECT_EQ(JavaDouble(1e23), "1.0E23");
  EXPECT_EQ(JavaDouble(2e-323), "2.0E-323");
  EXPECT_EQ(JavaDouble(0.0), "0.0");
  EXPECT_EQ(JavaDouble(-0.0), "-0.0");
  EXPECT_EQ(JavaDouble(std::nan("")), "NaN");
  EXPECT_EQ(JavaDouble(std::numeric_limits<double>::infinity()), "Infinity");
  EXPECT_EQ(JavaDouble(-std::numeric_limits<double>::infinity()), "-Infinity");
  EXPECT_EQ(JavaDouble(std::numeric_limits<double>::max()), "1.7976931348623157E308");
  EXPECT_EQ(JavaDouble(std::numeric_limits<double>::denorm_min()), "4.9E-324");
}

TEST(JavaNumberTextTest, FloatsUseTheirOwnShortestDigits) {
  EXPECT_EQ(JavaFloat(0.1f), "0.1");
  EXPECT_EQ(JavaFloat(1.1f), "1.1");
  EXPECT_EQ(JavaFloat(3.4028235e38f), "3.4028235E38");
  EXPECT_EQ(JavaFloat(1e-5f), "1.0E-5");
  EXPECT_EQ(JavaFloat(-0.0f), "-0.0");
  EXPECT_EQ(JavaFloat(12345678.0f), "1.2345678E7");
  EXPECT_EQ(JavaFloat(std::numeric_limits<float>::denorm_min()), "1.4E-45");
  EXPECT_EQ(JavaFloat(1e10f), "1.0E10");
}

TEST(SparkRowWriterTest, ScalarsAtTheTopLevel) {
  MemoryPool* pool = &MemoryPool::Default();
  Int32Builder day(DataType::Date(), pool);
  Int64Builder ts(DataType::Timestamp(), pool);
  DecimalBuilder price(DataType::Decimal(10, 2), pool);
  StringBuilder name(DataType::String(), pool);
  StringBuilder blob(DataType::Binary(), pool);
  DoubleBuilder ratio(DataType::Double(), pool);
  BooleanBuilder flag(pool);
  int32_t d;
  int64_t t, t0;
  ASSERT_TRUE(ParseDate("2021-01-01", &d));
  ASSERT_TRUE(ParseTimestamp("2021-01-01 00:00:00", &t0));
  ASSERT_TRUE(ParseTimestamp("2021-01-01 09:05:00.250", &t));
  ASSERT_OK(day.Append(d));
  ASSERT_OK(ts.Append(t0));
  ASSERT_OK(price.Append(-1250));
  ASSERT_OK(name.Append("a b"));
  ASSERT_OK(blob.Append("Spark"));
  ASSERT_OK(ratio.Append(1e10));
  ASSERT_OK(flag.Append(true));
  ASSERT_OK(day.AppendNull());
  ASSERT_OK(ts.Append(t));
  ASSERT_OK(price.Append(5));
  ASSERT_OK(name.AppendNull());
  ASSERT_OK(blob.AppendNull());
  ASSERT_OK(ratio.Append(std::nan("")));
  ASSERT_OK(flag.Append(false));
  auto schema = std::make_shared<Schema>(std::vector<Field>{
      {"d", DataType::Date()}, {"t", DataType::Timestamp()}, {"p", DataType::Decimal(10, 2)},
      {"s", DataType::String()}, {"b", DataType::Binary()}, {"r", DataType::Double()},
      {"f", DataType::Boolean()}});
  auto batch = Batch::Make(schema,
                           {*day.Finish(), *ts.Finish(), *price.Finish(), *name.Finish(),
                            *blob.Finish(), *ratio.Finish(), *flag.Finish()},
                           2);
  std::string text;
  auto writer = MakeSparkRowWriter([&](std::string_view s) {
    text.append(s);
    return Status::OK();
  });
  ASSERT_OK(writer->Write(*batch));
  ASSERT_OK(writer->Finish());
  EXPECT_EQ(text,
            "2021-01-01\t2021-01-01 00:00:00\t-12.50\ta b\tSpark\t1.0E10\ttrue\n"
            "NULL\t2021-01-01 09:05:00.25\t0.05\tNULL\tNULL\tNaN\tfalse\n");
}

TEST(SparkRowWriterTest, MalformedUtf8PrintsAsReplacementCharacters) {
  StringBuilder blob(DataType::Binary(), &MemoryPool::Default());
  ASSERT_OK(blob.Append("a\xC2" "b"));           // a lead byte without its continuation
  ASSERT_OK(blob.Append("\x80"));                // a lone continuation byte
  ASSERT_OK(blob.Append("\xE2\x82\xAC\xF0\x9F"));  // a euro sign, then a cut-off 4-byte sequence
  ASSERT_OK(blob.Append("\xED\xA0\x80"));        // an encoded surrogate: one bad sequence
  ASSERT_OK(blob.Append("\xE0\x80\x80"));        // an overlong form: three bad bytes
  ASSERT_OK_AND_ASSIGN(auto array, blob.Finish());
  EXPECT_EQ(Text(*array, 0), "a\xEF\xBF\xBD" "b");
  EXPECT_EQ(Text(*array, 1), "\xEF\xBF\xBD");
  EXPECT_EQ(Text(*array, 2), "\xE2\x82\xAC\xEF\xBF\xBD");
  EXPECT_EQ(Text(*array, 3), "\xEF\xBF\xBD");
  EXPECT_EQ(Text(*array, 4), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
}

TEST(SparkRowWriterTest, TimestampsPrintInTheSessionTimeZone) {
  Int64Builder ts(DataType::Timestamp(), &MemoryPool::Default());
  ASSERT_OK(ts.Append(0));
  ASSERT_OK_AND_ASSIGN(auto array, ts.Finish());
  SparkTextOptions options;
  options.to_session_time = [](int64_t micros) { return micros - 8 * 3600 * 1000000LL; };
  EXPECT_EQ(Text(*array, 0, false, options), "1969-12-31 16:00:00");
  EXPECT_EQ(Text(*array, 0), "1970-01-01 00:00:00");
}

TEST(SparkRowWriterTest, ArraysQuoteStringsAndPrintNullsInLowerCase) {
  MemoryPool* pool = &MemoryPool::Default();
  auto type = DataType::Array(DataType::String());
  ListBuilder list(type, std::make_unique<StringBuilder>(DataType::String(), pool), pool);
  auto* items = static_cast<StringBuilder*>(list.child());
  ASSERT_OK(items->Append("a"));
  ASSERT_OK(items->AppendNull());
  ASSERT_OK(items->Append("b c"));
  ASSERT_OK(list.AppendList());
  ASSERT_OK(list.AppendList());  // empty
  ASSERT_OK(list.AppendNull());
  ASSERT_OK_AND_ASSIGN(auto array, list.Finish());
  EXPECT_EQ(Text(*array, 0), "[\"a\",null,\"b c\"]");
  EXPECT_EQ(Text(*array, 1), "[]");
  EXPECT_EQ(Text(*array, 2), "NULL");
  EXPECT_EQ(Text(*array, 2, true), "null");
}

TEST(SparkRowWriterTest, MapsSortTheirEntriesByText) {
  MemoryPool* pool = &MemoryPool::Default();
  auto type = DataType::Map(DataType::String(), DataType::Double());
  MapBuilder map(type, std::make_unique<StringBuilder>(DataType::String(), pool),
                 std::make_unique<DoubleBuilder>(DataType::Double(), pool), pool);
  auto* keys = static_cast<StringBuilder*>(map.keys());
  auto* values = static_cast<DoubleBuilder*>(map.values());
  ASSERT_OK(keys->Append("b"));
  ASSERT_OK(values->Append(1));
  ASSERT_OK(keys->Append("a"));
  ASSERT_OK(values->AppendNull());
  ASSERT_OK(map.AppendMap());
  ASSERT_OK_AND_ASSIGN(auto array, map.Finish());
  EXPECT_EQ(Text(*array, 0), "{\"a\":null,\"b\":1.0}");
}

TEST(SparkRowWriterTest, StructsNameTheirFields) {
  MemoryPool* pool = &MemoryPool::Default();
  auto type = DataType::Struct({{"a", DataType::Int()}, {"b", DataType::String()}});
  std::vector<std::unique_ptr<ArrayBuilder>> fields;
  fields.push_back(std::make_unique<Int32Builder>(DataType::Int(), pool));
  fields.push_back(std::make_unique<StringBuilder>(DataType::String(), pool));
  StructBuilder st(type, std::move(fields), pool);
  ASSERT_OK(static_cast<Int32Builder*>(st.field(0))->Append(1));
  ASSERT_OK(static_cast<StringBuilder*>(st.field(1))->Append("x"));
  ASSERT_OK(st.AppendStruct());
  ASSERT_OK(static_cast<Int32Builder*>(st.field(0))->AppendNull());
  ASSERT_OK(static_cast<StringBuilder*>(st.field(1))->AppendNull());
  ASSERT_OK(st.AppendStruct());
  ASSERT_OK_AND_ASSIGN(auto array, st.Finish());
  EXPECT_EQ(Text(*array, 0), "{\"a\":1,\"b\":\"x\"}");
  EXPECT_EQ(Text(*array, 1), "{\"a\":null,\"b\":null}");
}

}  // namespace
}  // namespace epoxy
