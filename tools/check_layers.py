#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks every layer's #include lines and CMake DEPS against the arrows in src/epoxy/README.md.

The README is the single source of truth: its "Layers" table lists the layers bottom first, each
with the layers it may use (it may also use whatever those may use). Its "Tests" table lists what
a layer's tests may use beyond that; every layer's tests may use `testing`. Reported, one line
each with the file and line:
  - an `#include "epoxy/<layer>/..."` or a CMake dependency on a layer that is not an arrow;
  - an include of another layer's `*_internal.h`;
  - an arrow in the README that points up (or to an unknown layer), and folders the README misses.
Usage: check_layers.py [REPOSITORY_ROOT]   (exit status 1 when anything is wrong)
"""

import os
import re
import sys

README = os.path.join("src", "epoxy", "README.md")
SOURCE_SUFFIXES = (".h", ".cc")
TEST_FILE = re.compile(r"_(test|benchmark|fuzz)\.cc$")
INCLUDE = re.compile(r'^\s*#\s*include\s+"epoxy/([A-Za-z0-9_]+)/([^"]+)"')
# Calls whose DEPS (or link list) name libraries; the test kinds may also use test arrows.
CMAKE_CALL = re.compile(r"\b(epoxy_library|epoxy_test|epoxy_benchmark|epoxy_fuzzer|target_link_libraries|"
                        r"add_library|add_executable|pybind11_add_module)\s*\(([^)]*)\)", re.S)
CMAKE_TEST_CALLS = {"epoxy_test", "epoxy_benchmark", "epoxy_fuzzer"}
CMAKE_KEYWORDS = {"PRIVATE", "PUBLIC", "INTERFACE", "STATIC", "SHARED", "MODULE", "OBJECT"}


class Readme:
    """The layers in order, their arrows and their tests' extra arrows, read from the README."""

    def __init__(self, path):
        self.path = path
        self.order = []   # layer names, bottom first
        self.uses = {}    # layer -> [(layer, README line)]
        self.test_uses = {}
        self.line = {}    # layer -> its README line
        self.errors = []
        self._parse()

    def _parse(self):
        section = None
        with open(self.path, encoding="utf-8") as f:
            for number, text in enumerate(f, 1):
                if text.startswith("## "):
                    section = text[3:].strip().lower()
                    continue
                if section not in ("layers", "tests") or not text.lstrip().startswith("|"):
                    continue
                cells = [c.strip() for c in text.strip().strip("|").split("|")]
                name = re.fullmatch(r"`([a-z0-9_]+)/?`", cells[0]) if cells else None
                if name is None:
                    continue  # the header row and its rule
                layer = name.group(1)
                arrows = [(a, number) for a in re.findall(r"`([a-z0-9_]+)/?`", cells[1] if len(cells) > 1 else "")]
                if section == "layers":
                    if layer in self.line:
                        self.errors.append(f"{self.path}:{number}: layer {layer} is listed twice")
                    self.order.append(layer)
                    self.line[layer] = number
                    self.uses[layer] = arrows
                else:
                    self.test_uses.setdefault(layer, []).extend(arrows)
        if not self.order:
            self.errors.append(f"{self.path}: no layers found (a table under '## Layers' with one `layer` a row)")
        rank = {layer: i for i, layer in enumerate(self.order)}
        for table, kind in ((self.uses, "an arrow"), (self.test_uses, "a test arrow")):
            for layer, arrows in table.items():
                if layer not in rank:
                    self.errors.append(f"{self.path}: the Tests table names {layer}, which is not a layer")
                    continue
                for target, number in arrows:
                    if target not in rank:
                        self.errors.append(f"{self.path}:{number}: {kind} {layer} -> {target} names no layer")
                    elif kind == "an arrow" and rank[target] >= rank[layer]:
                        self.errors.append(f"{self.path}:{number}: the arrow {layer} -> {target} points up "
                                           f"({target} is not below {layer})")
        self.allowed = {layer: self._closure(layer) for layer in self.order}

    def _closure(self, layer):
        seen, todo = set(), [layer]
        while todo:
            for target, _ in self.uses.get(todo.pop(), []):
                if target not in seen and target in self.uses:
                    seen.add(target)
                    todo.append(target)
        return seen

    def may_use(self, layer, target, in_test):
        if target == layer or target in self.allowed.get(layer, set()):
            return True
        if not in_test:
            return False
        extra = ["testing"] + [t for t, _ in self.test_uses.get(layer, [])]
        return any(target == t or target in self.allowed.get(t, set()) for t in extra)

    def describe(self, layer, in_test):
        allowed = sorted(self.allowed.get(layer, set()))
        text = ", ".join(allowed) if allowed else "nothing"
        return f"{layer}{' tests' if in_test else ''} may use: {text}{' (and testing)' if in_test else ''}"


