"""Validating a NIST SP 1500-100 v2 document against NIST's JSON schema (draft-04).

Every validation error becomes a `Problem` at its JSON path ("$.Election[0].Contest[1].Name"),
with a short message instead of jsonschema's, which repeats the whole offending value (a contest can
be thousands of lines). For a `oneOf` (e.g. a Contest that may be any of four types) jsonschema only
says "not valid under any of the given schemas"; we look inside the branch whose "@type" matches
and report its real errors.
"""
from __future__ import annotations

import json
import re
from decimal import Decimal
from functools import cache
from importlib import resources
from typing import Any, Iterable

from jsonschema import Draft4Validator
from jsonschema.exceptions import ValidationError

from rules.returns.problems import Problem

SCHEMA_FILE = "nist_1500_100_v2.schema.json"
_PLAIN_KEY = re.compile(r"[@A-Za-z_][A-Za-z0-9_@-]*")
_TYPE_WORDS = {"string": "a string", "array": "a list", "object": "an object", "number": "a number",
               "integer": "a whole number", "boolean": "true or false", "null": "null"}


@cache
def validator() -> Draft4Validator:
    schema = json.loads(resources.files("rules.returns").joinpath(SCHEMA_FILE).read_text(encoding="utf-8"))
    # The schema declares draft-04 ("$schema"); draft-04 semantics matter: there, 1.0 is not an integer.
    return Draft4Validator(schema, format_checker=Draft4Validator.FORMAT_CHECKER)


def json_path(parts: Iterable[Any]) -> str:
    out = ["$"]
    for part in parts:
        if isinstance(part, int):
            out.append(f"[{part}]")
        elif _PLAIN_KEY.fullmatch(part):
            out.append(f".{part}")
        else:
            out.append(f"[{json.dumps(part)}]")
    return "".join(out)


def schema_problems(document: Any) -> list[Problem]:
    """All schema violations, in document order, each once."""
    found: dict[tuple, Problem] = {}
    for error in validator().iter_errors(document):
        for parts, message in _explain(error):
            found.setdefault((_sort_key(parts), message), Problem(json_path(parts), message))
    return [found[key] for key in sorted(found, key=lambda k: k)]


def _sort_key(parts: list) -> tuple:
    return tuple((0, p, "") if isinstance(p, int) else (1, 0, p) for p in parts)


def _explain(error: ValidationError) -> list[tuple[list, str]]:
    path = list(error.absolute_path)
    instance, kind = error.instance, error.validator
    if kind in ("oneOf", "anyOf"):
        return _explain_choice(error, path)
    if kind == "required":
        return [(path + [name], "is required but missing")
                for name in error.validator_value if isinstance(instance, dict) and name not in instance]
    if kind == "additionalProperties":
        allowed = error.schema.get("properties", {})
        return [(path + [name], "is not a field allowed here") for name in instance if name not in allowed]
    if kind == "type":
        wanted = error.validator_value if isinstance(error.validator_value, list) else [error.validator_value]
        return [(path, f"must be {' or '.join(_TYPE_WORDS.get(w, w) for w in wanted)} (got {_show(instance)})")]
    if kind == "enum":
        return [(path, f"must be one of {', '.join(map(str, error.validator_value))} (got {_show(instance)})")]
    if kind in ("pattern", "format") and error.schema.get("format") == "date-time":
        return [(path, f"must be a date and time with its zone, like 2024-11-05T20:00:00-07:00 (got {_show(instance)})")]
    if kind == "format":
        return [(path, f"must be a {error.validator_value} (got {_show(instance)})")]
    if kind == "pattern":
        return [(path, f"does not have the required form (got {_show(instance)})")]
    if kind == "minItems":
        return [(path, f"must have at least {error.validator_value} item(s)")]
    return [(path, _cut(error.message))]


def _explain_choice(error: ValidationError, path: list) -> list[tuple[list, str]]:
    """Report the errors of the branch whose "@type" the instance names, or say the type is wrong."""
    branches: dict[int, list[ValidationError]] = {}
    for sub in error.context or ():
        branches.setdefault(sub.relative_schema_path[0], []).append(sub)
    names = [_ref_name(b) for b in error.validator_value]
    if not error.context:
        return [(path, f"matches more than one of {', '.join(names)}")]
    matching = [i for i in range(len(names))
                if not any(list(sub.relative_path)[:1] == ["@type"] for sub in branches.get(i, []))]
    if len(matching) == 1:
        out: list[tuple[list, str]] = []
        for sub in branches.get(matching[0], []):
            out.extend(_explain(sub))
        return out
    if not isinstance(error.instance, dict):
        return [(path, f"must be an object: one of {', '.join(names)} (got {_show(error.instance)})")]
    return [(path + ["@type"], f"must be one of {', '.join(names)} (got {_show(error.instance.get('@type'))})")]


def _ref_name(branch: Any) -> str:
    ref = branch.get("$ref", "") if isinstance(branch, dict) else ""
    return ref.rsplit("/", 1)[-1] or "?"


def _show(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, Decimal)):
        return str(value)
    return _cut(repr(str(value)), 60)


def _cut(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."
