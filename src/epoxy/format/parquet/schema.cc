// SPDX-License-Identifier: Apache-2.0
// Parquet schema trees, including the legacy list and map layouts other writers emit.
#include "epoxy/format/parquet/schema.h"

namespace epoxy::parquet {
namespace {

constexpr int kMaxSchemaDepth = 200;

bool IsListGroup(const SchemaElement& e) {
  return e.logical.kind == LogicalType::kList ||
         (e.converted_type && *e.converted_type == static_cast<int32_t>(ConvertedType::kList));
}

bool IsMapGroup(const SchemaElement& e) {
  return e.logical.kind == LogicalType::kMap ||
         (e.converted_type &&
          (*e.converted_type == static_cast<int32_t>(ConvertedType::kMap) ||
           *e.converted_type == static_cast<int32_t>(ConvertedType::kMapKeyValue)));
}

Repetition RepetitionOf(const SchemaElement& e) {
  return e.repetition.value_or(Repetition::kOptional);
}

class TreeBuilder {
 public:
  TreeBuilder(const FileMetaData& md, FileSchema* out) : md_(md), out_(out) {}

  /// Parses the subtree at schema_[pos_] as a field whose parent has levels (def, rep).
  Result<SchemaNode> Parse(int16_t parent_def, int16_t parent_rep, int depth) {
    if (depth > kMaxSchemaDepth) return Status::InvalidData("Parquet schema nested too deeply");
    if (pos_ >= md_.schema.size()) return Status::InvalidData("Parquet schema ends early");
    const SchemaElement& e = md_.schema[pos_++];
    Repetition rep = RepetitionOf(e);
    if (rep == Repetition::kRepeated && !(e.num_children > 0 && (IsListGroup(e) || IsMapGroup(e)))) {
      // A bare repeated field: a required list of required elements.
      SchemaNode list;
      list.kind = SchemaNode::Kind::kList;
      list.name = e.name;
      list.def_level = parent_def;
      list.rep_level = parent_rep;
      list.repeated_def = static_cast<int16_t>(parent_def + 1);
      list.repeated_rep = static_cast<int16_t>(parent_rep + 1);
      --pos_;
      EPOXY_ASSIGN_OR_RETURN(SchemaNode element,
                             ParseAs(Repetition::kRequired, list.repeated_def, list.repeated_rep, depth + 1));
      list.first_leaf = element.first_leaf;
      list.type = DataType::Array(element.type);
      list.children.push_back(std::move(element));
      return list;
    }
    --pos_;
    int16_t def = static_cast<int16_t>(parent_def + (rep == Repetition::kOptional ? 1 : 0));
    return ParseAs(rep, def, parent_rep, depth);
  }

 private:
  /// Parses schema_[pos_] with its levels already decided.
  Result<SchemaNode> ParseAs(Repetition rep, int16_t def, int16_t rep_level, int depth) {
    if (depth > kMaxSchemaDepth) return Status::InvalidData("Parquet schema nested too deeply");
    const SchemaElement& e = md_.schema[pos_++];
    (void)rep;
    SchemaNode node;
    node.name = e.name;
    node.def_level = def;
    node.rep_level = rep_level;
    if (e.num_children <= 0) {
      if (!e.type) return Status::InvalidData("Parquet schema leaf '{}' has no physical type", e.name);
      node.kind = SchemaNode::Kind::kPrimitive;
      node.element = &e;
      node.leaf = static_cast<int>(out_->leaves.size());
      node.first_leaf = node.leaf;
      node.type = PrimitiveType(e);
      out_->leaves.push_back(nullptr);  // filled once the node has its final address
      out_->max_def.push_back(def);
      out_->max_rep.push_back(rep_level);
      return node;
    }
    if (static_cast<size_t>(e.num_children) > md_.schema.size() - pos_) {
      return Status::InvalidData("Parquet schema group '{}' claims {} children, the schema has {} left",
                                 e.name, e.num_children, md_.schema.size() - pos_);
    }
    if (IsListGroup(e) && e.num_children == 1) return ParseList(e, def, rep_level, depth);
    if (IsMapGroup(e) && e.num_children == 1) return ParseMap(e, def, rep_level, depth);
    node.kind = SchemaNode::Kind::kStruct;
    std::vector<Field> fields;
    for (int i = 0; i < e.num_children; ++i) {
      EPOXY_ASSIGN_OR_RETURN(SchemaNode child, Parse(def, rep_level, depth + 1));
      fields.push_back({child.name, child.type});
      node.children.push_back(std::move(child));
    }
    node.first_leaf = node.children.empty() ? -1 : node.children[0].first_leaf;
    node.type = DataType::Struct(std::move(fields));
    return node;
  }

