# SPDX-License-Identifier: Apache-2.0
"""One test per DynamicFrame transform (and the awsglue.transforms classes), checking results."""
import json

import pytest
from awsglue import gluetypes
from awsglue.dynamicframe import DynamicFrame, DynamicFrameCollection
from awsglue.transforms import (ALL_TRANSFORMS, ApplyMapping, Coalesce, DropFields, DropNullFields,
                                ErrorsAsDynamicFrame, Filter, FlatMap, Join, Map, MapToCollection, Relationalize,
                                RenameField, Repartition, ResolveChoice, SelectFields, SelectFromCollection, Spigot,
                                SplitFields, SplitRows, Unbox, Union, UnnestFrame)
from pyspark.sql import Row


@pytest.fixture
def payments(glue, tmp_path):
    """The worked example's payments: amount is choice<long,string> across the records."""
    path = tmp_path / "payments.json"
    records = [{"id": 1, "amount": 1200}, {"id": 2, "amount": "12.50"}, {"id": 3, "amount": "N/A"},
               {"id": 4, "amount": 3400}]
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return glue.create_dynamic_frame.from_options("s3", {"paths": [str(path)]}, "json", transformation_ctx="payments")


@pytest.fixture
def people(glue, spark):
    df = spark.createDataFrame([(1, "ann", 30, None), (2, "bob", 17, None), (3, "cid", 45, None)],
                               "id long, name string, age int, nothing string")
    return DynamicFrame.fromDF(df, glue, "people")


def rows(frame):
    return [tuple(r) for r in frame.toDF().orderBy(frame.toDF().columns[0]).collect()]


def test_twenty_two_transforms():
    assert len(ALL_TRANSFORMS) == 22


def test_schema_has_the_choice(payments, capsys):
    amount = payments.schema().getField("amount").dataType
    assert isinstance(amount, gluetypes.ChoiceType) and sorted(amount.choices) == ["long", "string"]
    payments.printSchema()
    assert capsys.readouterr().out == "root\n|-- id: long\n|-- amount: choice\n|    |-- long\n|    |-- string\n"


def test_resolve_choice_cast_long(payments):
    out = ResolveChoice.apply(frame=payments, specs=[("amount", "cast:long")])
    assert rows(out) == [(1, 1200), (2, None), (3, None), (4, 3400)]
    assert isinstance(out.schema().getField("amount").dataType, gluetypes.LongType)


def test_resolve_choice_make_cols_places_columns_as_glue(payments):
    out = payments.resolveChoice(specs=[("amount", "make_cols")])
    assert out.toDF().columns == ["id", "amount_long", "amount_string"]
    assert rows(out) == [(1, 1200, None), (2, None, "12.50"), (3, None, "N/A"), (4, 3400, None)]


def test_resolve_choice_make_struct(payments):
    out = payments.resolveChoice(specs=[("amount", "make_struct")])
    assert rows(out)[1] == (2, Row(long=None, string="12.50"))


def test_resolve_choice_project_string(payments):
    out = payments.resolveChoice(specs=[("amount", "project:string")])
    assert rows(out) == [(1, "1200"), (2, "12.50"), (3, "N/A"), (4, "3400")]


def test_resolve_choice_needs_specs_or_choice(payments):
    with pytest.raises(ValueError):
        payments.resolveChoice()
    with pytest.raises(ValueError):
        payments.resolveChoice(specs=[("amount", "cast:long")], choice="make_cols")


def test_apply_mapping_keeps_only_mapped_fields(people):
    out = ApplyMapping.apply(frame=people, mappings=[("id", "long", "person_id", "string"), ("name", "string", "who", "string")])
    assert out.toDF().columns == ["person_id", "who"]
    assert rows(out)[0] == ("1", "ann")


def test_select_drop_rename(people):
    assert SelectFields.apply(frame=people, paths=["name", "id"]).toDF().columns == ["name", "id"]
    assert DropFields.apply(frame=people, paths=["nothing"]).toDF().columns == ["id", "name", "age"]
    assert RenameField.apply(frame=people, old_name="name", new_name="full_name").toDF().columns[1] == "full_name"


def test_drop_null_fields_prints_them(people, capsys):
    out = DropNullFields.apply(frame=people)
    assert out.toDF().columns == ["id", "name", "age"]
    assert "null_fields ['nothing']" in capsys.readouterr().out


def test_split_fields_and_rows(people):
    fields = SplitFields.apply(frame=people, paths=["name"], name1="names", name2="rest")
    assert sorted(fields.keys()) == ["names", "rest"]
    assert fields["names"].toDF().columns == ["name"]
    split = SplitRows.apply(frame=people, comparison_dict={"age": {">": 18}}, name1="adults", name2="minors")
    assert split["adults"].count() == 2 and split["minors"].count() == 1


def test_join_and_union(people, glue, spark):
    pets = DynamicFrame.fromDF(spark.createDataFrame([(1, "cat"), (3, "dog")], ["owner", "pet"]), glue, "pets")
    joined = Join.apply(frame1=people, frame2=pets, keys1=["id"], keys2=["owner"])
    assert joined.name == "peoplepets"
    assert sorted(r.pet for r in joined.toDF().collect()) == ["cat", "dog"]
    assert Union.apply(frame1=people, frame2=people).count() == 6


