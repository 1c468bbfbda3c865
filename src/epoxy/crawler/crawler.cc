// SPDX-License-Identifier: Apache-2.0
// RunCrawler: list, profile, plan tables and partitions, apply the policies to the catalog.
#include "epoxy/crawler/crawler.h"
#include "epoxy/crawler/jdbc_crawl.h"

#include <algorithm>
#include <chrono>
#include <random>
#include <set>

#include <nlohmann/json.hpp>

#include "epoxy/common/process_identity.h"
#include "epoxy/common/thread_pool.h"
#include "epoxy/crawler/file_profile.h"
#include "epoxy/storage/glob.h"
#include "epoxy/types/type_merge.h"

namespace epoxy::crawler {
namespace {

using catalog::Json;

double Now() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

/// The crawler definition, read from its Glue shape with Glue's defaults.
struct Definition {
  std::string name, database, table_prefix;
  struct Target {
    std::string path;
    std::vector<std::string> exclusions;
    int64_t sample_size = 0;  // files per leaf folder; 0 means all
  };
  std::vector<Target> targets;
  std::string update_behavior = "UPDATE_IN_DATABASE";
  std::string delete_behavior = "DEPRECATE_IN_DATABASE";
  std::string recrawl = "CRAWL_EVERYTHING";
  bool inherit_from_table = false;
  bool merge_new_columns = false;
  bool combine_compatible = false;
  int table_level = 0;
  int64_t table_threshold = 0;  // fail when a crawl would make more tables; 0 means no limit
  int64_t sample_rows = 1000;
  std::vector<std::string> classifiers;  // custom classifiers' names, in the order they are tried

  static Result<Definition> From(const Json& c) {
    Definition d;
    d.name = c.value("Name", "");
    d.database = c.value("DatabaseName", "");
    if (d.database.empty()) return Status::InvalidInput("crawler {} has no DatabaseName", d.name);
    d.table_prefix = c.value("TablePrefix", "");
    for (const auto& t : c.value("Targets", Json::object()).value("S3Targets", Json::array())) {
      Target target;
      target.path = t.value("Path", "");
      if (target.path.rfind("file://", 0) == 0) target.path = target.path.substr(7);  // a local folder
      for (const auto& e : t.value("Exclusions", Json::array())) target.exclusions.push_back(e.get<std::string>());
      target.sample_size = t.value("SampleSize", 0);
      if (target.path.empty()) return Status::InvalidInput("crawler {} has a target without a Path", d.name);
      d.targets.push_back(std::move(target));
    }
    if (d.targets.empty() && c.value("Targets", Json::object()).value("JdbcTargets", Json::array()).empty()) {
      return Status::InvalidInput("crawler {} has no S3Targets or JdbcTargets", d.name);
    }
    for (const auto& name : c.value("Classifiers", Json::array())) {
      if (!name.is_string()) return Status::InvalidInput("crawler {}: Classifiers must be a list of names", d.name);
      d.classifiers.push_back(name.get<std::string>());
    }
    const Json policy = c.value("SchemaChangePolicy", Json::object());
    d.update_behavior = policy.value("UpdateBehavior", d.update_behavior);
    d.delete_behavior = policy.value("DeleteBehavior", d.delete_behavior);
    d.recrawl = c.value("RecrawlPolicy", Json::object()).value("RecrawlBehavior", d.recrawl);
    if (d.recrawl != "CRAWL_EVERYTHING" && d.recrawl != "CRAWL_NEW_FOLDERS_ONLY" && d.recrawl != "CRAWL_EVENT_MODE") {
      return Status::InvalidInput("crawler {}: unknown RecrawlBehavior '{}' (CRAWL_EVERYTHING, CRAWL_NEW_FOLDERS_ONLY, "
                                  "CRAWL_EVENT_MODE)", d.name, d.recrawl);
    }
    if (d.recrawl == "CRAWL_EVENT_MODE") {
      // Event mode reads S3 event notifications from the targets' SQS queues (EventQueueArn).
      for (const auto& t : c.value("Targets", Json::object()).value("S3Targets", Json::array())) {
        if (t.value("EventQueueArn", "").empty()) {
          return Status::InvalidInput("crawler {}: CRAWL_EVENT_MODE needs an EventQueueArn on every S3 target", d.name);
        }
      }
      return Status::NotSupported("crawler {}: CRAWL_EVENT_MODE (S3 events through SQS) is not supported by this "
                                  "build; use CRAWL_NEW_FOLDERS_ONLY", d.name);
    }
    if (d.recrawl == "CRAWL_NEW_FOLDERS_ONLY") {
      d.update_behavior = "LOG";  // as Glue forces
      d.delete_behavior = "LOG";
    }
    std::string config_text = c.value("Configuration", "");
    if (!config_text.empty()) {
      Json config = Json::parse(config_text, nullptr, false);
      if (config.is_discarded()) return Status::InvalidInput("crawler {}: Configuration is not JSON", d.name);
      const Json output = config.value("CrawlerOutput", Json::object());
      d.inherit_from_table = output.value("Partitions", Json::object()).value("AddOrUpdateBehavior", "") == "InheritFromTable";
      d.merge_new_columns = output.value("Tables", Json::object()).value("AddOrUpdateBehavior", "") == "MergeNewColumns";
      d.table_threshold = output.value("Tables", Json::object()).value("TableThreshold", int64_t{0});
      const Json grouping = config.value("Grouping", Json::object());
      d.combine_compatible = grouping.value("TableGroupingPolicy", "") == "CombineCompatibleSchemas";
      d.table_level = grouping.value("TableLevelConfiguration", 0);
      d.sample_rows = config.value("SampleRows", int64_t{1000});
    }
    return d;
  }
};

/// A folder of the listing, relative to its target.
struct Folder {
  std::string path;                 // full path or URI, no trailing '/'
  std::vector<size_t> files;        // profiles directly in this folder
  std::map<std::string, Folder> children;
};

struct TablePlan {
  std::string name;
  std::string location;
  std::vector<size_t> files;
  std::vector<std::string> keys;    // partition key names
};


std::vector<std::string> Split(const std::string& path) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= path.size()) {
    size_t slash = path.find('/', start);
    if (slash == std::string::npos) slash = path.size();
    if (slash > start) out.push_back(path.substr(start, slash - start));
    start = slash + 1;
  }
  return out;
}

