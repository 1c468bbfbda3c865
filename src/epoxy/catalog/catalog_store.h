// SPDX-License-Identifier: Apache-2.0
// CatalogStore: Glue's Data Catalog (databases, tables with versions, partitions) behind one
// interface, with SQLite now and PostgreSQL later. Objects are JSON in the exact shapes of the
// Glue API (Database, Table, Partition, TableVersion), so the API server passes them through.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "epoxy/common/result.h"

namespace epoxy::catalog {

using Json = nlohmann::json;

/// One page of a listing; `next_token` is empty on the last page (Glue's NextToken).
struct Page {
  std::vector<Json> items;
  std::string next_token;
};

/// Errors: kNotFound (EntityNotFoundException), kAlreadyExists (AlreadyExistsException),
/// kInvalidInput (InvalidInputException). Every multi-step change is one transaction; several
/// processes may share a store.
class CatalogStore {
 public:
  virtual ~CatalogStore() = default;

  /// "sqlite:///path/catalog.db", a plain path, or "" for $EPOXY_CATALOG or else
  /// $EPOXY_HOME/catalog.db (EPOXY_HOME defaults to ~/.epoxy).
  static Result<std::unique_ptr<CatalogStore>> Open(const std::string& uri);

  virtual Status CreateDatabase(const Json& database_input) = 0;
  virtual Result<Json> GetDatabase(const std::string& name) = 0;
  virtual Result<Page> GetDatabases(const std::string& next_token, int max_results) = 0;
  /// Replaces database `name`'s definition (kNotFound when missing); CreateTime is kept.
  virtual Status UpdateDatabase(const std::string& name, const Json& database_input) = 0;
  /// Deletes the database with its tables and partitions.
  virtual Status DeleteDatabase(const std::string& name) = 0;

  virtual Status CreateTable(const std::string& database, const Json& table_input) = 0;
  virtual Result<Json> GetTable(const std::string& database, const std::string& name) = 0;
  virtual Result<Page> GetTables(const std::string& database, const std::string& next_token,
                                 int max_results) = 0;
  /// Replaces the table definition; the previous one stays as a version unless `skip_archive`.
  /// A non-empty `expected_version` must be the table's VersionId, else the update is refused
  /// with ConcurrentModificationException (Glue's optimistic locking).
  virtual Status UpdateTable(const std::string& database, const Json& table_input, bool skip_archive,
                             const std::string& expected_version = "") = 0;
  virtual Status DeleteTable(const std::string& database, const std::string& name) = 0;
  /// Every version of the table, the current one included, oldest first.
  virtual Result<Page> GetTableVersions(const std::string& database, const std::string& table,
                                        const std::string& next_token, int max_results) = 0;
  virtual Status DeleteTableVersion(const std::string& database, const std::string& table,
                                    const std::string& version_id) = 0;

  /// Creates partitions in one transaction; returns the PartitionError objects of the inputs
  /// that failed (the others are created), as BatchCreatePartition does.
  virtual Result<std::vector<Json>> BatchCreatePartition(const std::string& database,
                                                         const std::string& table,
                                                         const std::vector<Json>& inputs) = 0;
  virtual Result<Json> GetPartition(const std::string& database, const std::string& table,
                                    const std::vector<std::string>& values) = 0;
  /// Partitions matching Glue's `expression` (empty for all), filtered inside the store.
  /// `total_segments` > 1 returns only segment `segment` of a stable split.
  virtual Result<Page> GetPartitions(const std::string& database, const std::string& table,
                                     const std::string& expression, const std::string& next_token,
                                     int max_results, int segment = 0, int total_segments = 1) = 0;
  virtual Status DeletePartition(const std::string& database, const std::string& table,
                                 const std::vector<std::string>& values) = 0;
  /// Replaces partition `values` with `partition_input`, whose Values may differ (kNotFound when
  /// missing, kAlreadyExists when the new values are taken); CreationTime is kept.
  virtual Status UpdatePartition(const std::string& database, const std::string& table,
                                 const std::vector<std::string>& values, const Json& partition_input) = 0;

