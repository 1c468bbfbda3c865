// SPDX-License-Identifier: Apache-2.0
// The registry of built-in functions: one entry per function, found by any of its names.
#include "epoxy/expr/function_registry.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>

#include "epoxy/expr/builtin_functions.h"
#include "epoxy/expr/function_signature.h"

namespace epoxy::expr {
namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

[[noreturn]] void Abort(const std::string& why) {
  std::fprintf(stderr, "epoxy: function registry: %s\n", why.c_str());
  std::abort();
}

}  // namespace

const FunctionRegistry& FunctionRegistry::Builtins() {
  static const FunctionRegistry* registry = [] {
    auto* r = new FunctionRegistry();
    RegisterBuiltinFunctions(r);
    return r;
  }();
  return *registry;
}

void FunctionRegistry::Register(FunctionEntry entry) {
  if (!entry.signature.empty()) {
    auto sig = ParseSignature(entry.signature);
    if (!sig.ok()) Abort(fmt::format("{}: {}", entry.name, sig.status().message()));
    entry.parsed_signature = std::make_shared<const Signature>(std::move(*sig));
  }
  if (entry.kind == FunctionKind::kScalar && entry.kernel == nullptr && entry.lazy_kernel == nullptr &&
      !entry.bind) {
    Abort(fmt::format("{} has neither a kernel nor a bind callback", entry.name));
  }
  auto owned = std::make_unique<FunctionEntry>(std::move(entry));
  std::vector<std::string> names = {owned->name};
  names.insert(names.end(), owned->aliases.begin(), owned->aliases.end());
  for (const auto& n : names) {
    std::string key = Lower(n);
    if (!by_name_.emplace(key, owned.get()).second) Abort(fmt::format("'{}' is registered twice", key));
  }
  entries_.push_back(std::move(owned));
}

const FunctionEntry* FunctionRegistry::Find(std::string_view name) const {
  auto it = by_name_.find(Lower(name));
  return it == by_name_.end() ? nullptr : it->second;
}

std::vector<std::string> FunctionRegistry::Names() const {
  std::vector<std::string> names;
  for (const auto& [name, entry] : by_name_) names.push_back(name);
  return names;  // a std::map iterates sorted
}

std::vector<const FunctionEntry*> FunctionRegistry::Entries() const {
  std::vector<const FunctionEntry*> out;
  for (const auto& e : entries_) out.push_back(e.get());
  std::sort(out.begin(), out.end(), [](const FunctionEntry* a, const FunctionEntry* b) { return a->name < b->name; });
  return out;
}

std::vector<std::string> FunctionRegistry::Closest(std::string_view name, size_t max) const {
  const std::string key = Lower(name);
  std::vector<std::pair<size_t, std::string>> scored;
  for (const auto& [n, entry] : by_name_) {
    if (!std::isalpha(static_cast<unsigned char>(n[0]))) continue;  // operators are never meant
    size_t d = EditDistance(key, n);
    // A name that contains what was written (or the reverse) is close whatever its length.
    const bool long_enough = std::min(n.size(), key.size()) >= 4;
    if (long_enough && (n.find(key) != std::string::npos || key.find(n) != std::string::npos)) d = std::min<size_t>(d, 2);
    if (d <= std::max<size_t>(2, key.size() / 3)) scored.emplace_back(d, n);
  }
  std::sort(scored.begin(), scored.end());
  std::vector<std::string> out;
  for (size_t i = 0; i < scored.size() && i < max; ++i) out.push_back(scored[i].second);
  return out;
}

std::string DisplayName(const FunctionEntry& entry, const std::string& written) {
  auto it = entry.display.find(written);
  return it == entry.display.end() ? written : it->second;
}

}  // namespace epoxy::expr