std::set<std::string> ColumnNames(const SchemaPtr& s) {
  std::set<std::string> out;
  if (s) {
    for (const auto& f : s->fields()) out.insert(f.name);
  }
  return out;
}

class Planner {
 public:
  Planner(const Definition& d, const std::vector<FileProfile>& profiles, CrawlSummary* summary)
      : d_(d), profiles_(profiles), summary_(summary) {}

  /// Tables for the files under `root` (a target's folder tree).
  void Plan(const Folder& root, const std::string& target_name) {
    if (d_.combine_compatible) {
      MakeTable(root, target_name);
      return;
    }
    if (d_.table_level > 0) {
      PlanAtLevel(root, target_name);
      return;
    }
    PlanDefault(root, target_name);
  }

  std::vector<TablePlan>& tables() { return tables_; }

 private:
  void Collect(const Folder& f, std::vector<size_t>* out) const {
    out->insert(out->end(), f.files.begin(), f.files.end());
    for (const auto& [_, c] : f.children) Collect(c, out);
  }

  SchemaPtr MergedSchema(const Folder& f) const {
    std::vector<size_t> files;
    Collect(f, &files);
    SchemaPtr merged;
    for (size_t i : files) {
      const auto& s = profiles_[i].schema;
      merged = merged ? MergeSchemas(*merged, *s, MergeMode::kCatalog) : s;
    }
    return merged;
  }

  std::string ClassificationOf(const Folder& f) const {
    std::vector<size_t> files;
    Collect(f, &files);
    std::set<std::string> kinds;
    for (size_t i : files) kinds.insert(profiles_[i].classification + "/" + std::string(CompressionName(profiles_[i].compression)));
    return kinds.size() == 1 ? *kinds.begin() : "";
  }

  /// Glue's rule: sibling folders are partitions of one table when they hold the same kind of
  /// data, their schemas are similar (at least 70% of columns shared with the first), and they
  /// fall into at most 5 distinct schemas.
  bool SiblingsAreOneTable(const Folder& f) const {
    std::string kind;
    std::set<std::set<std::string>> clusters;
    std::set<std::string> first;
    bool have_first = false;
    for (const auto& [_, child] : f.children) {
      std::string k = ClassificationOf(child);
      if (k.empty() || (!kind.empty() && k != kind)) return false;
      kind = k;
      std::set<std::string> names = ColumnNames(MergedSchema(child));
      clusters.insert(names);
      if (!have_first) {
        first = names;
        have_first = true;
        continue;
      }
      size_t shared = 0;
      for (const auto& n : names) shared += first.count(n);
      size_t all = std::max(first.size(), names.size());
      if (all > 0 && static_cast<double>(shared) / static_cast<double>(all) < 0.7) return false;
    }
    return clusters.size() <= 5;
  }

