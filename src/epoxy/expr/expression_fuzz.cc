// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: expression parsing, binding against a fixed schema and evaluation on one row.
#include <cstddef>
#include <cstdint>

#include "epoxy/expr/binder.h"
#include "epoxy/expr/evaluator.h"
#include "epoxy/expr/parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace epoxy;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto parsed = expr::ParseExpression(text);
  if (!parsed.ok()) return 0;
  static const SchemaPtr schema = Schema::Make({{"a", DataType::BigInt()}, {"s", DataType::String()},
                                                {"d", DataType::Date()}, {"x", DataType::Double()}});
  auto bound = expr::Bind(*parsed, *schema);
  if (!bound.ok()) return 0;
  static const BatchPtr row = [] {
    std::vector<ArrayPtr> columns;
    for (const auto& f : schema->fields()) {
      expr::Scalar v = f.type->id() == TypeId::kString ? expr::Scalar::String("a1")
                     : f.type->id() == TypeId::kDouble ? expr::Scalar::Double(1.5)
                                                       : expr::Scalar::Integer(f.type, 7);
      columns.push_back(*expr::MakeArrayFromScalar(v, 2));
    }
    return Batch::Make(schema, columns, 2);
  }();
  (void)expr::EvaluateToArray(**bound, *row);
  return 0;
}