def test_filter_and_map_with_error_records(people):
    adults = Filter.apply(frame=people, f=lambda r: r["age"] >= 18)
    assert adults.count() == 2
    dropped = people.filter(lambda r: r["missing"] > 1)  # KeyError drops the record
    assert dropped.count() == 0 and dropped.stageErrorsCount() == 0
    failing = people.filter(lambda r: 1 / 0)  # another exception makes an error record
    assert failing.count() == 0 and failing.stageErrorsCount() == 3
    assert "ZeroDivisionError" in failing.errorsAsDynamicFrame().toDF().collect()[0].errorMessage

    def upper(r):
        if r["id"] == 2:
            raise RuntimeError("bad record")
        r["name"] = r["name"].upper()
        return r
    mapped = Map.apply(frame=people, f=upper)
    assert sorted(r.name for r in mapped.toDF().collect()) == ["ANN", "CID"]
    assert mapped.stageErrorsCount() == 1 and mapped.errorsCount() == 1
    errors = ErrorsAsDynamicFrame.apply(mapped).toDF().collect()
    assert "bad record" in errors[0].errorMessage
    none = people.map(lambda r: None)
    assert none.stageErrorsCount() == 3
    with pytest.raises(RuntimeError, match="stageThreshold"):
        people.map(upper, stageThreshold=0.5)


def test_map_output_schema_comes_from_every_record(glue, spark):
    import datetime as dt
    df = spark.createDataFrame([(1, dt.date(2024, 1, 2)), (2, dt.date(2024, 1, 3))], ["id", "day"])
    frame = DynamicFrame.fromDF(df, glue, "days")

    def tag(r):
        r["label"] = r["id"] * 10 if r["id"] == 1 else "two"  # a long in one record, a string in another
        r["tags"] = {"k": r["id"]}
        return r
    out = frame.map(tag)
    label = out.schema().getField("label").dataType
    assert isinstance(label, gluetypes.ChoiceType) and sorted(label.choices) == ["long", "string"]
    rows = out.toDF().orderBy("id").collect()
    assert [(r.id, r.day, r.label, r.tags.k) for r in rows] == [(1, dt.date(2024, 1, 2), "10", 1),
                                                                 (2, dt.date(2024, 1, 3), "two", 2)]


def test_unnest_and_relationalize(glue, tmp_path):
    path = tmp_path / "events.json"
    path.write_text('{"id": "e1", "payload": {"page": "/home"}, "items": [{"sku": "A", "qty": 1}]}\n'
                    '{"id": "e2", "payload": {"page": "/home"}, "items": [{"sku": "B", "qty": 1}, {"sku": "C", "qty": 2}]}\n')
    events = glue.create_dynamic_frame.from_options("s3", {"paths": [str(path)]}, "json")
    assert UnnestFrame.apply(frame=events).toDF().columns == ["id", "payload.page", "items"]
    tables = Relationalize.apply(frame=events, staging_path=str(tmp_path / "tmp"), name="root")
    assert sorted(tables.keys()) == ["root", "root_items"]
    assert tables["root"].toDF().columns == ["id", "payload.page", "items"]
    child = tables.select("root_items").toDF()
    assert child.columns == ["id", "index", "items.val.sku", "items.val.qty"]
    assert [tuple(r) for r in child.collect()] == [(1, 0, "A", 1), (2, 0, "B", 1), (2, 1, "C", 2)]


def test_unbox(glue, spark):
    df = spark.createDataFrame([(1, '{"a": 5}')], ["id", "body"])
    out = Unbox.apply(frame=DynamicFrame.fromDF(df, glue, "x"), path="body", format="json")
    assert out.toDF().collect()[0].body == Row(a=5)


def test_spigot_writes_a_sample(people, tmp_path):
    out = Spigot.apply(frame=people, path=str(tmp_path / "sample"), options={"topk": 2})
    assert out.count() == 3
    assert any(p.suffix == ".json" for p in (tmp_path / "sample").iterdir())


def test_repartition_coalesce(people):
    assert Repartition.apply(frame=people, num_partitions=4).count() == 3
    assert Coalesce.apply(frame=people, num_partitions=1).count() == 3


def test_collections(people, glue):
    dfc = DynamicFrameCollection({"a": people}, glue)
    assert SelectFromCollection.apply(dfc=dfc, key="a").count() == 3
    assert SelectFromCollection.apply(dfc=dfc, key="missing").count() == 0  # an empty frame, not KeyError
    mapped = MapToCollection.apply(dfc=dfc, callable=lambda f, ctx: f.select_fields(["id"]))
    assert mapped["a"].toDF().columns == ["id"]
    flat = FlatMap.apply(dfc=dfc, BaseTransform=SelectFields, frame_name="frame", paths=["name"])
    assert list(flat.values())[0].toDF().columns == ["name"]


def test_merge_dynamic_frame(glue, spark):
    base = DynamicFrame.fromDF(spark.createDataFrame([(1, "old"), (2, "keep")], ["id", "v"]), glue, "base")
    stage = DynamicFrame.fromDF(spark.createDataFrame([(1, "new"), (3, "add")], ["id", "v"]), glue, "stage")
    merged = base.mergeDynamicFrame(stage, ["id"])
    assert sorted(tuple(r) for r in merged.toDF().collect()) == [(1, "new"), (2, "keep"), (3, "add")]


def test_show_prints_records(people, capsys):
    people.show(1)
    assert json.loads(capsys.readouterr().out.splitlines()[0])["name"] in ("ann", "bob", "cid")