  void PlanDefault(const Folder& f, const std::string& name) {
    if (f.children.empty()) {
      MakeTable(f, name);
      return;
    }
    if (f.files.empty() && SiblingsAreOneTable(f)) {
      MakeTable(f, name);
      return;
    }
    if (!f.files.empty()) {
      // Files beside folders: as in Glue, they make a table of their own.
      Folder alone;
      alone.path = f.path;
      alone.files = f.files;
      MakeTable(alone, name);
      summary_->log.push_back(fmt::format("files beside folders in {} make their own table {}", f.path, TableNameFor(name, d_.table_prefix)));
    }
    for (const auto& [child_name, child] : f.children) PlanDefault(child, child_name);
  }

  void PlanAtLevel(const Folder& f, const std::string& name) {
    int level = static_cast<int>(Split(f.path.substr(f.path.find("://") == std::string::npos ? 0 : f.path.find("://") + 3)).size());
    if (level >= d_.table_level) {
      MakeTable(f, name);
      return;
    }
    for (size_t i : f.files) Skip(i, "above the table level");
    for (const auto& [child_name, child] : f.children) PlanAtLevel(child, child_name);
  }

  void Skip(size_t i, const std::string& reason) {
    ++summary_->files_skipped;
    ++summary_->skipped_reasons[reason];
    summary_->log.push_back(fmt::format("skipped {}: {}", profiles_[i].file.path, reason));
  }

  /// One table rooted at `f`; subfolders below it are partitions.
  void MakeTable(const Folder& f, const std::string& name) {
    std::vector<size_t> files;
    Collect(f, &files);
    if (files.empty()) return;
    // All files of a table sit at one depth below it; the most common depth wins.
    std::map<size_t, size_t> depths;
    auto depth_of = [&](size_t i) {
      return Split(profiles_[i].file.path.substr(f.path.size())).size() - 1;
    };
    for (size_t i : files) ++depths[depth_of(i)];
    size_t depth = std::max_element(depths.begin(), depths.end(), [](auto& a, auto& b) { return a.second < b.second; })->first;
    TablePlan plan;
    plan.name = TableNameFor(name, d_.table_prefix);
    plan.location = f.path + "/";
    std::string kind;
    for (size_t i : files) {
      if (depth_of(i) != depth) {
        Skip(i, "at another folder depth than the rest of its table");
        continue;
      }
      std::string k = profiles_[i].classification;
      if (!kind.empty() && k != kind) {
        Skip(i, "a different format (" + k + ") from its table's (" + kind + ")");
        continue;
      }
      kind = k;
      plan.files.push_back(i);
    }
    if (plan.files.empty()) return;
    std::vector<std::string> first = Split(profiles_[plan.files[0]].file.path.substr(f.path.size()));
    for (size_t k = 0; k + 1 < first.size(); ++k) {
      size_t eq = first[k].find('=');
      plan.keys.push_back(eq == std::string::npos ? fmt::format("partition_{}", k) : first[k].substr(0, eq));
    }
    tables_.push_back(std::move(plan));
  }

  const Definition& d_;
  const std::vector<FileProfile>& profiles_;
  CrawlSummary* summary_;
  std::vector<TablePlan> tables_;
};

Json Columns(const Schema& schema) {
  Json out = Json::array();
  for (const auto& f : schema.fields()) out.push_back(Json{{"Name", f.name}, {"Type", f.type->ToString()}});
  return out;
}

/// The Table/Partition storage descriptor for files of one kind.
Json StorageDescriptor(const FileProfile& p, const Schema& schema, const std::string& location) {
  Json sd = {{"Columns", Columns(schema)}, {"Location", location}, {"NumberOfBuckets", -1},
             {"Compressed", p.compression != Compression::kNone}, {"StoredAsSubDirectories", false}};
  Json params = {{"classification", p.classification}, {"compressionType", std::string(CompressionName(p.compression))},
                 {"typeOfData", "file"}};
  if (p.classification == "parquet") {
    sd["InputFormat"] = "org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat";
    sd["OutputFormat"] = "org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat";
    sd["SerdeInfo"] = {{"SerializationLibrary", "org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe"},
                       {"Parameters", {{"serialization.format", "1"}}}};
  } else if (p.classification == "json") {
    sd["InputFormat"] = "org.apache.hadoop.mapred.TextInputFormat";
    sd["OutputFormat"] = "org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat";
    Json paths = Json::array();
    for (const auto& f : schema.fields()) paths.push_back(f.name);
    sd["SerdeInfo"] = {{"SerializationLibrary", "org.openx.data.jsonserde.JsonSerDe"},
                       {"Parameters", {{"paths", fmt::format("{}", fmt::join(paths.get<std::vector<std::string>>(), ","))}}}};
    if (p.read_options.count("jsonPath")) params["jsonPath"] = p.read_options.at("jsonPath");
  } else if (!p.grok_pattern.empty()) {
    sd["InputFormat"] = "org.apache.hadoop.mapred.TextInputFormat";
    sd["OutputFormat"] = "org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat";
    Json serde_params = {{"input.format", p.grok_pattern}};
    if (!p.grok_custom_patterns.empty()) serde_params["input.grokCustomPatterns"] = p.grok_custom_patterns;
    sd["SerdeInfo"] = {{"SerializationLibrary", "com.amazonaws.glue.serde.GrokSerDe"}, {"Parameters", serde_params}};
    params["grokPattern"] = p.grok_pattern;
    if (!p.grok_custom_patterns.empty()) params["grokCustomPatterns"] = p.grok_custom_patterns;
  } else {
    sd["InputFormat"] = "org.apache.hadoop.mapred.TextInputFormat";
    sd["OutputFormat"] = "org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat";
    if (p.serde == "OpenCSVSerDe") {
      sd["SerdeInfo"] = {{"SerializationLibrary", "org.apache.hadoop.hive.serde2.OpenCSVSerde"},
                         {"Parameters", {{"separatorChar", std::string(1, p.delimiter)},
                                         {"quoteChar", std::string(1, p.quote)}}}};
    } else {
      sd["SerdeInfo"] = {{"SerializationLibrary", "org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe"},
                         {"Parameters", {{"field.delim", std::string(1, p.delimiter)}}}};
    }
    params["delimiter"] = std::string(1, p.delimiter);
    if (p.quote != '"') params["quoteChar"] = std::string(1, p.quote);
    params["areColumnsQuoted"] = p.quoted ? "true" : "false";
    params["columnsOrdered"] = "true";
    if (p.header) params["skip.header.line.count"] = "1";
  }
  sd["Parameters"] = params;
  return sd;
}

}  // namespace

