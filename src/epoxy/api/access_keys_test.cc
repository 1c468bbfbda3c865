// SPDX-License-Identifier: Apache-2.0
#include "epoxy/api/access_keys.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>


namespace epoxy::api {
namespace {

class AccessKeysTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("epoxy-keys-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
    ::setenv("EPOXY_KEY_FILE", (dir_ / "secrets.key").c_str(), 1);
    auto store = catalog::CatalogStore::Open((dir_ / "catalog.db").string());
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    store_ = std::move(*store);
  }
  void TearDown() override {
    store_.reset();
    std::filesystem::remove_all(dir_);
  }
  std::filesystem::path dir_;
  std::unique_ptr<catalog::CatalogStore> store_;
};

TEST_F(AccessKeysTest, SecretsAreSealedAtRestAndOpenWithTheKeyFile) {
  auto created = CreateAccessKey(*store_);
  ASSERT_TRUE(created.ok());
  const std::string id = (*created)["AccessKeyId"], secret = (*created)["SecretAccessKey"];
  EXPECT_EQ(id.size(), 20u);
  EXPECT_EQ(secret.size(), 40u);
  EXPECT_EQ(StoredSecret(*store_, id), secret);
  // The catalog file does not hold the secret in clear.
  std::ifstream in(dir_ / "catalog.db", std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(bytes.find(secret), std::string::npos);
  EXPECT_EQ(std::filesystem::status(dir_ / "secrets.key").permissions() & std::filesystem::perms::group_all,
            std::filesystem::perms::none);
  auto listed = ListAccessKeys(*store_);
  ASSERT_TRUE(listed.ok());
  ASSERT_EQ(listed->size(), 1u);
  EXPECT_FALSE((*listed)[0].dump().find(secret) != std::string::npos);
  // Another key file cannot open it.
  std::filesystem::remove(dir_ / "secrets.key");
  EXPECT_EQ(StoredSecret(*store_, id), std::nullopt);
  EXPECT_TRUE(DeleteAccessKey(*store_, id).ok());
  EXPECT_EQ(DeleteAccessKey(*store_, id).code(), StatusCode::kNotFound);
}

TEST_F(AccessKeysTest, TamperedSealsAreRefused) {
  auto sealed = SealSecret("a secret");
  ASSERT_TRUE(sealed.ok());
  EXPECT_EQ(*OpenSecret(*sealed), "a secret");
  std::string bad = *sealed;
  bad[bad.size() / 2] = bad[bad.size() / 2] == 'A' ? 'B' : 'A';
  EXPECT_FALSE(OpenSecret(bad).ok());
  EXPECT_FALSE(OpenSecret("v1:").ok());
  EXPECT_FALSE(OpenSecret("plain").ok());
}

}  // namespace
}  // namespace epoxy::api
