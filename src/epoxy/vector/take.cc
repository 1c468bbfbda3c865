// SPDX-License-Identifier: Apache-2.0
// Gathering rows by index: typed loops for flat columns, the generic builder path for nested ones.
#include "epoxy/vector/take.h"

#include "epoxy/vector/builder.h"

namespace epoxy {
namespace {

/// The validity bitmap of the taken rows, or null when none of them is null.
Result<BufferPtr> TakeValidity(const Array& source, const std::vector<int32_t>& indices, MemoryPool* pool,
                               int64_t* null_count) {
  *null_count = 0;
  if (source.null_count() == 0) return BufferPtr();
  BufferBuilder bits(pool);
  EPOXY_RETURN_NOT_OK(bits.Resize(bit_util::BytesForBits(static_cast<int64_t>(indices.size()))));
  uint8_t* out = bits.mutable_data();
  for (size_t i = 0; i < indices.size(); ++i) {
    if (source.IsNull(indices[i])) {
      ++*null_count;
    } else {
      bit_util::SetBit(out, static_cast<int64_t>(i));
    }
  }
  if (*null_count == 0) return BufferPtr();
  return bits.Finish();
}

template <typename T>
Result<BufferPtr> TakeValues(const Array& source, const std::vector<int32_t>& indices, MemoryPool* pool) {
  BufferBuilder values(pool);
  EPOXY_RETURN_NOT_OK(values.ResizeUninitialized(static_cast<int64_t>(indices.size() * sizeof(T))));
  T* out = reinterpret_cast<T*>(values.mutable_data());
  const T* in = source.values<T>();
  for (size_t i = 0; i < indices.size(); ++i) out[i] = in[indices[i]];
  return values.Finish();
}

Result<BufferPtr> TakeBits(const Array& source, const std::vector<int32_t>& indices, MemoryPool* pool) {
  BufferBuilder bits(pool);
  EPOXY_RETURN_NOT_OK(bits.Resize(bit_util::BytesForBits(static_cast<int64_t>(indices.size()))));
  uint8_t* out = bits.mutable_data();
  for (size_t i = 0; i < indices.size(); ++i) {
    if (source.GetBool(indices[i])) bit_util::SetBit(out, static_cast<int64_t>(i));
  }
  return bits.Finish();
}

Result<ArrayPtr> TakeStrings(const Array& source, const std::vector<int32_t>& indices, MemoryPool* pool,
                             BufferPtr validity, int64_t null_count) {
  const int32_t* offsets = source.offsets();
  int64_t bytes = 0;
  for (int32_t i : indices) bytes += offsets[i + 1] - offsets[i];
  if (bytes > INT32_MAX) return Status::OutOfMemory("a string column of one batch exceeds 2 GiB");
  BufferBuilder out_offsets(pool), out_data(pool);
  EPOXY_RETURN_NOT_OK(out_offsets.ResizeUninitialized(static_cast<int64_t>((indices.size() + 1) * sizeof(int32_t))));
  EPOXY_RETURN_NOT_OK(out_data.ResizeUninitialized(bytes));
  int32_t* o = reinterpret_cast<int32_t*>(out_offsets.mutable_data());
  uint8_t* d = out_data.mutable_data();
  const uint8_t* in = source.buffers()[2]->data();
  int32_t at = 0;
  o[0] = 0;
  for (size_t k = 0; k < indices.size(); ++k) {
    int32_t i = indices[k];
    int32_t n = offsets[i + 1] - offsets[i];
    if (n > 0) std::memcpy(d + at, in + offsets[i], static_cast<size_t>(n));
    at += n;
    o[k + 1] = at;
  }
  EPOXY_ASSIGN_OR_RETURN(BufferPtr ob, out_offsets.Finish());
  EPOXY_ASSIGN_OR_RETURN(BufferPtr db, out_data.Finish());
  return Array::Make(source.type(), static_cast<int64_t>(indices.size()), {validity, ob, db}, {}, null_count);
}

}  // namespace

int FixedWidthOf(TypeId id) {
  switch (id) {
    case TypeId::kTinyInt: return 1;
    case TypeId::kSmallInt: return 2;
    case TypeId::kInt:
    case TypeId::kDate:
    case TypeId::kFloat: return 4;
    case TypeId::kBigInt:
    case TypeId::kTimestamp:
    case TypeId::kDouble: return 8;
    case TypeId::kDecimal: return 16;
    default: return 0;
  }
}

Result<ArrayPtr> Take(const Array& source, const std::vector<int32_t>& indices, MemoryPool* pool) {
  const int64_t n = static_cast<int64_t>(indices.size());
  TypeId id = source.type_id();
  if (id == TypeId::kNull) return Array::MakeNull(n);
  int width = FixedWidthOf(id);
  if (width > 0 || id == TypeId::kBoolean || id == TypeId::kString || id == TypeId::kBinary) {
    int64_t null_count = 0;
    EPOXY_ASSIGN_OR_RETURN(BufferPtr validity, TakeValidity(source, indices, pool, &null_count));
    if (id == TypeId::kString || id == TypeId::kBinary) return TakeStrings(source, indices, pool, validity, null_count);
    Result<BufferPtr> values = BufferPtr();
    switch (width) {
      case 0: values = TakeBits(source, indices, pool); break;
      case 1: values = TakeValues<int8_t>(source, indices, pool); break;
      case 2: values = TakeValues<int16_t>(source, indices, pool); break;
      case 4: values = TakeValues<int32_t>(source, indices, pool); break;
      case 8: values = TakeValues<int64_t>(source, indices, pool); break;
      default: values = TakeValues<__int128>(source, indices, pool); break;
    }
    EPOXY_RETURN_NOT_OK(values.status());
    return Array::Make(source.type(), n, {validity, *values}, {}, null_count);
  }
  // Nested values: row by row through a builder.
  EPOXY_ASSIGN_OR_RETURN(auto builder, MakeBuilder(source.type(), pool));
  for (int32_t i : indices) EPOXY_RETURN_NOT_OK(AppendFrom(builder.get(), source, i));
  return builder->Finish();
}

namespace {

const Array* RefArray(const std::vector<ArrayPtr>& sources, RowRef ref) { return sources[ref >> 32].get(); }
int64_t RefRow(RowRef ref) { return static_cast<int64_t>(ref & 0xffffffffu); }

/// Validity of gathered rows (null refs and null values), or null when none is null.
Result<BufferPtr> GatherValidity(const std::vector<ArrayPtr>& sources, const std::vector<RowRef>& refs, MemoryPool* pool,
                                 int64_t* null_count) {
  *null_count = 0;
  bool maybe_null = false;
  for (const auto& s : sources) maybe_null = maybe_null || s->null_count() > 0;
  for (size_t i = 0; i < refs.size() && !maybe_null; ++i) maybe_null = refs[i] == kNullRow;
  if (!maybe_null) return BufferPtr();
  BufferBuilder bits(pool);
  EPOXY_RETURN_NOT_OK(bits.Resize(bit_util::BytesForBits(static_cast<int64_t>(refs.size()))));
  uint8_t* out = bits.mutable_data();
  for (size_t i = 0; i < refs.size(); ++i) {
    if (refs[i] == kNullRow || RefArray(sources, refs[i])->IsNull(RefRow(refs[i]))) {
      ++*null_count;
    } else {
      bit_util::SetBit(out, static_cast<int64_t>(i));
    }
  }
  if (*null_count == 0) return BufferPtr();
  return bits.Finish();
}

template <typename T>
Result<BufferPtr> GatherValues(const std::vector<ArrayPtr>& sources, const std::vector<RowRef>& refs, MemoryPool* pool) {
  BufferBuilder values(pool);
  EPOXY_RETURN_NOT_OK(values.ResizeUninitialized(static_cast<int64_t>(refs.size() * sizeof(T))));
  T* out = reinterpret_cast<T*>(values.mutable_data());
  std::vector<const T*> bases;
  for (const auto& s : sources) bases.push_back(s->type_id() == TypeId::kNull ? nullptr : s->values<T>());
  for (size_t i = 0; i < refs.size(); ++i) {
    const RowRef r = refs[i];
    const T* base = r == kNullRow ? nullptr : bases[r >> 32];
    out[i] = base == nullptr ? T{} : base[RefRow(r)];
  }
  return values.Finish();
}

}  // namespace

Result<ArrayPtr> TakeFrom(const std::vector<ArrayPtr>& sources, const std::vector<RowRef>& refs, const TypePtr& type,
                          MemoryPool* pool) {
  const int64_t n = static_cast<int64_t>(refs.size());
  const TypeId id = type->id();
  if (id == TypeId::kNull) return Array::MakeNull(n);
  // Sources of type null (placeholders) read as nulls of `type`: the generic path handles them.
  bool typed = true;
  for (const auto& s : sources) typed = typed && s->type_id() == id;
  const int width = FixedWidthOf(id);
  if (typed && (width > 0 || id == TypeId::kBoolean || id == TypeId::kString || id == TypeId::kBinary)) {
    int64_t null_count = 0;
    EPOXY_ASSIGN_OR_RETURN(BufferPtr validity, GatherValidity(sources, refs, pool, &null_count));
    if (id == TypeId::kString || id == TypeId::kBinary) {
      int64_t bytes = 0;
      for (RowRef r : refs) {
        if (r != kNullRow) bytes += static_cast<int64_t>(RefArray(sources, r)->GetView(RefRow(r)).size());
      }
      if (bytes > INT32_MAX) return Status::OutOfMemory("a string column of one batch exceeds 2 GiB");
      BufferBuilder offsets(pool), data(pool);
      EPOXY_RETURN_NOT_OK(offsets.ResizeUninitialized((n + 1) * 4));
      EPOXY_RETURN_NOT_OK(data.ResizeUninitialized(bytes));
      int32_t* o = reinterpret_cast<int32_t*>(offsets.mutable_data());
      uint8_t* d = data.mutable_data();
      int32_t at = 0;
      o[0] = 0;
      for (int64_t i = 0; i < n; ++i) {
        const RowRef r = refs[static_cast<size_t>(i)];
        if (r != kNullRow) {
          std::string_view v = RefArray(sources, r)->GetView(RefRow(r));
          if (!v.empty()) std::memcpy(d + at, v.data(), v.size());
          at += static_cast<int32_t>(v.size());
        }
        o[i + 1] = at;
      }
      EPOXY_ASSIGN_OR_RETURN(BufferPtr ob, offsets.Finish());
      EPOXY_ASSIGN_OR_RETURN(BufferPtr db, data.Finish());
      return Array::Make(type, n, {validity, ob, db}, {}, null_count);
    }
    Result<BufferPtr> values = BufferPtr();
    switch (width) {
      case 0: {
        BufferBuilder bits(pool);
        EPOXY_RETURN_NOT_OK(bits.Resize(bit_util::BytesForBits(n)));
        for (int64_t i = 0; i < n; ++i) {
          const RowRef r = refs[static_cast<size_t>(i)];
          if (r != kNullRow && RefArray(sources, r)->GetBool(RefRow(r))) bit_util::SetBit(bits.mutable_data(), i);
        }
        values = bits.Finish();
        break;
      }
      case 1: values = GatherValues<int8_t>(sources, refs, pool); break;
      case 2: values = GatherValues<int16_t>(sources, refs, pool); break;
      case 4: values = GatherValues<int32_t>(sources, refs, pool); break;
      case 8: values = GatherValues<int64_t>(sources, refs, pool); break;
      default: values = GatherValues<__int128>(sources, refs, pool); break;
    }
    EPOXY_RETURN_NOT_OK(values.status());
    return Array::Make(type, n, {validity, *values}, {}, null_count);
  }
  EPOXY_ASSIGN_OR_RETURN(auto builder, MakeBuilder(type, pool));
  for (RowRef r : refs) {
    const Array* source = r == kNullRow ? nullptr : RefArray(sources, r);
    if (source == nullptr || source->type_id() == TypeId::kNull || source->IsNull(RefRow(r))) {
      EPOXY_RETURN_NOT_OK(builder->AppendNull());
    } else {
      EPOXY_RETURN_NOT_OK(AppendFrom(builder.get(), *source, RefRow(r)));
    }
  }
  return builder->Finish();
}

Result<BatchPtr> TakeBatch(const BatchPtr& batch, const std::vector<int32_t>& indices, MemoryPool* pool) {
  if (static_cast<int64_t>(indices.size()) == batch->num_rows()) {
    bool identity = true;
    for (size_t i = 0; i < indices.size() && identity; ++i) identity = indices[i] == static_cast<int32_t>(i);
    if (identity) return batch;
  }
  std::vector<ArrayPtr> columns;
  columns.reserve(static_cast<size_t>(batch->num_columns()));
  for (const auto& c : batch->columns()) {
    EPOXY_ASSIGN_OR_RETURN(ArrayPtr taken, Take(*c, indices, pool));
    columns.push_back(std::move(taken));
  }
  return Batch::Make(batch->schema(), std::move(columns), static_cast<int64_t>(indices.size()));
}

}  // namespace epoxy
