// SPDX-License-Identifier: Apache-2.0
// Merging the types seen in different records, files or folders, with Glue's rules.
#pragma once

#include "epoxy/types/schema.h"

namespace epoxy {

enum class MergeMode {
  /// A catalog column has one type: integers widen (int+bigint -> bigint), integers and floats
  /// meet in double, dates in timestamp, and anything else that differs becomes string.
  kCatalog,
  /// A DynamicFrame keeps what it saw: two different types become choice<a,b> (Glue's
  /// mergeDataTypes), except that structs, arrays and maps merge member by member.
  kDynamicFrame,
};

/// Merges two types. Null absorbs into the other side in both modes. Struct fields merge by name:
/// the left fields in order, then the right's new fields; a field missing on one side stays
/// (every field is nullable).
TypePtr MergeTypes(const TypePtr& a, const TypePtr& b, MergeMode mode);
/// Merges two schemas column by column as MergeTypes merges structs.
SchemaPtr MergeSchemas(const Schema& a, const Schema& b, MergeMode mode);

/// The catalog type for a DynamicFrame type: choices collapse with the catalog rules, null
/// becomes string.
TypePtr ToCatalogType(const TypePtr& type);
SchemaPtr ToCatalogSchema(const Schema& schema);

}  // namespace epoxy
