// SPDX-License-Identifier: Apache-2.0
// Decoding and encoding of Parquet metadata. Unknown fields and union members are skipped, so
// files from newer writers still read.
#include "epoxy/format/parquet/metadata.h"

#include "epoxy/format/parquet/thrift_compact.h"

namespace epoxy::parquet {
namespace {

using T = ThriftType;

Status ReadStringList(ThriftReader& r, std::vector<std::string>* out) {
  return r.ReadList([&](T) -> Status {
    EPOXY_ASSIGN_OR_RETURN(std::string s, r.ReadString());
    out->push_back(std::move(s));
    return Status::OK();
  });
}

Status ReadI32List(ThriftReader& r, std::vector<int32_t>* out) {
  return r.ReadList([&](T) -> Status {
    EPOXY_ASSIGN_OR_RETURN(int32_t v, r.ReadI32());
    out->push_back(v);
    return Status::OK();
  });
}

Status ReadI64List(ThriftReader& r, std::vector<int64_t>* out) {
  return r.ReadList([&](T) -> Status {
    EPOXY_ASSIGN_OR_RETURN(int64_t v, r.ReadI64());
    out->push_back(v);
    return Status::OK();
  });
}

/// Reads a field's value when its wire type is the expected one, else skips it (a writer that
/// disagrees with the schema is tolerated, as unknown fields are).
#define EPOXY_READ_FIELD(expected, statement) \
  if (type != (expected)) return r.Skip(type); \
  statement;                                   \
  return Status::OK();

Status ReadTimeUnit(ThriftReader& r, TimeUnit* unit) {
  return r.ReadStruct([&](int16_t id, T type) -> Status {
    if (id == 1) *unit = TimeUnit::kMillis;
    if (id == 2) *unit = TimeUnit::kMicros;
    if (id == 3) *unit = TimeUnit::kNanos;
    return r.Skip(type);
  });
}

Status ReadLogicalType(ThriftReader& r, LogicalType* lt) {
  return r.ReadStruct([&](int16_t id, T type) -> Status {
    if (type != T::kStruct) return r.Skip(type);
    lt->kind = id;
    switch (id) {
      case LogicalType::kDecimal:
        return r.ReadStruct([&](int16_t f, T t) -> Status {
          if (f == 1 && t == T::kI32) {
            EPOXY_ASSIGN_OR_RETURN(lt->scale, r.ReadI32());
            return Status::OK();
          }
          if (f == 2 && t == T::kI32) {
            EPOXY_ASSIGN_OR_RETURN(lt->precision, r.ReadI32());
            return Status::OK();
          }
          return r.Skip(t);
        });
      case LogicalType::kTime:
      case LogicalType::kTimestamp:
        return r.ReadStruct([&](int16_t f, T t) -> Status {
          if (f == 1 && (t == T::kTrue || t == T::kFalse)) {
            EPOXY_ASSIGN_OR_RETURN(lt->adjusted_to_utc, r.ReadBool(t));
            return Status::OK();
          }
          if (f == 2 && t == T::kStruct) return ReadTimeUnit(r, &lt->unit);
          return r.Skip(t);
        });
      case LogicalType::kInteger:
        return r.ReadStruct([&](int16_t f, T t) -> Status {
          if (f == 1 && t == T::kByte) {
            EPOXY_ASSIGN_OR_RETURN(lt->bit_width, r.ReadI8());
            return Status::OK();
          }
          if (f == 2 && (t == T::kTrue || t == T::kFalse)) {
            EPOXY_ASSIGN_OR_RETURN(lt->is_signed, r.ReadBool(t));
            return Status::OK();
          }
          return r.Skip(t);
        });
      default:
        if (id > LogicalType::kGeography) lt->kind = LogicalType::kNone;  // unknown member
        return r.Skip(type);
    }
  });
}

Status ReadSchemaElement(ThriftReader& r, SchemaElement* e) {
  return r.ReadStruct([&](int16_t id, T type) -> Status {
    switch (id) {
      case 1: EPOXY_READ_FIELD(T::kI32, {
        EPOXY_ASSIGN_OR_RETURN(int32_t v, r.ReadI32());
        if (v < 0 || v > 7) return Status::InvalidData("schema element has an invalid physical type {}", v);
        e->type = static_cast<PhysicalType>(v);
      })
      case 2: EPOXY_READ_FIELD(T::kI32, { EPOXY_ASSIGN_OR_RETURN(e->type_length, r.ReadI32()); })
      case 3: EPOXY_READ_FIELD(T::kI32, {
        EPOXY_ASSIGN_OR_RETURN(int32_t v, r.ReadI32());
        if (v < 0 || v > 2) return Status::InvalidData("schema element has an invalid repetition {}", v);
        e->repetition = static_cast<Repetition>(v);
      })
      case 4: EPOXY_READ_FIELD(T::kBinary, { EPOXY_ASSIGN_OR_RETURN(e->name, r.ReadString()); })
      case 5: EPOXY_READ_FIELD(T::kI32, { EPOXY_ASSIGN_OR_RETURN(e->num_children, r.ReadI32()); })
      case 6: EPOXY_READ_FIELD(T::kI32, { EPOXY_ASSIGN_OR_RETURN(e->converted_type, r.ReadI32()); })
      case 7: EPOXY_READ_FIELD(T::kI32, { EPOXY_ASSIGN_OR_RETURN(e->scale, r.ReadI32()); })
      case 8: EPOXY_READ_FIELD(T::kI32, { EPOXY_ASSIGN_OR_RETURN(e->precision, r.ReadI32()); })
      case 9: EPOXY_READ_FIELD(T::kI32, { EPOXY_ASSIGN_OR_RETURN(e->field_id, r.ReadI32()); })
      case 10: EPOXY_READ_FIELD(T::kStruct, EPOXY_RETURN_NOT_OK(ReadLogicalType(r, &e->logical)))
      default: return r.Skip(type);
    }
  });
}

Status ReadStatistics(ThriftReader& r, Statistics* s) {
  return r.ReadStruct([&](int16_t id, T type) -> Status {
    switch (id) {
      case 1: EPOXY_READ_FIELD(T::kBinary, { EPOXY_ASSIGN_OR_RETURN(s->max, r.ReadString()); })
      case 2: EPOXY_READ_FIELD(T::kBinary, { EPOXY_ASSIGN_OR_RETURN(s->min, r.ReadString()); })
      case 3: EPOXY_READ_FIELD(T::kI64, { EPOXY_ASSIGN_OR_RETURN(s->null_count, r.ReadI64()); })
      case 4: EPOXY_READ_FIELD(T::kI64, { EPOXY_ASSIGN_OR_RETURN(s->distinct_count, r.ReadI64()); })
      case 5: EPOXY_READ_FIELD(T::kBinary, { EPOXY_ASSIGN_OR_RETURN(s->max_value, r.ReadString()); })
      case 6: EPOXY_READ_FIELD(T::kBinary, { EPOXY_ASSIGN_OR_RETURN(s->min_value, r.ReadString()); })
      case 7:
        if (type != T::kTrue && type != T::kFalse) return r.Skip(type);
        { EPOXY_ASSIGN_OR_RETURN(s->is_max_value_exact, r.ReadBool(type)); }
        return Status::OK();
      case 8:
        if (type != T::kTrue && type != T::kFalse) return r.Skip(type);
        { EPOXY_ASSIGN_OR_RETURN(s->is_min_value_exact, r.ReadBool(type)); }
        return Status::OK();
      case 9: EPOXY_READ_FIELD(T::kI64, { EPOXY_ASSIGN_OR_RETURN(s->nan_count, r.ReadI64()); })
      default: return r.Skip(type);
    }
  });
}

Status ReadKeyValue(ThriftReader& r, KeyValue* kv) {
  return r.ReadStruct([&](int16_t id, T type) -> Status {
    if (id == 1 && type == T::kBinary) {
      EPOXY_ASSIGN_OR_RETURN(kv->key, r.ReadString());
      return Status::OK();
    }
    if (id == 2 && type == T::kBinary) {
      EPOXY_ASSIGN_OR_RETURN(kv->value, r.ReadString());
      return Status::OK();
    }
    return r.Skip(type);
  });
}

Status ReadKeyValueList(ThriftReader& r, std::vector<KeyValue>* out) {
  return r.ReadList([&](T element) -> Status {
    if (element != T::kStruct) return r.Skip(element);
    KeyValue kv;
    EPOXY_RETURN_NOT_OK(ReadKeyValue(r, &kv));
    out->push_back(std::move(kv));
    return Status::OK();
  });
}

Status ReadColumnMetaData(ThriftReader& r, ColumnMetaData* m) {
  return r.ReadStruct([&](int16_t id, T type) -> Status {
    switch (id) {
      case 1: EPOXY_READ_FIELD(T::kI32, {
        EPOXY_ASSIGN_OR_RETURN(int32_t v, r.ReadI32());
        if (v < 0 || v > 7) return Status::InvalidData("column chunk has an invalid physical type {}", v);
        m->type = static_cast<PhysicalType>(v);
      })
      case 2: EPOXY_READ_FIELD(T::kList, EPOXY_RETURN_NOT_OK(ReadI32List(r, &m->encodings)))
      case 3: EPOXY_READ_FIELD(T::kList, EPOXY_RETURN_NOT_OK(ReadStringList(r, &m->path_in_schema)))
      case 4: EPOXY_READ_FIELD(T::kI32, { EPOXY_ASSIGN_OR_RETURN(m->codec, r.ReadI32()); })
      case 5: EPOXY_READ_FIELD(T::kI64, { EPOXY_ASSIGN_OR_RETURN(m->num_values, r.ReadI64()); })
      case 6: EPOXY_READ_FIELD(T::kI64, { EPOXY_ASSIGN_OR_RETURN(m->total_uncompressed_size, r.ReadI64()); })
      case 7: EPOXY_READ_FIELD(T::kI64, { EPOXY_ASSIGN_OR_RETURN(m->total_compressed_size, r.ReadI64()); })
      case 8: EPOXY_READ_FIELD(T::kList, EPOXY_RETURN_NOT_OK(ReadKeyValueList(r, &m->key_value_metadata)))
      case 9: EPOXY_READ_FIELD(T::kI64, { EPOXY_ASSIGN_OR_RETURN(m->data_page_offset, r.ReadI64()); })
      case 11: EPOXY_READ_FIELD(T::kI64, { EPOXY_ASSIGN_OR_RETURN(m->dictionary_page_offset, r.ReadI64()); })
      case 12: EPOXY_READ_FIELD(T::kStruct, {
        Statistics s;
        EPOXY_RETURN_NOT_OK(ReadStatistics(r, &s));
        m->statistics = std::move(s);
      })
      case 13: EPOXY_READ_FIELD(T::kList, EPOXY_RETURN_NOT_OK(r.ReadList([&](T element) -> Status {
        if (element != T::kStruct) return r.Skip(element);
        PageEncodingStats pes;
        EPOXY_RETURN_NOT_OK(r.ReadStruct([&](int16_t f, T t) -> Status {
          if (t != T::kI32) return r.Skip(t);
          EPOXY_ASSIGN_OR_RETURN(int32_t v, r.ReadI32());
          if (f == 1) pes.page_type = v;
          if (f == 2) pes.encoding = v;
          if (f == 3) pes.count = v;
          return Status::OK();
        }));
        m->encoding_stats.push_back(pes);
        return Status::OK();
      })))
      default: return r.Skip(type);
    }
  });
}

Status ReadColumnChunk(ThriftReader& r, ColumnChunk* c) {
  return r.ReadStruct([&](int16_t id, T type) -> Status {
    switch (id) {
      case 1: EPOXY_READ_FIELD(T::kBinary, { EPOXY_ASSIGN_OR_RETURN(c->file_path, r.ReadString()); })
      case 3: EPOXY_READ_FIELD(T::kStruct, {
        ColumnMetaData m;
        EPOXY_RETURN_NOT_OK(ReadColumnMetaData(r, &m));
        c->meta_data = std::move(m);
      })
      case 4: EPOXY_READ_FIELD(T::kI64, { EPOXY_ASSIGN_OR_RETURN(c->offset_index_offset, r.ReadI64()); })
      case 5: EPOXY_READ_FIELD(T::kI32, { EPOXY_ASSIGN_OR_RETURN(c->offset_index_length, r.ReadI32()); })
      case 6: EPOXY_READ_FIELD(T::kI64, { EPOXY_ASSIGN_OR_RETURN(c->column_index_offset, r.ReadI64()); })
      case 7: EPOXY_READ_FIELD(T::kI32, { EPOXY_ASSIGN_OR_RETURN(c->column_index_length, r.ReadI32()); })
      case 8:
      case 9:
        c->encrypted = true;
        return r.Skip(type);
      default: return r.Skip(type);
    }
  });
}

Status ReadRowGroup(ThriftReader& r, RowGroup* g) {
  return r.ReadStruct([&](int16_t id, T type) -> Status {
    switch (id) {
      case 1: EPOXY_READ_FIELD(T::kList, EPOXY_RETURN_NOT_OK(r.ReadList([&](T element) -> Status {
        if (element != T::kStruct) return r.Skip(element);
        ColumnChunk c;
        EPOXY_RETURN_NOT_OK(ReadColumnChunk(r, &c));
        g->columns.push_back(std::move(c));
        return Status::OK();
      })))
      case 2: EPOXY_READ_FIELD(T::kI64, { EPOXY_ASSIGN_OR_RETURN(g->total_byte_size, r.ReadI64()); })
      case 3: EPOXY_READ_FIELD(T::kI64, { EPOXY_ASSIGN_OR_RETURN(g->num_rows, r.ReadI64()); })
      case 4: EPOXY_READ_FIELD(T::kList, EPOXY_RETURN_NOT_OK(r.ReadList([&](T element) -> Status {
        if (element != T::kStruct) return r.Skip(element);
        SortingColumn sc;
        EPOXY_RETURN_NOT_OK(r.ReadStruct([&](int16_t f, T t) -> Status {
          if (f == 1 && t == T::kI32) {
            EPOXY_ASSIGN_OR_RETURN(sc.column_idx, r.ReadI32());
            return Status::OK();
          }
          if ((f == 2 || f == 3) && (t == T::kTrue || t == T::kFalse)) {
            EPOXY_ASSIGN_OR_RETURN(bool b, r.ReadBool(t));
            (f == 2 ? sc.descending : sc.nulls_first) = b;
            return Status::OK();
          }
          return r.Skip(t);
        }));
        g->sorting_columns.push_back(sc);
        return Status::OK();
      })))
      case 5: EPOXY_READ_FIELD(T::kI64, { EPOXY_ASSIGN_OR_RETURN(g->file_offset, r.ReadI64()); })
      case 6: EPOXY_READ_FIELD(T::kI64, { EPOXY_ASSIGN_OR_RETURN(g->total_compressed_size, r.ReadI64()); })
      case 7: EPOXY_READ_FIELD(T::kI16, { EPOXY_ASSIGN_OR_RETURN(g->ordinal, r.ReadI16()); })
      default: return r.Skip(type);
    }
  });
}

Status ReadDataPageHeader(ThriftReader& r, DataPageHeader* h) {
  return r.ReadStruct([&](int16_t id, T type) -> Status {
    if (id == 5 && type == T::kStruct) {
      Statistics s;
      EPOXY_RETURN_NOT_OK(ReadStatistics(r, &s));
      h->statistics = std::move(s);
      return Status::OK();
    }
    if (type != T::kI32) return r.Skip(type);
    EPOXY_ASSIGN_OR_RETURN(int32_t v, r.ReadI32());
    if (id == 1) h->num_values = v;
    if (id == 2) h->encoding = v;
    if (id == 3) h->definition_level_encoding = v;
    if (id == 4) h->repetition_level_encoding = v;
    return Status::OK();
  });
}

Status ReadDataPageHeaderV2(ThriftReader& r, DataPageHeaderV2* h) {
  return r.ReadStruct([&](int16_t id, T type) -> Status {
    if (id == 7 && (type == T::kTrue || type == T::kFalse)) {
      EPOXY_ASSIGN_OR_RETURN(h->is_compressed, r.ReadBool(type));
      return Status::OK();
    }
    if (id == 8 && type == T::kStruct) {
      Statistics s;
      EPOXY_RETURN_NOT_OK(ReadStatistics(r, &s));
      h->statistics = std::move(s);
      return Status::OK();
    }
    if (type != T::kI32) return r.Skip(type);
    EPOXY_ASSIGN_OR_RETURN(int32_t v, r.ReadI32());
    switch (id) {
      case 1: h->num_values = v; break;
      case 2: h->num_nulls = v; break;
      case 3: h->num_rows = v; break;
      case 4: h->encoding = v; break;
      case 5: h->definition_levels_byte_length = v; break;
      case 6: h->repetition_levels_byte_length = v; break;
      default: break;
    }
    return Status::OK();
  });
}

#undef EPOXY_READ_FIELD

void WriteStatistics(ThriftWriter& w, int16_t id, const Statistics& s) {
  w.BeginStructField(id);
  if (s.max) w.FieldBinary(1, *s.max);
  if (s.min) w.FieldBinary(2, *s.min);
  if (s.null_count) w.FieldI64(3, *s.null_count);
  if (s.distinct_count) w.FieldI64(4, *s.distinct_count);
  if (s.max_value) w.FieldBinary(5, *s.max_value);
  if (s.min_value) w.FieldBinary(6, *s.min_value);
  if (s.is_max_value_exact) w.FieldBool(7, *s.is_max_value_exact);
  if (s.is_min_value_exact) w.FieldBool(8, *s.is_min_value_exact);
  if (s.nan_count) w.FieldI64(9, *s.nan_count);
  w.EndStruct();
}

void WriteKeyValues(ThriftWriter& w, int16_t id, const std::vector<KeyValue>& kvs) {
  w.BeginListField(id, T::kStruct, static_cast<int64_t>(kvs.size()));
  for (const auto& kv : kvs) {
    w.BeginStructElement();
    w.FieldBinary(1, kv.key);
    if (kv.value) w.FieldBinary(2, *kv.value);
    w.EndStruct();
  }
}

void WriteLogicalType(ThriftWriter& w, const LogicalType& lt) {
  w.BeginStructField(10);
  w.BeginStructField(static_cast<int16_t>(lt.kind));
  switch (lt.kind) {
    case LogicalType::kDecimal:
      w.FieldI32(1, lt.scale);
      w.FieldI32(2, lt.precision);
      break;
    case LogicalType::kTime:
    case LogicalType::kTimestamp:
      w.FieldBool(1, lt.adjusted_to_utc);
      w.BeginStructField(2);
      w.BeginStructField(lt.unit == TimeUnit::kMillis ? 1 : lt.unit == TimeUnit::kMicros ? 2 : 3);
      w.EndStruct();
      w.EndStruct();
      break;
    case LogicalType::kInteger:
      w.FieldI8(1, lt.bit_width);
      w.FieldBool(2, lt.is_signed);
      break;
    default: break;
  }
  w.EndStruct();
  w.EndStruct();
}

}  // namespace

Result<FileMetaData> DecodeFileMetaData(const uint8_t* data, size_t size) {
  ThriftReader r(data, size);
  FileMetaData md;
  bool saw_schema = false;
  EPOXY_RETURN_NOT_OK(r.ReadStruct([&](int16_t id, T type) -> Status {
    switch (id) {
      case 1:
        if (type != T::kI32) return r.Skip(type);
        { EPOXY_ASSIGN_OR_RETURN(md.version, r.ReadI32()); }
        return Status::OK();
      case 2:
        if (type != T::kList) return r.Skip(type);
        saw_schema = true;
        return r.ReadList([&](T element) -> Status {
          if (element != T::kStruct) return r.Skip(element);
          SchemaElement e;
          EPOXY_RETURN_NOT_OK(ReadSchemaElement(r, &e));
          md.schema.push_back(std::move(e));
          return Status::OK();
        });
      case 3:
        if (type != T::kI64) return r.Skip(type);
        { EPOXY_ASSIGN_OR_RETURN(md.num_rows, r.ReadI64()); }
        return Status::OK();
      case 4:
        if (type != T::kList) return r.Skip(type);
        return r.ReadList([&](T element) -> Status {
          if (element != T::kStruct) return r.Skip(element);
          RowGroup g;
          EPOXY_RETURN_NOT_OK(ReadRowGroup(r, &g));
          md.row_groups.push_back(std::move(g));
          return Status::OK();
        });
      case 5:
        if (type != T::kList) return r.Skip(type);
        return ReadKeyValueList(r, &md.key_value_metadata);
      case 6:
        if (type != T::kBinary) return r.Skip(type);
        { EPOXY_ASSIGN_OR_RETURN(md.created_by, r.ReadString()); }
        return Status::OK();
      case 7:
        if (type != T::kList) return r.Skip(type);
        return r.ReadList([&](T element) -> Status {
          if (element != T::kStruct) return r.Skip(element);
          int order = 0;
          EPOXY_RETURN_NOT_OK(r.ReadStruct([&](int16_t f, T t) -> Status {
            order = f >= 1 && f <= 3 ? f : 0;
            return r.Skip(t);
          }));
          md.column_orders.push_back(order);
          return Status::OK();
        });
      case 8:
        md.encrypted_plaintext_footer = true;
        return r.Skip(type);
      default: return r.Skip(type);
    }
  }));
  if (!saw_schema || md.schema.empty()) return Status::InvalidData("file metadata has no schema");
  return md;
}

Result<PageHeader> DecodePageHeader(const uint8_t* data, size_t size, size_t* consumed) {
  ThriftReader r(data, size);
  PageHeader h;
  EPOXY_RETURN_NOT_OK(r.ReadStruct([&](int16_t id, T type) -> Status {
    switch (id) {
      case 1:
      case 2:
      case 3:
      case 4: {
        if (type != T::kI32) return r.Skip(type);
        EPOXY_ASSIGN_OR_RETURN(int32_t v, r.ReadI32());
        if (id == 1) h.type = v;
        if (id == 2) h.uncompressed_page_size = v;
        if (id == 3) h.compressed_page_size = v;
        if (id == 4) h.crc = v;
        return Status::OK();
      }
      case 5: {
        if (type != T::kStruct) return r.Skip(type);
        DataPageHeader d;
        EPOXY_RETURN_NOT_OK(ReadDataPageHeader(r, &d));
        h.data_page = std::move(d);
        return Status::OK();
      }
      case 7: {
        if (type != T::kStruct) return r.Skip(type);
        DictionaryPageHeader d;
        EPOXY_RETURN_NOT_OK(r.ReadStruct([&](int16_t f, T t) -> Status {
          if (f == 3 && (t == T::kTrue || t == T::kFalse)) {
            EPOXY_ASSIGN_OR_RETURN(d.is_sorted, r.ReadBool(t));
            return Status::OK();
          }
          if (t != T::kI32) return r.Skip(t);
          EPOXY_ASSIGN_OR_RETURN(int32_t v, r.ReadI32());
          if (f == 1) d.num_values = v;
          if (f == 2) d.encoding = v;
          return Status::OK();
        }));
        h.dictionary_page = d;
        return Status::OK();
      }
      case 8: {
        if (type != T::kStruct) return r.Skip(type);
        DataPageHeaderV2 d;
        EPOXY_RETURN_NOT_OK(ReadDataPageHeaderV2(r, &d));
        h.data_page_v2 = std::move(d);
        return Status::OK();
      }
      default: return r.Skip(type);
    }
  }));
  *consumed = r.position();
  if (h.compressed_page_size < 0 || h.uncompressed_page_size < 0) {
    return Status::InvalidData("page header has a negative size");
  }
  return h;
}

Result<OffsetIndex> DecodeOffsetIndex(const uint8_t* data, size_t size) {
  ThriftReader r(data, size);
  OffsetIndex index;
  EPOXY_RETURN_NOT_OK(r.ReadStruct([&](int16_t id, T type) -> Status {
    if (id != 1 || type != T::kList) return r.Skip(type);
    return r.ReadList([&](T element) -> Status {
      if (element != T::kStruct) return r.Skip(element);
      PageLocation loc;
      EPOXY_RETURN_NOT_OK(r.ReadStruct([&](int16_t f, T t) -> Status {
        if (f == 2 && t == T::kI32) {
          EPOXY_ASSIGN_OR_RETURN(loc.compressed_page_size, r.ReadI32());
          return Status::OK();
        }
        if ((f == 1 || f == 3) && t == T::kI64) {
          EPOXY_ASSIGN_OR_RETURN(int64_t v, r.ReadI64());
          (f == 1 ? loc.offset : loc.first_row_index) = v;
          return Status::OK();
        }
        return r.Skip(t);
      }));
      index.page_locations.push_back(loc);
      return Status::OK();
    });
  }));
  return index;
}

Result<ColumnIndex> DecodeColumnIndex(const uint8_t* data, size_t size) {
  ThriftReader r(data, size);
  ColumnIndex index;
  EPOXY_RETURN_NOT_OK(r.ReadStruct([&](int16_t id, T type) -> Status {
    switch (id) {
      case 1:
        if (type != T::kList) return r.Skip(type);
        return r.ReadList([&](T element) -> Status {
          EPOXY_ASSIGN_OR_RETURN(bool b, r.ReadBool(element));
          index.null_pages.push_back(b);
          return Status::OK();
        });
      case 2:
      case 3:
        if (type != T::kList) return r.Skip(type);
        return ReadStringList(r, id == 2 ? &index.min_values : &index.max_values);
      case 4:
        if (type != T::kI32) return r.Skip(type);
        { EPOXY_ASSIGN_OR_RETURN(index.boundary_order, r.ReadI32()); }
        return Status::OK();
      case 5:
        if (type != T::kList) return r.Skip(type);
        return ReadI64List(r, &index.null_counts);
      default: return r.Skip(type);
    }
  }));
  return index;
}

std::string EncodeFileMetaData(const FileMetaData& md) {
  ThriftWriter w;
  w.FieldI32(1, md.version);
  w.BeginListField(2, T::kStruct, static_cast<int64_t>(md.schema.size()));
  for (const auto& e : md.schema) {
    w.BeginStructElement();
    if (e.type) w.FieldI32(1, static_cast<int32_t>(*e.type));
    if (e.type && *e.type == PhysicalType::kFixedLenByteArray) w.FieldI32(2, e.type_length);
    if (e.repetition) w.FieldI32(3, static_cast<int32_t>(*e.repetition));
    w.FieldBinary(4, e.name);
    if (!e.type) w.FieldI32(5, e.num_children);
    if (e.converted_type) w.FieldI32(6, *e.converted_type);
    if (e.logical.kind == LogicalType::kDecimal) {
      w.FieldI32(7, e.scale);
      w.FieldI32(8, e.precision);
    }
    if (e.field_id) w.FieldI32(9, *e.field_id);
    if (e.logical.kind != LogicalType::kNone) WriteLogicalType(w, e.logical);
    w.EndStruct();
  }
  w.FieldI64(3, md.num_rows);
  w.BeginListField(4, T::kStruct, static_cast<int64_t>(md.row_groups.size()));
  for (const auto& g : md.row_groups) {
    w.BeginStructElement();
    w.BeginListField(1, T::kStruct, static_cast<int64_t>(g.columns.size()));
    for (const auto& c : g.columns) {
      w.BeginStructElement();
      w.FieldI64(2, 0);  // file_offset: deprecated, always 0
      const ColumnMetaData& m = *c.meta_data;
      w.BeginStructField(3);
      w.FieldI32(1, static_cast<int32_t>(m.type));
      w.BeginListField(2, T::kI32, static_cast<int64_t>(m.encodings.size()));
      for (int32_t e : m.encodings) w.ElementI32(e);
      w.BeginListField(3, T::kBinary, static_cast<int64_t>(m.path_in_schema.size()));
      for (const auto& p : m.path_in_schema) w.ElementBinary(p);
      w.FieldI32(4, m.codec);
      w.FieldI64(5, m.num_values);
      w.FieldI64(6, m.total_uncompressed_size);
      w.FieldI64(7, m.total_compressed_size);
      if (!m.key_value_metadata.empty()) WriteKeyValues(w, 8, m.key_value_metadata);
      w.FieldI64(9, m.data_page_offset);
      if (m.dictionary_page_offset) w.FieldI64(11, *m.dictionary_page_offset);
      if (m.statistics) WriteStatistics(w, 12, *m.statistics);
      if (!m.encoding_stats.empty()) {
        w.BeginListField(13, T::kStruct, static_cast<int64_t>(m.encoding_stats.size()));
        for (const auto& pes : m.encoding_stats) {
          w.BeginStructElement();
          w.FieldI32(1, pes.page_type);
          w.FieldI32(2, pes.encoding);
          w.FieldI32(3, pes.count);
          w.EndStruct();
        }
      }
      w.EndStruct();
      if (c.offset_index_offset) w.FieldI64(4, *c.offset_index_offset);
      if (c.offset_index_length) w.FieldI32(5, *c.offset_index_length);
      if (c.column_index_offset) w.FieldI64(6, *c.column_index_offset);
      if (c.column_index_length) w.FieldI32(7, *c.column_index_length);
      w.EndStruct();
    }
    w.FieldI64(2, g.total_byte_size);
    w.FieldI64(3, g.num_rows);
    if (g.file_offset) w.FieldI64(5, *g.file_offset);
    if (g.total_compressed_size) w.FieldI64(6, *g.total_compressed_size);
    w.EndStruct();
  }
  if (!md.key_value_metadata.empty()) WriteKeyValues(w, 5, md.key_value_metadata);
  if (md.created_by) w.FieldBinary(6, *md.created_by);
  if (!md.column_orders.empty()) {
    w.BeginListField(7, T::kStruct, static_cast<int64_t>(md.column_orders.size()));
    for (int order : md.column_orders) {
      w.BeginStructElement();
      w.BeginStructField(static_cast<int16_t>(order));
      w.EndStruct();
      w.EndStruct();
    }
  }
  w.EndTopLevel();
  return w.Release();
}

std::string EncodePageHeader(const PageHeader& h) {
  ThriftWriter w;
  w.FieldI32(1, h.type);
  w.FieldI32(2, h.uncompressed_page_size);
  w.FieldI32(3, h.compressed_page_size);
  if (h.crc) w.FieldI32(4, *h.crc);
  if (h.data_page) {
    const DataPageHeader& d = *h.data_page;
    w.BeginStructField(5);
    w.FieldI32(1, d.num_values);
    w.FieldI32(2, d.encoding);
    w.FieldI32(3, d.definition_level_encoding);
    w.FieldI32(4, d.repetition_level_encoding);
    if (d.statistics) WriteStatistics(w, 5, *d.statistics);
    w.EndStruct();
  }
  if (h.dictionary_page) {
    w.BeginStructField(7);
    w.FieldI32(1, h.dictionary_page->num_values);
    w.FieldI32(2, h.dictionary_page->encoding);
    w.EndStruct();
  }
  if (h.data_page_v2) {
    const DataPageHeaderV2& d = *h.data_page_v2;
    w.BeginStructField(8);
    w.FieldI32(1, d.num_values);
    w.FieldI32(2, d.num_nulls);
    w.FieldI32(3, d.num_rows);
    w.FieldI32(4, d.encoding);
    w.FieldI32(5, d.definition_levels_byte_length);
    w.FieldI32(6, d.repetition_levels_byte_length);
    w.FieldBool(7, d.is_compressed);
    if (d.statistics) WriteStatistics(w, 8, *d.statistics);
    w.EndStruct();
  }
  w.EndTopLevel();
  return w.Release();
}

std::string EncodeOffsetIndex(const OffsetIndex& index) {
  ThriftWriter w;
  w.BeginListField(1, T::kStruct, static_cast<int64_t>(index.page_locations.size()));
  for (const auto& loc : index.page_locations) {
    w.BeginStructElement();
    w.FieldI64(1, loc.offset);
    w.FieldI32(2, loc.compressed_page_size);
    w.FieldI64(3, loc.first_row_index);
    w.EndStruct();
  }
  w.EndTopLevel();
  return w.Release();
}

std::string EncodeColumnIndex(const ColumnIndex& index) {
  ThriftWriter w;
  w.BeginListField(1, T::kTrue, static_cast<int64_t>(index.null_pages.size()));
  for (bool b : index.null_pages) w.ElementBool(b);
  w.BeginListField(2, T::kBinary, static_cast<int64_t>(index.min_values.size()));
  for (const auto& v : index.min_values) w.ElementBinary(v);
  w.BeginListField(3, T::kBinary, static_cast<int64_t>(index.max_values.size()));
  for (const auto& v : index.max_values) w.ElementBinary(v);
  w.FieldI32(4, index.boundary_order);
  w.BeginListField(5, T::kI64, static_cast<int64_t>(index.null_counts.size()));
  for (int64_t v : index.null_counts) w.ElementI64(v);
  w.EndTopLevel();
  return w.Release();
}

std::string_view PhysicalTypeName(PhysicalType type) {
  switch (type) {
    case PhysicalType::kBoolean: return "BOOLEAN";
    case PhysicalType::kInt32: return "INT32";
    case PhysicalType::kInt64: return "INT64";
    case PhysicalType::kInt96: return "INT96";
    case PhysicalType::kFloat: return "FLOAT";
    case PhysicalType::kDouble: return "DOUBLE";
    case PhysicalType::kByteArray: return "BYTE_ARRAY";
    case PhysicalType::kFixedLenByteArray: return "FIXED_LEN_BYTE_ARRAY";
  }
  return "UNKNOWN";
}

std::string EncodingName(int32_t encoding) {
  static const char* kNames[] = {"PLAIN", "GROUP_VAR_INT", "PLAIN_DICTIONARY", "RLE", "BIT_PACKED",
                                 "DELTA_BINARY_PACKED", "DELTA_LENGTH_BYTE_ARRAY",
                                 "DELTA_BYTE_ARRAY", "RLE_DICTIONARY", "BYTE_STREAM_SPLIT"};
  if (encoding >= 0 && encoding < 10) return kNames[encoding];
  return "ENCODING_" + std::to_string(encoding);
}

std::string CodecName(int32_t codec) {
  static const char* kNames[] = {"UNCOMPRESSED", "SNAPPY", "GZIP", "LZO", "BROTLI", "LZ4", "ZSTD",
                                 "LZ4_RAW"};
  if (codec >= 0 && codec < 8) return kNames[codec];
  return "CODEC_" + std::to_string(codec);
}

}  // namespace epoxy::parquet
