# SPDX-License-Identifier: Apache-2.0
"""Relationalize over records: structs flattened into dotted column names, each array moved into a
child table (`<parent>_<path>`) with columns `id` (the key now stored in the parent's column),
`index` (the 0-based position) and `<path>.val` (or `<path>.val.<field>` for structs)."""


def relationalize_records(records, root_name):
    tables = {root_name: []}
    counters = {}
    for record in records:
        tables[root_name].append(_flatten(record, "", root_name, tables, counters))
    return tables


def _flatten(value, prefix, table, tables, counters, out=None):
    out = {} if out is None else out
    for key, v in value.items():
        name = prefix + key
        if isinstance(v, dict):
            _flatten(v, name + ".", table, tables, counters, out)
        elif isinstance(v, list):
            child = table + "_" + name
            counters[child] = counters.get(child, 0) + 1
            join_key = counters[child]
            out[name] = join_key
            rows = tables.setdefault(child, [])
            for i, element in enumerate(v):
                row = {"id": join_key, "index": i}
                if isinstance(element, dict):
                    _flatten(element, name + ".val.", child, tables, counters, row)
                elif isinstance(element, list):
                    _flatten({name + ".val": element}, "", child, tables, counters, row)
                else:
                    row[name + ".val"] = element
                rows.append(row)
        else:
            out[name] = v
    return out
