// SPDX-License-Identifier: Apache-2.0
// The JSON reader (JSON Lines and multi-line documents): a BlockFormat for ParallelBlockReader.
#pragma once

#include <memory>
#include <string_view>

#include "epoxy/format/parallel_block_reader.h"

namespace epoxy {

/// Reads JSON with Glue's options (multiLine, jsonPath), parsed with simdjson. Each top-level
/// object is a record; a top-level array holding objects gives one record per element (other
/// elements become {"value": ...}); any other top-level value gives a record {"value": ...}.
/// Objects become structs, arrays arrays, numbers bigint or double (decimal(20,0) beyond int64),
/// and a field seen with two types becomes a choice. JSON Lines files are split and parsed in
/// parallel; each bad line is an error record with its line number. A file whose first line is an
/// incomplete value (or multiLine=true) is read as one document stream, where concatenated values
/// are allowed.
Result<std::unique_ptr<BlockFormat>> MakeJsonFormat(const FormatOptions& options);

/// Strict RFC 8259 check of one document (exactly one value, nesting up to 1024 levels): OK, or
/// InvalidData naming the problem and its byte offset.
Status ValidateJsonDocument(std::string_view text);

}  // namespace epoxy
