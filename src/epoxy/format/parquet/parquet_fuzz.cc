// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: the Parquet reader (footer, schema, every row group) on arbitrary bytes, with a
// small memory limit so that claimed sizes cannot exhaust memory.
#include <cstddef>
#include <cstdint>

#include "epoxy/common/thread_pool.h"
#include "epoxy/format/parquet/parquet_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace epoxy;
  static bool init = [] {
    SetProcessMemoryLimit(256 << 20);
    return true;
  }();
  (void)init;
  static ThreadPool pool(1);
  auto bytes = Buffer::CopyOf(std::string_view(reinterpret_cast<const char*>(data), size));
  if (!bytes.ok()) return 0;
  auto file = parquet::ParquetFile::Open(MakeBufferFile("fuzz.parquet", *bytes));
  if (!file.ok()) return 0;
  std::vector<int> fields;
  for (size_t i = 0; i < (*file)->schema().fields.size(); ++i) fields.push_back(static_cast<int>(i));
  for (int g = 0; g < (*file)->num_row_groups() && g < 8; ++g) {
    // A small string bound on some inputs, so row groups are cut into ranges too.
    const int64_t max_string_bytes = (size & 2) != 0 ? 64 : parquet::ParquetFile::kMaxBatchStringBytes;
    auto arrays = (*file)->ReadRowGroup(g, fields, /*verify_crc=*/(size & 1) != 0, &pool, max_string_bytes);
    (void)arrays;
  }
  return 0;
}
