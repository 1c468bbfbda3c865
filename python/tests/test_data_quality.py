# SPDX-License-Identifier: Apache-2.0
"""EvaluateDataQuality, as Glue Studio's generated scripts call it."""
import pytest
from awsglue.dynamicframe import DynamicFrame
from awsgluedq.transforms import EvaluateDataQuality


@pytest.fixture
def frame(glue, spark):
    df = spark.createDataFrame([(1, "a", 5.0), (2, None, 7.0), (2, "c", 9.0)], ["id", "s", "x"])
    return DynamicFrame.fromDF(df, glue, "f")


def test_default_ruleset_of_glue_studio(frame):
    ruleset = """
        Rules = [
            ColumnCount > 0
        ]
    """
    out = EvaluateDataQuality().process_rows(frame=frame, ruleset=ruleset,
                                             publishing_options={"dataQualityEvaluationContext": "node1",
                                                                 "enableDataQualityResultsPublishing": True},
                                             additional_options={"dataQualityResultsPublishing.strategy": "BEST_EFFORT"})
    rules = out["ruleOutcomes"].toDF().collect()
    assert [(r.Rule, r.Outcome) for r in rules] == [("ColumnCount > 0", "Passed")]


def test_rules_and_row_outcomes(frame):
    ruleset = ('Rules = [ RowCount between 1 and 10, IsComplete "s", IsUnique "id", Completeness "s" >= 0.5, '
               'Mean "x" > 6, ColumnValues "x" in [5.0, 7.0], ColumnExists "nope" ]')
    out = EvaluateDataQuality().process_rows(frame=frame, ruleset=ruleset)
    outcomes = {r.Rule: r.Outcome for r in out["ruleOutcomes"].toDF().collect()}
    assert outcomes == {"RowCount between 1 and 10": "Passed", 'IsComplete "s"': "Failed", 'IsUnique "id"': "Failed",
                        'Completeness "s" >= 0.5': "Passed", 'Mean "x" > 6': "Passed",
                        'ColumnValues "x" in [5.0, 7.0]': "Failed", 'ColumnExists "nope"': "Failed"}
    rows = out["rowLevelOutcomes"].toDF().orderBy("x").collect()
    assert [r.DataQualityEvaluationResult for r in rows] == ["Passed", "Failed", "Failed"]


def test_unknown_rules_say_so(frame):
    with pytest.raises(NotImplementedError, match="CustomSql"):
        EvaluateDataQuality.apply(frame=frame, ruleset='Rules = [ CustomSql "select 1" > 0 ]')
