// SPDX-License-Identifier: Apache-2.0
// JSONTestSuite (../shared/conformance/json), read in place: every y_ file parses, every n_ file is
// refused, and each i_ file keeps the documented verdict below.
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <gtest/gtest.h>

#include "epoxy/format/json/json_reader.h"
#include "epoxy/testing/test_util.h"

namespace epoxy {
namespace {

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Implementation-defined cases epoxy accepts; every other i_ file is refused. A number that
// underflows to 0 is accepted (as every double parser does); integers beyond 64 bits, numbers
// beyond a double's range, invalid UTF-8 or lone surrogates, and UTF-16 input are refused, so
// nothing is stored lossily. 500 nested arrays are within the 1,024-level limit; a UTF-8 byte order
// mark is skipped, as the readers skip it.
const std::set<std::string> kAcceptedImplementationDefined = {
    "i_number_double_huge_neg_exp.json",
    "i_number_real_underflow.json",
    "i_structure_500_nested_arrays.json",
    "i_structure_UTF-8_BOM_empty_object.json",
};

TEST(JsonConformanceTest, WholeFolder) {
  EPOXY_REQUIRE_SHARED("conformance/json", root);
  int accepted = 0, refused = 0, implementation_defined = 0;
  for (const auto& entry : std::filesystem::directory_iterator(root)) {
    std::string name = entry.path().filename().string();
    if (entry.path().extension() != ".json") continue;
    std::string text = Slurp(entry.path().string());
    std::string_view doc = text;
    // A UTF-8 byte order mark is skipped, as the readers skip it.
    if (doc.substr(0, 3) == "\xEF\xBB\xBF") doc.remove_prefix(3);
    Status st = ValidateJsonDocument(doc);
    if (name[0] == 'y') {
      EXPECT_TRUE(st.ok()) << name << ": " << st.ToString();
      ++accepted;
    } else if (name[0] == 'n') {
      EXPECT_FALSE(st.ok()) << name << " was accepted";
      if (!st.ok()) {
        EXPECT_NE(st.message().find("invalid JSON"), std::string::npos);
      }
      ++refused;
    } else if (name[0] == 'i') {
      EXPECT_EQ(st.ok(), kAcceptedImplementationDefined.count(name) > 0) << name << ": " << st.ToString();
      ++implementation_defined;
    }
  }
  EXPECT_GT(accepted, 50);
  EXPECT_GT(refused, 100);
  EXPECT_EQ(implementation_defined, 35);
}

TEST(JsonConformanceTest, AcceptedDocumentsReadAsRecords) {
  EPOXY_REQUIRE_SHARED("conformance/json", root);
  for (const auto& entry : std::filesystem::directory_iterator(root)) {
    std::string name = entry.path().filename().string();
    if (name[0] != 'y') continue;
    auto out = testing::ReadPaths(FileFormat::kJson, {entry.path().string()}, {{"multiLine", "true"}});
    EXPECT_TRUE(out.status.ok()) << name;
    EXPECT_TRUE(out.errors.empty()) << name << ": " << out.errors[0].ToString();
  }
}

TEST(JsonConformanceTest, RefusedDocumentsNeverCrashTheReader) {
  EPOXY_REQUIRE_SHARED("conformance/json", root);
  for (const auto& entry : std::filesystem::directory_iterator(root)) {
    std::string name = entry.path().filename().string();
    if (name[0] != 'n' && name[0] != 'i') continue;
    for (const char* multi_line : {"true", "false"}) {
      auto out = testing::ReadPaths(FileFormat::kJson, {entry.path().string()},
                                    {{"multiLine", multi_line}});
      EXPECT_TRUE(out.status.ok()) << name << ": " << out.status.ToString();
    }
  }
}

}  // namespace
}  // namespace epoxy
