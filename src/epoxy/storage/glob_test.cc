// SPDX-License-Identifier: Apache-2.0
#include "epoxy/storage/glob.h"

#include <gtest/gtest.h>

#include "epoxy/testing/test_util.h"

namespace epoxy {
namespace {

bool Match(const char* pattern, const char* path) {
  auto glob = Glob::Compile(pattern);
  EXPECT_TRUE(glob.ok()) << glob.status().ToString();
  return glob->Matches(path);
}

TEST(GlobTest, GlueDialect) {
  EXPECT_TRUE(Match("*.csv", "a.csv"));
  EXPECT_FALSE(Match("*.csv", "dir/a.csv"));  // * stays within a level
  EXPECT_TRUE(Match("**.csv", "dir/sub/a.csv"));
  EXPECT_TRUE(Match("departments/**", "departments/x/y.json"));
  EXPECT_TRUE(Match("2015/0[2-9]/**", "2015/03/a"));
  EXPECT_FALSE(Match("2015/0[2-9]/**", "2015/01/a"));
  EXPECT_TRUE(Match("[!a-c]x", "dx"));
  EXPECT_FALSE(Match("[!a-c]x", "bx"));
  EXPECT_TRUE(Match("file?.txt", "file1.txt"));
  EXPECT_FALSE(Match("file?.txt", "file/.txt"));
  EXPECT_TRUE(Match("{a,b}/*.json", "b/x.json"));
  EXPECT_FALSE(Match("{a,b}/*.json", "c/x.json"));
  EXPECT_TRUE(Match("\\*.csv", "*.csv"));
  EXPECT_FALSE(Match("\\*.csv", "a.csv"));
  EXPECT_TRUE(Match(".hidden", ".hidden"));
}

TEST(GlobTest, PathologicalPatternsStayFast) {
  // A backtracking matcher takes exponential time here; the table matcher is linear.
  std::string pattern;
  for (int i = 0; i < 30; ++i) pattern += "*a";
  pattern += "b";
  std::string text(200, 'a');
  EXPECT_FALSE(Match(pattern.c_str(), text.c_str()));
}

TEST(GlobTest, BadPatternsAreErrors) {
  EXPECT_FALSE(Glob::Compile("{a,b").ok());
  EXPECT_FALSE(Glob::Compile("{a,{b,c}}").ok());
}

TEST(ExpandPathsTest, FilesFoldersAndGlobs) {
  testing::TempDir dir;
  dir.Write("raw/dt=1/a.json", "{}");
  dir.Write("raw/dt=2/b.json", "{}");
  dir.Write("raw/dt=2/_SUCCESS", "");
  dir.Write("raw/.hidden/c.json", "{}");
  dir.Write("raw/dt=2/c.csv", "x");
  ASSERT_OK_AND_ASSIGN(auto folder, ExpandPaths({dir.path() + "/raw"}));
  ASSERT_EQ(folder.size(), 3u);
  EXPECT_EQ(folder[0].path, dir.path() + "/raw/dt=1/a.json");
  ASSERT_OK_AND_ASSIGN(auto globbed, ExpandPaths({dir.path() + "/raw/*/*.json"}));
  EXPECT_EQ(globbed.size(), 2u);
  ASSERT_OK_AND_ASSIGN(auto both, ExpandPaths({dir.path() + "/raw/dt=1/a.json",
                                                dir.path() + "/raw/dt=1"}));
  EXPECT_EQ(both.size(), 1u);  // no duplicates
  auto missing = ExpandPaths({dir.path() + "/nope"});
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
}

}  // namespace
}  // namespace epoxy
