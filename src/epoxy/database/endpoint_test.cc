// SPDX-License-Identifier: Apache-2.0
#include "epoxy/database/endpoint.h"

#include <gtest/gtest.h>

namespace epoxy::database {
namespace {

TEST(ParseJdbcUrl, PostgresWithPortParamsAndCredentials) {
  auto e = ParseJdbcUrl("jdbc:postgresql://db.example:6543/sales?sslmode=require&user=etl&password=s%40cret");
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  EXPECT_EQ(e->engine, Engine::kPostgres);
  EXPECT_EQ(e->host, "db.example");
  EXPECT_EQ(e->port, 6543);
  EXPECT_EQ(e->database, "sales");
  EXPECT_EQ(e->user, "etl");
  EXPECT_EQ(e->password, "s@cret");
  EXPECT_EQ(e->params.at("sslmode"), "require");
  EXPECT_EQ(e->params.count("password"), 0u);
  EXPECT_EQ(e->Describe(), "postgresql://db.example:6543/sales");  // never the password
}

TEST(ParseJdbcUrl, PostgresDefaultsAndIpv6) {
  auto e = ParseJdbcUrl("jdbc:postgresql://[::1]/db");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->host, "::1");
  EXPECT_EQ(e->port, 5432);
  auto userinfo = ParseJdbcUrl("postgresql://u:p@localhost:5000/x");
  ASSERT_TRUE(userinfo.ok());
  EXPECT_EQ(userinfo->user, "u");
  EXPECT_EQ(userinfo->password, "p");
}

TEST(ParseJdbcUrl, Sqlite) {
  auto e = ParseJdbcUrl("jdbc:sqlite:/tmp/shop.db");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->engine, Engine::kSqlite);
  EXPECT_EQ(e->path, "/tmp/shop.db");
  EXPECT_EQ(ParseJdbcUrl("jdbc:sqlite:relative.db")->path, "relative.db");
}

TEST(ParseJdbcUrl, BadUrlsNameTheProblem) {
  EXPECT_NE(ParseJdbcUrl("jdbc:mysql://h/db").status().message().find("PostgreSQL"), std::string::npos);
  EXPECT_NE(ParseJdbcUrl("jdbc:postgresql://h:99999/db").status().message().find("port"), std::string::npos);
  EXPECT_NE(ParseJdbcUrl("jdbc:postgresql://h:5432/").status().message().find("no database"), std::string::npos);
  EXPECT_FALSE(ParseJdbcUrl("jdbc:sqlite:").ok());
  EXPECT_FALSE(ParseJdbcUrl("jdbc:postgresql://[::1/db").ok());
}

}  // namespace
}  // namespace epoxy::database