std::string TableNameFor(const std::string& folder, const std::string& prefix) {
  std::string name = prefix;
  for (char c : folder) {
    char l = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    name.push_back((std::isalnum(static_cast<unsigned char>(l)) || l == '_') ? l : '_');
  }
  if (name.size() > 128) name.resize(128);
  return name.empty() ? "table" : name;
}

namespace {

/// A partition's values from its file's folders below the table.
std::vector<std::string> PartitionValues(const std::string& table_location, const std::string& file_path) {
  std::vector<std::string> parts = Split(file_path.substr(table_location.size()));
  std::vector<std::string> values;
  for (size_t k = 0; k + 1 < parts.size(); ++k) {
    size_t eq = parts[k].find('=');
    values.push_back(eq == std::string::npos ? parts[k] : parts[k].substr(eq + 1));
  }
  return values;
}

std::string PartitionLocation(const std::string& file_path) {
  size_t slash = file_path.rfind('/');
  return file_path.substr(0, slash + 1);
}

class CrawlRun {
 public:
  CrawlRun(catalog::CatalogStore& store, const Definition& d, std::vector<CustomClassifier> classifiers,
           const CrawlProgress& progress, const StopRequested& stop_requested)
      : store_(store), d_(d), classifiers_(std::move(classifiers)), progress_(progress),
        stop_requested_(stop_requested) {}

  Result<CrawlSummary> Run() {
    auto start = std::chrono::steady_clock::now();
    for (const auto& c : classifiers_) {
      if (c.kind == CustomClassifier::Kind::kXml) {
        summary_.log.push_back(fmt::format("classifier {} is an XML classifier, which this build does not run", c.name));
      }
    }
    std::set<std::string> crawled;
    if (d_.recrawl == "CRAWL_NEW_FOLDERS_ONLY") {
      EPOXY_ASSIGN_OR_RETURN(auto folders, store_.GetCrawledFolders(d_.name));
      crawled.insert(folders.begin(), folders.end());
    }
    // Plan every target before writing anything, so TableThreshold can refuse the whole crawl.
    std::vector<TargetPlan> planned;
    std::vector<std::string> new_folders;
    int64_t table_count = 0;
    for (const auto& target : d_.targets) {
      planned.emplace_back();
      EPOXY_RETURN_NOT_OK(CrawlTarget(target, crawled, &planned.back(), &new_folders));
      table_count += static_cast<int64_t>(planned.back().tables.size());
    }
    if (stop_requested_ && stop_requested_()) return Status::Cancelled("the crawl was stopped; nothing was written");
    if (d_.table_threshold > 0 && table_count > d_.table_threshold) {
      return Status::InvalidInput(
          "the crawl would make {} tables, more than its TableThreshold of {}; nothing was written", table_count,
          d_.table_threshold);
    }
    auto db = store_.GetDatabase(d_.database);
    if (!db.ok()) {
      if (db.status().code() != StatusCode::kNotFound) return db.status();
      EPOXY_RETURN_NOT_OK(store_.CreateDatabase(Json{{"Name", d_.database}}));
      summary_.database_created = true;
      summary_.log.push_back(fmt::format("created database {}", d_.database));
    }
    std::set<std::string> seen_tables;
    for (const auto& target : planned) {
      for (const auto& plan : target.tables) {
        seen_tables.insert(plan.name);
        EPOXY_RETURN_NOT_OK(ApplyTable(plan, target.profiles));
      }
    }
    if (!new_folders.empty()) EPOXY_RETURN_NOT_OK(store_.AddCrawledFolders(d_.name, new_folders));
    if (d_.recrawl != "CRAWL_NEW_FOLDERS_ONLY") EPOXY_RETURN_NOT_OK(HandleDeleted(seen_tables));
    summary_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return summary_;
  }

