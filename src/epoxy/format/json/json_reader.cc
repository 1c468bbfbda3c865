// SPDX-License-Identifier: Apache-2.0
// JsonFormat: simdjson DOM parsing into AdaptiveBuilders.
#include "epoxy/format/json/json_reader.h"

#include <algorithm>
#include <cstring>

#include <simdjson.h>

#include "epoxy/format/json/json_path.h"
#include "epoxy/vector/adaptive_builder.h"

namespace epoxy {
namespace {

constexpr size_t kMaxDepth = 1024;

class JsonFileContext final : public FileContext {
 public:
  bool whole = false;
  bool whole_file() const override { return whole; }
};

/// A thread's parser and padded copy of its current block.
struct ThreadScratch {
  simdjson::dom::parser parser{4ULL << 30};
  std::unique_ptr<char[]> buffer;
  size_t capacity = 0;

  ThreadScratch() {
    // Small to start; parse() grows the capacity for longer inputs up to the 4 GiB maximum.
    if (parser.allocate(1 << 16, kMaxDepth) != simdjson::SUCCESS) allocation_failed = true;
  }
  bool allocation_failed = false;

  /// `data` copied with simdjson's padding after it.
  const char* Pad(std::string_view data) {
    size_t need = data.size() + simdjson::SIMDJSON_PADDING;
    if (need > capacity) {
      capacity = std::max(need, capacity * 2);
      buffer.reset(new char[capacity]);
    }
    std::memcpy(buffer.get(), data.data(), data.size());
    std::memset(buffer.get() + data.size(), 0, simdjson::SIMDJSON_PADDING);
    return buffer.get();
  }
};

ThreadScratch& Scratch() {
  thread_local ThreadScratch scratch;
  return scratch;
}

// Typed views of an element whose type() was checked (get() cannot fail then).
simdjson::dom::array AsArray(simdjson::dom::element e) {
  simdjson::dom::array a;
  auto error = e.get_array().get(a);
  (void)error;
  return a;
}
simdjson::dom::object AsObject(simdjson::dom::element e) {
  simdjson::dom::object o;
  auto error = e.get_object().get(o);
  (void)error;
  return o;
}

Status AppendElement(AdaptiveBuilder* out, simdjson::dom::element value) {
  switch (value.type()) {
    case simdjson::dom::element_type::ARRAY: {
      EPOXY_ASSIGN_OR_RETURN(AdaptiveList * list, out->AppendList());
      for (simdjson::dom::element child : AsArray(value)) {
        EPOXY_RETURN_NOT_OK(AppendElement(list->elements(), child));
      }
      return list->EndRow();
    }
    case simdjson::dom::element_type::OBJECT: {
      EPOXY_ASSIGN_OR_RETURN(AdaptiveStruct * st, out->AppendStruct());
      for (auto field : AsObject(value)) {
        EPOXY_ASSIGN_OR_RETURN(AdaptiveBuilder * b, st->Field(field.key));
        if (b != nullptr) EPOXY_RETURN_NOT_OK(AppendElement(b, field.value));
      }
      return st->EndRow();
    }
    case simdjson::dom::element_type::INT64: return out->AppendInt64(value.get_int64().value_unsafe());
    case simdjson::dom::element_type::UINT64:
      return out->AppendUInt64(value.get_uint64().value_unsafe());
    case simdjson::dom::element_type::DOUBLE: return out->AppendDouble(value.get_double().value_unsafe());
    case simdjson::dom::element_type::STRING: return out->AppendString(value.get_string().value_unsafe());
    case simdjson::dom::element_type::BOOL: return out->AppendBool(value.get_bool().value_unsafe());
    case simdjson::dom::element_type::NULL_VALUE: return out->AppendNull();
  }
  return Status::Internal("unknown JSON element type");
}

/// Projection: whether top-level `key` is read (`columns` empty: every key).
bool Wanted(const std::vector<std::string>& columns, std::string_view key) {
  return columns.empty() || std::find(columns.begin(), columns.end(), key) != columns.end();
}

/// Adds one record for an object, or {"value": v} for anything else.

Status AppendRecord(AdaptiveStruct* records, simdjson::dom::element value, const std::vector<std::string>& columns) {
  if (value.type() == simdjson::dom::element_type::OBJECT) {
    for (auto field : AsObject(value)) {
      if (!Wanted(columns, field.key)) continue;
      EPOXY_ASSIGN_OR_RETURN(AdaptiveBuilder * b, records->Field(field.key));
      if (b != nullptr) EPOXY_RETURN_NOT_OK(AppendElement(b, field.value));
    }
    return records->EndRow();
  }
  EPOXY_ASSIGN_OR_RETURN(AdaptiveBuilder * b, records->Field("value"));
  EPOXY_RETURN_NOT_OK(AppendElement(b, value));
  return records->EndRow();
}

/// The records of one top-level value.
Status AppendTopLevel(AdaptiveStruct* records, simdjson::dom::element value, const std::vector<std::string>& columns) {
  if (value.type() == simdjson::dom::element_type::ARRAY) {
    auto array = AsArray(value);
    bool has_object = false;
    for (simdjson::dom::element e : array) {
      if (e.type() == simdjson::dom::element_type::OBJECT) {
        has_object = true;
        break;
      }
    }
    if (has_object) {
      for (simdjson::dom::element e : array) EPOXY_RETURN_NOT_OK(AppendRecord(records, e, columns));
      return Status::OK();
    }
  }
  return AppendRecord(records, value, columns);
}

/// Collects the elements `path` selects under `value`.
void Select(simdjson::dom::element value, const std::vector<JsonPathStep>& steps, size_t step,
            std::vector<simdjson::dom::element>* out) {
  if (step == steps.size()) {
    out->push_back(value);
    return;
  }
  const JsonPathStep& s = steps[step];
  switch (s.kind) {
    case JsonPathStep::Kind::kField: {
      simdjson::dom::element child;
      if (value.type() == simdjson::dom::element_type::OBJECT && !value[s.name].get(child)) {
        Select(child, steps, step + 1, out);
      }
      return;
    }
    case JsonPathStep::Kind::kIndex: {
      simdjson::dom::element child;
      if (value.type() == simdjson::dom::element_type::ARRAY &&
          !value.at(static_cast<size_t>(s.index)).get(child)) {
        Select(child, steps, step + 1, out);
      }
      return;
    }
    case JsonPathStep::Kind::kWildcard:
      if (value.type() == simdjson::dom::element_type::ARRAY) {
        for (simdjson::dom::element e : AsArray(value)) Select(e, steps, step + 1, out);
      } else if (value.type() == simdjson::dom::element_type::OBJECT) {
        for (auto f : AsObject(value)) Select(f.value, steps, step + 1, out);
      }
      return;
  }
}

std::string Reason(simdjson::error_code code) {
  return fmt::format("invalid JSON: {}", simdjson::error_message(code));
}

bool IsBlank(std::string_view line) {
  for (char c : line) {
    if (c != ' ' && c != '\t' && c != '\r' && c != '\n') return false;
  }
  return true;
}

class JsonFormat final : public BlockFormat {
 public:
  JsonFormat(std::optional<bool> multi_line, std::optional<JsonPath> path, std::vector<std::string> columns)
      : multi_line_(multi_line), path_(std::move(path)), columns_(std::move(columns)) {}

