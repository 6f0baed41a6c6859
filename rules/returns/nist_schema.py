"""Validating a NIST SP 1500-100 v2 document against NIST's JSON schema (draft-04), fast.

Every validation error becomes a (JSON path parts, message) pair, e.g. (("Election", 0, "Contest", 1,
"Name"), "is required but missing"), with a short message instead of jsonschema's, which repeats the
whole offending value (a contest can be thousands of lines). The caller decides which errors leave
only a contest undecided (those under `$.Election[i].Contest[j]`) and which refuse the file.

Why it was slow: a user measured 540 KB in 1.7 s and 3 MB in 23 s, nearly all of it in jsonschema.
Profiled (cProfile), the cost was `oneOf`: jsonschema validates an instance against every branch in
full, keeps the errors of the failing ones, then re-validates the remaining branches to be sure no
second one matches. A Contest is one of 4 types and a selection one of 3, so every vote count was
validated 12 times, each time through jsonschema's per-value machinery (a new validator object, a
resource, a `$ref` resolution: about 25 calls per value). Every function's time grew with its calls,
so the cost was linear in the number of values, not in bytes; and a bigger file is mostly vote counts,
the values that cost the most per byte (12 validations of a ~90-byte object), so the time grew faster
than the size (on Cambridge MA's export grown 4x in bytes: 5.5x the calls and the time). Formats were
not the cause: draft-04's format checker knows none of date, date-time, time and uri, so they cost
nothing (the DateTimeWithZone `pattern` is checked); nor the garbage collector (the same with it off).

What is done now, with the same guarantees (the figures: benchmarks/nist_reading.py):
1. `nist_schema_fast` compiles the schema once into closures that only answer "valid or not"; a
   document they pass has no error (they implement each keyword as draft-04 does, and refuse to
   compile a schema using anything else). Nearly every real file stops here, in about a twentieth of
   jsonschema's time, linear in the file's size.
2. Otherwise jsonschema finds and locates every error, with two changes that do not change what it
   accepts: every `oneOf` of this schema is a tagged union (each branch a `$ref` to a definition that
   requires "@type" with a single-valued enum, all different), so "valid under exactly one branch" is
   "valid under the branch its @type names", and only that branch is validated (an instance whose
   @type names none, or that is not an object, fails with one error; `_tagged_unions` checks the shape
   at start-up, and a oneOf of another shape keeps jsonschema's keyword); and a `$ref`
   "#/definitions/NAME" is a dict lookup, skipped altogether when the compiled test passes the value
   (a part that passes has no error to find), so a 50 MB file with one bad count only walks the path
   to it. Every other keyword is jsonschema's own, with draft-04's type checker (1.0 is not an integer
   there) and format checker.
"""
from __future__ import annotations

import json
import re
from decimal import Decimal
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any, Callable, Iterable

from rules.returns.nist_schema_fast import compile_schema

if TYPE_CHECKING:
    from jsonschema import Draft4Validator
    from jsonschema.exceptions import ValidationError

SCHEMA_FILE = "nist_1500_100_v2.schema.json"
_PLAIN_KEY = re.compile(r"[@A-Za-z_][A-Za-z0-9_@-]*")
_TYPE_WORDS = {"string": "a string", "array": "a list", "object": "an object", "number": "a number",
               "integer": "a whole number", "boolean": "true or false", "null": "null"}
_DEFINITION = "#/definitions/"


def validator() -> Draft4Validator:
    return _tools()[0]


def fast_check() -> Callable[[Any], bool] | None:
    """The compiled yes/no test (`nist_schema_fast`), or None if the schema is beyond it."""
    return _tools()[1]