  Result<SchemaNode> ParseList(const SchemaElement& list_element, int16_t def, int16_t rep_level,
                               int depth) {
    SchemaNode list;
    list.kind = SchemaNode::Kind::kList;
    list.name = list_element.name;
    list.def_level = def;
    list.rep_level = rep_level;
    const SchemaElement& repeated = md_.schema[pos_];
    if (RepetitionOf(repeated) != Repetition::kRepeated) {
      return Status::InvalidData("LIST '{}' has a child that is not repeated", list_element.name);
    }
    list.repeated_def = static_cast<int16_t>(def + 1);
    list.repeated_rep = static_cast<int16_t>(rep_level + 1);
    // Which node is the element (LogicalTypes.md backward-compatibility rules, in order).
    bool repeated_is_element =
        repeated.num_children <= 0 || repeated.num_children > 1 ||
        repeated.name == "array" || repeated.name == list_element.name + "_tuple" ||
        (repeated.num_children == 1 && pos_ + 1 < md_.schema.size() &&
         RepetitionOf(md_.schema[pos_ + 1]) == Repetition::kRepeated);
    SchemaNode element;
    if (repeated_is_element) {
      EPOXY_ASSIGN_OR_RETURN(element, ParseAs(Repetition::kRequired, list.repeated_def,
                                              list.repeated_rep, depth + 1));
    } else {
      ++pos_;  // the wrapper group
      EPOXY_ASSIGN_OR_RETURN(element, Parse(list.repeated_def, list.repeated_rep, depth + 1));
    }
    list.first_leaf = element.first_leaf;
    list.type = DataType::Array(element.type);
    list.children.push_back(std::move(element));
    return list;
  }

  Result<SchemaNode> ParseMap(const SchemaElement& map_element, int16_t def, int16_t rep_level,
                              int depth) {
    SchemaNode map;
    map.kind = SchemaNode::Kind::kMap;
    map.name = map_element.name;
    map.def_level = def;
    map.rep_level = rep_level;
    const SchemaElement& kv = md_.schema[pos_++];
    if (RepetitionOf(kv) != Repetition::kRepeated || kv.num_children < 1 || kv.num_children > 2) {
      return Status::InvalidData("MAP '{}' must hold one repeated group of key and value",
                                 map_element.name);
    }
    if (static_cast<size_t>(kv.num_children) > md_.schema.size() - pos_) {
      return Status::InvalidData("MAP '{}' is truncated", map_element.name);
    }
    map.repeated_def = static_cast<int16_t>(def + 1);
    map.repeated_rep = static_cast<int16_t>(rep_level + 1);
    EPOXY_ASSIGN_OR_RETURN(SchemaNode key, Parse(map.repeated_def, map.repeated_rep, depth + 1));
    TypePtr value_type = DataType::Null();
    if (kv.num_children == 2) {
      EPOXY_ASSIGN_OR_RETURN(SchemaNode value, Parse(map.repeated_def, map.repeated_rep, depth + 1));
      value_type = value.type;
      map.children.push_back(std::move(key));
      map.children.push_back(std::move(value));
    } else {
      map.children.push_back(std::move(key));  // a map without values (a set)
    }
    map.first_leaf = map.children[0].first_leaf;
    map.type = DataType::Map(map.children[0].type, value_type);
    return map;
  }

  const FileMetaData& md_;
  FileSchema* out_;