  RecordBoundaryFn Boundary() const override { return LastNewlineBoundary; }

  Result<std::shared_ptr<const FileContext>> StartFile(const std::string& /*path*/,
                                                       const Block* first) override {
    auto ctx = std::make_shared<JsonFileContext>();
    if (first == nullptr) return std::shared_ptr<const FileContext>(ctx);
    if (multi_line_.has_value()) {
      ctx->whole = *multi_line_;
      return std::shared_ptr<const FileContext>(ctx);
    }
    // JSON Lines unless the first line is an incomplete value (the start of a pretty-printed
    // document).
    std::string_view data = first->data->view();
    size_t start = 0;
    while (start < data.size() && (data[start] == ' ' || data[start] == '\t' ||
                                   data[start] == '\r' || data[start] == '\n')) {
      ++start;
    }
    size_t end = data.find('\n', start);
    if (end == std::string_view::npos) end = data.size();
    std::string_view line = data.substr(start, end - start);
    if (line.empty()) return std::shared_ptr<const FileContext>(ctx);
    ThreadScratch& scratch = Scratch();
    simdjson::dom::element ignored;
    auto error = scratch.parser.parse(scratch.Pad(line), line.size(), false).get(ignored);
    ctx->whole = error == simdjson::TAPE_ERROR || error == simdjson::INCOMPLETE_ARRAY_OR_OBJECT ||
                 error == simdjson::UNCLOSED_STRING;
    return std::shared_ptr<const FileContext>(ctx);
  }

