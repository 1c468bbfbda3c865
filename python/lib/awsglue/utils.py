# SPDX-License-Identifier: Apache-2.0
"""getResolvedOptions: a job's `--NAME value` arguments, as Glue passes them in sys.argv.

Glue parses them with argparse's parse_known_args; this reads them the same way (`--name value`
and `--name=value`, a value may be a negative number but not another option, the last of
repeated arguments wins, unknown arguments are ignored) without importing argparse, which is a
large part of a short job's start-up."""
import sys

__all__ = ["getResolvedOptions", "GlueArgumentError", "GlueArgumentParser"]


class GlueArgumentError(Exception):
    pass


def __getattr__(name):
    if name == "GlueArgumentParser":  # argparse's parser whose error() raises, for scripts that use it
        import argparse

        class GlueArgumentParser(argparse.ArgumentParser):
            def error(self, message):
                raise GlueArgumentError(message)
        globals()["GlueArgumentParser"] = GlueArgumentParser
        return GlueArgumentParser
    raise AttributeError(name)


# Arguments Glue itself passes; a script may ask for some, never redefine them.
_GLUE_OPTIONS = ["job-bookmark-option", "job-bookmark-from", "job-bookmark-to", "continuation-option", "TempDir", "RedshiftTempDir", "JOB_ID", "JOB_RUN_ID",
                 "SECURITY_CONFIGURATION", "encryption-type", "enable-data-lineage"]
_ASKABLE = {"TempDir", "RedshiftTempDir", "JOB_ID", "JOB_RUN_ID"}
_CHOICES = {"job-bookmark-option": ["job-bookmark-enable", "job-bookmark-pause", "job-bookmark-disable"],
            "continuation-option": ["continuation-enabled", "continuation-readversion", "continuation-ignore"]}


def _is_negative_number(token):
    try:
        float(token)
        return token.startswith("-")
    except ValueError:
        return False


def _looks_like_option(token):
    return token.startswith("-") and token != "-" and not _is_negative_number(token)


def getResolvedOptions(args, options, allow_abbrev=False):
    """The values of `options` (names without the leading --) from `args` (usually sys.argv).
    Unknown arguments are ignored; a missing or malformed one raises GlueArgumentError."""
    wanted = []
    for option in options:
        name = option[2:] if option.startswith("--") else option
        if name in _GLUE_OPTIONS and name not in _ASKABLE:
            raise RuntimeError("Using reserved arguments %s" % option)
        wanted.append(name)
    known = list(dict.fromkeys(_GLUE_OPTIONS + wanted))
    values = {}
    tokens = list(args[1:]) if args else []
    i = 0
    while i < len(tokens):
        token = tokens[i]
        i += 1
        if token == "--":
            break
        if not token.startswith("--") or len(token) == 2:
            continue  # a positional or single-dash argument: not Glue's, ignored
        name, has_value, value = token[2:].partition("=")
        target = name if name in known else None
        if target is None and allow_abbrev:
            matches = [k for k in known if k.startswith(name)]
            if len(matches) > 1:
                raise GlueArgumentError("ambiguous option: --%s could match %s" % (name, ", ".join("--" + m for m in matches)))
            target = matches[0] if matches else None
        if target is None:
            continue  # unknown: ignored, as parse_known_args leaves it
        if not has_value:
            if i >= len(tokens) or _looks_like_option(tokens[i]):
                raise GlueArgumentError("argument --%s: expected one argument" % target)
            value = tokens[i]
            i += 1
        if target in _CHOICES and value not in _CHOICES[target]:
            raise GlueArgumentError("argument --%s: invalid choice: '%s' (choose from %s)" %
                                    (target, value, ", ".join("'%s'" % c for c in _CHOICES[target])))
        values[target] = value
    missing = [n for n in wanted if n not in values and n not in _ASKABLE]
    if missing:
        raise GlueArgumentError("the following arguments are required: %s" % ", ".join("--" + n for n in missing))
    result = {k.replace("-", "_"): values.get(k) for k in _GLUE_OPTIONS}
    if result["TempDir"] is None:
        result["TempDir"] = result["RedshiftTempDir"]
    if result["RedshiftTempDir"] is None:
        result["RedshiftTempDir"] = result["TempDir"]
    if result["job_bookmark_option"] is None:
        result["job_bookmark_option"] = "job-bookmark-disable"
    has_from, has_to = result["job_bookmark_from"] is not None, result["job_bookmark_to"] is not None
    if result["job_bookmark_option"] == "job-bookmark-pause" and has_from != has_to:
        raise RuntimeError("Missing option or value for %s" % ("--job-bookmark-to" if has_from else "--job-bookmark-from"))
    if result["job_bookmark_option"] != "job-bookmark-pause" and has_from and has_to:
        raise RuntimeError("Invalid option(s): --job-bookmark-from and --job-bookmark-to need --job-bookmark-option "
                           "job-bookmark-pause")
    if result["continuation_option"] is None:
        result["continuation_option"] = "continuation-enabled"
    for name in wanted:
        result[name.replace("-", "_")] = values.get(name, result.get(name.replace("-", "_")))
        result[name] = result[name.replace("-", "_")]
    return result


def _global_args():
    """The job's --TempDir and friends, for transforms that default to them (Relationalize)."""
    try:
        return getResolvedOptions(sys.argv, [])
    except GlueArgumentError:
        return {}
