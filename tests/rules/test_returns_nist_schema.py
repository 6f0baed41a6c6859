"""The fast NIST schema validator accepts and refuses exactly what plain jsonschema (draft-04) does."""
from __future__ import annotations

import copy
import json
from decimal import Decimal
from importlib import resources
from pathlib import Path
from typing import Any, Callable

import pytest
from jsonschema import Draft4Validator

from rules.returns.nist_schema import SCHEMA_FILE, _tagged_unions, fast_check, schema_errors

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "returns"
REAL = ["nist_small.json", "nist_err_gen_01.json", "nist_err_prim_02.json", "nist_pe_err_prim_02.json",
        "nist_cambridge_2022_primary_small.json"]


def schema() -> dict[str, Any]:
    return json.loads(resources.files("rules.returns").joinpath(SCHEMA_FILE).read_text(encoding="utf-8"))


def plain_valid(document: Any) -> bool:
    return Draft4Validator(schema(), format_checker=Draft4Validator.FORMAT_CHECKER).is_valid(document)


def load(name: str) -> dict[str, Any]:
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"), parse_float=Decimal)


def test_every_one_of_in_the_schema_is_a_tagged_union() -> None:
    """If NIST's schema ever gains a oneOf of another shape, that oneOf falls back to jsonschema's (slow) keyword."""
    document = schema()
    refs = {f"#/definitions/{name}": body for name, body in document["definitions"].items()}
    one_ofs = json.dumps(document).count('"oneOf"')
    assert one_ofs == 9
    assert len(_tagged_unions(document, refs)) == one_ofs


@pytest.mark.parametrize("name", REAL)
def test_real_files_are_valid_under_both(name: str) -> None:
    document = load(name)
    assert schema_errors(document) == []
    assert plain_valid(document)
    assert fast_check()(document) is True


def test_the_compiled_check_covers_the_whole_schema() -> None:
    """If it did not, every file would silently go through jsonschema again (correct, but 20x slower)."""
    assert fast_check() is not None


def _contest(d):
    return d["Election"][0]["Contest"][1]  # nist_small.json: Ballot Issue 6A


def _selection(d):
    return _contest(d)["ContestSelection"][0]


MUTATIONS: dict[str, Callable[[dict], None]] = {
    "contest of no known type": lambda d: _contest(d).update({"@type": "ElectionResults.RankedContest"}),
    "contest without @type": lambda d: _contest(d).pop("@type"),
    "contest not an object": lambda d: d["Election"][0]["Contest"].__setitem__(1, "Senate"),
    "contest @type a list": lambda d: _contest(d).update({"@type": ["ElectionResults.BallotMeasureContest"]}),
    "ballot measure typed as a candidate contest": lambda d: _contest(d).update(
        {"@type": "ElectionResults.CandidateContest"}),
    "selection of another type": lambda d: _selection(d).update({"@type": "ElectionResults.PartySelection"}),
    "count as a string": lambda d: _selection(d)["VoteCounts"][0].update({"Count": "12"}),
    "count type unknown": lambda d: _selection(d)["VoteCounts"][0].update({"Type": "mail"}),
    "field not allowed in a count": lambda d: _selection(d)["VoteCounts"][0].update({"Colour": "red"}),
    "gpunit of no known type": lambda d: d["GpUnit"][0].update({"@type": "ElectionResults.Precinct"}),
    "device without @id": lambda d: d["GpUnit"].append({"@type": "ElectionResults.ReportingDevice"}),
    "party as a coalition missing its name": lambda d: d["Party"].__setitem__(
        0, {"@type": "ElectionResults.Coalition", "@id": d["Party"][0]["@id"]}),
    "valid change: a party as a coalition": lambda d: d["Party"][0].update({"@type": "ElectionResults.Coalition"}),
    "votes allowed 1.0": lambda d: d["Election"][0]["Contest"][0].update({"VotesAllowed": Decimal("1.0")}),
    "generated date without zone": lambda d: d.update({"GeneratedDate": "2023-07-14T13:32:09"}),
    "valid change: a second write-in line": lambda d: d["Election"][0]["Contest"][0]["ContestSelection"].append(
        {"@type": "ElectionResults.CandidateSelection", "@id": "wi-extra", "IsWriteIn": True}),
}


@pytest.mark.parametrize("what", sorted(MUTATIONS))
def test_mutations_are_judged_the_same(what: str) -> None:
    document = copy.deepcopy(load("nist_small.json"))  # small: plain jsonschema is slow
    MUTATIONS[what](document)
    errors = schema_errors(document)
    assert (errors == []) == plain_valid(document) == fast_check()(document)
    assert (errors == []) == what.startswith("valid change")
    for parts, message in errors:
        assert message and isinstance(parts, tuple)


def test_an_unknown_type_is_one_error_at_its_type() -> None:
    document = load("nist_small.json")
    _contest(document)["@type"] = "ElectionResults.RankedContest"
    assert schema_errors(document) == [(("Election", 0, "Contest", 1, "@type"), (
        "must be one of ElectionResults.PartyContest, ElectionResults.BallotMeasureContest, "
        "ElectionResults.CandidateContest, ElectionResults.RetentionContest (got 'ElectionResults.RankedContest')"))]


def _paths(value: Any, path: tuple = ()) -> list[tuple]:
    out = [path]
    if isinstance(value, dict):
        for key, sub in value.items():
            out += _paths(sub, path + (key,))
    elif isinstance(value, list):
        for i, sub in enumerate(value):
            out += _paths(sub, path + (i,))
    return out


REPLACEMENTS = [None, True, 0, 1, -1, Decimal("1.0"), Decimal("2.5"), "", "total", "ElectionResults.VoteCounts",
                "2023-07-14T13:32:09-04:00", "2023-07-14", [], [{}], {}, {"@type": "ElectionResults.LanguageString"}]


def test_the_compiled_check_agrees_with_jsonschema_on_random_damage() -> None:
    """Seeded: delete a key, replace a value or add a field anywhere in a report, 300 times."""
    import random

    rng = random.Random(1500100)
    base = load("nist_small.json")
    paths = [p for p in _paths(base) if p]
    validator = Draft4Validator(schema(), format_checker=Draft4Validator.FORMAT_CHECKER)
    disagreements = []
    outcomes = {True: 0, False: 0}
    for _ in range(300):
        document = copy.deepcopy(base)
        path = rng.choice(paths)
        parent = document
        for part in path[:-1]:
            parent = parent[part]
        action = rng.randrange(3)
        if action == 0 and isinstance(parent, dict):
            del parent[path[-1]]
        elif action == 1 and isinstance(parent, dict):
            parent[path[-1] + "X" if isinstance(path[-1], str) else "X"] = rng.choice(REPLACEMENTS)
        else:
            parent[path[-1]] = copy.deepcopy(rng.choice(REPLACEMENTS))
        valid = validator.is_valid(document)
        outcomes[valid] += 1
        if fast_check()(document) != valid:
            disagreements.append(path)
    assert disagreements == []
    assert min(outcomes.values()) >= 20  # both kinds of outcome were tried (28 valid, 272 not)
