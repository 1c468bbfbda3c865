// SPDX-License-Identifier: Apache-2.0
#include "epoxy/api/access_keys.h"

#include <openssl/evp.h>
#include <openssl/rand.h>
#include <sys/stat.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>

namespace epoxy::api {
namespace {

constexpr const char* kKind = "access_key";
constexpr size_t kKeyBytes = 32, kNonceBytes = 12, kTagBytes = 16;

std::string Base64(const std::string& raw) {
  std::string out(4 * ((raw.size() + 2) / 3), '\0');
  int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()), reinterpret_cast<const unsigned char*>(raw.data()),
                          static_cast<int>(raw.size()));
  out.resize(static_cast<size_t>(n));
  return out;
}

Result<std::string> Unbase64(const std::string& text) {
  std::string out(3 * text.size() / 4 + 3, '\0');
  int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()), reinterpret_cast<const unsigned char*>(text.data()),
                          static_cast<int>(text.size()));
  if (n < 0) return Status::InvalidData("a sealed secret is not base64");
  size_t pad = 0;
  for (size_t i = text.size(); i > 0 && text[i - 1] == '='; --i) ++pad;
  out.resize(static_cast<size_t>(n) - pad);
  return out;
}

Result<std::string> RandomBytes(size_t n) {
  std::string out(n, '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(out.data()), static_cast<int>(n)) != 1) {
    return Status::Internal("the system's random generator failed");
  }
  return out;
}

/// The sealing key, made on first use.
Result<std::string> SealingKey() {
  const std::string path = SealingKeyPath();
  std::ifstream in(path, std::ios::binary);
  if (in) {
    std::string key((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (key.size() != kKeyBytes) return Status::InvalidData("sealing key file {} is not {} bytes", path, kKeyBytes);
    return key;
  }
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  EPOXY_ASSIGN_OR_RETURN(std::string key, RandomBytes(kKeyBytes));
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return Status::IOError("cannot write sealing key file {}", tmp);
    ::chmod(tmp.c_str(), 0600);
    out.write(key.data(), static_cast<std::streamsize>(key.size()));
    if (!out) return Status::IOError("cannot write sealing key file {}", tmp);
  }
  // Another process may have made one meanwhile: keep whichever landed first.
  if (::link(tmp.c_str(), path.c_str()) != 0) {
    std::filesystem::remove(tmp, ec);
    return SealingKey();
  }
  std::filesystem::remove(tmp, ec);
  return key;
}

using CipherContext = std::unique_ptr<EVP_CIPHER_CTX, decltype(&EVP_CIPHER_CTX_free)>;

std::string RandomText(size_t n, const char* alphabet) {
  auto bytes = RandomBytes(n);
  std::string out;
  const size_t size = std::char_traits<char>::length(alphabet);
  for (unsigned char c : bytes.ok() ? *bytes : std::string(n, '\0')) out += alphabet[c % size];
  return out;
}

}  // namespace

std::string SealingKeyPath() {
  if (const char* file = std::getenv("EPOXY_KEY_FILE"); file && *file) return file;
  if (const char* config = std::getenv("XDG_CONFIG_HOME"); config && *config) return std::string(config) + "/epoxy/secrets.key";
  const char* home = std::getenv("HOME");
  return std::string(home && *home ? home : ".") + "/.config/epoxy/secrets.key";
}

Result<std::string> SealSecret(const std::string& plain) {
  EPOXY_ASSIGN_OR_RETURN(std::string key, SealingKey());
  EPOXY_ASSIGN_OR_RETURN(std::string nonce, RandomBytes(kNonceBytes));
  CipherContext ctx(EVP_CIPHER_CTX_new(), EVP_CIPHER_CTX_free);
  std::string cipher(plain.size(), '\0');
  unsigned char tag[kTagBytes];
  int n = 0, final_n = 0;
  auto u = [](const std::string& s) { return reinterpret_cast<const unsigned char*>(s.data()); };
  if (!ctx || EVP_EncryptInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr, u(key), u(nonce)) != 1 ||
      EVP_EncryptUpdate(ctx.get(), reinterpret_cast<unsigned char*>(cipher.data()), &n, u(plain),
                        static_cast<int>(plain.size())) != 1 ||
      EVP_EncryptFinal_ex(ctx.get(), reinterpret_cast<unsigned char*>(cipher.data()) + n, &final_n) != 1 ||
      EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_GET_TAG, kTagBytes, tag) != 1) {
    return Status::Internal("sealing a secret failed");
  }
  return "v1:" + Base64(nonce + cipher + std::string(reinterpret_cast<char*>(tag), kTagBytes));
}

