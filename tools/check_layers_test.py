#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Tests of check_layers.py on small made-up repositories: each kind of problem is reported with
its file, line and arrow, and a tree that follows its README passes."""

import os
import sys
import tempfile
import textwrap
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_layers  # noqa: E402

README = """\
# layers

## Layers

| layer | may use | what it holds |
|---|---|---|
| `common` | | the bottom |
| `vector` | `common` | arrays |
| `format` | `vector` | readers |
| `expr` | `vector` | expressions |
| `testing` | `format` | test helpers |
| `top` | `expr`, `format` | the front end |

## Tests

| layer | its tests may also use | why |
|---|---|---|
| `expr` | `top` | an end-to-end test |
"""


class CheckLayersTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.root = self.dir.name
        self.write("src/epoxy/README.md", README)
        for layer, deps in (("common", ""), ("vector", "epoxy_common"), ("format", "epoxy_vector"),
                            ("expr", "epoxy_vector"), ("testing", "epoxy_format"), ("top", "epoxy_expr epoxy_format")):
            self.write(f"src/epoxy/{layer}/CMakeLists.txt", f"epoxy_library(epoxy_{layer} SOURCES a.cc DEPS {deps} fmt::fmt)\n")
            self.write(f"src/epoxy/{layer}/a.h", "#pragma once\n")
        self.write("src/epoxy/expr/a.cc", '#include "epoxy/expr/a.h"\n#include "epoxy/vector/a.h"\n#include "epoxy/common/a.h"\n')

    def tearDown(self):
        self.dir.cleanup()

    def write(self, relative, text):
        path = os.path.join(self.root, relative)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(textwrap.dedent(text))

    def errors(self):
        return check_layers.check(self.root)

    def test_a_tree_that_follows_its_readme_passes(self):
        self.assertEqual(self.errors(), [])

    def test_an_include_of_a_layer_without_an_arrow_names_file_line_and_arrow(self):
        self.write("src/epoxy/expr/b.cc", '#include "epoxy/expr/a.h"\n\n#include "epoxy/format/a.h"\n')
        errors = self.errors()
        self.assertEqual(len(errors), 1, errors)
        self.assertIn("src/epoxy/expr/b.cc:3: expr -> format is not an arrow", errors[0])
        self.assertIn("expr may use: common, vector", errors[0])

    def test_arrows_are_transitive(self):
        self.write("src/epoxy/top/b.cc", '#include "epoxy/common/a.h"\n#include "epoxy/vector/a.h"\n')
        self.assertEqual(self.errors(), [])

    def test_an_upward_include_is_reported(self):
        self.write("src/epoxy/vector/b.h", '#pragma once\n#include "epoxy/top/a.h"\n')
        self.assertIn("src/epoxy/vector/b.h:2: vector -> top", "\n".join(self.errors()))

    def test_tests_may_use_testing_and_their_extra_arrows_but_the_library_may_not(self):
        self.write("src/epoxy/expr/b_test.cc", '#include "epoxy/testing/a.h"\n#include "epoxy/format/a.h"\n'
                   '#include "epoxy/top/a.h"\n')
        self.write("src/epoxy/vector/b_test.cc", '#include "epoxy/testing/a.h"\n#include "epoxy/top/a.h"\n')
        errors = self.errors()
        self.assertEqual(len(errors), 1, errors)
        self.assertIn("src/epoxy/vector/b_test.cc:2: vector -> top", errors[0])
        self.write("src/epoxy/expr/c.cc", '#include "epoxy/testing/a.h"\n')
        self.assertIn("src/epoxy/expr/c.cc:1: expr -> testing", "\n".join(self.errors()))

    def test_another_layers_internal_header_is_reported_even_below(self):
        self.write("src/epoxy/vector/x_internal.h", "#pragma once\n")
        self.write("src/epoxy/vector/b.cc", '#include "epoxy/vector/x_internal.h"\n')
        self.assertEqual(self.errors(), [])
        self.write("src/epoxy/expr/b.cc", '#include "epoxy/vector/x_internal.h"\n')
        errors = self.errors()
        self.assertEqual(len(errors), 1, errors)
        self.assertIn("src/epoxy/expr/b.cc:1: expr includes vector's internal header", errors[0])

    def test_a_cmake_dependency_without_an_arrow_names_file_line_and_arrow(self):
        self.write("src/epoxy/expr/CMakeLists.txt", """\
            # a comment naming epoxy_top is not a dependency
            epoxy_library(epoxy_expr
              SOURCES a.cc
              DEPS epoxy_vector
                epoxy_format RE2)
            epoxy_test(epoxy_expr_test SOURCES a_test.cc DEPS epoxy_expr epoxy_top)
            """)
        errors = self.errors()
        self.assertEqual(len(errors), 1, errors)
        self.assertIn("src/epoxy/expr/CMakeLists.txt:5: expr -> format is not an arrow", errors[0])
        self.assertIn("DEPS epoxy_format", errors[0])

    def test_target_link_libraries_and_unknown_targets(self):
        self.write("src/epoxy/vector/CMakeLists.txt", """\
            epoxy_library(epoxy_vector SOURCES a.cc DEPS epoxy_common)
            target_link_libraries(epoxy_vector PRIVATE epoxy_expr)
            target_link_libraries(epoxy_vector PRIVATE epoxy_nowhere)
            """)
        errors = "\n".join(self.errors())
        self.assertIn("src/epoxy/vector/CMakeLists.txt:2: vector -> expr", errors)
        self.assertIn("src/epoxy/vector/CMakeLists.txt:3: epoxy_nowhere is no target", errors)

    def test_readme_arrows_must_point_down_to_known_layers(self):
        self.write("src/epoxy/README.md", README.replace("| `vector` | `common` |", "| `vector` | `common`, `expr` |")
                   .replace("| `format` | `vector` |", "| `format` | `vector`, `nowhere` |"))
        errors = "\n".join(self.errors())
        self.assertIn("src/epoxy/README.md:8: the arrow vector -> expr points up", errors)
        self.assertIn("src/epoxy/README.md:9: an arrow format -> nowhere names no layer", errors)

    def test_folders_and_layers_must_match(self):
        self.write("src/epoxy/extra/a.h", "#pragma once\n")
        self.write("src/epoxy/README.md", README.replace("| `top` | `expr`, `format` | the front end |\n",
                                                         "| `top` | `expr`, `format` | the front end |\n| `ghost` | `top` | nothing |\n"))
        errors = "\n".join(self.errors())
        self.assertIn("src/epoxy/extra/: a folder the Layers table", errors)
        self.assertIn("layer ghost has no folder", errors)

    def test_an_include_of_no_layer_is_reported(self):
        self.write("src/epoxy/top/b.cc", '#include "epoxy/elsewhere/a.h"\n')
        self.assertIn("src/epoxy/top/b.cc:1: includes epoxy/elsewhere/, which is no layer", "\n".join(self.errors()))


if __name__ == "__main__":
    unittest.main()