def layer_folder(root, layer):
    """src/epoxy/<layer>, or <layer>/ at the top of the repository (python)."""
    for folder in (os.path.join(root, "src", "epoxy", layer), os.path.join(root, layer)):
        if os.path.isdir(folder):
            return folder
    return None


def walk(folder, names):
    for base, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__")
        for name in sorted(files):
            if names(name):
                yield os.path.join(base, name)


def check_includes(root, readme, layer, folder, errors):
    for path in walk(folder, lambda n: n.endswith(SOURCE_SUFFIXES)):
        in_test = bool(TEST_FILE.search(path))
        rel = os.path.relpath(path, root)
        with open(path, encoding="utf-8", errors="replace") as f:
            for number, text in enumerate(f, 1):
                m = INCLUDE.match(text)
                if m is None:
                    continue
                target, header = m.group(1), m.group(2)
                if target not in readme.allowed:
                    errors.append(f"{rel}:{number}: includes epoxy/{target}/, which is no layer of {README}")
                elif not readme.may_use(layer, target, in_test):
                    errors.append(f"{rel}:{number}: {layer} -> {target} is not an arrow of {README} "
                                  f"(#include \"epoxy/{target}/{header}\"; {readme.describe(layer, in_test)})")
                if target != layer and os.path.basename(header).endswith("_internal.h"):
                    errors.append(f"{rel}:{number}: {layer} includes {target}'s internal header "
                                  f"epoxy/{target}/{header} (an _internal.h is for its own layer only)")


def cmake_calls(path):
    """(function, arguments as [(token, line)]) for each library-defining or linking call."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    text = re.sub(r"#[^\n]*", lambda m: " " * len(m.group(0)), text)  # comments, keeping offsets
    for m in CMAKE_CALL.finditer(text):
        tokens = []
        for t in re.finditer(r"[^\s]+", m.group(2)):
            tokens.append((t.group(0), text.count("\n", 0, m.start(2) + t.start()) + 1))
        yield m.group(1), tokens


def cmake_targets(root, readme):
    """Every epoxy target a layer's CMakeLists.txt defines -> that layer."""
    targets = {}
    for layer in readme.order:
        folder = layer_folder(root, layer)
        path = os.path.join(folder, "CMakeLists.txt") if folder else None
        if path is None or not os.path.exists(path):
            continue
        for function, tokens in cmake_calls(path):
            if function != "target_link_libraries" and tokens:
                targets[tokens[0][0]] = layer
    return targets


def check_cmake(root, readme, layer, folder, targets, errors):
    path = os.path.join(folder, "CMakeLists.txt")
    if not os.path.exists(path):
        return
    rel = os.path.relpath(path, root)
    for function, tokens in cmake_calls(path):
        if function == "target_link_libraries":
            deps = tokens[1:]
            in_test = False
        elif function.startswith("epoxy_"):
            names = [t for t, _ in tokens]
            deps = tokens[names.index("DEPS") + 1:] if "DEPS" in names else []
            in_test = function in CMAKE_TEST_CALLS
        else:
            continue
        for name, number in deps:
            if name in CMAKE_KEYWORDS or not name.startswith("epoxy_"):
                continue  # third-party libraries
            target = targets.get(name)
            if target is None:
                errors.append(f"{rel}:{number}: {name} is no target of a layer in {README}")
            elif not readme.may_use(layer, target, in_test):
                errors.append(f"{rel}:{number}: {layer} -> {target} is not an arrow of {README} "
                              f"(DEPS {name}; {readme.describe(layer, in_test)})")


def check(root):
    readme = Readme(os.path.join(root, README))
    errors = list(readme.errors)
    for layer in readme.order:
        if layer_folder(root, layer) is None:
            errors.append(f"{README}:{readme.line[layer]}: layer {layer} has no folder src/epoxy/{layer}")
    src = os.path.join(root, "src", "epoxy")
    for name in sorted(os.listdir(src)):
        if os.path.isdir(os.path.join(src, name)) and name not in readme.line:
            errors.append(f"src/epoxy/{name}/: a folder the Layers table of {README} does not list")
    targets = cmake_targets(root, readme)
    for layer in readme.order:
        folder = layer_folder(root, layer)
        if folder is not None:
            check_includes(root, readme, layer, folder, errors)
            check_cmake(root, readme, layer, folder, targets, errors)
    return errors


def main(argv):
    root = os.path.abspath(argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
    errors = check(root)
    for e in errors:
        print(e)
    if errors:
        print(f"{len(errors)} layering problem(s); the arrows are in {README}")
        return 1
    print(f"layering: every include and CMake dependency follows {README}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
