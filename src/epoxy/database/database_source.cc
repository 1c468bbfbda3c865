// SPDX-License-Identifier: Apache-2.0
#include "epoxy/database/database_source.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <functional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "epoxy/database/client.h"
#include "epoxy/database/column_decoder.h"
#include "epoxy/database/option_text_internal.h"
#include "epoxy/database/partition_reader.h"
#include "epoxy/database/sql_filter.h"

namespace epoxy::database {
namespace {

Result<int64_t> IntegerOption(const std::string& name, const std::string& text) {
  int64_t v = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || p != text.data() + text.size()) {
    return Status::InvalidInput("option {} must be an integer, not '{}'", name, text);
  }
  return v;
}

/// `(a, b)` or `a`: the keys (or their placeholders) as a row value.
std::string Tuple(const std::vector<std::string>& items) {
  if (items.size() == 1) return items[0];
  std::string out = "(";
  for (size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + items[i];
  return out + ")";
}

/// The snapshot of a PostgreSQL transaction, from pg_current_snapshot()'s text (xmin:xmax:xip).
struct SnapshotInfo {
  uint64_t xmin = 0;
  uint64_t xmax = 0;  // low 32 bits; transactions from here up to `next` may be open but unlisted
  uint64_t next = 0;  // an xid taken after the snapshot: every xid assigned before it is lower
  bool open() const { return !in_flight.empty() || xmax < next; }
  std::vector<uint64_t> in_flight;  // xids of the transactions open (which may still commit), low 32 bits
};

Result<SnapshotInfo> ParseSnapshot(std::string_view text) {
  SnapshotInfo s;
  size_t colon = text.find(':');
  auto [p, ec] = std::from_chars(text.data(), text.data() + (colon == std::string_view::npos ? text.size() : colon), s.xmin);
  if (ec != std::errc() || colon == std::string_view::npos) return Status::Internal("unexpected snapshot text '{}'", text);
  size_t second = text.find(':', colon + 1);
  if (second == std::string_view::npos) return s;
  std::string_view xmax = text.substr(colon + 1, second - colon - 1);
  std::from_chars(xmax.data(), xmax.data() + xmax.size(), s.xmax);
  s.xmax %= 4294967296ULL;
  std::string_view list = text.substr(second + 1);
  while (!list.empty()) {
    size_t comma = list.find(',');
    uint64_t xid = 0;
    std::string_view item = list.substr(0, comma);
    auto [q, e] = std::from_chars(item.data(), item.data() + item.size(), xid);
    if (e != std::errc()) return Status::Internal("unexpected snapshot text '{}'", text);
    s.in_flight.push_back(xid % 4294967296ULL);  // a row's xmin column holds the low 32 bits
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  return s;
}

/// What one statement of the read is built from.
struct StatementParts {
  std::vector<std::string> select;  // quoted columns and expressions
  std::vector<std::string> where;
  std::string order_by;
  int64_t limit = -1;
};

std::string Compose(const std::string& relation, const StatementParts& parts) {
  std::string sql = "SELECT ";
  for (size_t i = 0; i < parts.select.size(); ++i) sql += (i ? ", " : "") + parts.select[i];
  sql += " FROM " + relation;
  for (size_t i = 0; i < parts.where.size(); ++i) sql += (i ? " AND (" : " WHERE (") + parts.where[i] + ")";
  if (!parts.order_by.empty()) sql += " ORDER BY " + parts.order_by;
  if (parts.limit >= 0) sql += fmt::format(" LIMIT {}", parts.limit);
  return sql;
}

}  // namespace

Result<ReadSpec> ParseReadOptions(const std::map<std::string, std::string>& raw) {
  std::map<std::string, std::string> options;
  for (const auto& [k, v] : raw) options[Lower(k)] = v;
  auto get = [&](const char* name) -> std::string {
    auto it = options.find(name);
    return it == options.end() ? "" : it->second;
  };
  ReadSpec spec;
  if (get("url").empty()) return Status::InvalidInput("a database source needs 'url' (or a connectionName)");
  EPOXY_ASSIGN_OR_RETURN(spec.endpoint, ParseJdbcUrl(get("url")));
  if (!get("user").empty()) spec.endpoint.user = get("user");
  if (!get("password").empty()) spec.endpoint.password = get("password");
  spec.table = get("dbtable");
  spec.query = get("query");
  if (spec.query.empty()) spec.query = get("samplequery");
  spec.partition_query = Lower(get("enablepartitioningforsamplequery")) == "true";
  if (spec.table.empty() && spec.query.empty()) return Status::InvalidInput("a database source needs 'dbtable' or 'query'");
  if (!spec.table.empty() && !get("query").empty()) {
    return Status::InvalidInput("options 'dbtable' and 'query' cannot both be given (as in Spark)");
  }
  if (!get("fetchsize").empty()) {
    EPOXY_ASSIGN_OR_RETURN(int64_t f, IntegerOption("fetchsize", get("fetchsize")));
    if (f > 0) spec.fetch_size = static_cast<int>(std::min<int64_t>(f, 1000000));
  }
  spec.hash_field = get("hashfield");
  spec.hash_expression = get("hashexpression");
  if (!spec.hash_field.empty() && !spec.hash_expression.empty()) {
    return Status::InvalidInput("options 'hashfield' and 'hashexpression' cannot both be given");
  }
  if (!get("hashpartitions").empty()) {
    EPOXY_ASSIGN_OR_RETURN(int64_t n, IntegerOption("hashpartitions", get("hashpartitions")));
    if (n < 1 || n > 256) return Status::InvalidInput("hashpartitions must be from 1 to 256, not {}", n);
    spec.hash_partitions = static_cast<int>(n);
  } else if (!spec.hash_field.empty() || !spec.hash_expression.empty()) {
    spec.hash_partitions = 7;  // Glue's default
  }
  spec.partition_column = get("partitioncolumn");
  if (!spec.partition_column.empty()) {
    if (get("lowerbound").empty() || get("upperbound").empty() || get("numpartitions").empty()) {
      return Status::InvalidInput("partitionColumn needs lowerBound, upperBound and numPartitions (as in Spark)");
    }
    EPOXY_ASSIGN_OR_RETURN(spec.lower_bound, IntegerOption("lowerBound", get("lowerbound")));
    EPOXY_ASSIGN_OR_RETURN(spec.upper_bound, IntegerOption("upperBound", get("upperbound")));
    EPOXY_ASSIGN_OR_RETURN(int64_t n, IntegerOption("numPartitions", get("numpartitions")));
    if (n < 1 || n > 256) return Status::InvalidInput("numPartitions must be from 1 to 256, not {}", n);
    if (spec.lower_bound > spec.upper_bound) {
      return Status::InvalidInput("lowerBound {} is greater than upperBound {}", spec.lower_bound, spec.upper_bound);
    }
    spec.num_partitions = static_cast<int>(n);
  }
  spec.bookmark_keys = ListValue(get("jobbookmarkkeys"));
  const std::string order = Lower(get("jobbookmarkkeyssortorder"));
  if (!order.empty() && order != "asc" && order != "desc") {
    return Status::InvalidInput("jobBookmarkKeysSortOrder must be asc or desc, not '{}'", order);
  }
  spec.bookmark_descending = order == "desc";
  return spec;
}

std::string DatabaseSource::Relation() const {
  if (!spec_.query.empty() && !spec_.partition_query) return "(" + spec_.query + ") AS epoxy_query";
  return spec_.table;
}

std::string DatabaseSource::Describe() const {
  return fmt::format("{} {}", spec_.endpoint.Describe(), spec_.query.empty() ? "table " + spec_.table : "query");
}

Result<std::shared_ptr<DatabaseSource>> DatabaseSource::Open(ReadSpec spec) {
  std::shared_ptr<DatabaseSource> source(new DatabaseSource(std::move(spec)));
  EPOXY_ASSIGN_OR_RETURN(auto client, Connect(source->spec_.endpoint));
  std::string relation = source->spec_.partition_query ? "(" + source->spec_.query + " 1 = 1) AS epoxy_query" : source->Relation();
  EPOXY_ASSIGN_OR_RETURN(auto described, client->Describe("SELECT * FROM " + relation));
  std::vector<Field> fields;
  for (const auto& d : described) {
    ColumnMapping m;
    if (client->engine() == Engine::kPostgres) {
      EPOXY_ASSIGN_OR_RETURN(m, MapPostgresColumn(d));
    } else {
      m = MapSqliteColumn(d);
    }
    fields.push_back({m.name, m.type});
    source->columns_.push_back(std::move(m));
  }
  source->schema_ = Schema::Make(std::move(fields));
  if (source->spec_.query.empty()) {
    const std::string& table = source->spec_.table;
    std::unique_ptr<RowBlock> keys;
    if (client->engine() == Engine::kPostgres) {
      EPOXY_ASSIGN_OR_RETURN(keys, client->QueryAll(
          "SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey) "
          "WHERE i.indrelid = to_regclass($1) AND i.indisprimary ORDER BY array_position(i.indkey, a.attnum)", {table}));
    } else {
      std::string name = table;
      if (name.size() > 2 && name.front() == '"' && name.back() == '"') name = name.substr(1, name.size() - 2);
      EPOXY_ASSIGN_OR_RETURN(keys, client->QueryAll("SELECT name FROM pragma_table_info(?1) WHERE pk > 0 ORDER BY pk", {name}));
    }
    for (int64_t r = 0; r < keys->num_rows(); ++r) source->primary_key_.emplace_back(keys->Value(r, 0));
  }
  return source;
}

Status DatabaseSource::SetBookmark(std::shared_ptr<KeyBookmark> bookmark) {
  std::vector<std::string> keys = spec_.bookmark_keys;
  if (keys.empty()) keys = primary_key_;
  if (keys.empty()) {
    return Status::InvalidInput("{} has no primary key, so its job bookmark needs jobBookmarkKeys (columns whose values "
                                "grow with every new row)", Describe());
  }
  key_columns_.clear();
  for (const auto& k : keys) {
    int index = schema_->FieldIndex(k);
    if (index < 0) return Status::InvalidInput("jobBookmarkKeys: {} has no column {}", Describe(), k);
    const ColumnMapping& m = columns_[static_cast<size_t>(index)];
    if (!m.comparable) {
      return Status::InvalidInput("jobBookmarkKeys: column {} of {} is {}, whose values have no order to bookmark by; "
                                  "choose an integer, decimal, date, timestamp or text column", k, Describe(), m.source_type);
    }
    key_columns_.push_back(index);
  }
  spec_.bookmark_keys = keys;
  const auto& from = bookmark->from();
  if (from && (from->keys != keys || from->descending != spec_.bookmark_descending)) {
    return Status::InvalidInput("the bookmark of {} was taken over keys [{}] {}, but this run reads by [{}] {}; reset the "
                                "job bookmark to change them", bookmark->ctx(), fmt::join(from->keys, ", "),
                                from->descending ? "desc" : "asc", fmt::join(keys, ", "),
                                spec_.bookmark_descending ? "desc" : "asc");
  }
  bookmark_ = std::move(bookmark);
  return Status::OK();
}

namespace {

/// What a bookmarked read needs to know about its keys, for building conditions.
struct KeyConditions {
  std::vector<std::string> quoted;
  bool descending = false;
  /// `keys >= values` (at or past, in the bookmark's order).
  std::string AtOrPast(const KeyValues& values, SqlParams* params) const {
    std::vector<std::string> p;
    for (const auto& v : values) p.push_back(params->Add(v));
    return Tuple(quoted) + (descending ? " <= " : " >= ") + Tuple(p);
  }
  /// `keys <= values` (at or before).
  std::string AtOrBefore(const KeyValues& values, SqlParams* params) const {
    std::vector<std::string> p;
    for (const auto& v : values) p.push_back(params->Add(v));
    return Tuple(quoted) + (descending ? " >= " : " <= ") + Tuple(p);
  }
  std::string Order(bool reverse) const {
    std::string out;
    const bool desc = descending != reverse;
    for (size_t i = 0; i < quoted.size(); ++i) out += (i ? ", " : "") + quoted[i] + (desc ? " DESC" : " ASC");
    return out;
  }
};

/// xids as a PostgreSQL array literal ({1,2,3}), bound as one parameter.
std::string XidArray(const std::vector<uint64_t>& xids) {
  std::string out = "{";
  for (size_t i = 0; i < xids.size(); ++i) out += (i ? "," : "") + std::to_string(xids[i]);
  return out + "}";
}

KeyValues RowValues(const RowBlock& block, int64_t row) {
  KeyValues out;
  for (int c = 0; c < block.num_columns(); ++c) {
    out.push_back(block.IsNull(row, c) ? std::nullopt : std::optional<std::string>(std::string(block.Value(row, c))));
  }
  return out;
}

}  // namespace

Result<std::unique_ptr<RecordReader>> DatabaseSource::OpenReader(const std::vector<int>& wanted,
                                                                 const expr::ExprPtr& filter, int64_t limit,
                                                                 MemoryPool* pool) const {
  EPOXY_ASSIGN_OR_RETURN(auto coordinator, Connect(spec_.endpoint));
  const bool pg = coordinator->engine() == Engine::kPostgres;
  const std::string relation = Relation();
  // Hash and range partitions read in parallel on PostgreSQL; SQLite reads on one connection.
  int partitions = 1;
  if (pg && spec_.hash_partitions > 1) partitions = spec_.hash_partitions;
  if (pg && spec_.num_partitions > 1) {
    partitions = static_cast<int>(std::min<int64_t>(spec_.num_partitions, std::max<int64_t>(spec_.upper_bound - spec_.lower_bound, 1)));
  }
  EPOXY_RETURN_NOT_OK(coordinator->Execute(pg ? "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" : "BEGIN"));
  SnapshotInfo snapshot;
  std::string exported;
  if (pg) {
    // The transaction's own xid, taken after its snapshot, bounds the xids open but unlisted in it.
    EPOXY_ASSIGN_OR_RETURN(auto info, coordinator->QueryAll(
        "SELECT pg_current_snapshot()::text, (pg_current_xact_id()::text::bigint % 4294967296)::text" +
        std::string(partitions > 1 ? ", pg_export_snapshot()" : "")));
    EPOXY_ASSIGN_OR_RETURN(snapshot, ParseSnapshot(info->Value(0, 0)));
    std::string next(info->Value(0, 1));
    std::from_chars(next.data(), next.data() + next.size(), snapshot.next);
    if (partitions > 1) exported = std::string(info->Value(0, 2));
  }

  KeyConditions keys;
  for (int k : key_columns_) keys.quoted.push_back(QuoteIdentifier(columns_[static_cast<size_t>(k)].name));
  keys.descending = spec_.bookmark_descending;
  std::vector<std::string> identity;  // quoted
  for (const auto& k : primary_key_) identity.push_back(QuoteIdentifier(k));
  if (identity.empty()) {
    for (const auto& c : columns_) identity.push_back(QuoteIdentifier(c.name));
  }
  std::optional<KeyBookmark::Planned> planned;
  if (bookmark_ != nullptr) {
    planned = bookmark_->planned();
    if (!planned) {
      KeyBookmark::Planned p;
      const KeyValues from_mark = bookmark_->from() ? bookmark_->from()->mark : KeyValues{};
      // A NULL key would never compare past the mark: such rows would be invisible for ever.
      std::string nulls;
      for (const auto& q : keys.quoted) nulls += (nulls.empty() ? "" : " OR ") + q + " IS NULL";
      EPOXY_ASSIGN_OR_RETURN(auto null_rows, coordinator->QueryAll("SELECT 1 FROM " + relation + " WHERE " + nulls + " LIMIT 1"));
      if (null_rows->num_rows() > 0) {
        return Status::InvalidData("bookmark key [{}] of {} is NULL in some rows, which a key bookmark can never read; "
                                   "bookmark by NOT NULL columns", fmt::join(spec_.bookmark_keys, ", "), Describe());
      }
      // The last key (in the bookmark's order) at or past the mark, of rows meeting `extra`.
      using Condition = std::function<std::string(SqlParams*)>;
      auto last_key = [&](const Condition& extra) -> Result<std::optional<KeyValues>> {
        SqlParams params(*coordinator);
        StatementParts parts;
        parts.select = keys.quoted;
        if (!from_mark.empty()) parts.where.push_back(keys.AtOrPast(from_mark, &params));
        if (extra) parts.where.push_back(extra(&params));
        parts.order_by = keys.Order(true);
        parts.limit = 1;
        EPOXY_ASSIGN_OR_RETURN(auto row, coordinator->QueryAll(Compose(relation, parts), params.params()));
        if (row->num_rows() == 0) return std::optional<KeyValues>();
        return std::optional<KeyValues>(RowValues(*row, 0));
      };
      EPOXY_ASSIGN_OR_RETURN(auto upper, last_key(nullptr));
      p.next = bookmark_->from().value_or(KeyState{});
      p.next.keys = spec_.bookmark_keys;
      p.next.descending = spec_.bookmark_descending;
      // Transactions open now may still commit rows anywhere below the newest key (a row numbered
      // before a newer one whose transaction committed first). A row's xmin names the transaction
      // that wrote it: the range read now is remembered with those transactions, and a later run
      // reads the rows they committed in it. Transactions still open then stay remembered.
      bool has_xmin = false;
      if (pg && (snapshot.open() || !p.next.pending.empty())) {
        EPOXY_RETURN_NOT_OK(coordinator->Execute("SAVEPOINT epoxy_xmin"));
        has_xmin = coordinator->QueryAll("SELECT xmin FROM " + relation + " LIMIT 0").ok();
        EPOXY_RETURN_NOT_OK(coordinator->Execute(has_xmin ? "RELEASE SAVEPOINT epoxy_xmin" : "ROLLBACK TO SAVEPOINT epoxy_xmin"));
      }
      p.late = p.next.pending;
      std::vector<KeyState::Pending> still_open;
      auto listed_open = [&](uint64_t x) {
        return std::find(snapshot.in_flight.begin(), snapshot.in_flight.end(), x) != snapshot.in_flight.end();
      };
      for (auto entry : p.next.pending) {
        std::vector<uint64_t> open;
        for (uint64_t x : entry.xids) {
          if (listed_open(x)) open.push_back(x);
        }
        for (uint64_t x : snapshot.in_flight) {
          if (x >= entry.from_xid && x < entry.to_xid && x < snapshot.xmax) open.push_back(x);
        }
        entry.xids = std::move(open);
        entry.from_xid = std::max(entry.from_xid, snapshot.xmax);
        if (entry.from_xid >= entry.to_xid) entry.from_xid = entry.to_xid = 0;
        if (entry.open()) still_open.push_back(std::move(entry));
      }
      p.next.pending = std::move(still_open);
      p.in_flight = static_cast<int64_t>(snapshot.in_flight.size() + (snapshot.next - std::min(snapshot.xmax, snapshot.next)));
      if (upper) {
        p.empty = false;
        p.upper = *upper;
        if (pg && snapshot.open() && has_xmin) {
          p.next.pending.push_back({p.next.mark, *upper, snapshot.in_flight, snapshot.xmax, snapshot.next});
          bookmark_->LogLine(fmt::format(
              "bookmark: {}: {} transaction(s) were open when the run read {}; rows they commit later at or before "
              "the new mark are read by a later run", bookmark_->ctx(), p.in_flight, Describe()));
        }
        KeyValues new_mark = *upper;
        if (pg && snapshot.open() && !has_xmin) {
          // A query or view has no xmin to tell late rows by: the mark stays, and every row read
          // past it is remembered instead.
          p.held_back = true;
          new_mark = p.next.mark;
          bookmark_->LogLine(fmt::format(
              "bookmark: {}: transactions were open when the run read {}, which has no xmin column; the mark stays "
              "where it was and the rows read past it are remembered", bookmark_->ctx(), Describe()));
        }
        // The rows at or past the new mark that this run reads (normally those tied at it):
        // remembered, so that the next run, which reads at or past the mark, leaves them out.
        SqlParams params(*coordinator);
        StatementParts parts;
        parts.select = identity;
        if (!new_mark.empty()) parts.where.push_back(keys.AtOrPast(new_mark, &params));
        parts.where.push_back(keys.AtOrBefore(p.upper, &params));
        EPOXY_ASSIGN_OR_RETURN(auto rows, coordinator->QueryAll(Compose(relation, parts), params.params()));
        p.next.mark = new_mark;
        p.next.seen.clear();
        for (int64_t r = 0; r < rows->num_rows(); ++r) p.next.seen.push_back(RowIdentity(*rows, r, 0, rows->num_columns()));
        std::sort(p.next.seen.begin(), p.next.seen.end());
      }
      bookmark_->SetPlanned(p);
      planned = p;
    }
  }

  // The statements: the wanted columns, then the identity columns when rows must be left out.
  std::vector<int> columns = wanted;
  if (columns.empty()) {
    for (int c = 0; c < schema_->num_fields(); ++c) columns.push_back(c);
  }
  PartitionReadSpec read;
  read.fetch_size = spec_.fetch_size;
  read.memory = pool;
  read.bookmark = bookmark_;
  std::vector<Field> fields;
  for (int c : columns) {
    read.columns.push_back(columns_[static_cast<size_t>(c)]);
    fields.push_back(schema_->field(c));
  }
  read.schema = Schema::Make(std::move(fields));
  const bool skip_rows = planned && bookmark_->from() && !bookmark_->from()->seen.empty();
  if (skip_rows) {
    read.skip = std::make_shared<std::unordered_set<uint64_t>>(bookmark_->from()->seen.begin(), bookmark_->from()->seen.end());
    read.identity_count = static_cast<int>(identity.size());
  }
  const bool nothing = planned && planned->empty && planned->late.empty();
  for (int i = 0; i < partitions; ++i) {
    SqlParams params(*coordinator);
    StatementParts parts;
    for (int c : columns) parts.select.push_back(QuoteIdentifier(columns_[static_cast<size_t>(c)].name));
    if (skip_rows) parts.select.insert(parts.select.end(), identity.begin(), identity.end());
    std::string base = relation;
    if (nothing) parts.where.push_back("1 = 0");
    if (planned && !nothing) {
      // The new rows past the mark, or rows that transactions open at an earlier run committed since.
      std::vector<std::string> any;
      if (!planned->empty) {
        std::string range = keys.AtOrBefore(planned->upper, &params);
        if (bookmark_->from() && !bookmark_->from()->mark.empty()) {
          range = keys.AtOrPast(bookmark_->from()->mark, &params) + " AND " + range;
        }
        any.push_back(range);
      }
      for (const auto& entry : planned->late) {
        std::string late = "(xmin::text::bigint = ANY(" + params.Add(XidArray(entry.xids)) + "::bigint[])";
        if (entry.from_xid < entry.to_xid) {
          late += " OR xmin::text::bigint >= " + params.Add(std::to_string(entry.from_xid)) + " AND xmin::text::bigint < " +
                  params.Add(std::to_string(entry.to_xid));
        }
        late += ")";
        if (!entry.low.empty()) late += " AND " + keys.AtOrPast(entry.low, &params);
        late += " AND " + keys.AtOrBefore(entry.high, &params);
        any.push_back(late);
      }
      std::string condition;
      for (const auto& a : any) condition += (condition.empty() ? "(" : " OR (") + a + ")";
      parts.where.push_back(condition);
      parts.order_by = keys.Order(false);
    }
    bool all_pushed = true;
    std::string pushed = PushableFilter(filter, columns_, coordinator->engine(), &params, &all_pushed);
    if (!pushed.empty()) parts.where.push_back(pushed);
    if (partitions > 1) {
      std::string condition;
      if (!spec_.hash_expression.empty()) {
        condition = fmt::format("coalesce(mod(abs(({})::bigint), {}), 0) = {}", spec_.hash_expression, partitions, i);
      } else if (!spec_.hash_field.empty()) {
        condition = fmt::format("coalesce(mod(abs(hashtext(CAST({} AS text))::bigint), {}), 0) = {}",
                                QuoteIdentifier(spec_.hash_field), partitions, i);
      } else {  // Spark's ranges: the first partition takes what is below (and NULLs), the last what is above
        const int64_t stride = spec_.upper_bound / partitions - spec_.lower_bound / partitions;
        const std::string column = QuoteIdentifier(spec_.partition_column);
        const int64_t lo = spec_.lower_bound + i * stride, hi = lo + stride;
        if (i == 0) {
          condition = fmt::format("{} < {} OR {} IS NULL", column, params.Add(std::to_string(hi)), column);
        } else if (i == partitions - 1) {
          condition = fmt::format("{} >= {}", column, params.Add(std::to_string(lo)));
        } else {
          const std::string from = params.Add(std::to_string(lo));
          const std::string to = params.Add(std::to_string(hi));
          condition = fmt::format("{} >= {} AND {} < {}", column, from, column, to);
        }
      }
      if (spec_.partition_query) {
        base = "(" + spec_.query + " " + condition + ") AS epoxy_query";
      } else {
        parts.where.push_back(condition);
      }
    } else if (spec_.partition_query) {
      base = "(" + spec_.query + " 1 = 1) AS epoxy_query";
    }
    if (limit >= 0 && all_pushed && !skip_rows) parts.limit = limit;
    read.queries.push_back({Compose(base, parts), params.params()});
  }
  read.clients.push_back(std::move(coordinator));
  for (int i = 1; i < partitions; ++i) {
    EPOXY_ASSIGN_OR_RETURN(auto client, Connect(spec_.endpoint));
    EPOXY_RETURN_NOT_OK(client->Execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"));
    // SET TRANSACTION SNAPSHOT takes no parameter; the id is the server's own (hex digits and dashes).
    if (exported.find_first_not_of("0123456789ABCDEFabcdef-") != std::string::npos) {
      return Status::Internal("unexpected snapshot id '{}'", exported);
    }
    EPOXY_RETURN_NOT_OK(client->Execute("SET TRANSACTION SNAPSHOT '" + exported + "'"));
    read.clients.push_back(std::move(client));
  }
  return MakePartitionReader(std::move(read));
}

}  // namespace epoxy::database