 public:
  size_t pos_ = 1;  // schema[0] is the root
};

void IndexLeaves(const SchemaNode& node, FileSchema* out) {
  if (node.kind == SchemaNode::Kind::kPrimitive) {
    out->leaves[node.leaf] = &node;
    return;
  }
  for (const auto& c : node.children) IndexLeaves(c, out);
}

int PrecisionOf(const SchemaElement& e) {
  return e.logical.kind == LogicalType::kDecimal ? e.logical.precision : e.precision;
}
int ScaleOf(const SchemaElement& e) {
  return e.logical.kind == LogicalType::kDecimal ? e.logical.scale : e.scale;
}

}  // namespace

TypePtr PrimitiveType(const SchemaElement& e) {
  const LogicalType& lt = e.logical;
  int converted = e.converted_type.value_or(-1);
  auto is = [&](ConvertedType c) { return converted == static_cast<int>(c); };
  if (lt.kind == LogicalType::kUnknown || converted == 24) return DataType::Null();
  bool decimal = lt.kind == LogicalType::kDecimal || is(ConvertedType::kDecimal);
  if (decimal) {
    int p = PrecisionOf(e), s = ScaleOf(e);
    if (p >= 1 && p <= 38 && s >= 0 && s <= p) return DataType::Decimal(p, s);
    return DataType::Binary();  // beyond 128 bits: the unscaled bytes, unchanged
  }
  switch (*e.type) {
    case PhysicalType::kBoolean: return DataType::Boolean();
    case PhysicalType::kInt32: {
      if (lt.kind == LogicalType::kDate || is(ConvertedType::kDate)) return DataType::Date();
      if (lt.kind == LogicalType::kTime || is(ConvertedType::kTimeMillis)) return DataType::String();
      int width = lt.kind == LogicalType::kInteger ? lt.bit_width : 32;
      bool is_signed = lt.kind == LogicalType::kInteger ? lt.is_signed : true;
      if (is(ConvertedType::kInt8)) width = 8;
      if (is(ConvertedType::kInt16)) width = 16;
      if (is(ConvertedType::kUint8)) width = 8, is_signed = false;
      if (is(ConvertedType::kUint16)) width = 16, is_signed = false;
      if (is(ConvertedType::kUint32)) width = 32, is_signed = false;
      if (width == 8) return is_signed ? DataType::TinyInt() : DataType::SmallInt();
      if (width == 16) return is_signed ? DataType::SmallInt() : DataType::Int();
      return is_signed ? DataType::Int() : DataType::BigInt();
    }
    case PhysicalType::kInt64: {
      if (lt.kind == LogicalType::kTimestamp || is(ConvertedType::kTimestampMillis) ||
          is(ConvertedType::kTimestampMicros)) {
        return DataType::Timestamp();
      }
      if (lt.kind == LogicalType::kTime || is(ConvertedType::kTimeMicros)) return DataType::String();
      bool is_unsigned = (lt.kind == LogicalType::kInteger && !lt.is_signed) || is(ConvertedType::kUint64);
      return is_unsigned ? DataType::Decimal(20, 0) : DataType::BigInt();
    }
    case PhysicalType::kInt96: return DataType::Timestamp();
    case PhysicalType::kFloat: return DataType::Float();
    case PhysicalType::kDouble: return DataType::Double();
    case PhysicalType::kByteArray:
      if (lt.kind == LogicalType::kString || lt.kind == LogicalType::kEnum ||
          lt.kind == LogicalType::kJson || is(ConvertedType::kUtf8) || is(ConvertedType::kEnum) ||
          is(ConvertedType::kJson)) {
        return DataType::String();
      }
      return DataType::Binary();
    case PhysicalType::kFixedLenByteArray:
      if (lt.kind == LogicalType::kUuid) return DataType::String();
      if (lt.kind == LogicalType::kFloat16) return DataType::Float();
      return DataType::Binary();
  }
  return DataType::Binary();
}

Result<std::unique_ptr<FileSchema>> BuildFileSchema(const FileMetaData& md) {
  auto out = std::make_unique<FileSchema>();
  const SchemaElement& root = md.schema[0];
  TreeBuilder builder(md, out.get());
  std::vector<Field> fields;
  for (int i = 0; i < root.num_children; ++i) {
    EPOXY_ASSIGN_OR_RETURN(SchemaNode node, builder.Parse(0, 0, 1));
    fields.push_back({node.name, node.type});
    out->fields.push_back(std::move(node));
  }
  if (builder.pos_ != md.schema.size()) {
    return Status::InvalidData("Parquet schema has {} elements but its tree uses {}",
                               md.schema.size(), builder.pos_);
  }
  for (const auto& f : out->fields) IndexLeaves(f, out.get());
  out->schema = Schema::Make(std::move(fields));
  return out;
}

int DecimalByteWidth(int precision) {
  static const int kMaxPrecision[] = {0, 2, 4, 6, 9, 11, 14, 16, 18, 21, 23, 26, 28, 31, 33, 35, 38};
  for (int n = 1; n <= 16; ++n) {
    if (precision <= kMaxPrecision[n]) return n;
  }
  return 16;
}

namespace {

void AppendElements(const std::string& name, const TypePtr& type, Repetition repetition,
                    std::vector<SchemaElement>* out) {
  SchemaElement e;
  e.name = name;
  e.repetition = repetition;
  switch (type->id()) {
    case TypeId::kStruct:
    case TypeId::kChoice: {
      std::vector<Field> fields = type->fields();
      if (type->id() == TypeId::kChoice) {
        fields.clear();
        for (const auto& m : type->members()) fields.push_back({std::string(m->ChoiceMemberName()), m});
      }
      e.num_children = static_cast<int32_t>(fields.size());
      out->push_back(e);
      for (const auto& f : fields) AppendElements(f.name, f.type, Repetition::kOptional, out);
      return;
    }
    case TypeId::kArray: {
      e.num_children = 1;
      e.converted_type = static_cast<int32_t>(ConvertedType::kList);
      e.logical.kind = LogicalType::kList;
      out->push_back(e);
      SchemaElement list;
      list.name = "list";
      list.repetition = Repetition::kRepeated;
      list.num_children = 1;
      out->push_back(list);
      AppendElements("element", type->element(), Repetition::kOptional, out);
      return;
    }
    case TypeId::kMap: {
      e.num_children = 1;
      e.converted_type = static_cast<int32_t>(ConvertedType::kMap);
      e.logical.kind = LogicalType::kMap;
      out->push_back(e);
      SchemaElement kv;
      kv.name = "key_value";
      kv.repetition = Repetition::kRepeated;
      kv.num_children = 2;
      out->push_back(kv);
      AppendElements("key", type->key(), Repetition::kRequired, out);
      AppendElements("value", type->value(), Repetition::kOptional, out);
      return;
    }
    default: break;
  }
  switch (type->id()) {
    case TypeId::kBoolean: e.type = PhysicalType::kBoolean; break;
    case TypeId::kTinyInt:
    case TypeId::kSmallInt:
      e.type = PhysicalType::kInt32;
      e.logical.kind = LogicalType::kInteger;
      e.logical.bit_width = type->id() == TypeId::kTinyInt ? 8 : 16;
      e.logical.is_signed = true;
      e.converted_type = static_cast<int32_t>(type->id() == TypeId::kTinyInt ? ConvertedType::kInt8
                                                                               : ConvertedType::kInt16);
      break;
    case TypeId::kInt: e.type = PhysicalType::kInt32; break;
    case TypeId::kBigInt: e.type = PhysicalType::kInt64; break;
    case TypeId::kFloat: e.type = PhysicalType::kFloat; break;
    case TypeId::kDouble: e.type = PhysicalType::kDouble; break;
    case TypeId::kDecimal: {
      int p = type->precision();
      if (p <= 9) {
        e.type = PhysicalType::kInt32;
      } else if (p <= 18) {
        e.type = PhysicalType::kInt64;
      } else {
        e.type = PhysicalType::kFixedLenByteArray;
        e.type_length = DecimalByteWidth(p);
      }
      e.logical.kind = LogicalType::kDecimal;
      e.logical.precision = p;
      e.logical.scale = type->scale();
      e.precision = p;
      e.scale = type->scale();
      e.converted_type = static_cast<int32_t>(ConvertedType::kDecimal);
      break;
    }
    case TypeId::kDate:
      e.type = PhysicalType::kInt32;
      e.logical.kind = LogicalType::kDate;
      e.converted_type = static_cast<int32_t>(ConvertedType::kDate);
      break;
    case TypeId::kTimestamp:
      e.type = PhysicalType::kInt64;
      e.logical.kind = LogicalType::kTimestamp;
      e.logical.adjusted_to_utc = true;
      e.logical.unit = TimeUnit::kMicros;
      e.converted_type = static_cast<int32_t>(ConvertedType::kTimestampMicros);
      break;
    case TypeId::kBinary: e.type = PhysicalType::kByteArray; break;
    default:  // string, and null (written as an all-null string column)
      e.type = PhysicalType::kByteArray;
      e.logical.kind = LogicalType::kString;
      e.converted_type = static_cast<int32_t>(ConvertedType::kUtf8);
      break;
  }
  out->push_back(e);
}

}  // namespace

std::vector<SchemaElement> ToParquetSchema(const Schema& schema) {
  std::vector<SchemaElement> out;
  SchemaElement root;
  root.name = "schema";
  root.num_children = schema.num_fields();
  out.push_back(root);
  for (const auto& f : schema.fields()) AppendElements(f.name, f.type, Repetition::kOptional, &out);
  return out;
}

}  // namespace epoxy::parquet
