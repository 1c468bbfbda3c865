// SPDX-License-Identifier: Apache-2.0
// `_epoxy_native`: the engine for the `pyspark` and `awsglue` packages. This is the only place
// epoxy throws: a failed Status becomes the Python exception registered for its code.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <nlohmann/json.hpp>

#include "engine.h"
#include "epoxy/database/connection_properties.h"
#include "epoxy/common/thread_pool.h"
#include "epoxy/expr/external_functions.h"
#include "epoxy/memory/memory_pool.h"
#include "epoxy/types/data_type.h"
#include "py_rows.h"

namespace py = pybind11;
using epoxy::Result;
using epoxy::Status;
using epoxy::StatusCode;
using Json = nlohmann::json;

namespace {

py::object g_errors[static_cast<int>(StatusCode::kInternal) + 1];

[[noreturn]] void Raise(const Status& status) {
  PyErr_SetString(g_errors[static_cast<int>(status.code())].ptr(), status.message().c_str());
  throw py::error_already_set();
}

void Check(const Status& status) {
  if (!status.ok()) Raise(status);
}

template <typename T>
T Value(Result<T> result) {
  if (!result.ok()) Raise(result.status());
  return std::move(*result);
}

py::list SchemaToPython(const epoxy::Schema& schema) {
  py::list out;
  for (const auto& f : schema.fields()) out.append(py::make_tuple(f.name, f.type->ToString()));
  return out;
}

epoxy::SchemaPtr SchemaFromPython(const std::vector<std::pair<std::string, std::string>>& fields) {
  std::vector<epoxy::Field> out;
  for (const auto& [name, type] : fields) out.push_back({name, Value(epoxy::ParseType(type))});
  return epoxy::Schema::Make(std::move(out));
}

py::dict MetricsToPython(const epoxy::exec::RunMetrics& metrics) {
  return py::module_::import("json").attr("loads")(metrics.ToJson());
}

/// Catalog operations in Glue's JSON shapes, by name; arguments and answers are JSON text.
std::string CatalogCall(epoxy::python::Engine& engine, const std::string& op, const std::string& args_text) {
  epoxy::catalog::CatalogStore* store = Value(engine.Catalog());
  Json args = Json::parse(args_text, nullptr, false);
  if (args.is_discarded()) Raise(Status::InvalidInput("catalog call {}: arguments are not JSON", op));
  auto str = [&](const char* key) { return args.value(key, std::string()); };
  Json out = Json::object();
  if (op == "create_database") {
    Check(store->CreateDatabase(args["DatabaseInput"]));
  } else if (op == "get_database") {
    out = Value(store->GetDatabase(str("Name")));
  } else if (op == "get_databases") {
    Json items = Json::array();
    std::string token;
    do {
      auto page = Value(store->GetDatabases(token, 1000));
      for (auto& d : page.items) items.push_back(std::move(d));
      token = page.next_token;
    } while (!token.empty());
    out["DatabaseList"] = items;
  } else if (op == "get_table") {
    out = Value(store->GetTable(str("DatabaseName"), str("Name")));
  } else if (op == "get_tables") {
    Json items = Json::array();
    std::string token;
    do {
      auto page = Value(store->GetTables(str("DatabaseName"), token, 1000));
      for (auto& t : page.items) items.push_back(std::move(t));
      token = page.next_token;
    } while (!token.empty());
    out["TableList"] = items;
  } else if (op == "connection_options") {  // extract_jdbc_conf: the url, user and password to connect with
    Json connection = Value(store->GetConnection(str("Name")));
    for (const auto& [k, v] : Value(epoxy::database::ConnectionOptions(connection))) out[k] = v;
  } else if (op == "create_table") {
    Check(store->CreateTable(str("DatabaseName"), args["TableInput"]));
  } else if (op == "update_table") {
    Check(store->UpdateTable(str("DatabaseName"), args["TableInput"], args.value("SkipArchive", false)));
  } else if (op == "delete_table") {
    Check(store->DeleteTable(str("DatabaseName"), str("Name")));
  } else if (op == "batch_create_partition") {
    std::vector<Json> inputs(args["PartitionInputList"].begin(), args["PartitionInputList"].end());
    out["Errors"] = Value(store->BatchCreatePartition(str("DatabaseName"), str("TableName"), inputs));
  } else if (op == "get_partitions") {
    Json items = Json::array();
    std::string token;
    do {
      auto page = Value(store->GetPartitions(str("DatabaseName"), str("TableName"), str("Expression"), token, 1000));
      for (auto& p : page.items) items.push_back(std::move(p));
      token = page.next_token;
    } while (!token.empty());
    out["Partitions"] = items;
  } else if (op == "delete_partition") {
    Check(store->DeletePartition(str("DatabaseName"), str("TableName"), args["PartitionValues"].get<std::vector<std::string>>()));
  } else {
    Raise(Status::NotSupported("unknown catalog operation {}", op));
  }
  return out.dump();
}

}  // namespace