  Result<BatchPtr> ParseBlock(const std::string& path, const Block& block,
                              const FileContext& base, std::vector<RecordError>* errors,
                              int64_t* num_newlines) const override {
    const auto& ctx = static_cast<const JsonFileContext&>(base);
    AdaptiveStruct records(&MemoryPool::Default());
    std::string_view data = block.data->view();
    if (block.first_in_file && data.substr(0, 3) == "\xEF\xBB\xBF") data.remove_prefix(3);
    ThreadScratch& scratch = Scratch();
    // simdjson reads up to SIMDJSON_PADDING bytes past its input; copy only when the block does not
    // already have that much readable memory after it.
    const char* padded = static_cast<size_t>(block.padding) >= simdjson::SIMDJSON_PADDING
                             ? data.data()
                             : scratch.Pad(data);
    if (ctx.whole) {
      *num_newlines = std::count(data.begin(), data.end(), '\n');
      EPOXY_RETURN_NOT_OK(ParseDocuments(path, block, padded, data.size(), &records, errors, scratch));
    } else {
      EPOXY_ASSIGN_OR_RETURN(bool parsed, ParseLinesAtOnce(padded, data.size(), &records, scratch, num_newlines));
      if (!parsed) {
        (void)records.FinishBatch();  // drop what the fast path appended
        EPOXY_RETURN_NOT_OK(ParseLines(path, block, padded, data.size(), &records, errors, scratch,
                                       num_newlines));
      }
    }
    return records.FinishBatch();
  }

 private:
  Status AppendSelected(AdaptiveStruct* records, simdjson::dom::element doc) const {
    if (!path_.has_value() || path_->is_root()) return AppendTopLevel(records, doc, columns_);
    std::vector<simdjson::dom::element> selected;
    Select(doc, path_->steps(), 0, &selected);
    for (auto e : selected) EPOXY_RETURN_NOT_OK(AppendTopLevel(records, e, columns_));
    return Status::OK();
  }

  /// JSON Lines through simdjson's document stream: one stage-1 pass over the block instead of
  /// one per line. It applies when every line holds one object or array and nothing else; false
  /// otherwise (a bad line, a scalar, two values on a line, a value across lines), and then the
  /// caller drops the records and goes line by line, which names each bad line.
  Result<bool> ParseLinesAtOnce(const char* data, size_t size, AdaptiveStruct* records,
                                ThreadScratch& scratch, int64_t* num_newlines) const {
    // Stage 1 runs on batches of 1 MiB, which keeps the parser's buffers small; a line longer
    // than a batch fails here and goes line by line.
    constexpr size_t kBatch = 1 << 20;
    scratch.parser.threaded = false;  // the pool already keeps every core busy
    simdjson::dom::document_stream stream;
    if (scratch.parser.parse_many(data, size, std::min(kBatch, std::max<size_t>(size, 1 << 16))).get(stream)) {
      return false;
    }
    int64_t newlines = 0;
    size_t gap_start = 0;  // where the text after the previous document begins
    bool first = true;
    for (auto it = stream.begin(); it != stream.end(); ++it) {
      simdjson::dom::element doc;
      if ((*it).get(doc)) return false;
      const size_t start = it.current_index();
      if (start < gap_start || start >= size || (data[start] != '{' && data[start] != '[')) return false;
      std::string_view source = it.source();
      // Documents hold no raw newline (simdjson rejects one inside a string), so every newline
      // lies between documents, and each gap between two documents needs one.
      if (std::memchr(source.data(), '\n', source.size()) != nullptr) return false;
      int64_t gap_newlines = std::count(data + gap_start, data + start, '\n');
      if (!first && gap_newlines == 0) return false;
      newlines += gap_newlines;
      first = false;
      gap_start = start + source.size();
      EPOXY_RETURN_NOT_OK(AppendSelected(records, doc));
    }
    if (stream.truncated_bytes() > 0 || gap_start > size) return false;
    if (!IsBlank(std::string_view(data + gap_start, size - gap_start))) return false;
    *num_newlines += newlines + std::count(data + gap_start, data + size, '\n');
    return true;
  }

