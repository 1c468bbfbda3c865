// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: the JSON reader (lines and documents) and the document validator.
#include <cstddef>
#include <cstdint>

#include "epoxy/format/json/json_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace epoxy;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)ValidateJsonDocument(text);
  auto buffer = Buffer::CopyOf(text);
  if (!buffer.ok()) return 0;
  for (const char* multi_line : {"true", "false"}) {
    FormatOptions options = {{"multiLine", multi_line}};
    if (size > 0 && (data[0] & 1)) options["jsonPath"] = "$[*]";
    auto format = MakeJsonFormat(options);
    if (!format.ok()) return 0;
    Block block;
    block.data = *buffer;
    block.first_in_file = true;
    auto context = (*format)->StartFile("fuzz.json", &block);
    if (!context.ok()) continue;
    std::vector<RecordError> errors;
    int64_t newlines = 0;
    auto batch = (*format)->ParseBlock("fuzz.json", block, **context, &errors, &newlines);
    (void)batch;
  }
  return 0;
}
