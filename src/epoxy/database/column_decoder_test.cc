// SPDX-License-Identifier: Apache-2.0
#include "epoxy/database/column_decoder.h"

#include <gtest/gtest.h>

#include "epoxy/expr/scalar.h"

namespace epoxy::database {
namespace {

/// A block of one text column.
class FakeBlock final : public RowBlock {
 public:
  explicit FakeBlock(std::vector<std::optional<std::string>> cells) : cells_(std::move(cells)) {}
  int64_t num_rows() const override { return static_cast<int64_t>(cells_.size()); }
  int num_columns() const override { return 1; }
  bool IsNull(int64_t row, int) const override { return !cells_[static_cast<size_t>(row)]; }
  std::string_view Value(int64_t row, int) const override { return *cells_[static_cast<size_t>(row)]; }

 private:
  std::vector<std::optional<std::string>> cells_;
};

ColumnMapping Pg(uint32_t oid, int modifier = -1) { return *MapPostgresColumn({"c", oid, modifier, ""}); }

TEST(DecodeColumn, PostgresScalars) {
  FakeBlock ints({"1", std::nullopt, "-9223372036854775808"});
  auto a = DecodeColumn(ints, 0, nullptr, Pg(20), nullptr);
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  EXPECT_EQ((*a)->values<int64_t>()[0], 1);
  EXPECT_TRUE((*a)->IsNull(1));
  EXPECT_EQ((*a)->values<int64_t>()[2], INT64_MIN);

  // numeric(10,2): the type modifier is ((precision << 16) | scale) + 4.
  ColumnMapping numeric = Pg(1700, (10 << 16 | 2) + 4);
  EXPECT_EQ(numeric.type->ToString(), "decimal(10,2)");
  EXPECT_EQ(Pg(1700).type->ToString(), "decimal(38,18)");

  FakeBlock tz({"2026-12-01 10:00:00.5+00"});
  auto t = DecodeColumn(tz, 0, nullptr, Pg(1184), nullptr);
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(expr::ScalarAt(**t, 0).ToSql(), "TIMESTAMP '2026-12-01 10:00:00.5'");

  FakeBlock bytes({"\\x00ff41"});
  auto b = DecodeColumn(bytes, 0, nullptr, Pg(17), nullptr);
  ASSERT_TRUE(b.ok());
  EXPECT_EQ((*b)->GetView(0), std::string_view("\x00\xff" "A", 3));

  FakeBlock flags({"t", "f"});
  auto f = DecodeColumn(flags, 0, nullptr, Pg(16), nullptr);
  ASSERT_TRUE(f.ok());
  EXPECT_TRUE((*f)->GetBool(0));
  EXPECT_FALSE((*f)->GetBool(1));
}

TEST(DecodeColumn, ValuesThatDoNotConvertAreErrors) {
  FakeBlock dates({"2026-01-01", "infinity"});
  auto d = DecodeColumn(dates, 0, nullptr, Pg(1082), nullptr);
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.status().message().find("'infinity'"), std::string::npos) << d.status().ToString();
}

TEST(DecodeColumn, PostgresArrays) {
  FakeBlock arrays({"{1,2,NULL}", "{}", std::nullopt});
  auto a = DecodeColumn(arrays, 0, nullptr, Pg(1007), nullptr);
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  EXPECT_EQ((*a)->type()->ToString(), "array<int>");
  const Array& elements = *(*a)->child(0);
  ASSERT_EQ((*a)->offsets()[1], 3);
  EXPECT_EQ(elements.values<int32_t>()[0], 1);
  EXPECT_EQ(elements.values<int32_t>()[1], 2);
  EXPECT_TRUE(elements.IsNull(2));
  EXPECT_EQ((*a)->offsets()[2], 3);  // {} is empty, not null
  EXPECT_TRUE((*a)->IsNull(2));
  FakeBlock texts({"{\"a b\",\"c\\\"d\",plain}"});
  auto t = DecodeColumn(texts, 0, nullptr, Pg(1009), nullptr);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ((*t)->child(0)->GetView(1), "c\"d");
  FakeBlock nested({"{{1,2},{3,4}}"});
  EXPECT_EQ(DecodeColumn(nested, 0, nullptr, Pg(1007), nullptr).status().code(), StatusCode::kNotSupported);
}

TEST(MapSqliteColumn, DeclaredTypes) {
  EXPECT_EQ(MapSqliteColumn({"a", 0, -1, "INTEGER"}).type->ToString(), "bigint");
  EXPECT_EQ(MapSqliteColumn({"a", 0, -1, "varchar(20)"}).type->ToString(), "string");
  EXPECT_EQ(MapSqliteColumn({"a", 0, -1, "DECIMAL(10, 2)"}).type->ToString(), "decimal(10,2)");
  EXPECT_EQ(MapSqliteColumn({"a", 0, -1, "DATETIME"}).type->ToString(), "timestamp");
  EXPECT_EQ(MapSqliteColumn({"a", 0, -1, "DATE"}).type->ToString(), "date");
  EXPECT_EQ(MapSqliteColumn({"a", 0, -1, "BLOB"}).type->ToString(), "binary");
  EXPECT_EQ(MapSqliteColumn({"a", 0, -1, ""}).type->ToString(), "string");
  EXPECT_EQ(MapSqliteColumn({"a", 0, -1, "BOOLEAN"}).type->ToString(), "boolean");
}

TEST(RowIdentity, NullDiffersFromEmpty) {
  FakeBlock cells({std::nullopt, "", "x"});
  EXPECT_NE(RowIdentity(cells, 0, 0, 1), RowIdentity(cells, 1, 0, 1));
  EXPECT_NE(RowIdentity(cells, 1, 0, 1), RowIdentity(cells, 2, 0, 1));
}

}  // namespace
}  // namespace epoxy::database
