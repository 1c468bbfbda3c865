# SPDX-License-Identifier: Apache-2.0
"""awsglue.transforms: the 22 Glue transforms, each used as `X.apply(**kw)` or `X()(...)`."""
from awsglue.dynamicframe import DynamicFrame, DynamicFrameCollection


class GlueTransform:
    @classmethod
    def apply(cls, *args, **kwargs):
        return cls()(*args, **kwargs)

    @classmethod
    def name(cls):
        return cls.__name__

    @classmethod
    def describeArgs(cls):
        return []

    @classmethod
    def describeReturn(cls):
        return {"type": "DynamicFrame"}

    @classmethod
    def describeTransform(cls):
        return (cls.__doc__ or "").strip()

    @classmethod
    def describeErrors(cls):
        return []

    @classmethod
    def describe(cls):
        return {"transform": {"name": cls.name(), "description": cls.describeTransform()},
                "args": cls.describeArgs(), "returns": cls.describeReturn(), "raises": cls.describeErrors()}


class ApplyMapping(GlueTransform):
    """Selects, renames and casts fields; only the mapped fields are kept."""

    def __call__(self, frame, mappings, case_sensitive=False, transformation_ctx="", info="", stageThreshold=0,
                 totalThreshold=0):
        # Glue forwards only the mappings and case_sensitive (the rest is dropped).
        return frame.apply_mapping(mappings, case_sensitive)


class ResolveChoice(GlueTransform):
    """Resolves choice types: cast:T, project:T, make_cols, make_struct, match_catalog."""

    def __call__(self, frame, specs=None, choice="", database=None, table_name=None, transformation_ctx="", info="",
                 stageThreshold=0, totalThreshold=0, catalog_id=None):
        return frame.resolveChoice(specs, choice, database, table_name, transformation_ctx, info, stageThreshold,
                                   totalThreshold, catalog_id)


class DropNullFields(GlueTransform):
    """Drops the fields whose every value is null."""

    def __call__(self, frame, transformation_ctx="", info="", stageThreshold=0, totalThreshold=0):
        out, null_fields = frame.drop_null_fields()
        print("null_fields", null_fields)
        return out


class DropFields(GlueTransform):
    def __call__(self, frame, paths, transformation_ctx="", info="", stageThreshold=0, totalThreshold=0):
        return frame.drop_fields(paths, transformation_ctx, info, stageThreshold, totalThreshold)


class SelectFields(GlueTransform):
    def __call__(self, frame, paths, transformation_ctx="", info="", stageThreshold=0, totalThreshold=0):
        return frame.select_fields(paths, transformation_ctx, info, stageThreshold, totalThreshold)


class RenameField(GlueTransform):
    def __call__(self, frame, old_name, new_name, transformation_ctx="", info="", stageThreshold=0, totalThreshold=0):
        return frame.rename_field(old_name, new_name, transformation_ctx, info, stageThreshold, totalThreshold)


class SplitFields(GlueTransform):
    def __call__(self, frame, paths, name1=None, name2=None, transformation_ctx="", info="", stageThreshold=0,
                 totalThreshold=0):
        base = frame.name or "frame"
        name1 = name1 or (base + "1" if frame.name else "frame1")
        name2 = name2 or (base + "2" if frame.name else "frame2")
        return frame.split_fields(paths, name1, name2, transformation_ctx, info, stageThreshold, totalThreshold)


class SplitRows(GlueTransform):
    def __call__(self, frame, comparison_dict, name1="frame1", name2="frame2", transformation_ctx="", info=None,
                 stageThreshold=0, totalThreshold=0):
        return frame.split_rows(comparison_dict, name1, name2, transformation_ctx, info or "", stageThreshold,
                                totalThreshold)


class Join(GlueTransform):
    def __call__(self, frame1, frame2, keys1, keys2, transformation_ctx=""):
        return frame1.join(keys1, keys2, frame2)


