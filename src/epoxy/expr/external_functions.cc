// SPDX-License-Identifier: Apache-2.0
#include "epoxy/expr/external_functions.h"

#include <cctype>
#include <map>
#include <mutex>

namespace epoxy::expr {
namespace {

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

struct Registry {
  std::mutex mu;
  std::map<std::string, std::shared_ptr<const ExternalFunctionDef>> functions;  // guarded by mu
};

Registry& TheRegistry() {
  static auto* registry = new Registry();  // never destroyed: functions may outlive static teardown
  return *registry;
}

}  // namespace

void RegisterExternalFunction(const std::string& name, TypePtr result, ExternalFunction function) {
  auto def = std::make_shared<const ExternalFunctionDef>(ExternalFunctionDef{std::move(result), std::move(function)});
  Registry& r = TheRegistry();
  std::lock_guard<std::mutex> lock(r.mu);
  r.functions[Lower(name)] = std::move(def);
}

std::shared_ptr<const ExternalFunctionDef> FindExternalFunction(const std::string& name) {
  Registry& r = TheRegistry();
  std::lock_guard<std::mutex> lock(r.mu);
  if (r.functions.empty()) return nullptr;
  auto it = r.functions.find(Lower(name));
  return it == r.functions.end() ? nullptr : it->second;
}

}  // namespace epoxy::expr
