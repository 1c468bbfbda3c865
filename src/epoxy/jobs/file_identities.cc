// SPDX-License-Identifier: Apache-2.0
// Encoding: a varint count, then per entry a varint of the bytes shared with the previous name,
// a varint of the suffix length, the suffix, and the identity as 8 little-endian bytes.
#include "epoxy/jobs/file_identities.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <algorithm>

namespace epoxy::jobs {
namespace {

void PutVarint(uint64_t v, std::string* out) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>((v & 0x7F) | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

bool GetVarint(std::string_view in, size_t* at, uint64_t* v) {
  *v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (*at >= in.size()) return false;
    uint8_t byte = static_cast<uint8_t>(in[(*at)++]);
    *v |= static_cast<uint64_t>(byte & 0x7F) << shift;
    if ((byte & 0x80) == 0) return true;
  }
  return false;
}

}  // namespace

uint64_t IdentityOf(const FileInfo& file) {
  std::string key = std::to_string(file.size) + "\n" + std::to_string(file.mtime_ns) + "\n" + file.etag;
  return XXH3_64bits(key.data(), key.size());
}

std::string EncodeIdentities(const FileIdentities& files) {
  std::string out;
  PutVarint(files.size(), &out);
  std::string_view previous;
  for (const auto& [name, identity] : files) {
    size_t shared = 0;
    while (shared < previous.size() && shared < name.size() && previous[shared] == name[shared]) ++shared;
    PutVarint(shared, &out);
    PutVarint(name.size() - shared, &out);
    out.append(name, shared, std::string::npos);
    for (int b = 0; b < 8; ++b) out.push_back(static_cast<char>((identity >> (8 * b)) & 0xFF));
    previous = name;
  }
  return out;
}

Status DecodeIdentities(std::string_view in, const std::string& what, FileIdentities* out) {
  size_t at = 0;
  uint64_t count = 0;
  auto corrupt = [&] { return Status::InvalidData("the bookmark state of {} is corrupt (at byte {})", what, at); };
  if (!GetVarint(in, &at, &count) || count > in.size()) return corrupt();
  std::string name;
  const size_t first = out->size();
  out->reserve(first + count);
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t shared = 0, suffix = 0;
    if (!GetVarint(in, &at, &shared) || !GetVarint(in, &at, &suffix)) return corrupt();
    if (shared > name.size() || suffix > in.size() - at || in.size() - at - suffix < 8) return corrupt();
    name.resize(shared);
    name.append(in.substr(at, suffix));
    at += suffix;
    uint64_t identity = 0;
    for (int b = 0; b < 8; ++b) identity |= static_cast<uint64_t>(static_cast<uint8_t>(in[at + b])) << (8 * b);
    at += 8;
    out->emplace_back(name, identity);
  }
  if (at != in.size()) return corrupt();
  return Status::OK();
}

void KeepLatest(FileIdentities* files) {
  auto by_name = [](const auto& a, const auto& b) { return a.first < b.first; };
  auto not_increasing = [](const auto& a, const auto& b) { return !(a.first < b.first); };
  if (std::adjacent_find(files->begin(), files->end(), not_increasing) == files->end()) return;  // one commit's
  std::stable_sort(files->begin(), files->end(), by_name);
  size_t kept = 0;
  for (size_t i = 0; i < files->size(); ++i) {
    if (i + 1 < files->size() && (*files)[i + 1].first == (*files)[i].first) continue;  // a later entry wins
    if (kept != i) (*files)[kept] = std::move((*files)[i]);
    ++kept;
  }
  files->resize(kept);
}

const uint64_t* FindIdentity(const FileIdentities& files, std::string_view name) {
  auto it = std::lower_bound(files.begin(), files.end(), name,
                             [](const auto& entry, std::string_view n) { return entry.first < n; });
  if (it == files.end() || it->first != name) return nullptr;
  return &it->second;
}

}  // namespace epoxy::jobs
