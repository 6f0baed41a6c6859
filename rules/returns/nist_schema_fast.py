"""A compiled yes/no test of NIST's schema, so that a valid report never pays for jsonschema's machinery.

Nearly every file a clerk gives is valid, and for a valid file jsonschema's cost is its per-node
machinery (a new validator object, a resource and a generator for every value it descends into):
about 1 s per MB even once its `oneOf`s dispatch on "@type" (`nist_schema`). This module turns the
schema, once, into nested Python closures that answer only "valid or not", at a fraction of that.

The guarantee is jsonschema's, not this module's: `nist_schema.schema_errors` asks this test first,
and only a document it passes is taken as valid; anything else (and any schema this compiler does not
fully understand) goes to jsonschema, which finds and locates every error as before. So this test
must never pass what draft-04 refuses; it may refuse more (it does not, and the tests check it
against jsonschema on real files and damaged ones). What it implements, each as draft-04 and
jsonschema 4 define it:
- type (draft-04's: 1.0 and Decimal("1") are not integers; a bool is neither integer nor number),
  enum of strings, required, properties, additionalProperties (false or a schema), items (one schema),
  minItems, maxLength, pattern (re.search, strings only);
- format only when the draft-04 format checker knows no such format (then jsonschema ignores it too:
  date, date-time, time and uri here);
- $ref "#/definitions/NAME" (its siblings ignored, as draft-04 says), recursive ones included;
- oneOf only as the tagged union every oneOf of NIST's schema is (see `nist_schema`).
Any other keyword makes `compile_schema` return None: every document then goes to jsonschema.
"""
from __future__ import annotations

import numbers
import re
from typing import Any, Callable

Check = Callable[[Any], bool]
DEFINITIONS = "#/definitions/"
_ANNOTATIONS = frozenset({"refTypes", "$schema", "definitions", "description", "title"})
_TYPES: dict[str, Check] = {
    "object": lambda x: isinstance(x, dict),
    "array": lambda x: isinstance(x, list),
    "string": lambda x: isinstance(x, str),
    "integer": lambda x: isinstance(x, int) and not isinstance(x, bool),
    "number": lambda x: isinstance(x, numbers.Number) and not isinstance(x, bool),
    "boolean": lambda x: isinstance(x, bool),
    "null": lambda x: x is None,
}
_OBJECT_KEYWORDS = frozenset({"type", "required", "properties", "additionalProperties"})


class _Unsupported(Exception):
    """The schema uses something this compiler does not implement exactly."""


def compile_schema(schema: dict, known_formats: frozenset[str], tags_of: Callable[[list], dict[str, str] | None]
                   ) -> tuple[Check, dict[str, Check]] | None:
    """(a test of a whole document, {"#/definitions/NAME": a test of a value against that definition}),
    or None when the schema is beyond this compiler.

    tags_of(oneOf list) -> {"@type" tag: "$ref"} when that oneOf is a tagged union, else None.
    """
    definitions = schema.get("definitions", {})
    compiled: dict[str, Check] = {}

    def lookup(ref: Any) -> Check:
        if not isinstance(ref, str) or not ref.startswith(DEFINITIONS) or ref[len(DEFINITIONS):] not in definitions:
            raise _Unsupported(f"$ref {ref!r}")
        name = ref[len(DEFINITIONS):]
        if name not in compiled:
            late: list[Check] = []
            compiled[name] = lambda x: late[0](x)  # a definition that refers to itself (OrderedHeader)
            late.append(node(definitions[name]))
            compiled[name] = late[0]
        return compiled[name]

    def node(schema: Any) -> Check:
        if not isinstance(schema, dict):
            raise _Unsupported("a schema that is not an object")
        if "$ref" in schema:  # draft-04: a $ref's siblings are ignored
            return lookup(schema["$ref"])
        keys = set(schema) - _ANNOTATIONS
        if schema.get("type") == "object" and keys <= _OBJECT_KEYWORDS:
            return _object(schema, node)
        checks = [_keyword(key, schema[key], node, known_formats, tags_of, lookup) for key in sorted(keys)]
        if len(checks) == 1:
            return checks[0]
        return lambda x: all(check(x) for check in checks)

    try:
        whole = node(schema)
        for name in definitions:
            lookup(DEFINITIONS + name)
    except _Unsupported:
        return None
    return whole, {DEFINITIONS + name: check for name, check in compiled.items()}


def _object(schema: dict, node: Callable[[Any], Check]) -> Check:
    properties = {name: node(sub) for name, sub in schema.get("properties", {}).items()}
    required = tuple(schema.get("required", ()))
    extra = schema.get("additionalProperties", True)
    if extra is True:
        extra_check: Check | None = None
    elif extra is False:
        extra_check = lambda x: False  # noqa: E731
    else:
        extra_check = node(extra)

    def check(x: Any) -> bool:
        if not isinstance(x, dict):
            return False
        for name in required:
            if name not in x:
                return False
        for name, value in x.items():
            sub = properties.get(name)
            if sub is None:
                if extra_check is not None and not extra_check(value):
                    return False
            elif not sub(value):
                return False
        return True

    return check


def _keyword(key: str, value: Any, node: Callable[[Any], Check], known_formats: frozenset[str],
             tags_of: Callable[[list], dict[str, str] | None], lookup: Callable[[Any], Check]) -> Check:
    if key == "type":
        names = value if isinstance(value, list) else [value]
        if not all(isinstance(n, str) and n in _TYPES for n in names):
            raise _Unsupported(f"type {value!r}")
        tests = [_TYPES[n] for n in names]
        return tests[0] if len(tests) == 1 else (lambda x: any(t(x) for t in tests))
    if key == "enum":
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise _Unsupported("an enum of other than strings")
        allowed = frozenset(value)
        return lambda x: isinstance(x, str) and x in allowed
    if key in ("required", "properties", "additionalProperties"):
        whole = _object({"required": [], "properties": {}, "additionalProperties": True, key: value}, node)
        return lambda x: not isinstance(x, dict) or whole(x)  # these say nothing of a value that is no object
    if key == "items":
        if not isinstance(value, dict):
            raise _Unsupported("items as a list")
        item = node(value)
        return lambda x: not isinstance(x, list) or all(item(i) for i in x)
    if key == "minItems" and isinstance(value, int):
        return lambda x: not isinstance(x, list) or len(x) >= value
    if key == "maxLength" and isinstance(value, int):
        return lambda x: not isinstance(x, str) or len(x) <= value
    if key == "pattern" and isinstance(value, str):
        search = re.compile(value).search
        return lambda x: not isinstance(x, str) or search(x) is not None
    if key == "format" and isinstance(value, str) and value not in known_formats:
        return lambda x: True
    if key == "oneOf" and isinstance(value, list):
        tags = tags_of(value)
        if tags is None:
            raise _Unsupported("a oneOf that is not a tagged union")
        branches = {tag: lookup(ref) for tag, ref in tags.items()}

        def one_of(x: Any) -> bool:
            tag = x.get("@type") if isinstance(x, dict) else None
            branch = branches.get(tag) if isinstance(tag, str) else None
            return branch is not None and branch(x)

        return one_of
    raise _Unsupported(f"keyword {key!r}")