 private:
  /// The classified files of one target and the tables they make.
  struct TargetPlan {
    std::vector<FileProfile> profiles;
    std::vector<TablePlan> tables;
  };

  Status CrawlTarget(const Definition::Target& target, const std::set<std::string>& crawled, TargetPlan* out,
                     std::vector<std::string>* new_folders) {
    std::string root = target.path;
    while (root.size() > 1 && root.back() == '/') root.pop_back();
    auto listed = ExpandPaths({root});
    if (!listed.ok()) {
      if (listed.status().code() == StatusCode::kNotFound) {
        summary_.log.push_back(fmt::format("target {} has no files", root));
        return Status::OK();
      }
      return listed.status();
    }
    std::vector<Glob> exclusions;
    for (const auto& e : target.exclusions) {
      EPOXY_ASSIGN_OR_RETURN(Glob g, Glob::Compile(e));
      exclusions.push_back(std::move(g));
    }
    std::vector<FileInfo> files;
    std::map<std::string, int64_t> sampled_per_folder;
    for (auto& f : *listed) {
      ++summary_.files_listed;
      std::string relative = f.path.substr(root.size() + 1);
      bool excluded = std::any_of(exclusions.begin(), exclusions.end(), [&](const Glob& g) { return g.Matches(relative); });
      if (excluded) {
        ++summary_.files_skipped;
        ++summary_.skipped_reasons["excluded"];
        continue;
      }
      std::string folder = f.path.substr(0, f.path.rfind('/') + 1);
      if (crawled.count(folder)) continue;  // new folders only: already crawled
      if (target.sample_size > 0 && sampled_per_folder[folder]++ >= target.sample_size) continue;
      files.push_back(std::move(f));
    }
    // Profile the files in parallel; their readers parse on a pool of their own (see ProfileFile).
    std::vector<FileProfile> profiles(files.size());
    std::atomic<int64_t> done{0};
    {
      ThreadPool parse_pool(1);
      TaskGroup tasks(ThreadPool::Default());
      for (size_t i = 0; i < files.size(); ++i) {
        tasks.Spawn([&, i]() -> Status {
          if (stop_requested_ && stop_requested_()) return Status::Cancelled("the crawl was stopped; nothing was written");
          profiles[i] = ProfileFile(files[i], ProfileOptions{d_.sample_rows, &classifiers_, &parse_pool});
          int64_t n = ++done;
          if (progress_) progress_(n, static_cast<int64_t>(files.size()));
          return Status::OK();
        });
      }
      EPOXY_RETURN_NOT_OK(tasks.Wait());
    }
    summary_.files_read += static_cast<int64_t>(files.size());
    // The folder tree of the classified files.
    Folder tree;
    tree.path = root;
    std::vector<FileProfile> usable;
    for (auto& p : profiles) {
      if (p.classification == "UNKNOWN") {
        ++summary_.files_skipped;
        ++summary_.skipped_reasons[p.skip_kind];
        summary_.log.push_back(fmt::format("skipped {}: {}", p.file.path, p.skip_reason));
        continue;
      }
      usable.push_back(std::move(p));
    }
    for (size_t i = 0; i < usable.size(); ++i) {
      std::vector<std::string> parts = Split(usable[i].file.path.substr(root.size()));
      Folder* node = &tree;
      for (size_t k = 0; k + 1 < parts.size(); ++k) {
        Folder& child = node->children[parts[k]];
        if (child.path.empty()) child.path = node->path + "/" + parts[k];
        node = &child;
      }
      node->files.push_back(i);
      new_folders->push_back(usable[i].file.path.substr(0, usable[i].file.path.rfind('/') + 1));
    }
    std::string target_name = Split(root.substr(root.find("://") == std::string::npos ? 0 : root.find("://") + 3)).back();
    Planner planner(d_, usable, &summary_);
    planner.Plan(tree, target_name);
    out->tables = std::move(planner.tables());
    out->profiles = std::move(usable);
    return Status::OK();
  }

