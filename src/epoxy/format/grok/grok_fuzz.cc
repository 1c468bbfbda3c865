// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: grok compilation (pattern, custom definitions) and matching. The input is
// split at the first two newlines into pattern, custom definitions and a line to match.
#include <cstddef>
#include <cstdint>

#include "epoxy/format/grok/grok_pattern.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  size_t first = text.find('\n');
  std::string_view pattern = text.substr(0, first);
  std::string_view rest = first == std::string_view::npos ? std::string_view() : text.substr(first + 1);
  size_t second = rest.find('\n');
  std::string_view custom = rest.substr(0, second);
  std::string_view line = second == std::string_view::npos ? std::string_view() : rest.substr(second + 1);
  auto grok = epoxy::grok::GrokPattern::Compile(pattern, custom);
  if (!grok.ok()) return 0;
  std::vector<std::string_view> values;
  std::vector<bool> matched;
  (void)grok->Match(line, &values, &matched);
  return 0;
}
