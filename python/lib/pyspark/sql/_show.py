# SPDX-License-Identifier: Apache-2.0
"""DataFrame.show()'s text: Spark's table layout and its way of printing each value."""
import datetime as _dt
import decimal as _decimal


def cell_text(value):
    """A value as Spark's show() prints it (Spark 3.5: nulls as `null`)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return _double_text(value)
    if isinstance(value, _decimal.Decimal):
        return format(value, "f")
    if isinstance(value, _dt.datetime):
        text = value.strftime("%Y-%m-%d %H:%M:%S")
        if value.microsecond:
            text += ("%.6f" % (value.microsecond / 1e6))[1:].rstrip("0")
        return text
    if isinstance(value, _dt.date):
        return value.isoformat()
    if isinstance(value, (bytes, bytearray)):
        return "[" + " ".join("%02X" % b for b in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join("%s -> %s" % (cell_text(k), cell_text(v)) for k, v in value.items()) + "}"
    if isinstance(value, tuple):  # Row
        return "{" + ", ".join(cell_text(v) for v in value) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(cell_text(v) for v in value) + "]"
    return str(value)


def _double_text(value):
    if value != value:
        return "NaN"
    if value in (float("inf"), float("-inf")):
        return "Infinity" if value > 0 else "-Infinity"
    if value == int(value) and abs(value) < 1e7:
        return "%.1f" % value
    text = repr(value)
    if "e" in text:  # Java prints 1.0E-5, 1.234E10
        mantissa, exponent = text.split("e")
        if "." not in mantissa:
            mantissa += ".0"
        return "%sE%d" % (mantissa, int(exponent))
    if abs(value) >= 1e7:
        exponent = len(str(int(abs(value)))) - 1
        mantissa = repr(value / 10 ** exponent)
        return "%sE%d" % (mantissa, exponent)
    return text


def table_text(names, rows, truncate=20, has_more=False, vertical=False, shown=20):
    """The table show() prints, with `only showing top N rows` when rows were left out."""
    truncate = 20 if truncate is True else (0 if truncate is False else int(truncate))

    def cut(text):
        if truncate > 0 and len(text) > truncate:
            return text[:truncate - 3] + "..." if truncate >= 4 else text[:truncate]
        return text

    cells = [[cut(cell_text(v)) for v in row] for row in rows]
    header = [cut(n) for n in names]
    if vertical:
        width = max([len(n) for n in header] + [0])
        out = []
        for i, row in enumerate(cells):
            out.append("-RECORD %d" % i + "-" * max(0, width + max([len(c) for c in row] + [0]) - len("RECORD %d" % i)))
            for n, c in zip(header, row):
                out.append(" %s | %s " % (n.ljust(width), c))
        if not cells:
            out.append("(0 rows)")
        text = "\n".join(out) + "\n"
    else:
        widths = [max(3, len(h)) for h in header]
        for row in cells:
            widths = [max(w, len(c)) for w, c in zip(widths, row)]
        line = "+" + "+".join("-" * w for w in widths) + "+"

        def fmt(row):
            if truncate > 0:
                return "|" + "|".join(c.rjust(w) for c, w in zip(row, widths)) + "|"
            return "|" + "|".join(c.ljust(w) for c, w in zip(row, widths)) + "|"

        out = [line, fmt(header), line] + [fmt(r) for r in cells] + [line]
        text = "\n".join(out) + "\n"
    if has_more:
        text += "only showing top %d %s\n" % (shown, "row" if shown == 1 else "rows")
    return text
