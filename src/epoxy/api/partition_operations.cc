// SPDX-License-Identifier: Apache-2.0
// Partitions, one at a time and in batches, with GetPartitions' Expression and Segment.
#include "epoxy/api/operation.h"

namespace epoxy::api {
namespace {

struct TableRef {
  std::string database, table;
};

Result<TableRef> Table(const Json& request, const ApiContext& context) {
  EPOXY_RETURN_NOT_OK(CheckCatalogId(request, context));
  TableRef ref;
  EPOXY_ASSIGN_OR_RETURN(ref.database, RequiredString(request, "DatabaseName"));
  EPOXY_ASSIGN_OR_RETURN(ref.table, RequiredString(request, "TableName"));
  return ref;
}

Result<std::vector<std::string>> Values(const Json& values, const char* member) {
  if (!values.is_array()) return Status::InvalidInput("{} must be a list of strings", member);
  std::vector<std::string> out;
  for (const auto& v : values) {
    if (!v.is_string()) return Status::InvalidInput("{} must be a list of strings", member);
    out.push_back(v.get<std::string>());
  }
  return out;
}

Json PartitionOut(Json partition, const ApiContext& context) {
  partition["CatalogId"] = context.account_id;
  return partition;
}

Result<Json> CreatePartition(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(TableRef t, Table(request, context));
  if (!request.contains("PartitionInput")) return Status::InvalidInput("PartitionInput is required");
  EPOXY_ASSIGN_OR_RETURN(auto errors, context.store->BatchCreatePartition(t.database, t.table, {request["PartitionInput"]}));
  if (!errors.empty()) {
    const Json& detail = errors[0]["ErrorDetail"];
    const std::string code = detail.value("ErrorCode", "");
    const std::string message = detail.value("ErrorMessage", "");
    if (code == "AlreadyExistsException") return Status::AlreadyExists("Partition already exists.");
    return Status::InvalidInput("{}", message);
  }
  return Json::object();
}

Result<Json> BatchCreatePartition(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(TableRef t, Table(request, context));
  std::vector<Json> inputs;
  for (const auto& p : request.value("PartitionInputList", Json::array())) inputs.push_back(p);
  if (inputs.size() > 100) return Status::InvalidInput("PartitionInputList holds at most 100 partitions, not {}", inputs.size());
  EPOXY_ASSIGN_OR_RETURN(auto errors, context.store->BatchCreatePartition(t.database, t.table, inputs));
  Json out = Json::object();
  if (!errors.empty()) out["Errors"] = errors;
  return out;
}

Result<Json> GetPartition(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(TableRef t, Table(request, context));
  EPOXY_ASSIGN_OR_RETURN(auto values, Values(request.value("PartitionValues", Json()), "PartitionValues"));
  auto partition = context.store->GetPartition(t.database, t.table, values);
  if (!partition.ok() && partition.status().code() == StatusCode::kNotFound &&
      partition.status().message().rfind("partition", 0) == 0) {
    return Status::NotFound("Cannot find partition.");
  }
  EPOXY_RETURN_NOT_OK(partition.status());
  return Json{{"Partition", PartitionOut(std::move(*partition), context)}};
}

Result<Json> GetPartitions(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(TableRef t, Table(request, context));
  EPOXY_ASSIGN_OR_RETURN(int max, MaxResults(request, 1000));
  int segment = 0, total = 1;
  if (request.contains("Segment") && request["Segment"].is_object()) {
    segment = request["Segment"].value("SegmentNumber", 0);
    total = request["Segment"].value("TotalSegments", 1);
  }
  EPOXY_ASSIGN_OR_RETURN(catalog::Page page,
                         context.store->GetPartitions(t.database, t.table, OptionalString(request, "Expression"),
                                                      OptionalString(request, "NextToken"), max, segment, total));
  const bool exclude_schema = request.value("ExcludeColumnSchema", false);
  Json list = Json::array();
  for (auto& p : page.items) {
    if (exclude_schema && p.contains("StorageDescriptor")) p["StorageDescriptor"].erase("Columns");
    list.push_back(PartitionOut(std::move(p), context));
  }
  Json out = {{"Partitions", std::move(list)}};
  if (!page.next_token.empty()) out["NextToken"] = page.next_token;
  return out;
}

Result<Json> BatchGetPartition(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(TableRef t, Table(request, context));
  EPOXY_RETURN_NOT_OK(context.store->GetTable(t.database, t.table).status());
  Json found = Json::array(), unprocessed = Json::array();
  for (const auto& key : request.value("PartitionsToGet", Json::array())) {
    auto values = Values(key.value("Values", Json()), "PartitionsToGet.Values");
    if (!values.ok()) {
      unprocessed.push_back(key);
      continue;
    }
    auto partition = context.store->GetPartition(t.database, t.table, *values);
    if (partition.ok()) {
      found.push_back(PartitionOut(std::move(*partition), context));
    } else if (partition.status().code() != StatusCode::kNotFound) {
      unprocessed.push_back(key);  // a transient failure: the caller retries these
    }
  }
  Json out = {{"Partitions", std::move(found)}};
  if (!unprocessed.empty()) out["UnprocessedKeys"] = std::move(unprocessed);
  return out;
}

Result<Json> DeletePartition(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(TableRef t, Table(request, context));
  EPOXY_ASSIGN_OR_RETURN(auto values, Values(request.value("PartitionValues", Json()), "PartitionValues"));
  Status st = context.store->DeletePartition(t.database, t.table, values);
  if (!st.ok() && st.code() == StatusCode::kNotFound && st.message().rfind("partition", 0) == 0) {
    return Status::NotFound("Cannot find partition.");
  }
  EPOXY_RETURN_NOT_OK(st);
  return Json::object();
}

Result<Json> BatchDeletePartition(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(TableRef t, Table(request, context));
  EPOXY_RETURN_NOT_OK(context.store->GetTable(t.database, t.table).status());
  Json errors = Json::array();
  for (const auto& key : request.value("PartitionsToDelete", Json::array())) {
    Json values_json = key.value("Values", Json());
    auto values = Values(values_json, "PartitionsToDelete.Values");
    Status st = values.ok() ? context.store->DeletePartition(t.database, t.table, *values) : values.status();
    if (!st.ok()) {
      if (st.code() == StatusCode::kNotFound) st = Status::NotFound("Partition not found.");
      errors.push_back({{"PartitionValues", values_json}, {"ErrorDetail", ErrorDetail(st)}});
    }
  }
  Json out = Json::object();
  if (!errors.empty()) out["Errors"] = std::move(errors);
  return out;
}

Result<Json> UpdatePartition(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(TableRef t, Table(request, context));
  EPOXY_ASSIGN_OR_RETURN(auto values, Values(request.value("PartitionValueList", Json()), "PartitionValueList"));
  if (!request.contains("PartitionInput")) return Status::InvalidInput("PartitionInput is required");
  Status st = context.store->UpdatePartition(t.database, t.table, values, request["PartitionInput"]);
  if (!st.ok() && st.code() == StatusCode::kNotFound && st.message().rfind("partition", 0) == 0) {
    return Status::NotFound("Cannot find partition.");
  }
  EPOXY_RETURN_NOT_OK(st);
  return Json::object();
}

Result<Json> BatchUpdatePartition(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(TableRef t, Table(request, context));
  EPOXY_RETURN_NOT_OK(context.store->GetTable(t.database, t.table).status());
  Json errors = Json::array();
  for (const auto& entry : request.value("Entries", Json::array())) {
    Json values_json = entry.value("PartitionValueList", Json());
    auto values = Values(values_json, "Entries.PartitionValueList");
    Status st = values.ok() ? context.store->UpdatePartition(t.database, t.table, *values,
                                                             entry.value("PartitionInput", Json::object()))
                            : values.status();
    if (!st.ok()) {
      if (st.code() == StatusCode::kNotFound) st = Status::NotFound("Partition not found.");
      errors.push_back({{"PartitionValueList", values_json}, {"ErrorDetail", ErrorDetail(st)}});
    }
  }
  Json out = Json::object();
  if (!errors.empty()) out["Errors"] = std::move(errors);
  return out;
}

// Partition indexes are kept as descriptors; GetPartitions filters without them.
Result<Json> CreatePartitionIndex(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(TableRef t, Table(request, context));
  EPOXY_RETURN_NOT_OK(context.store->GetTable(t.database, t.table).status());
  const Json index = request.value("PartitionIndex", Json::object());
  const std::string name = index.value("IndexName", "");
  if (name.empty()) return Status::InvalidInput("PartitionIndex needs an IndexName");
  const std::string key = t.database + "/" + t.table + "/" + name;
  if (context.store->GetObject("partition_index", key).ok()) {
    return Status::AlreadyExists("partition index {} of {}.{} already exists", name, t.database, t.table);
  }
  Json descriptor = {{"IndexName", name}, {"Keys", Json::array()}, {"IndexStatus", "ACTIVE"}};
  for (const auto& k : index.value("Keys", Json::array())) descriptor["Keys"].push_back({{"Name", k}, {"Type", "string"}});
  EPOXY_RETURN_NOT_OK(context.store->PutObject("partition_index", key, descriptor));
  return Json::object();
}

Result<Json> GetPartitionIndexes(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(TableRef t, Table(request, context));
  EPOXY_RETURN_NOT_OK(context.store->GetTable(t.database, t.table).status());
  EPOXY_ASSIGN_OR_RETURN(auto indexes, context.store->ListObjects("partition_index", t.database + "/" + t.table + "/"));
  Json list = Json::array();
  for (auto& [key, doc] : indexes) list.push_back(std::move(doc));
  return Json{{"PartitionIndexDescriptorList", std::move(list)}};
}

Result<Json> DeletePartitionIndex(const Json& request, ApiContext& context) {
  EPOXY_ASSIGN_OR_RETURN(TableRef t, Table(request, context));
  EPOXY_ASSIGN_OR_RETURN(std::string name, RequiredString(request, "IndexName"));
  EPOXY_RETURN_NOT_OK(context.store->DeleteObject("partition_index", t.database + "/" + t.table + "/" + name));
  return Json::object();
}

}  // namespace

void AddPartitionOperations(Operations* ops) {
  ops->Add("CreatePartition", CreatePartition);
  ops->Add("BatchCreatePartition", BatchCreatePartition);
  ops->Add("GetPartition", GetPartition);
  ops->Add("GetPartitions", GetPartitions);
  ops->Add("BatchGetPartition", BatchGetPartition);
  ops->Add("DeletePartition", DeletePartition);
  ops->Add("BatchDeletePartition", BatchDeletePartition);
  ops->Add("UpdatePartition", UpdatePartition);
  ops->Add("BatchUpdatePartition", BatchUpdatePartition);
  ops->Add("CreatePartitionIndex", CreatePartitionIndex);
  ops->Add("GetPartitionIndexes", GetPartitionIndexes);
  ops->Add("DeletePartitionIndex", DeletePartitionIndex);
}

}  // namespace epoxy::api
