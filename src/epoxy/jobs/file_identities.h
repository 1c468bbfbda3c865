// SPDX-License-Identifier: Apache-2.0
// What a file bookmark remembers of one folder: each processed file's name (relative to the
// folder) and a hash of its identity (size, mtime, ETag; locally the ETag holds inode and ctime),
// stored front-coded, so the state of a million files takes a few tens of megabytes at most.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "epoxy/common/result.h"
#include "epoxy/storage/file_system.h"

namespace epoxy::jobs {

/// Sorted by name, one entry per name.
using FileIdentities = std::vector<std::pair<std::string, uint64_t>>;

/// The identity of a listed object: changes whenever its content may have changed.
uint64_t IdentityOf(const FileInfo& file);

std::string EncodeIdentities(const FileIdentities& files);
/// Appends the entries of `encoded` to `out` (unsorted); an encoding that does not parse is an
/// error naming `what`.
Status DecodeIdentities(std::string_view encoded, const std::string& what, FileIdentities* out);
/// Sorts `files` by name, keeping for each name the entry that came last.
void KeepLatest(FileIdentities* files);
/// The entry for `name` in a sorted FileIdentities, or null.
const uint64_t* FindIdentity(const FileIdentities& files, std::string_view name);

}  // namespace epoxy::jobs
