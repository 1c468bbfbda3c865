// SPDX-License-Identifier: Apache-2.0
// The Parquet schema as a tree with definition and repetition levels, mapped to epoxy types; and
// epoxy schemas mapped to Parquet schema elements for writing.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "epoxy/format/parquet/metadata.h"
#include "epoxy/types/schema.h"

namespace epoxy::parquet {

/// One node of the file schema. Levels follow parquet-format: a node is present (not null) when a
/// level entry's definition level reaches `def_level`.
struct SchemaNode {
  enum class Kind { kPrimitive, kStruct, kList, kMap };
  Kind kind = Kind::kPrimitive;
  std::string name;
  TypePtr type;             // the epoxy type read from this node
  int16_t def_level = 0;    // entries with def >= this are non-null
  int16_t rep_level = 0;    // repeated nodes on the path above (and, for lists, not the element)
  // Lists and maps: the repeated child. def >= repeated_def means an element exists; an entry
  // with rep == repeated_rep continues the current list.
  int16_t repeated_def = 0;
  int16_t repeated_rep = 0;
  std::vector<SchemaNode> children;  // struct fields; list: {element}; map: {key, value}
  // Primitives.
  int leaf = -1;                     // column index
  const SchemaElement* element = nullptr;
  int first_leaf = -1;               // first leaf column under this node
};

/// Leaf columns and the top-level fields of a file.
struct FileSchema {
  std::vector<SchemaNode> fields;                 // top-level
  std::vector<const SchemaNode*> leaves;          // by column index
  std::vector<int16_t> max_def, max_rep;          // by column index
  SchemaPtr schema;                               // epoxy schema of the top-level fields
};

/// Builds the tree from a file's flattened schema. Errors name the element that does not parse.
/// `metadata` must outlive the result (nodes point into its schema elements).
Result<std::unique_ptr<FileSchema>> BuildFileSchema(const FileMetaData& metadata);

/// The epoxy type of a primitive column (logical and converted annotations applied).
TypePtr PrimitiveType(const SchemaElement& element);

/// Parquet schema elements (root first, depth-first) for an epoxy schema: lists as three-level
/// LIST groups, maps as MAP groups with key_value, choices as structs of their members.
std::vector<SchemaElement> ToParquetSchema(const Schema& schema);

/// Smallest FIXED_LEN_BYTE_ARRAY width that holds a decimal of `precision` digits.
int DecimalByteWidth(int precision);

}  // namespace epoxy::parquet