  Status ApplyTable(const TablePlan& plan, const std::vector<FileProfile>& profiles) {
    const FileProfile& first = profiles[plan.files[0]];
    SchemaPtr schema;
    int64_t records = 0, bytes = 0;
    std::map<std::vector<std::string>, std::vector<size_t>> partitions;
    for (size_t i : plan.files) {
      schema = schema ? MergeSchemas(*schema, *profiles[i].schema, MergeMode::kCatalog) : profiles[i].schema;
      records += profiles[i].records;
      bytes += profiles[i].file.size;
      if (!plan.keys.empty()) partitions[PartitionValues(plan.location, profiles[i].file.path)].push_back(i);
    }
    // Partition columns are not data columns (a key also stored in the files stays a key).
    std::vector<Field> data_fields;
    for (const auto& f : schema->fields()) {
      if (std::find(plan.keys.begin(), plan.keys.end(), f.name) == plan.keys.end()) data_fields.push_back(f);
    }
    Schema data(data_fields);
    Json sd = StorageDescriptor(first, data, plan.location);
    Json keys = Json::array();
    for (const auto& k : plan.keys) keys.push_back(Json{{"Name", k}, {"Type", "string"}});
    Json params = sd["Parameters"];
    params["recordCount"] = std::to_string(records);
    params["averageRecordSize"] = std::to_string(records > 0 ? bytes / records : 0);
    params["objectCount"] = std::to_string(plan.files.size());
    params["sizeKey"] = std::to_string(bytes);
    params["CrawlerSchemaDeserializerVersion"] = "1.0";
    params["CrawlerSchemaSerializerVersion"] = "1.0";
    params["UPDATED_BY_CRAWLER"] = d_.name;
    Json input = {{"Name", plan.name}, {"StorageDescriptor", sd}, {"PartitionKeys", keys},
                  {"TableType", "EXTERNAL_TABLE"}, {"Parameters", params}};
    auto existing = store_.GetTable(d_.database, plan.name);
    Json table_sd = sd;
    if (!existing.ok()) {
      if (existing.status().code() != StatusCode::kNotFound) return existing.status();
      EPOXY_RETURN_NOT_OK(store_.CreateTable(d_.database, input));
      ++summary_.tables_created;
      summary_.log.push_back(fmt::format("created table {}.{}", d_.database, plan.name));
    } else {
      table_sd = (*existing)["StorageDescriptor"];
      EPOXY_RETURN_NOT_OK(UpdateExisting(plan, *existing, data, input, &table_sd));
    }
    // Partitions: new ones are added whatever the update policy (as in Glue).
    std::vector<Json> inputs;
    for (const auto& [values, files] : partitions) {
      auto have = store_.GetPartition(d_.database, plan.name, values);
      if (have.ok()) continue;
      SchemaPtr ps;
      for (size_t i : files) ps = ps ? MergeSchemas(*ps, *profiles[i].schema, MergeMode::kCatalog) : profiles[i].schema;
      std::vector<Field> pf;
      for (const auto& f : ps->fields()) {
        if (std::find(plan.keys.begin(), plan.keys.end(), f.name) == plan.keys.end()) pf.push_back(f);
      }
      std::string location = PartitionLocation(profiles[files[0]].file.path);
      Json psd = d_.inherit_from_table ? table_sd : StorageDescriptor(profiles[files[0]], Schema(pf), location);
      psd["Location"] = location;
      inputs.push_back(Json{{"Values", values}, {"StorageDescriptor", psd}});
    }
    for (size_t start = 0; start < inputs.size(); start += 100) {
      std::vector<Json> batch(inputs.begin() + static_cast<std::ptrdiff_t>(start),
                              inputs.begin() + static_cast<std::ptrdiff_t>(std::min(inputs.size(), start + 100)));
      EPOXY_ASSIGN_OR_RETURN(auto errors, store_.BatchCreatePartition(d_.database, plan.name, batch));
      summary_.partitions_added += static_cast<int64_t>(batch.size() - errors.size());
      for (const auto& e : errors) summary_.log.push_back("partition not added: " + e.dump());
    }
    return Status::OK();
  }

