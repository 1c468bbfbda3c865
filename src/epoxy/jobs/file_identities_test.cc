// SPDX-License-Identifier: Apache-2.0
#include "epoxy/jobs/file_identities.h"

#include <gtest/gtest.h>

#include <random>

namespace epoxy::jobs {
namespace {

TEST(FileIdentities, RoundTripsFrontCodedNames) {
  FileIdentities files = {{"dt=2026-08-01/part-00000.json", 1}, {"dt=2026-08-01/part-00001.json", 2},
                          {"dt=2026-08-02/part-00000.json", ~uint64_t{0}}, {"z", 0}};
  std::string encoded = EncodeIdentities(files);
  FileIdentities back;
  ASSERT_TRUE(DecodeIdentities(encoded, "test", &back).ok());
  EXPECT_EQ(back, files);
  EXPECT_LT(encoded.size(), 29u * 3 + 1 + 4 * 10);  // shared prefixes are stored once
}

TEST(FileIdentities, LaterEntriesWin) {
  FileIdentities files = {{"b", 1}, {"a", 1}, {"b", 2}};
  KeepLatest(&files);
  EXPECT_EQ(files, (FileIdentities{{"a", 1}, {"b", 2}}));
  ASSERT_NE(FindIdentity(files, "b"), nullptr);
  EXPECT_EQ(*FindIdentity(files, "b"), 2u);
  EXPECT_EQ(FindIdentity(files, "c"), nullptr);
}

TEST(FileIdentities, IdentityChangesWithSizeMtimeOrEtag) {
  FileInfo f{"x", 10, 1000, "e1", false};
  uint64_t base = IdentityOf(f);
  for (auto change : {+[](FileInfo& g) { g.size++; }, +[](FileInfo& g) { g.mtime_ns++; },
                      +[](FileInfo& g) { g.etag = "e2"; }}) {
    FileInfo g = f;
    change(g);
    EXPECT_NE(IdentityOf(g), base);
  }
  FileInfo same = f;
  same.path = "elsewhere";  // the name is stored beside the identity, not in it
  EXPECT_EQ(IdentityOf(same), base);
}

TEST(FileIdentities, CorruptStateIsAnErrorNeverACrash) {
  FileIdentities files = {{"alpha", 1}, {"alphabet", 2}};
  std::string encoded = EncodeIdentities(files);
  std::mt19937 rng(7);
  for (size_t cut = 0; cut < encoded.size(); ++cut) {
    FileIdentities out;
    EXPECT_FALSE(DecodeIdentities(encoded.substr(0, cut), "cut", &out).ok()) << cut;
  }
  for (int trial = 0; trial < 2000; ++trial) {
    std::string bad = encoded;
    bad[rng() % bad.size()] = static_cast<char>(rng());
    FileIdentities out;
    (void)DecodeIdentities(bad, "flipped", &out);  // may parse or not; must not crash or over-read
  }
  FileIdentities out;
  Status st = DecodeIdentities(std::string("\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 10), "huge", &out);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("huge"), std::string::npos);
}

}  // namespace
}  // namespace epoxy::jobs