class Spigot(GlueTransform):
    def __call__(self, frame, path, options, transformation_ctx=""):
        return frame.spigot(path, options, transformation_ctx)


class Unbox(GlueTransform):
    def __call__(self, frame, path, format, transformation_ctx="", info="", stageThreshold=0, totalThreshold=0,
                 **options):
        return frame.unbox(path, format, transformation_ctx, info, stageThreshold, totalThreshold, **options)


class UnnestFrame(GlueTransform):
    def __call__(self, frame, transformation_ctx="", info="", stageThreshold=0, totalThreshold=0):
        return frame.unnest(transformation_ctx, info, stageThreshold, totalThreshold)


class Relationalize(GlueTransform):
    def __call__(self, frame, staging_path=None, name="roottable", options=None, transformation_ctx="", info="",
                 stageThreshold=0, totalThreshold=0):
        if staging_path is None:
            from awsglue.utils import _global_args
            staging_path = _global_args().get("TempDir")
            if not staging_path:
                raise ValueError("Relationalize needs a staging_path (or --TempDir)")
        return frame.relationalize(name, staging_path, options, transformation_ctx, info, stageThreshold,
                                   totalThreshold)


class Filter(GlueTransform):
    def __call__(self, frame, f, transformation_ctx="", info="", stageThreshold=0, totalThreshold=0):
        return frame.filter(f, transformation_ctx, info, stageThreshold, totalThreshold)


class Map(GlueTransform):
    def __call__(self, frame, f, preservesPartitioning=False, transformation_ctx="", info="", stageThreshold=0,
                 totalThreshold=0):
        return frame.map(f, preservesPartitioning, transformation_ctx, info, stageThreshold, totalThreshold)


class Repartition(GlueTransform):
    def __call__(self, frame, num_partitions, transformation_ctx="", info="", stageThreshold=0, totalThreshold=0):
        return frame.repartition(num_partitions)


class Coalesce(GlueTransform):
    def __call__(self, frame, num_partitions, shuffle=False, transformation_ctx="", info="", stageThreshold=0,
                 totalThreshold=0):
        return frame.coalesce(num_partitions, shuffle)


class Union(GlueTransform):
    def __call__(self, frame1, frame2, transformation_ctx="", info="", stageThreshold=0, totalThreshold=0):
        return frame1.union(frame2)


class ErrorsAsDynamicFrame(GlueTransform):
    def __call__(self, frame):
        return frame.errorsAsDynamicFrame()


class SelectFromCollection(GlueTransform):
    def __call__(self, dfc, key, transformation_ctx=""):
        return dfc.select(key, transformation_ctx)


class MapToCollection(GlueTransform):
    def __call__(self, dfc, callable, transformation_ctx=""):
        return dfc.map(callable, transformation_ctx)


class FlatMap(GlueTransform):
    def __call__(self, dfc, BaseTransform, frame_name, transformation_ctx="", **base_kwargs):
        def apply(frame, ctx):
            return BaseTransform.apply(**dict(base_kwargs, **{frame_name: frame}))
        return dfc.flatmap(apply, transformation_ctx)


ALL_TRANSFORMS = {ApplyMapping, ResolveChoice, DropNullFields, DropFields, SelectFields, RenameField, SplitFields,
                  SplitRows, Join, Spigot, Unbox, UnnestFrame, Relationalize, Filter, Map, Repartition, Coalesce,
                  Union, ErrorsAsDynamicFrame, SelectFromCollection, MapToCollection, FlatMap}


def get_transforms():
    return set(ALL_TRANSFORMS)


def get_transform(name):
    for t in ALL_TRANSFORMS:
        if t.name().lower() == name.lower():
            return t
    return None


def describe_transform(name):
    t = get_transform(name)
    return t.describe() if t else None


__all__ = [t.__name__ for t in ALL_TRANSFORMS] + ["GlueTransform", "ALL_TRANSFORMS", "get_transforms",
                                                    "get_transform", "describe_transform"]