  // Crawlers, in Glue's Crawler shape (Name, DatabaseName, Targets, SchemaChangePolicy, ...).
  /// How PutCrawler treats an existing crawler of that name.
  enum class PutMode {
    kCreateOrReplace,
    kCreate,   // kAlreadyExists when it exists
    kReplace,  // kNotFound when missing; CrawlerRunningException while it runs
  };
  /// Creates or replaces the definition; the state and crawl history are kept.
  virtual Status PutCrawler(const Json& crawler, PutMode mode = PutMode::kCreateOrReplace) = 0;
  virtual Result<Json> GetCrawler(const std::string& name) = 0;
  virtual Result<std::vector<Json>> GetCrawlers() = 0;
  virtual Status DeleteCrawler(const std::string& name) = 0;
  /// READY -> RUNNING atomically, adding the history entry `crawl` (CrawlId, StartTime, Owner)
  /// with Status RUNNING; kAlreadyExists (CrawlerRunningException) when it runs already.
  virtual Status StartCrawl(const std::string& name, const Json& crawl) = 0;
  /// RUNNING -> STOPPING (the crawl notices and ends CANCELLED); CrawlerNotRunningException or
  /// CrawlerStoppingException (kInvalidInput) otherwise.
  virtual Status StopCrawl(const std::string& name) = 0;
  /// RUNNING or STOPPING -> READY, recording LastCrawl and completing the history entry of
  /// crawl["CrawlId"] (`crawl` holds Status SUCCEEDED, CANCELLED or FAILED, ErrorMessage,
  /// StartTime, EndTime, Summary...).
  virtual Status FinishCrawl(const std::string& name, const Json& crawl) = 0;
  /// Crawls, newest first, the running one included.
  virtual Result<std::vector<Json>> GetCrawlHistory(const std::string& name, int max_results) = 0;
  /// Folders a crawler has read (for CRAWL_NEW_FOLDERS_ONLY).
  virtual Result<std::vector<std::string>> GetCrawledFolders(const std::string& name) = 0;
  virtual Status AddCrawledFolders(const std::string& name, const std::vector<std::string>& folders) = 0;

  // Custom classifiers, in Glue's Classifier shape: one of GrokClassifier, XMLClassifier,
  // JsonClassifier or CsvClassifier, each holding the Name and its settings.
  /// kAlreadyExists when a classifier of that name exists.
  virtual Status CreateClassifier(const Json& classifier) = 0;
  /// Replaces an existing classifier's settings (kNotFound when missing; its kind may not change).
  virtual Status UpdateClassifier(const Json& classifier) = 0;
  virtual Result<Json> GetClassifier(const std::string& name) = 0;
  virtual Result<std::vector<Json>> GetClassifiers() = 0;
  virtual Status DeleteClassifier(const std::string& name) = 0;

  // Connections, in Glue's Connection shape (Name, ConnectionType, ConnectionProperties with
  // JDBC_CONNECTION_URL, USERNAME, PASSWORD or SECRET_ID, ...). Stored as given, password included
  // (Glue's GetConnection hands it back unless HidePassword); callers that print hide it.
  /// kAlreadyExists when a connection of that name exists.
  virtual Status CreateConnection(const Json& connection_input) = 0;
  /// Replaces connection `name` (kNotFound when missing); the input may rename it.
  virtual Status UpdateConnection(const std::string& name, const Json& connection_input) = 0;
  virtual Result<Json> GetConnection(const std::string& name) = 0;
  virtual Result<std::vector<Json>> GetConnections() = 0;
  virtual Status DeleteConnection(const std::string& name) = 0;

  // Other API objects kept as documents by kind and key (tags by resource ARN, user-defined
  // functions, column statistics, partition indexes, access keys): the API server gives them
  // their shapes.
  virtual Status PutObject(const std::string& kind, const std::string& key, const Json& doc) = 0;
  /// kNotFound when missing.
  virtual Result<Json> GetObject(const std::string& kind, const std::string& key) = 0;
  /// The documents of `kind` whose key starts with `key_prefix`, by key.
  virtual Result<std::vector<std::pair<std::string, Json>>> ListObjects(const std::string& kind,
                                                                        const std::string& key_prefix) = 0;
  /// kNotFound when missing.
  virtual Status DeleteObject(const std::string& kind, const std::string& key) = 0;

  /// Empties the catalog (every database, table, crawler, job, run, connection and object but
  /// those of `kept_kinds`) in one transaction; the API server's test reset.
  virtual Status ResetAll(const std::vector<std::string>& kept_kinds) = 0;
};

/// The kind ("GrokClassifier", ...) and name of a classifier in Glue's shape, or why it is not one.
Result<std::pair<std::string, std::string>> ClassifierKindAndName(const Json& classifier);

/// The Glue exception name for a failed status ("EntityNotFoundException", ...). A status whose
/// message starts with an exception's name and ": " ("CrawlerRunningException: ...") has that name.
std::string GlueErrorName(const Status& status);
/// `status` with its Glue exception name in front of the message ("EntityNotFoundException: ..."),
/// unless the message already starts with it. OK stays OK.
Status WithGlueErrorName(const Status& status);

/// The SQLite file a catalog URI names ("" is $EPOXY_CATALOG, else $EPOXY_HOME/catalog.db).
Result<std::string> CatalogFilePath(const std::string& uri);

/// Checks a database or table name against Glue's rules (1 to 255 characters, one line).
Status ValidateName(std::string_view kind, const std::string& name);

}  // namespace epoxy::catalog
