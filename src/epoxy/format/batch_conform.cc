// SPDX-License-Identifier: Apache-2.0
// ConformBatch.
#include "epoxy/format/batch_conform.h"

#include "epoxy/vector/builder.h"

namespace epoxy {

Result<BatchPtr> ConformBatch(const BatchPtr& batch, const SchemaPtr& target) {
  if (batch->schema()->Equals(*target)) return batch;
  const Schema& have = *batch->schema();
  for (const auto& f : have.fields()) {
    if (target->FieldIndex(f.name) < 0) return BatchPtr();
  }
  std::vector<ArrayPtr> columns;
  for (const auto& f : target->fields()) {
    int i = have.FieldIndex(f.name);
    if (i >= 0 && have.field(i).type->Equals(*f.type)) {
      columns.push_back(batch->column(i));
      continue;
    }
    if (i >= 0 && have.field(i).type->id() != TypeId::kNull) return BatchPtr();
    EPOXY_ASSIGN_OR_RETURN(auto builder, MakeBuilder(f.type));
    EPOXY_RETURN_NOT_OK(builder->AppendNulls(batch->num_rows()));
    EPOXY_ASSIGN_OR_RETURN(ArrayPtr nulls, builder->Finish());
    columns.push_back(std::move(nulls));
  }
  return Batch::Make(target, std::move(columns), batch->num_rows());
}

}  // namespace epoxy
