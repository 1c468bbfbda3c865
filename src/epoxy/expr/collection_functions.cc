// SPDX-License-Identifier: Apache-2.0
#include "epoxy/expr/collection_functions.h"

#include <functional>
#include <set>

#include <fmt/format.h>

#include "epoxy/expr/binder.h"
#include "epoxy/expr/row_kernels_internal.h"
#include "epoxy/vector/builder.h"
#include "epoxy/vector/compare.h"

namespace epoxy::expr {
namespace {

const std::set<std::string> kFunctions = {
    "array", "struct", "named_struct", "map", "element_at", "get", "array_contains", "array_position",
    "array_remove", "array_distinct", "array_max", "array_min", "array_join", "slice", "flatten", "array_union",
    "array_intersect", "array_except", "arrays_overlap", "array_append", "array_prepend", "array_insert",
    "array_repeat", "array_compact", "map_keys", "map_values", "array_size", "arrays_zip", "get_item"};

Result<TypePtr> Common(const Expr& call, size_t from, size_t step) {
  TypePtr type = DataType::Null();
  for (size_t i = from; i < call.args.size(); i += step) {
    auto t = CommonType(type, call.args[i]->type);
    if (!t.ok()) return Status::InvalidInput("{}: {} ('{}')", call.op, t.status().message(), call.ToString());
    type = *t;
  }
  return type;
}

Status NeedArray(const Expr& call, size_t i) {
  if (call.args[i]->type->id() == TypeId::kNull) return Status::OK();
  if (call.args[i]->type->id() != TypeId::kArray) {
    return Status::InvalidInput("argument {} of {} must be an array, got {} ('{}')", i + 1, call.op,
                                call.args[i]->type->ToString(), call.ToString());
  }
  return Status::OK();
}

TypePtr ElementOf(const TypePtr& type) { return type->id() == TypeId::kArray ? type->element() : DataType::Null(); }

/// The array argument and one value of its element type (array_contains, array_append, ...): both
/// coerced to a common element type.
Status CoerceArrayAndValue(Expr* call, size_t array, size_t value) {
  EPOXY_RETURN_NOT_OK(NeedArray(*call, array));
  auto t = CommonType(ElementOf(call->args[array]->type), call->args[value]->type);
  if (!t.ok()) return Status::InvalidInput("{}: {} ('{}')", call->op, t.status().message(), call->ToString());
  call->args[array] = CastTo(call->args[array], DataType::Array(*t));
  call->args[value] = CastTo(call->args[value], *t);
  return Status::OK();
}

Status CoerceTwoArrays(Expr* call) {
  EPOXY_RETURN_NOT_OK(NeedArray(*call, 0));
  EPOXY_RETURN_NOT_OK(NeedArray(*call, 1));
  auto t = CommonType(ElementOf(call->args[0]->type), ElementOf(call->args[1]->type));
  if (!t.ok()) return Status::InvalidInput("{}: {} ('{}')", call->op, t.status().message(), call->ToString());
  for (int i = 0; i < 2; ++i) call->args[static_cast<size_t>(i)] = CastTo(call->args[static_cast<size_t>(i)], DataType::Array(*t));
  return Status::OK();
}

/// Elements [begin, end) of row `row` of an array column.
struct Span {
  const Array* elements = nullptr;
  int64_t begin = 0, end = 0;
  int64_t size() const { return end - begin; }
};

Span SpanOf(const Datum& d, int64_t i) {
  const Array& v = *d.array;
  const int64_t r = d.Row(i);
  const int32_t* o = v.offsets();
  return Span{v.child(0).get(), o[r], o[r + 1]};
}

bool Equal(const Array& a, int64_t i, const Array& b, int64_t j) {
  if (a.IsNull(i) || b.IsNull(j)) return false;
  return CompareValues(a, i, b, j) == 0;
}

bool Contains(const Span& s, const Array& value, int64_t j) {
  for (int64_t k = s.begin; k < s.end; ++k) {
    if (Equal(*s.elements, k, value, j)) return true;
  }
  return false;
}

bool HasNull(const Span& s) {
  for (int64_t k = s.begin; k < s.end; ++k) {
    if (s.elements->IsNull(k)) return true;
  }
  return false;
}

/// Appends the distinct non-duplicate elements of `spans` to `list` (nulls once), as the set
/// functions keep them: in order of first appearance.
Status AppendDistinct(ListBuilder* list, const std::vector<Span>& spans, const std::function<bool(const Array&, int64_t)>& keep) {
  std::vector<std::pair<const Array*, int64_t>> seen;
  bool null_seen = false;
  for (const Span& s : spans) {
    for (int64_t k = s.begin; k < s.end; ++k) {
      if (!keep(*s.elements, k)) continue;
      if (s.elements->IsNull(k)) {
        if (null_seen) continue;
        null_seen = true;
        EPOXY_RETURN_NOT_OK(list->child()->AppendNull());
        continue;
      }
      bool dup = false;
      for (const auto& [a, j] : seen) {
        if (Equal(*a, j, *s.elements, k)) {
          dup = true;
          break;
        }
      }
      if (dup) continue;
      seen.emplace_back(s.elements, k);
      EPOXY_RETURN_NOT_OK(AppendFrom(list->child(), *s.elements, k));
    }
  }
  return list->AppendList();
}

}  // namespace

Result<bool> BindCollectionFunction(Expr* call) {
  const std::string op = call->op;
  if (kFunctions.count(op) == 0) return false;
  auto& args = call->args;
  if (op == "array") {
    EPOXY_ASSIGN_OR_RETURN(TypePtr t, Common(*call, 0, 1));
    for (auto& a : args) a = CastTo(a, t);
    call->type = DataType::Array(t);
    return true;
  }
  if (op == "struct" || op == "named_struct") {
    std::vector<Field> fields;
    if (op == "struct") {
      for (size_t i = 0; i < args.size(); ++i) {
        std::string name = args[i]->kind == ExprKind::kColumn ? args[i]->name.back() : fmt::format("col{}", i + 1);
        fields.push_back({name, args[i]->type});
      }
    } else {
      if (args.size() % 2 != 0 || args.empty()) return Status::InvalidInput("named_struct takes name, value pairs ('{}')", call->ToString());
      for (size_t i = 0; i < args.size(); i += 2) {
        if (args[i]->kind != ExprKind::kLiteral || args[i]->type->id() != TypeId::kString || args[i]->literal.is_null()) {
          return Status::InvalidInput("named_struct's field names must be string literals ('{}')", call->ToString());
        }
        fields.push_back({std::get<std::string>(args[i]->literal.value), args[i + 1]->type});
      }
    }
    call->type = DataType::Struct(std::move(fields));
    return true;
  }
  if (op == "map") {
    if (args.size() % 2 != 0) return Status::InvalidInput("map takes key, value pairs ('{}')", call->ToString());
    EPOXY_ASSIGN_OR_RETURN(TypePtr k, Common(*call, 0, 2));
    EPOXY_ASSIGN_OR_RETURN(TypePtr v, Common(*call, 1, 2));
    if (k->id() == TypeId::kNull) k = DataType::String();
    for (size_t i = 0; i < args.size(); ++i) args[i] = CastTo(args[i], i % 2 == 0 ? k : v);
    call->type = DataType::Map(k, v);
    return true;
  }
  if (op == "get_item") {  // a[i] (0-based), m[key], s['field']
    EPOXY_RETURN_NOT_OK(CheckArity(*call, 2, 2));
    const TypePtr& t = args[0]->type;
    if (t->id() == TypeId::kMap) {
      args[1] = CastTo(args[1], t->key());
      call->type = t->value();
      return true;
    }
    if (t->id() == TypeId::kStruct) {
      if (args[1]->kind != ExprKind::kLiteral || args[1]->type->id() != TypeId::kString || args[1]->literal.is_null()) {
        return Status::InvalidInput("a struct's field is named by a string literal ('{}')", call->ToString());
      }
      const std::string& name = std::get<std::string>(args[1]->literal.value);
      for (const auto& f : t->fields()) {
        if (f.name == name) {
          call->type = f.type;
          return true;
        }
      }
      return Status::InvalidInput("no field '{}' in {} ('{}')", name, t->ToString(), call->ToString());
    }
    EPOXY_RETURN_NOT_OK(NeedArray(*call, 0));
    args[1] = CastTo(args[1], DataType::Int());
    call->type = ElementOf(t);
    return true;
  }
  if (op == "element_at" || op == "get") {
    EPOXY_RETURN_NOT_OK(CheckArity(*call, 2, 2));
    if (args[0]->type->id() == TypeId::kMap && op == "element_at") {
      args[1] = CastTo(args[1], args[0]->type->key());
      call->type = args[0]->type->value();
      return true;
    }
    EPOXY_RETURN_NOT_OK(NeedArray(*call, 0));
    args[1] = CastTo(args[1], DataType::Int());
    call->type = ElementOf(args[0]->type);
    return true;
  }
  if (op == "array_contains" || op == "array_position" || op == "array_remove" || op == "array_append" ||
      op == "array_prepend") {
    EPOXY_RETURN_NOT_OK(CheckArity(*call, 2, 2));
    EPOXY_RETURN_NOT_OK(CoerceArrayAndValue(call, 0, 1));
    call->type = op == "array_contains" ? DataType::Boolean() : op == "array_position" ? DataType::BigInt() : args[0]->type;
    return true;
  }
  if (op == "array_insert") {
    EPOXY_RETURN_NOT_OK(CheckArity(*call, 3, 3));
    EPOXY_RETURN_NOT_OK(CoerceArrayAndValue(call, 0, 2));
    args[1] = CastTo(args[1], DataType::Int());
    call->type = args[0]->type;
    return true;
  }
  if (op == "array_distinct" || op == "array_compact" || op == "array_max" || op == "array_min" || op == "flatten" ||
      op == "array_size") {
    EPOXY_RETURN_NOT_OK(CheckArity(*call, 1, 1));
    EPOXY_RETURN_NOT_OK(NeedArray(*call, 0));
    const TypePtr& t = args[0]->type;
    if (op == "array_max" || op == "array_min") call->type = ElementOf(t);
    else if (op == "array_size") call->type = DataType::Int();
    else if (op == "flatten") {
      if (ElementOf(t)->id() != TypeId::kArray) return Status::InvalidInput("flatten needs an array of arrays ('{}')", call->ToString());
      call->type = ElementOf(t);
    } else {
      call->type = t;
    }
    return true;
  }
  if (op == "array_join") {
    EPOXY_RETURN_NOT_OK(CheckArity(*call, 2, 3));
    EPOXY_RETURN_NOT_OK(NeedArray(*call, 0));
    args[0] = CastTo(args[0], DataType::Array(DataType::String()));
    for (size_t i = 1; i < args.size(); ++i) args[i] = CastTo(args[i], DataType::String());
    call->type = DataType::String();
    return true;
  }
  if (op == "slice") {
    EPOXY_RETURN_NOT_OK(CheckArity(*call, 3, 3));
    EPOXY_RETURN_NOT_OK(NeedArray(*call, 0));
    args[1] = CastTo(args[1], DataType::Int());
    args[2] = CastTo(args[2], DataType::Int());
    call->type = args[0]->type;
    return true;
  }
  if (op == "array_union" || op == "array_intersect" || op == "array_except" || op == "arrays_overlap") {
    EPOXY_RETURN_NOT_OK(CheckArity(*call, 2, 2));
    EPOXY_RETURN_NOT_OK(CoerceTwoArrays(call));
    call->type = op == "arrays_overlap" ? DataType::Boolean() : args[0]->type;
    return true;
  }
  if (op == "array_repeat") {
    EPOXY_RETURN_NOT_OK(CheckArity(*call, 2, 2));
    args[1] = CastTo(args[1], DataType::Int());
    call->type = DataType::Array(args[0]->type);
    return true;
  }
  if (op == "arrays_zip") {
    EPOXY_RETURN_NOT_OK(CheckArity(*call, 1, 1000));
    std::vector<Field> fields;
    for (size_t i = 0; i < args.size(); ++i) {
      EPOXY_RETURN_NOT_OK(NeedArray(*call, i));
      std::string name = args[i]->kind == ExprKind::kColumn ? args[i]->name.back() : std::to_string(i);
      fields.push_back({name, ElementOf(args[i]->type)});
    }
    call->type = DataType::Array(DataType::Struct(std::move(fields)));
    return true;
  }
  if (op == "map_keys" || op == "map_values") {
    EPOXY_RETURN_NOT_OK(CheckArity(*call, 1, 1));
    if (args[0]->type->id() != TypeId::kMap) return Status::InvalidInput("{} needs a map ('{}')", op, call->ToString());
    call->type = DataType::Array(op == "map_keys" ? args[0]->type->key() : args[0]->type->value());
    return true;
  }
  return false;
}

Result<std::optional<Datum>> CallCollectionFunction(const Expr& call, const std::vector<Datum>& args, int64_t n,
                                                    MemoryPool* pool) {
  const std::string& op = call.op;
  if (kFunctions.count(op) == 0) return std::optional<Datum>();
  const TypePtr& type = call.type;
  auto any_null = [&](int64_t i, size_t count) {
    for (size_t k = 0; k < count && k < args.size(); ++k) {
      if (args[k].IsNull(i)) return true;
    }
    return false;
  };
  if (op == "array") {
    return PerRow(type, n, pool, [&](int64_t i, ArrayBuilder* b) -> Status {
      auto* list = static_cast<ListBuilder*>(b);
      for (const auto& a : args) EPOXY_RETURN_NOT_OK(AppendFrom(list->child(), *a.array, a.Row(i)));
      return list->AppendList();
    });
  }
  if (op == "struct" || op == "named_struct") {
    const size_t first = op == "struct" ? 0 : 1, step = op == "struct" ? 1 : 2;
    return PerRow(type, n, pool, [&](int64_t i, ArrayBuilder* b) -> Status {
      auto* record = static_cast<StructBuilder*>(b);
      int f = 0;
      for (size_t k = first; k < args.size(); k += step, ++f) {
        EPOXY_RETURN_NOT_OK(AppendFrom(record->field(f), *args[k].array, args[k].Row(i)));
      }
      return record->AppendStruct();
    });
  }
  if (op == "map") {
    return PerRow(type, n, pool, [&](int64_t i, ArrayBuilder* b) -> Status {
      auto* map = static_cast<MapBuilder*>(b);
      for (size_t k = 0; k + 1 < args.size(); k += 2) {
        if (args[k].IsNull(i)) return Status::InvalidInput("map: a key is null (Spark refuses null map keys)");
        EPOXY_RETURN_NOT_OK(AppendFrom(map->keys(), *args[k].array, args[k].Row(i)));
        EPOXY_RETURN_NOT_OK(AppendFrom(map->values(), *args[k + 1].array, args[k + 1].Row(i)));
      }
      return map->AppendMap();
    });
  }
  if (op == "arrays_zip") {
    return PerRow(type, n, pool, [&](int64_t i, ArrayBuilder* b) -> Status {
      for (const auto& a : args) {
        if (a.IsNull(i)) return b->AppendNull();
      }
      auto* list = static_cast<ListBuilder*>(b);
      auto* record = static_cast<StructBuilder*>(list->child());
      std::vector<Span> spans;
      int64_t longest = 0;
      for (const auto& a : args) {
        spans.push_back(SpanOf(a, i));
        longest = std::max(longest, spans.back().size());
      }
      for (int64_t k = 0; k < longest; ++k) {  // the shorter arrays are padded with nulls
        for (size_t f = 0; f < spans.size(); ++f) {
          ArrayBuilder* field = record->field(static_cast<int>(f));
          if (k < spans[f].size()) EPOXY_RETURN_NOT_OK(AppendFrom(field, *spans[f].elements, spans[f].begin + k));
          else EPOXY_RETURN_NOT_OK(field->AppendNull());
        }
        EPOXY_RETURN_NOT_OK(record->AppendStruct());
      }
      return list->AppendList();
    });
  }
  if (op == "map_keys" || op == "map_values") {
    return PerRow(type, n, pool, [&](int64_t i, ArrayBuilder* b) -> Status {
      if (args[0].IsNull(i)) return b->AppendNull();
      auto* list = static_cast<ListBuilder*>(b);
      Span s = SpanOf(args[0], i);
      const Array& part = *s.elements->child(op == "map_keys" ? 0 : 1);
      for (int64_t k = s.begin; k < s.end; ++k) EPOXY_RETURN_NOT_OK(AppendFrom(list->child(), part, k));
      return list->AppendList();
    });
  }
  if (op == "get_item" && args[0].type()->id() == TypeId::kStruct) {
    const std::string& name = std::get<std::string>(call.args[1]->literal.value);
    const auto& fields = args[0].type()->fields();
    int index = 0;
    while (fields[static_cast<size_t>(index)].name != name) ++index;
    return PerRow(type, n, pool, [&](int64_t i, ArrayBuilder* b) -> Status {
      if (args[0].IsNull(i)) return b->AppendNull();
      return AppendFrom(b, *args[0].array->child(index), args[0].Row(i));
    });
  }
  if (op == "element_at" || op == "get" || op == "get_item") {
    const bool is_map = args[0].type()->id() == TypeId::kMap;
    return PerRow(type, n, pool, [&](int64_t i, ArrayBuilder* b) -> Status {
      if (any_null(i, 2)) return b->AppendNull();
      Span s = SpanOf(args[0], i);
      if (is_map) {
        const Array& keys = *s.elements->child(0);
        for (int64_t k = s.begin; k < s.end; ++k) {
          if (Equal(keys, k, *args[1].array, args[1].Row(i))) return AppendFrom(b, *s.elements->child(1), k);
        }
        return b->AppendNull();
      }
      int64_t index = IntAt(args[1], i);
      if (op == "element_at") {
        if (index == 0) return Status::InvalidInput("element_at: SQL array indices start at 1");
        index = index > 0 ? index - 1 : s.size() + index;
      }
      if (index < 0 || index >= s.size()) return b->AppendNull();
      return AppendFrom(b, *s.elements, s.begin + index);
    });
  }
  if (op == "array_contains") {
    return PerRow(type, n, pool, [&](int64_t i, ArrayBuilder* b) -> Status {
      if (any_null(i, 2)) return b->AppendNull();
      Span s = SpanOf(args[0], i);
      if (Contains(s, *args[1].array, args[1].Row(i))) return static_cast<BooleanBuilder*>(b)->Append(true);
      if (HasNull(s)) return b->AppendNull();
      return static_cast<BooleanBuilder*>(b)->Append(false);
    });
  }
  if (op == "array_position") {
    return PerRow(type, n, pool, [&](int64_t i, ArrayBuilder* b) -> Status {
      if (any_null(i, 2)) return b->AppendNull();
      Span s = SpanOf(args[0], i);
      for (int64_t k = s.begin; k < s.end; ++k) {
        if (Equal(*s.elements, k, *args[1].array, args[1].Row(i))) return static_cast<Int64Builder*>(b)->Append(k - s.begin + 1);
      }
      return static_cast<Int64Builder*>(b)->Append(0);
    });
  }
  if (op == "array_remove" || op == "array_compact") {
    const bool compact = op == "array_compact";
    return PerRow(type, n, pool, [&](int64_t i, ArrayBuilder* b) -> Status {
      if (any_null(i, compact ? 1 : 2)) return b->AppendNull();
      auto* list = static_cast<ListBuilder*>(b);
      Span s = SpanOf(args[0], i);
      for (int64_t k = s.begin; k < s.end; ++k) {
        if (compact ? s.elements->IsNull(k) : Equal(*s.elements, k, *args[1].array, args[1].Row(i))) continue;
        EPOXY_RETURN_NOT_OK(AppendFrom(list->child(), *s.elements, k));
      }
      return list->AppendList();
    });
  }
  if (op == "array_append" || op == "array_prepend") {
    const bool append = op == "array_append";
    return PerRow(type, n, pool, [&](int64_t i, ArrayBuilder* b) -> Status {
      if (args[0].IsNull(i)) return b->AppendNull();
      auto* list = static_cast<ListBuilder*>(b);
      Span s = SpanOf(args[0], i);
      if (!append) EPOXY_RETURN_NOT_OK(AppendFrom(list->child(), *args[1].array, args[1].Row(i)));
      for (int64_t k = s.begin; k < s.end; ++k) EPOXY_RETURN_NOT_OK(AppendFrom(list->child(), *s.elements, k));
      if (append) EPOXY_RETURN_NOT_OK(AppendFrom(list->child(), *args[1].array, args[1].Row(i)));
      return list->AppendList();
    });
  }
  if (op == "array_insert") {
    return PerRow(type, n, pool, [&](int64_t i, ArrayBuilder* b) -> Status {
      if (args[0].IsNull(i) || args[1].IsNull(i)) return b->AppendNull();
      auto* list = static_cast<ListBuilder*>(b);
      Span s = SpanOf(args[0], i);
      const int64_t pos = IntAt(args[1], i);
      if (pos == 0) return Status::InvalidInput("array_insert: the position must not be 0 (it is 1-based)");
      // 1-based from the start; negative from the end (-1 after the last element). Past either
      // end the array is padded with nulls, as Spark 3.5 does.
      int64_t at = pos > 0 ? pos - 1 : s.size() + pos + 1;
      int64_t lead = 0;
      if (at < 0) {
        lead = -at;
        at = 0;
      }
      const Array& value = *args[2].array;
      if (lead > 0) {
        EPOXY_RETURN_NOT_OK(AppendFrom(list->child(), value, args[2].Row(i)));
        EPOXY_RETURN_NOT_OK(list->child()->AppendNulls(lead));
      }
      for (int64_t k = 0; k < std::max(s.size(), at); ++k) {
        if (k == at && lead == 0) EPOXY_RETURN_NOT_OK(AppendFrom(list->child(), value, args[2].Row(i)));
        if (k < s.size()) EPOXY_RETURN_NOT_OK(AppendFrom(list->child(), *s.elements, s.begin + k));
        else EPOXY_RETURN_NOT_OK(list->child()->AppendNull());
      }
      if (at >= s.size() && lead == 0) EPOXY_RETURN_NOT_OK(AppendFrom(list->child(), value, args[2].Row(i)));
      return list->AppendList();
    });
  }
  if (op == "array_distinct") {
    return PerRow(type, n, pool, [&](int64_t i, ArrayBuilder* b) -> Status {
      if (args[0].IsNull(i)) return b->AppendNull();
      return AppendDistinct(static_cast<ListBuilder*>(b), {SpanOf(args[0], i)}, [](const Array&, int64_t) { return true; });
    });
  }
  if (op == "array_union" || op == "array_intersect" || op == "array_except") {
    return PerRow(type, n, pool, [&](int64_t i, ArrayBuilder* b) -> Status {
      if (any_null(i, 2)) return b->AppendNull();
      Span l = SpanOf(args[0], i), r = SpanOf(args[1], i);
      auto* list = static_cast<ListBuilder*>(b);
      if (op == "array_union") return AppendDistinct(list, {l, r}, [](const Array&, int64_t) { return true; });
      const bool intersect = op == "array_intersect";
      const bool right_null = HasNull(r);
      return AppendDistinct(list, {l}, [&](const Array& a, int64_t k) {
        const bool in_right = a.IsNull(k) ? right_null : Contains(r, a, k);
        return intersect ? in_right : !in_right;
      });
    });
  }
  if (op == "arrays_overlap") {
    return PerRow(type, n, pool, [&](int64_t i, ArrayBuilder* b) -> Status {
      if (any_null(i, 2)) return b->AppendNull();
      Span l = SpanOf(args[0], i), r = SpanOf(args[1], i);
      for (int64_t k = l.begin; k < l.end; ++k) {
        if (Contains(r, *l.elements, k)) return static_cast<BooleanBuilder*>(b)->Append(true);
      }
      if ((HasNull(l) && r.size() > 0) || (HasNull(r) && l.size() > 0)) return b->AppendNull();
      return static_cast<BooleanBuilder*>(b)->Append(false);
    });
  }
  if (op == "array_max" || op == "array_min") {
    const bool max = op == "array_max";
    return PerRow(type, n, pool, [&](int64_t i, ArrayBuilder* b) -> Status {
      if (args[0].IsNull(i)) return b->AppendNull();
      Span s = SpanOf(args[0], i);
      int64_t best = -1;
      for (int64_t k = s.begin; k < s.end; ++k) {
        if (s.elements->IsNull(k)) continue;
        if (best < 0) {
          best = k;
          continue;
        }
        int c = CompareValues(*s.elements, k, *s.elements, best);
        if (max ? c > 0 : c < 0) best = k;
      }
      if (best < 0) return b->AppendNull();
      return AppendFrom(b, *s.elements, best);
    });
  }
  if (op == "array_size") {
    return PerRow(type, n, pool, [&](int64_t i, ArrayBuilder* b) -> Status {
      if (args[0].IsNull(i)) return b->AppendNull();
      return static_cast<Int32Builder*>(b)->Append(static_cast<int32_t>(SpanOf(args[0], i).size()));
    });
  }
  if (op == "flatten") {
    return PerRow(type, n, pool, [&](int64_t i, ArrayBuilder* b) -> Status {
      if (args[0].IsNull(i)) return b->AppendNull();
      Span outer = SpanOf(args[0], i);
      for (int64_t k = outer.begin; k < outer.end; ++k) {
        if (outer.elements->IsNull(k)) return b->AppendNull();  // Spark: a null inner array makes null
      }
      auto* list = static_cast<ListBuilder*>(b);
      const int32_t* o = outer.elements->offsets();
      const Array& inner = *outer.elements->child(0);
      for (int64_t k = outer.begin; k < outer.end; ++k) {
        for (int32_t e = o[k]; e < o[k + 1]; ++e) EPOXY_RETURN_NOT_OK(AppendFrom(list->child(), inner, e));
      }
      return list->AppendList();
    });
  }
  if (op == "array_join") {
    return PerRow(type, n, pool, [&](int64_t i, ArrayBuilder* b) -> Status {
      if (any_null(i, 2)) return b->AppendNull();
      Span s = SpanOf(args[0], i);
      std::string out;
      bool first = true;
      const bool replace = args.size() > 2 && !args[2].IsNull(i);
      for (int64_t k = s.begin; k < s.end; ++k) {
        std::string_view piece;
        if (s.elements->IsNull(k)) {
          if (!replace) continue;
          piece = args[2].array->GetView(args[2].Row(i));
        } else {
          piece = s.elements->GetView(k);
        }
        if (!first) out += args[1].array->GetView(args[1].Row(i));
        out += piece;
        first = false;
      }
      return static_cast<StringBuilder*>(b)->Append(out);
    });
  }
  if (op == "slice") {
    return PerRow(type, n, pool, [&](int64_t i, ArrayBuilder* b) -> Status {
      if (any_null(i, 3)) return b->AppendNull();
      Span s = SpanOf(args[0], i);
      int64_t start = IntAt(args[1], i), length = IntAt(args[2], i);
      if (start == 0) return Status::InvalidInput("slice: the start must not be 0 (it is 1-based)");
      if (length < 0) return Status::InvalidInput("slice: the length must not be negative, got {}", length);
      int64_t from = start > 0 ? start - 1 : s.size() + start;
      auto* list = static_cast<ListBuilder*>(b);
      if (from < 0) return list->AppendList();
      for (int64_t k = from; k < std::min(s.size(), from + length); ++k) {
        EPOXY_RETURN_NOT_OK(AppendFrom(list->child(), *s.elements, s.begin + k));
      }
      return list->AppendList();
    });
  }
  if (op == "array_repeat") {
    return PerRow(type, n, pool, [&](int64_t i, ArrayBuilder* b) -> Status {
      if (args[1].IsNull(i)) return b->AppendNull();
      auto* list = static_cast<ListBuilder*>(b);
      const int64_t count = IntAt(args[1], i);
      if (count > (1 << 24)) return Status::InvalidInput("array_repeat: {} copies is too many", count);
      for (int64_t k = 0; k < count; ++k) EPOXY_RETURN_NOT_OK(AppendFrom(list->child(), *args[0].array, args[0].Row(i)));
      return list->AppendList();
    });
  }
  return Status::Internal("collection function {} has no evaluation", op);
}

}  // namespace epoxy::expr