  Status UpdateExisting(const TablePlan& plan, const Json& existing, const Schema& data, Json input, Json* table_sd) {
    // Compare column by column: new columns and type changes.
    std::map<std::string, std::string> old_types;
    Json old_columns = existing.value("StorageDescriptor", Json::object()).value("Columns", Json::array());
    for (const auto& c : old_columns) old_types[c.value("Name", "")] = c.value("Type", "");
    std::vector<std::string> changes;
    for (const auto& f : data.fields()) {
      auto it = old_types.find(f.name);
      std::string incoming = f.type->ToString();
      if (it == old_types.end()) {
        changes.push_back(fmt::format("new column {} {}", f.name, incoming));
      } else if (it->second != incoming) {
        changes.push_back(fmt::format("column {} is {} in the table, {} in the data", f.name, it->second, incoming));
      }
    }
    if (changes.empty()) return Status::OK();
    if (d_.update_behavior == "LOG") {
      for (const auto& c : changes) {
        summary_.log.push_back(fmt::format("table {}.{}: {}; kept as it was (UpdateBehavior LOG)", d_.database, plan.name, c));
      }
      return Status::OK();
    }
    if (d_.merge_new_columns) {
      // Add new columns only; never drop or retype.
      Json merged = old_columns;
      for (const auto& f : data.fields()) {
        if (!old_types.count(f.name)) merged.push_back(Json{{"Name", f.name}, {"Type", f.type->ToString()}});
      }
      input["StorageDescriptor"]["Columns"] = merged;
    }
    EPOXY_RETURN_NOT_OK(store_.UpdateTable(d_.database, input, false));
    *table_sd = input["StorageDescriptor"];
    ++summary_.tables_updated;
    for (const auto& c : changes) {
      summary_.log.push_back(fmt::format("table {}.{}: {}; updated (previous definition kept as a version)", d_.database, plan.name, c));
    }
    return Status::OK();
  }

  Status HandleDeleted(const std::set<std::string>& seen) {
    std::string token;
    std::vector<Json> gone;
    do {
      EPOXY_ASSIGN_OR_RETURN(catalog::Page page, store_.GetTables(d_.database, token, 100));
      for (auto& t : page.items) {
        if (t.value("Parameters", Json::object()).value("UPDATED_BY_CRAWLER", "") == d_.name && !seen.count(t.value("Name", ""))) {
          gone.push_back(std::move(t));
        }
      }
      token = page.next_token;
    } while (!token.empty());
    for (auto& t : gone) {
      std::string name = t["Name"];
      if (d_.delete_behavior == "DELETE_FROM_DATABASE") {
        EPOXY_RETURN_NOT_OK(store_.DeleteTable(d_.database, name));
        ++summary_.tables_deleted;
        summary_.log.push_back(fmt::format("deleted table {}.{}: its files are gone", d_.database, name));
      } else if (d_.delete_behavior == "DEPRECATE_IN_DATABASE") {
        if (t["Parameters"].value("DEPRECATED_BY_CRAWLER", "").empty()) {
          t["Parameters"]["DEPRECATED_BY_CRAWLER"] = d_.name;
          EPOXY_RETURN_NOT_OK(store_.UpdateTable(d_.database, t, false));
          summary_.log.push_back(fmt::format("deprecated table {}.{}: its files are gone", d_.database, name));
        }
      } else {
        summary_.log.push_back(fmt::format("table {}.{} has no files any more (DeleteBehavior LOG)", d_.database, name));
      }
    }
    return Status::OK();
  }