Result<std::string> OpenSecret(const std::string& sealed) {
  if (sealed.rfind("v1:", 0) != 0) return Status::InvalidData("a sealed secret has an unknown form");
  EPOXY_ASSIGN_OR_RETURN(std::string raw, Unbase64(sealed.substr(3)));
  if (raw.size() < kNonceBytes + kTagBytes) return Status::InvalidData("a sealed secret is too short");
  EPOXY_ASSIGN_OR_RETURN(std::string key, SealingKey());
  const std::string nonce = raw.substr(0, kNonceBytes);
  const std::string cipher = raw.substr(kNonceBytes, raw.size() - kNonceBytes - kTagBytes);
  std::string tag = raw.substr(raw.size() - kTagBytes);
  CipherContext ctx(EVP_CIPHER_CTX_new(), EVP_CIPHER_CTX_free);
  std::string plain(cipher.size(), '\0');
  int n = 0, final_n = 0;
  auto u = [](const std::string& s) { return reinterpret_cast<const unsigned char*>(s.data()); };
  if (!ctx || EVP_DecryptInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr, u(key), u(nonce)) != 1 ||
      EVP_DecryptUpdate(ctx.get(), reinterpret_cast<unsigned char*>(plain.data()), &n, u(cipher),
                        static_cast<int>(cipher.size())) != 1 ||
      EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_TAG, kTagBytes, tag.data()) != 1 ||
      EVP_DecryptFinal_ex(ctx.get(), reinterpret_cast<unsigned char*>(plain.data()) + n, &final_n) != 1) {
    return Status::InvalidData("a sealed secret does not open with the key in {} (a different key file?)", SealingKeyPath());
  }
  return plain;
}

Result<nlohmann::json> CreateAccessKey(catalog::CatalogStore& store) {
  const std::string id = "EPX" + RandomText(17, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567");
  const std::string secret = RandomText(40, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/");
  EPOXY_ASSIGN_OR_RETURN(std::string sealed, SealSecret(secret));
  const double now = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  EPOXY_RETURN_NOT_OK(store.PutObject(kKind, id, {{"AccessKeyId", id}, {"SealedSecret", sealed}, {"CreateDate", now},
                                                  {"Status", "Active"}}));
  return nlohmann::json{{"AccessKeyId", id}, {"SecretAccessKey", secret}};
}

Result<std::vector<nlohmann::json>> ListAccessKeys(catalog::CatalogStore& store) {
  EPOXY_ASSIGN_OR_RETURN(auto keys, store.ListObjects(kKind, ""));
  std::vector<nlohmann::json> out;
  for (auto& [id, doc] : keys) {
    out.push_back({{"AccessKeyId", id}, {"CreateDate", doc.value("CreateDate", 0.0)}, {"Status", doc.value("Status", "Active")}});
  }
  return out;
}

Status DeleteAccessKey(catalog::CatalogStore& store, const std::string& access_key_id) {
  Status st = store.DeleteObject(kKind, access_key_id);
  if (st.code() == StatusCode::kNotFound) return Status::NotFound("access key {} not found", access_key_id);
  return st;
}

std::optional<std::string> StoredSecret(catalog::CatalogStore& store, const std::string& access_key_id) {
  auto doc = store.GetObject(kKind, access_key_id);
  if (!doc.ok()) return std::nullopt;
  auto secret = OpenSecret(doc->value("SealedSecret", ""));
  if (!secret.ok()) return std::nullopt;
  return *secret;
}

}  // namespace epoxy::api
