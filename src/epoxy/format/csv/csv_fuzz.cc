// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: the CSV reader on arbitrary bytes, with the first byte choosing the options.
#include <cstddef>
#include <cstdint>

#include "epoxy/format/csv/csv_reader.h"
#include "epoxy/format/csv/csv_tokenizer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace epoxy;
  if (size == 0) return 0;
  uint8_t selector = data[0];
  std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  FormatOptions options;
  if (selector & 1) options["escaper"] = "\\";
  if (selector & 2) options["withHeader"] = (selector & 4) ? "true" : "false";
  if (selector & 8) options["skipFirst"] = "true";
  if (selector & 16) options["quoteChar"] = "-1";
  auto format = MakeCsvFormat(options);
  if (!format.ok()) return 0;
  auto buffer = Buffer::CopyOf(text);
  if (!buffer.ok()) return 0;
  // Split where the reader would, then parse each block as the parallel reader does.
  auto boundary = (*format)->Boundary();
  Block first;
  first.data = *buffer;
  first.first_in_file = true;
  auto context = (*format)->StartFile("fuzz.csv", &first);
  if (!context.ok()) return 0;
  int64_t position = 0;
  bool first_block = true;
  while (position < static_cast<int64_t>(text.size())) {
    std::string_view rest = text.substr(static_cast<size_t>(position));
    int64_t cut = boundary(rest.substr(0, std::min<size_t>(rest.size(), 64)));
    if (cut <= 0) cut = static_cast<int64_t>(rest.size());
    Block block;
    block.data = Buffer::Slice(*buffer, position, cut);
    block.byte_offset = position;
    block.first_in_file = first_block;
    first_block = false;
    std::vector<RecordError> errors;
    int64_t newlines = 0;
    auto batch = (*format)->ParseBlock("fuzz.csv", block, **context, &errors, &newlines);
    (void)batch;
    position += cut;
  }
  return 0;
}
