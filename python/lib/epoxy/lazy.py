# SPDX-License-Identifier: Apache-2.0
"""Modules imported on first use: a short job should not pay for json, datetime or decimal before
it needs them (each costs milliseconds of start-up)."""
import importlib


class LazyModule:
    def __init__(self, name):
        self._name = name
        self._module = None

    def __getattr__(self, attribute):
        if self._module is None:
            self._module = importlib.import_module(self._name)
        return getattr(self._module, attribute)
