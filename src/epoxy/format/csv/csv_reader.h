// SPDX-License-Identifier: Apache-2.0
// The CSV reader: a BlockFormat for ParallelBlockReader.
#pragma once

#include <memory>

#include "epoxy/format/csv/csv_dialect.h"
#include "epoxy/format/parallel_block_reader.h"

namespace epoxy {

/// Reads CSV with Glue's options. Each file's dialect, header and column types come from its first
/// block (files with the same header line share them). A value that does not fit its column's type
/// makes that column choice<type,string> in its batch; a record with more fields than the header,
/// an unterminated quote or invalid UTF-8 is an error record; a record with fewer fields is padded
/// with nulls. An empty unquoted field is null, "" an empty string.
Result<std::unique_ptr<BlockFormat>> MakeCsvFormat(const FormatOptions& options);

}  // namespace epoxy
