// SPDX-License-Identifier: Apache-2.0
// Access keys the API server accepts: created by `epoxy access-key create`, kept in the catalog
// with their secrets sealed (AES-256-GCM) under a key file outside EPOXY_HOME, so a copy of the
// catalog alone does not hand the secrets over; plus the root pair from EPOXY_ACCESS_KEY_ID and
// EPOXY_SECRET_ACCESS_KEY in the server's environment.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "epoxy/catalog/catalog_store.h"

namespace epoxy::api {

/// The sealing key's file: $EPOXY_KEY_FILE, else $XDG_CONFIG_HOME/epoxy/secrets.key, else
/// ~/.config/epoxy/secrets.key (created, mode 0600, on first use).
std::string SealingKeyPath();

/// {"AccessKeyId": ..., "SecretAccessKey": ...}; the secret is shown only here.
Result<nlohmann::json> CreateAccessKey(catalog::CatalogStore& store);
/// AccessKeyId, CreateDate and Status of each key (never the secret).
Result<std::vector<nlohmann::json>> ListAccessKeys(catalog::CatalogStore& store);
Status DeleteAccessKey(catalog::CatalogStore& store, const std::string& access_key_id);
/// The secret of a stored key, or nothing when there is none (or it cannot be unsealed).
std::optional<std::string> StoredSecret(catalog::CatalogStore& store, const std::string& access_key_id);

/// Seals and opens secrets with the key file's key ("v1:" + base64 of nonce, ciphertext, tag).
Result<std::string> SealSecret(const std::string& plain);
Result<std::string> OpenSecret(const std::string& sealed);

}  // namespace epoxy::api
