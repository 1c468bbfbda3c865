# SPDX-License-Identifier: Apache-2.0
"""getResolvedOptions: a job's `--NAME value` arguments, as Glue passes them in sys.argv."""
import argparse
import sys

__all__ = ["getResolvedOptions", "GlueArgumentError", "GlueArgumentParser"]


class GlueArgumentError(Exception):
    pass


class GlueArgumentParser(argparse.ArgumentParser):
    def error(self, message):
        raise GlueArgumentError(message)


# Arguments Glue itself passes or reserves; a script may ask for them but not redefine their meaning.
_RESERVED = ["job-bookmark-option", "continuation-option", "TempDir", "RedshiftTempDir", "JOB_ID", "JOB_RUN_ID",
             "SECURITY_CONFIGURATION", "encryption-type", "enable-data-lineage"]


def getResolvedOptions(args, options, allow_abbrev=False):
    """The values of `options` (names without the leading --) from `args` (usually sys.argv).
    Unknown arguments are ignored; a missing one raises GlueArgumentError."""
    parser = GlueArgumentParser(prog=args[0] if args else "script", allow_abbrev=allow_abbrev, add_help=False)
    parser.add_argument("--job-bookmark-option", choices=["job-bookmark-enable", "job-bookmark-pause",
                                                          "job-bookmark-disable"], required=False)
    parser.add_argument("--continuation-option", choices=["continuation-enabled", "continuation-readversion",
                                                          "continuation-ignore"], required=False)
    for name in ("TempDir", "RedshiftTempDir", "JOB_ID", "JOB_RUN_ID", "SECURITY_CONFIGURATION", "encryption-type",
                 "enable-data-lineage"):
        parser.add_argument("--" + name, required=False)
    for option in options:
        if option in _RESERVED:
            if option in ("TempDir", "RedshiftTempDir", "JOB_ID", "JOB_RUN_ID"):
                continue  # already known; asking for them is allowed
            raise RuntimeError("Using reserved arguments %s" % option)
        if option.startswith("--"):
            option = option[2:]
        parser.add_argument("--" + option, required=True)
    parsed, _ = parser.parse_known_args(args[1:] if args else [])
    values = vars(parsed)
    if values.get("TempDir") is None:
        values["TempDir"] = values.get("RedshiftTempDir")
    if values.get("RedshiftTempDir") is None:
        values["RedshiftTempDir"] = values.get("TempDir")
    if values.get("job_bookmark_option") is None:
        values["job_bookmark_option"] = "job-bookmark-disable"
    if values.get("continuation_option") is None:
        values["continuation_option"] = "continuation-enabled"
    result = {}
    for key, value in values.items():
        result[key] = value
    # argparse turns dashes into underscores; Glue keeps both spellings for its own names.
    for option in options:
        name = option[2:] if option.startswith("--") else option
        result[name] = values.get(name.replace("-", "_"), values.get(name))
    return result


def _global_args():
    """The job's --TempDir and friends, for transforms that default to them (Relationalize)."""
    try:
        return getResolvedOptions(sys.argv, [])
    except GlueArgumentError:
        return {}
