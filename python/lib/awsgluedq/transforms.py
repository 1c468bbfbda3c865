# SPDX-License-Identifier: Apache-2.0
"""EvaluateDataQuality over a DynamicFrame: a ruleset in DQDL (`Rules = [ ... ]`) evaluated by the
engine. The rules: RowCount, ColumnCount, ColumnExists, IsComplete, IsUnique, IsPrimaryKey,
Completeness, Uniqueness, DistinctValuesCount, Mean, Sum, StandardDeviation, ColumnLength and
ColumnValues, with `= != > >= < <=`, `between A and B` and `in [...]`. Another rule type raises
NotImplementedError naming it. The outcomes are Glue's: `ruleOutcomes` (Rule, Outcome,
FailureReason, EvaluatedMetrics) and `rowLevelOutcomes` (the rows with
DataQualityEvaluationResult)."""
import re

from awsglue.dynamicframe import DynamicFrame, DynamicFrameCollection
from epoxy.runtime import quote
from pyspark.errors import PySparkNotImplementedError
from pyspark.sql import functions as F
from pyspark.sql.column import literal_sql

_KINDS = {"RowCount", "ColumnCount", "ColumnExists", "IsComplete", "Completeness", "IsUnique", "IsPrimaryKey",
          "Uniqueness", "DistinctValuesCount", "Mean", "Sum", "StandardDeviation", "ColumnLength", "ColumnValues"}
_RULE = re.compile(r'^(\w+)\s*((?:"[^"]*"\s*)*)(.*)$', re.S)


def _split_rules(ruleset):
    m = re.search(r"Rules\s*=\s*\[(.*)\]", ruleset, re.S)
    if not m:
        raise ValueError("a DQDL ruleset looks like Rules = [ RowCount > 0, ... ]")
    rules, depth, current, quoted = [], 0, "", False
    for c in m.group(1):
        if c == '"':
            quoted = not quoted
        if not quoted and c in "[(":
            depth += 1
        if not quoted and c in "])":
            depth -= 1
        if c == "," and depth == 0 and not quoted:
            rules.append(current.strip())
            current = ""
        else:
            current += c
    if current.strip():
        rules.append(current.strip())
    return rules


def _condition(text):
    """A DQDL threshold as a SQL predicate template over `{}`."""
    text = text.strip()
    if not text:
        return None
    m = re.match(r"(?i)^between\s+(\S+)\s+and\s+(\S+)$", text)
    if m:
        return "({} BETWEEN %s AND %s)" % (_value(m.group(1)), _value(m.group(2)))
    m = re.match(r"(?i)^in\s*\[(.*)\]$", text, re.S)
    if m:
        values = [_value(v.strip()) for v in m.group(1).split(",") if v.strip()]
        return "({} IN (%s))" % ", ".join(values)
    m = re.match(r"^(>=|<=|!=|=|>|<)\s*(.+)$", text)
    if m:
        return "({} %s %s)" % (m.group(1), _value(m.group(2)))
    raise ValueError("cannot read the DQDL threshold '%s'" % text)


def _value(token):
    token = token.strip()
    if token.startswith('"') and token.endswith('"'):
        return literal_sql(token[1:-1])
    return token