@cache
def _tools() -> tuple[Draft4Validator, Callable[[Any], bool] | None]:
    # jsonschema (with referencing and rpds: about 3 MiB and 40 ms) is imported here, when a NIST JSON file is
    # first validated, not with this module: `recount-bot check` of a CSV or a workbook never needs it.
    from jsonschema import Draft4Validator, validators

    from rules.returns.nist_schema_explained import Explained

    schema = json.loads(resources.files("rules.returns").joinpath(SCHEMA_FILE).read_text(encoding="utf-8"))
    definitions = schema.get("definitions", {})
    refs = {_DEFINITION + name: body for name, body in definitions.items()}
    unions = _tagged_unions(schema, refs)

    def tags_of(branches: list) -> dict[str, str] | None:
        tags = unions.get(id(branches))
        return None if tags is None else {tag: branch["$ref"] for tag, (_, branch) in tags.items()}

    compiled = compile_schema(schema, frozenset(Draft4Validator.FORMAT_CHECKER.checkers), tags_of)
    fast, passes = compiled if compiled is not None else (None, {})
    standard_ref, standard_one_of = Draft4Validator.VALIDATORS["$ref"], Draft4Validator.VALIDATORS["oneOf"]

    def ref(validator, ref, instance, schema):
        target = refs.get(ref)
        if target is None:
            yield from standard_ref(validator, ref, instance, schema)
        elif not (ref in passes and passes[ref](instance)):  # a part that passes has no error to find
            yield from validator.descend(instance, target)

    def one_of(validator, branches, instance, schema):
        tags = unions.get(id(branches))
        if tags is None:
            yield from standard_one_of(validator, branches, instance, schema)
            return
        tag = instance.get("@type") if isinstance(instance, dict) else None
        chosen = tags.get(tag) if isinstance(tag, str) else None
        if chosen is not None:
            yield from validator.descend(instance, chosen[1], schema_path=chosen[0])
            return
        names = ", ".join(tags)
        if not isinstance(instance, dict):
            yield Explained(f"must be an object: one of {names} (got {_show(instance)})")
        else:
            yield Explained(f"must be one of {names} (got {_show(tag)})", path=["@type"])

    cls = validators.extend(Draft4Validator, {"$ref": ref, "oneOf": one_of})
    # The schema declares draft-04 ("$schema"); draft-04 semantics matter: there, 1.0 is not an integer.
    # `unions` is keyed by id() of lists inside `schema`, which the validator keeps alive.
    return cls(schema, format_checker=Draft4Validator.FORMAT_CHECKER), fast


def _tagged_unions(schema: Any, refs: dict[str, Any]) -> dict[int, dict[str, tuple[int, Any]]]:
    """id(oneOf list) -> {@type tag: (branch index, branch schema)} for every oneOf that is a tagged union."""
    found: dict[int, dict[str, tuple[int, Any]]] = {}
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            stack.extend(node)
            continue
        if not isinstance(node, dict):
            continue
        branches = node.get("oneOf")
        if isinstance(branches, list) and branches:
            tags: dict[str, tuple[int, Any]] = {}
            for index, branch in enumerate(branches):
                tag = _tag_of(branch, refs)
                if tag is None or tag in tags:
                    break
                tags[tag] = (index, branch)
            else:
                found[id(branches)] = tags
        stack.extend(node.values())
    return found


def _tag_of(branch: Any, refs: dict[str, Any]) -> str | None:
    """The one "@type" value a branch accepts, if it is {"$ref": ...} to an object requiring it."""
    if not isinstance(branch, dict) or set(branch) != {"$ref"}:
        return None
    target = refs.get(branch["$ref"])
    if not isinstance(target, dict) or target.get("type") != "object" or "@type" not in target.get("required", ()):
        return None
    enum = target.get("properties", {}).get("@type", {}).get("enum")
    return enum[0] if isinstance(enum, list) and len(enum) == 1 and isinstance(enum[0], str) else None


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


def schema_errors(document: Any) -> list[tuple[tuple, str]]:
    """All schema violations as (path parts, message), in document order, each once."""
    fast = fast_check()
    if fast is not None and fast(document):
        return []  # valid: nothing for jsonschema to find (see nist_schema_fast for why this is exact)
    found: dict[tuple, tuple[tuple, str]] = {}
    for error in validator().iter_errors(document):
        for parts, message in _explain(error):
            found.setdefault((_sort_key(parts), message), (tuple(parts), message))
    return [found[key] for key in sorted(found)]


def _sort_key(parts: list) -> tuple:
    return tuple((0, p, "") if isinstance(p, int) else (1, 0, p) for p in parts)


def _explain(error: ValidationError) -> list[tuple[list, str]]:
    path = list(error.absolute_path)
    instance, kind = error.instance, error.validator
    from rules.returns.nist_schema_explained import Explained  # loaded by _tools() already: jsonschema's error

    if isinstance(error, Explained):
        return [(path, error.message)]
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
        words = (_TYPE_WORDS.get(str(w), str(w)) for w in wanted)
        return [(path, f"must be {' or '.join(words)} (got {_show(instance)})")]
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
    """A oneOf that is not a tagged union (none in NIST's schema today): the branch whose "@type" matches."""
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
    return [(path, f"does not match any of {', '.join(names)}")]


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

