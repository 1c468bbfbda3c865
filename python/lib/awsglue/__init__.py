# SPDX-License-Identifier: Apache-2.0
"""epoxy's awsglue: AWS Glue's Python job API, written from its documented interface, running
on epoxy's native engine."""


def __getattr__(name):
    if name == "DynamicFrame":
        from awsglue.dynamicframe import DynamicFrame
        return DynamicFrame
    raise AttributeError(name)


__all__ = ["DynamicFrame"]