PYBIND11_MODULE(_epoxy_native, m) {
  m.doc() = "epoxy's native engine, driven by the pyspark and awsglue packages";
  py::object base = py::reinterpret_borrow<py::object>(PyExc_Exception);
  py::object error = py::reinterpret_steal<py::object>(PyErr_NewException("_epoxy_native.Error", base.ptr(), nullptr));
  m.attr("Error") = error;
  for (int code = 1; code <= static_cast<int>(StatusCode::kInternal); ++code) {
    std::string name = std::string(epoxy::StatusCodeName(static_cast<StatusCode>(code))) + "Error";
    std::string qualified = "_epoxy_native." + name;
    g_errors[code] = py::reinterpret_steal<py::object>(PyErr_NewException(qualified.c_str(), error.ptr(), nullptr));
    m.attr(name.c_str()) = g_errors[code];
  }
  g_errors[0] = error;

  m.def("version", [] { return std::string(EPOXY_VERSION); });
  m.def("set_threads", [](int n) { epoxy::SetDefaultThreadCount(n); });
  m.def("set_memory_limit", [](const std::string& text) { epoxy::SetProcessMemoryLimit(Value(epoxy::ParseByteSize(text))); });
  // A Python UDF: `fn(columns)` takes one list per argument, each a (type string, values) pair,
  // and returns the result's values (normalised as for rows). Called with the GIL taken; a Python
  // exception fails the query with its traceback.
  m.def("register_function", [](const std::string& name, const std::string& result_type, py::object fn) {
    epoxy::TypePtr type = Value(epoxy::ParseType(result_type));
    auto* held = new py::object(std::move(fn));  // kept for the process: released only with the interpreter
    epoxy::expr::RegisterExternalFunction(
        name, type, [held, type, name](const std::vector<epoxy::ArrayPtr>& args, int64_t n) -> Result<epoxy::ArrayPtr> {
          py::gil_scoped_acquire gil;
          try {
            py::list columns;
            for (const auto& a : args) columns.append(py::make_tuple(a->type()->ToString(), epoxy::python::ColumnToPython(*a)));
            py::object out = (*held)(columns, n);
            return epoxy::python::ValuesToArray(type, py::reinterpret_borrow<py::sequence>(out));
          } catch (py::error_already_set& e) {
            return Status::InvalidInput("Python function {} failed: {}", name, e.what());
          }
        });
  });
  m.def("parse_type", [](const std::string& text) { return Value(epoxy::ParseType(text))->ToString(); });

  m.def("dynamic_schema", [](const std::string& format, std::vector<std::string> paths,
                             std::map<std::string, std::string> options) {
    epoxy::python::FileSourceSpec spec;
    spec.format = Value(epoxy::ParseFileFormat(format));
    spec.paths = std::move(paths);
    spec.options = std::move(options);
    epoxy::python::DynamicSchema result;
    {
      py::gil_scoped_release release;
      auto computed = epoxy::python::ComputeDynamicSchema(spec);
      if (!computed.ok()) {
        py::gil_scoped_acquire acquire;
        Raise(computed.status());
      }
      result = std::move(*computed);
    }
    return py::make_tuple(SchemaToPython(*result.schema), result.errors, result.error_count);
  });

  using epoxy::python::Engine;
  py::class_<Engine>(m, "Engine")
      .def(py::init<std::string>(), py::arg("catalog") = "")
      .def("register_files",
           [](Engine& e, const std::string& name, const std::string& format, std::vector<std::string> paths,
              std::map<std::string, std::string> options, std::vector<std::string> exclusions, bool recurse,
              int64_t group_size, const std::string& push_down_predicate, const std::string& transformation_ctx,
              int64_t max_files_per_run) {
             epoxy::python::FileSourceSpec spec;
             spec.transformation_ctx = transformation_ctx;
             spec.max_files_per_run = max_files_per_run;
             spec.format = Value(epoxy::ParseFileFormat(format));
             spec.paths = std::move(paths);
             spec.options = std::move(options);
             spec.exclusions = std::move(exclusions);
             spec.recurse = recurse;
             spec.group_size = group_size;
             spec.push_down_predicate = push_down_predicate;
             Check(e.RegisterFiles(name, spec));
           },
           py::arg("name"), py::arg("format"), py::arg("paths"), py::arg("options"), py::arg("exclusions"),
           py::arg("recurse"), py::arg("group_size"), py::arg("push_down_predicate"),
           py::arg("transformation_ctx") = "", py::arg("max_files_per_run") = 0)
      .def("register_catalog_table",
           [](Engine& e, const std::string& name, const std::string& db, const std::string& table,
              const std::string& push_down, const std::string& catalog_predicate, const std::string& transformation_ctx,
              int64_t max_files_per_run) {
             Check(e.RegisterCatalogTable(name, db, table, push_down, catalog_predicate, transformation_ctx,
                                          max_files_per_run));
           },
           py::arg("name"), py::arg("database"), py::arg("table"), py::arg("push_down_predicate"),
           py::arg("catalog_partition_predicate"), py::arg("transformation_ctx") = "", py::arg("max_files_per_run") = 0)
      .def("job_init",
           [](Engine& e, const std::string& job_name, const std::string& run_id, const std::string& option,
              const std::string& from, const std::string& to, const std::string& arguments_json) {
             epoxy::jobs::SessionOptions options;
             options.job_name = job_name;
             options.run_id = run_id;
             options.bookmark_option = option;
             options.bookmark_from = from;
             options.bookmark_to = to;
             options.arguments = epoxy::catalog::Json::parse(arguments_json, nullptr, false);
             if (!options.arguments.is_object()) options.arguments = epoxy::catalog::Json::object();
             Check(e.JobInit(options));
             return e.session()->run_id();
           })
      .def("job_commit",
           [](Engine& e) {
             Status st;
             {
               py::gil_scoped_release release;
               st = e.JobCommit();
             }
             Check(st);
           })
      .def("job_finish", [](Engine& e, bool succeeded, const std::string& message) { Check(e.JobFinish(succeeded, message)); })
      .def("job_owns_run", [](Engine& e) { return e.session() != nullptr && e.session()->owns_run(); })
      .def("queue_partitions",
           [](Engine& e, const std::string& db, const std::string& table, const std::string& inputs_json) {
             auto inputs = epoxy::catalog::Json::parse(inputs_json, nullptr, false);
             if (!inputs.is_array()) Raise(Status::InvalidInput("partition inputs are not a JSON list"));
             return Value(e.QueuePartitions(db, table, inputs.get<std::vector<epoxy::catalog::Json>>()));
           })
      .def("register_database",
           [](Engine& e, const std::string& name, std::map<std::string, std::string> options,
              const std::string& transformation_ctx) {
             Status st;
             {
               py::gil_scoped_release release;
               st = e.RegisterDatabase(name, std::move(options), transformation_ctx);
             }
             Check(st);
           },
           py::arg("name"), py::arg("options"), py::arg("transformation_ctx") = "")
      .def("write_database",
           [](Engine& e, const std::string& sql, std::map<std::string, std::string> options, const std::string& mode) {
             epoxy::exec::RunMetrics metrics;
             Result<int64_t> rows = Status::Internal("not run");
             {
               py::gil_scoped_release release;
               rows = e.WriteDatabase(sql, std::move(options), mode, &metrics);
             }
             int64_t n = Value(std::move(rows));
             py::dict out = MetricsToPython(metrics);
             out["rows"] = n;
             return out;
           })
      .def("register_rows",
           [](Engine& e, const std::string& name, const std::vector<std::pair<std::string, std::string>>& fields,
              const py::sequence& rows) {
             epoxy::SchemaPtr schema = SchemaFromPython(fields);
             epoxy::BatchPtr batch = Value(epoxy::python::RowsToBatch(schema, rows));
             std::vector<epoxy::BatchPtr> batches;
             if (batch->num_rows() > 0) batches.push_back(std::move(batch));
             Check(e.RegisterRows(name, schema, std::move(batches)));
           })
      .def("register_view", [](Engine& e, const std::string& name, const std::string& sql) { Check(e.RegisterView(name, sql)); })
      .def("materialize",
           [](Engine& e, const std::string& name, const std::string& sql) {
             Status st;
             {
               py::gil_scoped_release release;
               st = e.Materialize(name, sql);
             }
             Check(st);
           })
      .def("materialize_json_records",
           [](Engine& e, const std::string& name, const std::string& sql) {
             Result<epoxy::python::DynamicSchema> result = Status::Internal("not run");
             {
               py::gil_scoped_release release;
               result = e.MaterializeJsonRecords(name, sql);
             }
             epoxy::python::DynamicSchema d = Value(std::move(result));
             return py::make_tuple(SchemaToPython(*d.schema), d.errors, d.error_count);
           })
      .def("drop_view", &Engine::DropView)
      .def("has_view", &Engine::HasView)
      .def("schema", [](Engine& e, const std::string& sql) { return SchemaToPython(*Value(e.SchemaOf(sql))); })
      .def("collect",
           [](Engine& e, const std::string& sql) {
             epoxy::exec::RunMetrics metrics;
             Result<std::string> rows = Status::Internal("not run");
             {
               py::gil_scoped_release release;
               rows = e.CollectJsonLines(sql, &metrics);
             }
             return py::make_tuple(py::str(Value(std::move(rows))), MetricsToPython(metrics));
           })
      .def("write",
           [](Engine& e, const std::string& sql, const std::string& path, const std::string& format,
              std::vector<std::string> partition_keys, const std::string& mode, const std::string& compression,
              int64_t max_records_per_file, const std::string& target_file_size, bool dynamic_overwrite) {
             epoxy::exec::DatasetWriteOptions options;
             options.dynamic_overwrite = dynamic_overwrite;
             options.path = path;
             options.format = Value(epoxy::ParseOutputFormat(format));
             options.file.compression = compression;
             options.partition_keys = std::move(partition_keys);
             options.mode = Value(epoxy::exec::ParseSaveMode(mode));
             options.max_records_per_file = max_records_per_file;
             options.target_file_bytes = Value(epoxy::ParseByteSize(target_file_size));
             Result<epoxy::python::WriteSummary> summary = Status::Internal("not run");
             {
               py::gil_scoped_release release;
               summary = e.Write(sql, options);
             }
             epoxy::python::WriteSummary s = Value(std::move(summary));
             py::dict out = MetricsToPython(s.metrics);
             out["files"] = s.result.files;
             out["rows"] = s.result.rows;
             out["skipped"] = s.result.skipped;
             return out;
           })
      .def("explain", [](Engine& e, const std::string& sql) { return Value(e.Explain(sql)); })
      .def("catalog", [](Engine& e, const std::string& op, const std::string& args) { return CatalogCall(e, op, args); });
}