  Status ParseLines(const std::string& path, const Block& block, const char* data, size_t size,
                    AdaptiveStruct* records, std::vector<RecordError>* errors,
                    ThreadScratch& scratch, int64_t* num_newlines) const {
    int64_t line_number = 1;
    size_t pos = 0;
    while (pos < size) {
      const void* nl = std::memchr(data + pos, '\n', size - pos);
      size_t end = nl ? static_cast<size_t>(static_cast<const char*>(nl) - data) : size;
      std::string_view line(data + pos, end - pos);
      if (!IsBlank(line)) {
        simdjson::dom::element doc;
        auto error = scratch.parser.parse(line.data(), line.size(), false).get(doc);
        if (error) {
          errors->push_back({path, line_number, block.byte_offset + static_cast<int64_t>(pos),
                             Reason(error)});
        } else {
          EPOXY_RETURN_NOT_OK(AppendSelected(records, doc));
        }
      }
      if (nl != nullptr) ++*num_newlines;
      ++line_number;
      pos = end + 1;
    }
    return Status::OK();
  }

  Status ParseDocuments(const std::string& path, const Block& block, const char* data, size_t size,
                        AdaptiveStruct* records, std::vector<RecordError>* errors,
                        ThreadScratch& scratch) const {
    if (IsBlank(std::string_view(data, size))) return Status::OK();
    // One document is the common case; concatenated documents go through the stream parser.
    simdjson::dom::element doc;
    auto error = scratch.parser.parse(data, size, false).get(doc);
    if (!error) return AppendSelected(records, doc);
    if (error != simdjson::TAPE_ERROR) {
      errors->push_back({path, 1, block.byte_offset, Reason(error)});
      return Status::OK();
    }
    simdjson::dom::parser stream_parser;  // default maximum capacity (4 GiB)
    simdjson::dom::document_stream stream;
    // One batch for the whole block: documents are then never cut at a batch edge.
    size_t batch = std::max<size_t>(size, 1 << 16);
    if (auto e = stream_parser.parse_many(data, size, batch).get(stream)) {
      errors->push_back({path, 1, block.byte_offset, Reason(e)});
      return Status::OK();
    }
    for (auto it = stream.begin(); it != stream.end(); ++it) {
      simdjson::dom::element value;
      if (auto e = (*it).get(value)) {
        size_t at = it.current_index();
        int64_t line = 1 + std::count(data, data + std::min(at, size), '\n');
        errors->push_back({path, line, block.byte_offset + static_cast<int64_t>(at), Reason(e)});
        return Status::OK();  // the stream cannot resynchronise after an error
      }
      EPOXY_RETURN_NOT_OK(AppendSelected(records, value));
    }
    if (stream.truncated_bytes() > 0 && !IsBlank(std::string_view(data + size - stream.truncated_bytes(), stream.truncated_bytes()))) {
      errors->push_back({path, 0, block.byte_offset + static_cast<int64_t>(size - stream.truncated_bytes()),
                         "invalid JSON: incomplete value at the end of the file"});
    }
    return Status::OK();
  }

  std::optional<bool> multi_line_;
  std::optional<JsonPath> path_;
  std::vector<std::string> columns_;  // projection: the only top-level keys read (empty: all)
};

}  // namespace

Result<std::unique_ptr<BlockFormat>> MakeJsonFormat(const FormatOptions& options) {
  std::optional<bool> multi_line;
  std::optional<JsonPath> path;
  std::vector<std::string> columns;
  for (const auto& [key, value] : options) {
    if (key == "multiLine") {
      EPOXY_ASSIGN_OR_RETURN(bool v, BooleanOption(options, key, false));
      multi_line = v;
    } else if (key == "jsonPath") {
      EPOXY_ASSIGN_OR_RETURN(JsonPath p, JsonPath::Parse(value));
      path = std::move(p);
    } else if (key == "columns") {
      columns = ListOption(options, key);
    } else if (key != "optimizePerformance") {
      return Status::InvalidInput("unknown json option '{}' (known: multiLine, jsonPath, columns)", key);
    }
  }
  return std::unique_ptr<BlockFormat>(new JsonFormat(multi_line, std::move(path), std::move(columns)));
}

Status ValidateJsonDocument(std::string_view text) {
  ThreadScratch& scratch = Scratch();
  simdjson::dom::element doc;
  auto error = scratch.parser.parse(scratch.Pad(text), text.size(), false).get(doc);
  if (error) return Status::InvalidData("{}", Reason(error));
  return Status::OK();
}

}  // namespace epoxy
