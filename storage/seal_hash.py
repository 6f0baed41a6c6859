"""The hash of a sealed row (storage/seals.py): SHA-256 of the canonical JSON of {"table", "id", "values"}, which
every seal ever written and every `audit verify` compute alike."""
from __future__ import annotations

import datetime as dt
import functools
import hashlib
import json
import operator
from decimal import Decimal
from itertools import repeat
from typing import Any, Callable, Iterable, Mapping, Sequence


def _plain(value: Any) -> Any:
    """A stored value as JSON, the same on every database (UTC microseconds, money with its cents)."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, dt.datetime):
        return value.astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return repr(value)  # floats (never written by recount-bot) still hash deterministically


def row_hash(table: str, row_id: int, values: Mapping[str, Any], columns: Iterable[str]) -> str:
    """SHA-256 of the canonical JSON of {"table", "id", "values": {column: _plain(value)}} (sorted keys, no spaces,
    UTF-8 as is). Written out through a template per table and columns rather than by `json.dumps` of that dict,
    for speed (every vote count of a statewide survey is hashed at import and again by every `audit verify`); the
    text is the same byte for byte (tests/storage/test_seals.py compares them)."""
    template, getter, names = _layout(table, columns if isinstance(columns, tuple) else tuple(columns))
    try:
        found = getter(values)
    except KeyError:  # a column the row does not have: null, as `row_hash_by_json` has it
        found = tuple(values.get(name) for name in names)
    if len(names) == 1:
        found = (found,)
    return hashlib.sha256((template % (_json(row_id), *map(_json, found))).encode()).hexdigest()


@functools.lru_cache(maxsize=256)
def _layout(table: str, columns: tuple[str, ...]) -> tuple[str, Callable[[Any], Any], tuple[str, ...]]:
    names = tuple(sorted(columns))

    def literal(text: str) -> str:
        return _string(text).replace("%", "%%")

    template = ('{"id":%s,"table":' + literal(table) + ',"values":{'
                + ",".join(f"{literal(name)}:%s" for name in names) + "}}")
    return template, operator.itemgetter(*names), names


def column_hashes(table: str, ids: Sequence[int], values: Mapping[str, Sequence[Any]], columns: Iterable[str]
                  ) -> list[str]:
    """`row_hash` of many rows of `table` at once, given column by column (`values`: column -> one value per row, in
    the order of `ids`; a column not given is null, as in `row_hash`). The same text byte for byte, written a column
    at a time so the usual columns (all ints, all strs) are turned into JSON by C code without a Python call per
    value: an import hashes every vote count it writes, and `audit verify` every row sealed one by one
    (tests/storage/test_seals.py compares)."""
    template, _, names = _layout(table, columns if isinstance(columns, tuple) else tuple(columns))
    texts = map(template.__mod__, zip(_column_json(ids), *(
        _column_json(values[name]) if name in values else repeat("null", len(ids)) for name in names)))
    sha256 = hashlib.sha256
    return [sha256(text.encode()).hexdigest() for text in texts]


def _column_json(values: Sequence[Any]) -> Iterable[str]:
    """`_json` of each value of a column. The kinds are looked at all at once (`type` exactly: a bool is not an
    int here, as it is not in `_json`); a column of mixed or other kinds goes value by value through `_json`."""
    kinds = set(map(type, values))
    if kinds <= {int}:
        return values  # "%s" of an int is its repr, the JSON of it
    if kinds <= {str}:
        return map(_string, values)
    return map(_json, values)


def row_hash_by_json(table: str, row_id: int, values: Mapping[str, Any], columns: Iterable[str]) -> str:
    """`row_hash` the plain way, which defines it."""
    fields = {"table": table, "id": row_id, "values": {c: _plain(values.get(c)) for c in sorted(columns)}}
    text = json.dumps(fields, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


_string = json.encoder.encode_basestring  # what json.dumps(..., ensure_ascii=False) writes for a str


def _json(value: Any) -> str:
    """json.dumps(_plain(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False), fast for the usual."""
    kind = type(value)
    if kind is int:
        return int.__repr__(value)
    if kind is str:
        return _string(value)
    if value is None:
        return "null"
    if kind is bool:
        return "true" if value else "false"
    return json.dumps(_plain(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