class EvaluateDataQuality:
    def process_rows(self, frame, ruleset, publishing_options=None, additional_options=None):
        outcomes, row_checks = self._evaluate(frame, ruleset)
        df = frame.toDF()
        if row_checks:
            passed = " AND ".join("coalesce(%s, false)" % c for c in row_checks)
            rows = df.withColumn("DataQualityEvaluationResult",
                                 F.expr("CASE WHEN %s THEN 'Passed' ELSE 'Failed' END" % passed))
        else:
            rows = df.withColumn("DataQualityEvaluationResult", F.lit("Passed"))
        ctx = frame.glue_ctx
        return DynamicFrameCollection({
            "ruleOutcomes": DynamicFrame(outcomes, ctx, "ruleOutcomes"),
            "rowLevelOutcomes": DynamicFrame(rows, ctx, "rowLevelOutcomes"),
        }, ctx)

    @classmethod
    def apply(cls, frame, ruleset, publishing_options=None, additional_options=None):
        return cls().process_rows(frame, ruleset, publishing_options, additional_options)["ruleOutcomes"]

    def _evaluate(self, frame, ruleset):
        df = frame.toDF()
        columns = df.columns
        results, row_checks = [], []
        for rule in _split_rules(ruleset):
            m = _RULE.match(rule)
            kind, names, rest = m.group(1), re.findall(r'"([^"]*)"', m.group(2)), m.group(3)
            cond = _condition(rest)
            metric, value, passed, reason = kind, None, None, None
            col = names[0] if names else None
            if kind not in _KINDS:
                raise PySparkNotImplementedError("EvaluateDataQuality: the DQDL rule %s is not supported by epoxy yet" % kind)
            if col is not None and kind != "ColumnExists" and col not in columns:
                results.append((rule, "Failed", "Column %s does not exist" % col, {}))
                continue
            q = quote(col) if col else None
            if kind == "RowCount":
                value = float(df.count())
            elif kind == "ColumnCount":
                value = float(len(columns))
            elif kind == "ColumnExists":
                passed = col in columns
            elif kind in ("IsComplete", "Completeness"):
                value = self._one(df, "avg(CASE WHEN %s IS NULL THEN 0.0D ELSE 1.0D END)" % q)
                metric = "Column.%s.Completeness" % col
                if kind == "IsComplete":
                    passed = value == 1.0
                    row_checks.append("(%s IS NOT NULL)" % q)
            elif kind in ("IsUnique", "IsPrimaryKey", "Uniqueness"):
                value = self._one(df, "CAST(count(DISTINCT %s) AS DOUBLE) / count(1)" % q)
                metric = "Column.%s.Uniqueness" % col
                if kind != "Uniqueness":
                    complete = self._one(df, "count(%s) / count(1)" % q)
                    passed = value == 1.0 and (kind == "IsUnique" or complete == 1.0)
            elif kind == "DistinctValuesCount":
                value = self._one(df, "count(DISTINCT %s)" % q)
                metric = "Column.%s.DistinctValuesCount" % col
            elif kind in ("Mean", "Sum", "StandardDeviation"):
                fn = {"Mean": "avg", "Sum": "sum", "StandardDeviation": "stddev"}[kind]
                value = self._one(df, "%s(%s)" % (fn, q))
                metric = "Column.%s.%s" % (col, kind)
            elif kind == "ColumnLength":
                row_checks.append(cond.format("length(%s)" % q))
                failing = self._one(df, "count_if(NOT coalesce(%s, false))" % cond.format("length(%s)" % q))
                passed, value = failing == 0, failing
            elif kind == "ColumnValues":
                row_checks.append(cond.format(q))
                failing = self._one(df, "count_if(NOT coalesce(%s, false))" % cond.format(q))
                passed, value = failing == 0, failing
                metric = "Column.%s.FailedRows" % col
                cond = None
            else:
                raise PySparkNotImplementedError("EvaluateDataQuality: the DQDL rule %s is not supported by epoxy yet" % kind)
            if passed is None:
                passed = value is not None and bool(self._one(None, cond.format(literal_sql(float(value))))) if cond else True
            if not passed:
                reason = "Value: %s does not meet the constraint requirement!" % value if value is not None else "Rule failed"
            metrics = {("Dataset.*.%s" % metric if "." not in metric else metric): float(value)} if value is not None else {}
            results.append((rule, "Passed" if passed else "Failed", reason, metrics))
        session = frame.glue_ctx.spark_session
        outcomes = session.createDataFrame(results, "Rule string, Outcome string, FailureReason string, "
                                                    "EvaluatedMetrics map<string,double>")
        return outcomes, row_checks

    @staticmethod
    def _one(df, expression):
        if df is None:
            from pyspark.sql import SparkSession
            return SparkSession._get_or_create().sql("SELECT %s AS v" % expression).collect()[0][0]
        return df.selectExpr("%s AS v" % expression).collect()[0][0]
