// SPDX-License-Identifier: Apache-2.0
// Crawlers (definitions, starting and stopping crawls, their history and metrics) and custom
// classifiers. StartCrawler answers at once; the crawl runs on a thread of the server's
// (background_work.h) and really crawls its targets.
#include <algorithm>
#include <cmath>

#include "epoxy/api/background_work.h"
#include "epoxy/api/operation.h"
#include "epoxy/crawler/crawler.h"
#include "epoxy/crawler/custom_classifier.h"
#include "epoxy/scheduler/cron.h"
#include "epoxy/types/value_text.h"

namespace epoxy::api {
namespace {

/// The members of CreateCrawler that the Crawler keeps as given.
constexpr const char* kCrawlerMembers[] = {
    "Role", "DatabaseName", "Description", "Targets", "Classifiers", "TablePrefix", "SchemaChangePolicy",
    "RecrawlPolicy", "LineageConfiguration", "LakeFormationConfiguration", "Configuration",
    "CrawlerSecurityConfiguration"};

/// CreateCrawler's Schedule is a cron string; the Crawler holds {ScheduleExpression, State}.
Result<Json> ScheduleOf(const Json& schedule) {
  if (!schedule.is_string()) return Status::InvalidInput("Schedule must be a string such as cron(15 12 * * ? *)");
  const std::string text = schedule.get<std::string>();
  if (text.empty()) return Json();
  EPOXY_RETURN_NOT_OK(scheduler::CronSchedule::Parse(text).status());
  return Json{{"ScheduleExpression", text}, {"State", "SCHEDULED"}};
}

/// Applies the members of a Create/UpdateCrawler request to `crawler`.
Status ApplyCrawlerRequest(const Json& request, Json* crawler) {
  for (const char* member : kCrawlerMembers) {
    if (request.contains(member) && !request[member].is_null()) (*crawler)[member] = request[member];
  }
  if (request.contains("Schedule")) {
    EPOXY_ASSIGN_OR_RETURN(Json schedule, ScheduleOf(request["Schedule"]));
    if (schedule.is_null()) {
      crawler->erase("Schedule");
    } else {
      (*crawler)["Schedule"] = schedule;
    }
  }
  if (crawler->contains("Configuration")) {
    const Json& c = (*crawler)["Configuration"];
    if (!c.is_string() || !Json::parse(c.get<std::string>(), nullptr, false).is_object()) {
      return Status::InvalidInput("Configuration must be a JSON object in a string");
    }
  }
  if (crawler->contains("Targets") && !(*crawler)["Targets"].is_object()) {
    return Status::InvalidInput("Targets must be an object");
  }
  return Status::OK();
}

Json CrawlerOut(Json crawler) {
  if (!crawler.contains("CrawlElapsedTime")) crawler["CrawlElapsedTime"] = 0;
  if (crawler.contains("LastCrawl")) crawler["LastCrawl"].erase("Owner");
  return crawler;
}

Result<Json> CreateCrawler(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(std::string name, RequiredString(request, "Name"));
  EPOXY_RETURN_NOT_OK(RequiredString(request, "Role").status());
  if (!request.contains("Targets")) return RequiredString(request, "Targets").status();
  Json crawler = {{"Name", name},
                  {"SchemaChangePolicy", {{"UpdateBehavior", "UPDATE_IN_DATABASE"},
                                          {"DeleteBehavior", "DEPRECATE_IN_DATABASE"}}},
                  {"RecrawlPolicy", {{"RecrawlBehavior", "CRAWL_EVERYTHING"}}},
                  {"LineageConfiguration", {{"CrawlerLineageSettings", "DISABLE"}}},
                  {"Classifiers", Json::array()}};
  EPOXY_RETURN_NOT_OK(ApplyCrawlerRequest(request, &crawler));
  EPOXY_RETURN_NOT_OK(context.store->PutCrawler(crawler, catalog::CatalogStore::PutMode::kCreate));
  EPOXY_RETURN_NOT_OK(StoreTags(request, context.Arn("crawler", name), context));
  return Json::object();
}

Result<Json> UpdateCrawler(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(std::string name, RequiredString(request, "Name"));
  EPOXY_ASSIGN_OR_RETURN(Json crawler, context.store->GetCrawler(name));
  EPOXY_RETURN_NOT_OK(ApplyCrawlerRequest(request, &crawler));
  EPOXY_RETURN_NOT_OK(context.store->PutCrawler(crawler, catalog::CatalogStore::PutMode::kReplace));
  return Json::object();
}

Result<Json> GetCrawler(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(std::string name, RequiredString(request, "Name"));
  EPOXY_ASSIGN_OR_RETURN(Json crawler, context.store->GetCrawler(name));
  return Json{{"Crawler", CrawlerOut(std::move(crawler))}};
}

Result<Json> GetCrawlers(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(int max, MaxResults(request, 1000));
  EPOXY_ASSIGN_OR_RETURN(std::vector<Json> all, context.store->GetCrawlers());
  NamedPage page = PageByName(std::move(all), OptionalString(request, "NextToken"), max);
  Json list = Json::array();
  for (auto& c : page.items) list.push_back(CrawlerOut(std::move(c)));
  return WithNextToken(Json{{"Crawlers", std::move(list)}}, page.next_token);
}

Result<Json> ListCrawlers(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(int max, MaxResults(request, 1000));
  EPOXY_ASSIGN_OR_RETURN(std::vector<Json> all, context.store->GetCrawlers());
  EPOXY_ASSIGN_OR_RETURN(all, FilterByTags(std::move(all), "crawler", request, context));
  NamedPage page = PageByName(std::move(all), OptionalString(request, "NextToken"), max);
  Json names = Json::array();
  for (const auto& c : page.items) names.push_back(c.value("Name", ""));
  return WithNextToken(Json{{"CrawlerNames", std::move(names)}}, page.next_token);
}

Result<Json> BatchGetCrawlers(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(FoundAndMissing got, GetEach(request, "CrawlerNames", [&](const std::string& name) -> Result<Json> {
    EPOXY_ASSIGN_OR_RETURN(Json crawler, context.store->GetCrawler(name));
    return CrawlerOut(std::move(crawler));
  }));
  return Json{{"Crawlers", std::move(got.found)}, {"CrawlersNotFound", std::move(got.missing)}};
}

Result<Json> DeleteCrawler(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(std::string name, RequiredString(request, "Name"));
  EPOXY_RETURN_NOT_OK(context.store->DeleteCrawler(name));
  Status untag = context.store->DeleteObject("tags", context.Arn("crawler", name));
  if (!untag.ok() && untag.code() != StatusCode::kNotFound) return untag;
  return Json::object();
}

Result<Json> StartCrawler(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(std::string name, RequiredString(request, "Name"));
  EPOXY_ASSIGN_OR_RETURN(crawler::StartedCrawl started, crawler::BeginCrawl(*context.store, name));
  context.background->Crawl(std::move(started));
  return Json::object();
}

Result<Json> StopCrawler(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(std::string name, RequiredString(request, "Name"));
  EPOXY_RETURN_NOT_OK(context.store->StopCrawl(name));
  return Json::object();
}

/// A crawl in ListCrawls' CrawlerHistory shape.
Json CrawlOut(const Json& crawl, const std::string& crawler) {
  const std::string status = crawl.value("Status", "RUNNING");
  const std::string state = status == "SUCCEEDED" ? "COMPLETED" : status == "CANCELLED" ? "STOPPED" : status;
  Json out = {{"CrawlId", crawl.value("CrawlId", "")}, {"State", state}, {"StartTime", crawl.value("StartTime", 0.0)},
              {"MessagePrefix", crawler}, {"DPUHour", 0.0}};
  if (crawl.contains("EndTime")) out["EndTime"] = crawl["EndTime"];
  if (crawl.contains("Summary")) out["Summary"] = crawl["Summary"].dump();
  if (crawl.contains("ErrorMessage")) out["ErrorMessage"] = crawl["ErrorMessage"];
  return out;
}

/// "2026-12-03T08:00:00.123456" (UTC unless it carries an offset or Z), or epoch seconds.
Result<double> ParseFilterTime(const std::string& text) {
  int64_t micros;
  if (ParseTimestamp(text, &micros, /*allow_iso=*/true)) return static_cast<double>(micros) / 1e6;
  char* end = nullptr;
  double epoch = std::strtod(text.c_str(), &end);
  if (!text.empty() && *end == '\0' && std::isfinite(epoch)) return epoch;
  return Status::InvalidInput("'{}' is not a timestamp (ISO-8601 or epoch seconds)", text);
}

struct CrawlFilter {
  std::string field, op, value;
};

Result<std::vector<CrawlFilter>> CrawlFilters(const Json& request) {
  static const std::vector<std::string> kFields = {"START_TIME", "END_TIME", "STATE", "CRAWL_ID", "DPU_HOUR"};
  static const std::vector<std::string> kOperators = {"LT", "EQ", "GT", "NE", "LE", "GE"};
  auto enum_error = [](const std::string& value, size_t index, const char* member, const std::vector<std::string>& set) {
    std::string list;
    for (const auto& s : set) list += (list.empty() ? "" : ", ") + s;
    return Status::InvalidInput("ValidationException: Value '{}' at 'filters.{}.member.{}' failed to satisfy "
                                "constraint: Member must satisfy enum value set: [{}]", value, index, member, list);
  };
  std::vector<CrawlFilter> out;
  const Json filters = request.value("Filters", Json::array());
  for (size_t i = 0; i < filters.size(); ++i) {
    CrawlFilter f{filters[i].value("FieldName", ""), filters[i].value("FilterOperator", ""),
                  filters[i].value("FieldValue", "")};
    if (std::find(kFields.begin(), kFields.end(), f.field) == kFields.end()) {
      return enum_error(f.field, i + 1, "fieldName", kFields);
    }
    if (std::find(kOperators.begin(), kOperators.end(), f.op) == kOperators.end()) {
      return enum_error(f.op, i + 1, "filterOperator", kOperators);
    }
    if (!filters[i].contains("FieldValue")) {
      return Status::InvalidInput("Invalid Filter Provided: FieldName: {}, FilterOperator: {}, FieldValue: null",
                                  f.field, f.op);
    }
    if ((f.field == "STATE" || f.field == "CRAWL_ID") && f.op != "EQ" && f.op != "NE") {
      return Status::InvalidInput("Only EQ or NE operator is allowed for field : {}", f.field);
    }
    if (f.field == "START_TIME" || f.field == "END_TIME" || f.field == "DPU_HOUR") {
      EPOXY_RETURN_NOT_OK(f.field == "DPU_HOUR" ? ParseFilterTime("0").status() : ParseFilterTime(f.value).status());
    }
    out.push_back(std::move(f));
  }
  return out;
}

template <typename T>
bool Compare(const T& left, const std::string& op, const T& right) {
  if (op == "EQ") return left == right;
  if (op == "NE") return left != right;
  if (op == "LT") return left < right;
  if (op == "LE") return left <= right;
  if (op == "GT") return left > right;
  return left >= right;
}

bool Matches(const Json& crawl, const CrawlFilter& f) {
  if (f.field == "STATE") return Compare(crawl.value("State", ""), f.op, f.value);
  if (f.field == "CRAWL_ID") return Compare(crawl.value("CrawlId", ""), f.op, f.value);
  if (f.field == "DPU_HOUR") return Compare(crawl.value("DPUHour", 0.0), f.op, std::atof(f.value.c_str()));
  const char* member = f.field == "START_TIME" ? "StartTime" : "EndTime";
  if (!crawl.contains(member)) return false;
  return Compare(crawl[member].get<double>(), f.op, *ParseFilterTime(f.value));
}

Result<Json> ListCrawls(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(std::string name, RequiredString(request, "CrawlerName"));
  EPOXY_ASSIGN_OR_RETURN(int max, MaxResults(request, 1000));
  EPOXY_ASSIGN_OR_RETURN(std::vector<CrawlFilter> filters, CrawlFilters(request));
  auto history = context.store->GetCrawlHistory(name, 1000);
  if (!history.ok() && history.status().code() == StatusCode::kNotFound) {
    return Status::NotFound("EntityNotFoundException: Crawler entry with name {} does not exist", name);
  }
  EPOXY_RETURN_NOT_OK(history.status());
  std::vector<Json> matching;
  for (const auto& c : *history) {
    Json out = CrawlOut(c, name);
    if (std::all_of(filters.begin(), filters.end(), [&](const CrawlFilter& f) { return Matches(out, f); })) {
      matching.push_back(std::move(out));
    }
  }
  // Newest first; NextToken is the CrawlId of the last crawl of the previous page.
  NamedPage page = PageAfter(std::move(matching), OptionalString(request, "NextToken"), max, "CrawlId");
  return WithNextToken(Json{{"Crawls", std::move(page.items)}}, page.next_token);
}

Result<Json> GetCrawlerMetrics(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(int max, MaxResults(request, 1000));
  std::vector<Json> crawlers;
  if (request.contains("CrawlerNameList")) {
    for (const auto& name : request["CrawlerNameList"]) {
      if (!name.is_string()) return Status::InvalidInput("CrawlerNameList must be a list of strings");
      EPOXY_ASSIGN_OR_RETURN(Json c, context.store->GetCrawler(name.get<std::string>()));
      crawlers.push_back(std::move(c));
    }
    std::sort(crawlers.begin(), crawlers.end(),
              [](const Json& a, const Json& b) { return a.value("Name", "") < b.value("Name", ""); });
  } else {
    EPOXY_ASSIGN_OR_RETURN(crawlers, context.store->GetCrawlers());
  }
  NamedPage page = PageByName(std::move(crawlers), OptionalString(request, "NextToken"), max);
  Json list = Json::array();
  for (const auto& c : page.items) {
    const std::string name = c.value("Name", "");
    EPOXY_ASSIGN_OR_RETURN(std::vector<Json> history, context.store->GetCrawlHistory(name, 1000));
    std::vector<double> runtimes;
    Json metrics = {{"CrawlerName", name}, {"TimeLeftSeconds", 0.0}, {"StillEstimating", false},
                    {"LastRuntimeSeconds", 0.0}, {"MedianRuntimeSeconds", 0.0}, {"TablesCreated", 0},
                    {"TablesUpdated", 0}, {"TablesDeleted", 0}};
    for (const auto& h : history) {
      if (!h.contains("EndTime")) continue;
      runtimes.push_back(h["EndTime"].get<double>() - h.value("StartTime", 0.0));
      if (runtimes.size() == 1) {
        metrics["LastRuntimeSeconds"] = runtimes.back();
        const Json s = h.value("Summary", Json::object());
        metrics["TablesCreated"] = s.value("TablesCreated", 0);
        metrics["TablesUpdated"] = s.value("TablesUpdated", 0);
        metrics["TablesDeleted"] = s.value("TablesDeleted", 0);
      }
    }
    if (!runtimes.empty()) {
      std::sort(runtimes.begin(), runtimes.end());
      const size_t n = runtimes.size();
      metrics["MedianRuntimeSeconds"] = n % 2 ? runtimes[n / 2] : (runtimes[n / 2 - 1] + runtimes[n / 2]) / 2;
    }
    if (c.value("State", "READY") != "READY") metrics["StillEstimating"] = true;
    list.push_back(std::move(metrics));
  }
  return WithNextToken(Json{{"CrawlerMetricsList", std::move(list)}}, page.next_token);
}

// Classifiers, in Glue's Classifier shape (exactly one of GrokClassifier, XMLClassifier,
// JsonClassifier, CsvClassifier), checked by compiling them as a crawl would.

constexpr const char* kClassifierKinds[] = {"GrokClassifier", "XMLClassifier", "JsonClassifier", "CsvClassifier"};

Result<Json> ClassifierFromRequest(const Json& request) {
  Json classifier = Json::object();
  for (const char* kind : kClassifierKinds) {
    if (request.contains(kind)) classifier[kind] = request[kind];
  }
  if (classifier.size() != 1) {
    return Status::InvalidInput("give exactly one of GrokClassifier, XMLClassifier, JsonClassifier or CsvClassifier");
  }
  EPOXY_RETURN_NOT_OK(crawler::CompileClassifier(classifier).status());
  return classifier;
}

Result<Json> CreateClassifier(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(Json classifier, ClassifierFromRequest(request));
  EPOXY_RETURN_NOT_OK(context.store->CreateClassifier(classifier));
  return Json::object();
}

Result<Json> UpdateClassifier(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(Json classifier, ClassifierFromRequest(request));
  // Glue's UpdateClassifier changes only the members given: merge over the stored settings.
  const std::string kind = classifier.begin().key();
  auto stored = context.store->GetClassifier(classifier[kind].value("Name", ""));
  if (stored.ok() && stored->contains(kind)) {
    Json merged = (*stored)[kind];
    merged.update(classifier[kind]);
    classifier[kind] = merged;
  }
  EPOXY_RETURN_NOT_OK(context.store->UpdateClassifier(classifier));
  return Json::object();
}

Result<Json> GetClassifier(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(std::string name, RequiredString(request, "Name"));
  EPOXY_ASSIGN_OR_RETURN(Json classifier, context.store->GetClassifier(name));
  return Json{{"Classifier", std::move(classifier)}};
}

std::string ClassifierName(const Json& classifier) {
  return classifier.empty() ? "" : classifier.begin().value().value("Name", "");
}

Result<Json> GetClassifiers(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(int max, MaxResults(request, 1000));
  EPOXY_ASSIGN_OR_RETURN(std::vector<Json> all, context.store->GetClassifiers());
  const std::string after = OptionalString(request, "NextToken");
  Json list = Json::array();
  std::string next;
  for (auto& c : all) {
    if (!after.empty() && ClassifierName(c) <= after) continue;
    if (static_cast<int>(list.size()) == max) {
      next = ClassifierName(list.back());
      break;
    }
    list.push_back(std::move(c));
  }
  return WithNextToken(Json{{"Classifiers", std::move(list)}}, next);
}

Result<Json> DeleteClassifier(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(std::string name, RequiredString(request, "Name"));
  EPOXY_RETURN_NOT_OK(context.store->DeleteClassifier(name));
  return Json::object();
}

}  // namespace

void AddCrawlerOperations(Operations* ops) {
  ops->Add("CreateCrawler", CreateCrawler);
  ops->Add("UpdateCrawler", UpdateCrawler);
  ops->Add("GetCrawler", GetCrawler);
  ops->Add("GetCrawlers", GetCrawlers);
  ops->Add("ListCrawlers", ListCrawlers);
  ops->Add("BatchGetCrawlers", BatchGetCrawlers);
  ops->Add("DeleteCrawler", DeleteCrawler);
  ops->Add("StartCrawler", StartCrawler);
  ops->Add("StopCrawler", StopCrawler);
  ops->Add("ListCrawls", ListCrawls);
  ops->Add("GetCrawlerMetrics", GetCrawlerMetrics);
  ops->Add("CreateClassifier", CreateClassifier);
  ops->Add("UpdateClassifier", UpdateClassifier);
  ops->Add("GetClassifier", GetClassifier);
  ops->Add("GetClassifiers", GetClassifiers);
  ops->Add("DeleteClassifier", DeleteClassifier);
}

}  // namespace epoxy::api