  catalog::CatalogStore& store_;
  const Definition& d_;
  const std::vector<CustomClassifier> classifiers_;
  const CrawlProgress& progress_;
  const StopRequested& stop_requested_;
  CrawlSummary summary_;
};

/// The crawler's custom classifiers, compiled; an unknown name fails the crawl before it starts.
Result<std::vector<CustomClassifier>> LoadClassifiers(catalog::CatalogStore& store, const Definition& d) {
  std::vector<CustomClassifier> out;
  for (const auto& name : d.classifiers) {
    auto classifier = store.GetClassifier(name);
    if (!classifier.ok()) {
      return Status(classifier.status().code(), fmt::format("crawler {}: {}", d.name, classifier.status().message()));
    }
    EPOXY_ASSIGN_OR_RETURN(CustomClassifier c, CompileClassifier(*classifier));
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace

Result<CrawlSummary> RunCrawler(catalog::CatalogStore& store, const std::string& name,
                                const CrawlProgress& progress) {
  // A definition that cannot run is refused before a crawl is recorded.
  EPOXY_ASSIGN_OR_RETURN(Json crawler, store.GetCrawler(name));
  EPOXY_ASSIGN_OR_RETURN(Definition d, Definition::From(crawler));
  EPOXY_RETURN_NOT_OK(LoadClassifiers(store, d).status());
  EPOXY_ASSIGN_OR_RETURN(StartedCrawl started, BeginCrawl(store, name));
  return CompleteCrawl(store, started, progress, nullptr);
}

Result<StartedCrawl> BeginCrawl(catalog::CatalogStore& store, const std::string& name, const std::string& crawl_id,
                                const Json* extra) {
  StartedCrawl started;
  started.crawler = name;
  started.crawl_id = crawl_id.empty() ? NewCrawlId() : crawl_id;
  started.start_time = Now();
  const ProcessIdentity owner = ThisProcess();
  Json entry = {{"CrawlId", started.crawl_id}, {"StartTime", started.start_time},
                {"Owner", {{"Pid", owner.pid}, {"StartTicks", owner.start_ticks}, {"Host", owner.host}}}};
  if (extra != nullptr) {
    for (const auto& [k, v] : extra->items()) entry[k] = v;
    started.extra = *extra;
  }
  Status st = store.StartCrawl(name, entry);
  // A crawl whose process died must not block the next one.
  if (st.code() == StatusCode::kAlreadyExists) {
    EPOXY_ASSIGN_OR_RETURN(bool settled, SettleDeadCrawl(store, name));
    if (settled) st = store.StartCrawl(name, entry);
  }
  EPOXY_RETURN_NOT_OK(st);
  return started;
}

Result<bool> SettleDeadCrawl(catalog::CatalogStore& store, const std::string& name) {
  EPOXY_ASSIGN_OR_RETURN(Json crawler, store.GetCrawler(name));
  if (crawler.value("State", "READY") == "READY") return false;
  EPOXY_ASSIGN_OR_RETURN(std::vector<Json> history, store.GetCrawlHistory(name, 1));
  if (history.empty() || history[0].value("Status", "") != "RUNNING" || !history[0].contains("Owner")) return false;
  const Json& o = history[0]["Owner"];
  if (!LocalProcessIsGone({o.value("Pid", int64_t{0}), o.value("StartTicks", int64_t{0}), o.value("Host", "")})) {
    return false;
  }
  Json crawl = history[0];
  crawl.erase("Owner");
  crawl["Status"] = "FAILED";
  crawl["EndTime"] = Now();
  crawl["ErrorMessage"] = fmt::format("the process that ran the crawl (pid {}) ended before the crawl finished",
                                      o.value("Pid", int64_t{0}));
  EPOXY_RETURN_NOT_OK(store.FinishCrawl(name, crawl));
  return true;
}

Result<CrawlSummary> CompleteCrawl(catalog::CatalogStore& store, const StartedCrawl& started,
                                   const CrawlProgress& progress, const StopRequested& stop_requested) {
  const std::string& name = started.crawler;
  Result<CrawlSummary> result = [&]() -> Result<CrawlSummary> {
    EPOXY_ASSIGN_OR_RETURN(Json crawler, store.GetCrawler(name));
    EPOXY_ASSIGN_OR_RETURN(Definition d, Definition::From(crawler));
    EPOXY_ASSIGN_OR_RETURN(std::vector<CustomClassifier> classifiers, LoadClassifiers(store, d));
    CrawlRun run(store, d, std::move(classifiers), progress, stop_requested);
    Result<CrawlSummary> out = d.targets.empty() ? Result<CrawlSummary>(CrawlSummary{}) : run.Run();
    if (out.ok()) {
      if (stop_requested && stop_requested()) return Status::Cancelled("the crawl was stopped");
      EPOXY_RETURN_NOT_OK(CrawlJdbcTargets(store, crawler, &*out));
    }
    return out;
  }();
  Json crawl = {{"CrawlId", started.crawl_id}, {"StartTime", started.start_time}, {"EndTime", Now()}};
  for (const auto& [k, v] : started.extra.items()) crawl[k] = v;
  if (result.ok()) {
    const CrawlSummary& s = *result;
    crawl["Status"] = "SUCCEEDED";
    crawl["Summary"] = {{"TablesCreated", s.tables_created}, {"TablesUpdated", s.tables_updated},
                        {"TablesDeleted", s.tables_deleted}, {"PartitionsAdded", s.partitions_added},
                        {"FilesListed", s.files_listed}, {"FilesRead", s.files_read},
                        {"FilesSkipped", s.files_skipped}, {"Seconds", s.seconds}};
    crawl["Log"] = s.log;
  } else {
    crawl["Status"] = result.status().code() == StatusCode::kCancelled ? "CANCELLED" : "FAILED";
    crawl["ErrorMessage"] = result.status().message();
  }
  EPOXY_RETURN_NOT_OK(store.FinishCrawl(name, crawl));
  return result;
}

std::string NewCrawlId() {
  std::random_device random;
  std::mt19937_64 rng((static_cast<uint64_t>(random()) << 32) ^ random() ^
                      static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()));
  const uint64_t a = rng(), b = rng();
  // A version-4 UUID, as Glue's crawl ids are.
  return fmt::format("{:08x}-{:04x}-4{:03x}-{:04x}-{:012x}", static_cast<uint32_t>(a >> 32),
                     static_cast<uint32_t>((a >> 16) & 0xffff), static_cast<uint32_t>(a & 0xfff),
                     static_cast<uint32_t>(0x8000 | ((b >> 48) & 0x3fff)), b & 0xffffffffffffULL);
}

}  // namespace epoxy::crawler
