"""Choosing the format, decoding bytes, and the promise that bad input only ever raises ReturnsError."""
from __future__ import annotations

import codecs
import dataclasses
import json
import pickle
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.contest import Returns
from rules.returns import FORMATS, Problem, ReturnsError, parse_returns
from rules.returns.registry import READERS, module
from rules.returns.source import UTF8_CHECK_CHUNK

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "returns"
NEEDS = "unknown format: expected " + "; ".join(f"{module(name).DESCRIPTION} ({name})" for name in READERS)


def problems_of(data: bytes | str, **kwargs) -> list[tuple[str, str]]:
    with pytest.raises(ReturnsError) as caught:
        parse_returns(data, **kwargs)
    return [(p.location, p.message) for p in caught.value.problems]


def test_the_public_api() -> None:
    assert FORMATS == ("sos-precinct", "clarity-summary", "corla-tabulate", "dominion-sov", "openelections",
                       "template", "county-export", "clarity-detail", "nist")
    # The message for a file in no known format names what each one looks like.
    for fragment in ("County, Precinct, Contest, Choice, Party and Total Votes", "contest, choice and votes",
                     "office, candidate, votes and county or precinct", '"@type": "ElectionResults.ElectionReport"'):
        assert fragment in NEEDS
    problem = Problem("row 7, column votes", "is empty")
    assert (problem.location, problem.message, str(problem)) == ("row 7, column votes", "is empty", "row 7, column votes: is empty")
    with pytest.raises(dataclasses.FrozenInstanceError):
        problem.message = "changed"  # type: ignore[misc]
    error = ReturnsError([problem, Problem("file", "is empty")])
    assert error.problems == [problem, Problem("file", "is empty")]
    assert str(error) == "row 7, column votes: is empty\nfile: is empty"
    assert pickle.loads(pickle.dumps(error)).problems == error.problems  # e.g. across worker processes


@pytest.mark.parametrize("name, expected", [
    ("template_small.csv", "template"),
    ("openelections_small.csv", "openelections"),
    ("openelections_small_cr.csv", "openelections"),
    ("openelections_2016_small.csv", "openelections"),
    ("nist_small.json", "nist"),
])
def test_each_format_is_detected_from_its_content(name: str, expected: str) -> None:
    data = (FIXTURES / name).read_bytes()
    detected = parse_returns(data)
    assert detected.source_format == expected
    assert detected == parse_returns(data, format=expected)
    assert parse_returns(data.decode("utf-8")) == detected  # str in, same result


def test_detection_reads_header_names_case_insensitively() -> None:
    assert parse_returns("County,Office,Candidate,Votes\nADAMS,Mayor,Ann,3\n").source_format == "openelections"
    assert parse_returns("CONTEST,CHOICE,VOTES\nMayor,Ann,3\n").source_format == "template"


def test_an_explicit_format_overrides_detection() -> None:
    template = (FIXTURES / "template_small.csv").read_bytes()
    assert problems_of(template, format="openelections") == [
        ("row 1", "missing column 'office'; expected office, candidate, votes and optionally county, precinct, district, party, no_votes"),
        ("row 1", "missing column 'candidate'; expected office, candidate, votes and optionally county, precinct, district, party, no_votes"),
    ]
    assert problems_of(template, format="nist") == [
        ("file", "is not valid JSON: Expecting value (line 1, column 1)")]


def test_a_header_missing_a_column_is_detected_by_the_columns_it_has() -> None:
    # contest and choice say template, county, office and candidate say OpenElections: the clerk is told
    # which column to add, exactly as with an explicit format, not that the format is unknown.
    template = "contest,choice,unit\nMayor,Alice,P1\n"
    assert problems_of(template) == problems_of(template, format="template") == [
        ("row 1", "missing column 'votes'; expected contest, choice, votes and optionally seats, kind, unit")]
    assert problems_of("Contest,Choice,vote\nMayor,Alice,3\n") == [
        ("row 1, column vote", "is not a column of this format; expected contest, choice, votes and optionally seats, kind, unit"),
        ("row 1", "missing column 'votes'; expected contest, choice, votes and optionally seats, kind, unit"),
    ]
    openelections = "county,office,district,party,candidate,no_votes\nADAMS,Mayor,,,Ann,3\n"
    assert problems_of(openelections) == problems_of(openelections, format="openelections") == [
        ("row 1", "missing column 'votes'; expected office, candidate, votes and optionally "
                  "county, precinct, district, party, no_votes")]
    # Columns of both: OpenElections is tried first, as for complete headers.
    assert problems_of("county,office,candidate,contest,choice\nADAMS,Mayor,Ann,Mayor,Ann\n") == [
        ("row 1", "missing column 'votes'; expected office, candidate, votes and optionally "
                  "county, precinct, district, party, no_votes")]


def test_unknown_formats_say_what_each_format_needs() -> None:
    assert problems_of("name,count\nAnn,3\n") == [("file", f"{NEEDS}; the first row has: name, count")]
    # One identifying column is not enough to name a format.
    assert problems_of("contest,votes\nMayor,3\n") == [("file", f"{NEEDS}; the first row has: contest, votes")]
    assert problems_of("county,candidate,votes\nADAMS,Ann,3\n") == [
        ("file", f"{NEEDS}; the first row has: county, candidate, votes")]
    assert problems_of('{"@type": "ElectionResults.Election"}') == [("file", f"{NEEDS}; this is JSON without that @type")]
    assert problems_of('{"@type": "ElectionResults.ElectionReport", ') == [(
        "file", f"{NEEDS}; this looks like JSON, but it is not valid JSON: "
                "Expecting property name enclosed in double quotes (line 1, column 45)")]
    assert problems_of("Mayor,Ann,3\n", format="csv") == [
        ("format", f"unknown format 'csv'; expected one of {', '.join(READERS)}")]


def test_empty_input() -> None:
    for data in (b"", "", b"\xef\xbb\xbf", " \r\n\t\n"):
        assert problems_of(data) == [("file", "is empty")]
    assert problems_of("contest,choice,votes\n") == [("file", "has a header but no rows of returns")]
    assert problems_of("county,office,district,party,candidate,votes\r\n") == [("file", "has a header but no rows of returns")]


def test_decoding() -> None:
    utf8 = "contest,choice,votes\nMayor,Zoë Núñez,3\n"
    assert parse_returns(utf8.encode("utf-8")).contest("Mayor").choices == ("Zoë Núñez",)
    assert parse_returns(b"\xef\xbb\xbf" + utf8.encode("utf-8")).notes == ()
    assert parse_returns("\ufeff" + utf8).contest("Mayor").choices == ("Zoë Núñez",)
    cp1252 = parse_returns(utf8.encode("cp1252"))
    assert cp1252.contest("Mayor").choices == ("Zoë Núñez",)
    assert cp1252.notes == ("the file is not valid UTF-8 (byte 30 is not); read as Windows-1252 (cp1252)",)
    utf16 = parse_returns(utf8.encode("utf-16"))
    assert (utf16.contest("Mayor").choices, utf16.notes) == (("Zoë Núñez",), ("the file is UTF-16; read as such",))


def test_decoding_large_files() -> None:
    # UTF-8 is checked a chunk at a time: a character cut by a chunk's end is still valid, and a bad byte
    # far into the file is still found and named.
    units = "".join(f"Mayor,Zo\u00eb,1,P{i}\n" for i in range(100_000))
    data = ("contest,choice,votes,unit\n" + units).encode("utf-8")
    boundary = UTF8_CHECK_CHUNK
    before = data.rindex("\u00eb".encode("utf-8"), 0, boundary - 1)
    data = data.replace(b"unit\n", b"unit" + b" " * (boundary - 1 - before) + b"\n", 1)
    assert data[boundary - 1:boundary + 1] == "\u00eb".encode("utf-8")  # cut in two by the first chunk's end
    returns = parse_returns(data)
    assert returns.notes == () and returns.contest("Mayor").choices == ("Zo\u00eb",)
    assert len(returns.contest("Mayor").units) == 100_000
    bad = data + "Mayor,Jos\u00e9,1,P0\n".encode("cp1252")
    returns = parse_returns(bad)
    assert returns.notes == (f"the file is not valid UTF-8 (byte {len(data) + 10} is not); read as Windows-1252 (cp1252)",)
    assert returns.contest("Mayor").choices == ("Zo\u00c3\u00ab", "Jos\u00e9")
    with_bom = parse_returns(codecs.BOM_UTF8 + bad)  # the byte is counted after the byte-order mark, as before
    assert with_bom.notes == returns.notes


def test_text_with_lone_surrogates_is_kept_as_given() -> None:
    assert parse_returns("contest,choice,votes\nMayor,Ann\udc81,1\n").contest("Mayor").choices == ("Ann\udc81",)


def test_a_lost_character_in_the_source_is_noted() -> None:
    returns = parse_returns("contest,choice,votes\nMayor,Gilbert M. Rom\ufffdn,3\n")
    assert returns.notes == (
        "'Gilbert M. Rom\ufffdn' contains '\ufffd': a character was lost before this file was made; kept as written",)


def test_bytes_that_are_not_returns_raise_only_returns_error() -> None:
    for data in (b"\x00\x01\x02", b"\xff\xfe\x00", b'"' * 5, b"{", b"[[[[", b"\x81\x8d\x8f", b"contest,choice,votes\n\"x" + b"a" * 200_000):
        with pytest.raises(ReturnsError):
            parse_returns(data)


def test_deeply_nested_json_is_a_problem_not_a_crash() -> None:
    assert problems_of("[" * 100_000, format="nist")[0][0] == "file"
    assert problems_of('{"@type": "ElectionResults.ElectionReport", "x": ' + "[" * 100_000)[0][0] == "file"


def _no_internal_error(error: ReturnsError) -> None:
    assert error.problems, "a ReturnsError must say what is wrong"
    assert not any("internal error" in p.message for p in error.problems), str(error)


def _outcome(data: bytes | str, **kwargs) -> Returns | ReturnsError:
    try:
        return parse_returns(data, **kwargs)
    except ReturnsError as error:
        _no_internal_error(error)
        return error


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=400), st.sampled_from([None, *FORMATS]))
def test_random_bytes_give_returns_or_returns_error(data: bytes, format: str | None) -> None:
    _outcome(data, format=format)


_CELL = st.text(alphabet=st.sampled_from(list('0123456789,.-*" \r\nabcTOAL\ufffdé')), max_size=8)


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(["contest,choice,votes,unit,seats,kind", "county,precinct,office,district,party,candidate,votes,no_votes",
                     "county,office,district,party,candidate,votes"]),
    st.lists(st.lists(_CELL, max_size=9), max_size=12),
    st.sampled_from(["\n", "\r\n", "\r"]),
)
def test_random_rows_under_a_real_header_give_returns_or_returns_error(header: str, rows: list, newline: str) -> None:
    text = newline.join([header, *(",".join(row) for row in rows)])
    outcome = _outcome(text)
    if isinstance(outcome, Returns):
        for contest in outcome.contests:
            assert all(type(v) is int and v >= 0 for counts in contest.votes_by_unit.values() for v in counts.values())


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 10**6) | st.text(max_size=6)
    | st.sampled_from(["total", "ElectionResults.CandidateContest", "ElectionResults.VoteCounts", "p1"]),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(
        st.sampled_from(["@type", "@id", "Name", "Count", "GpUnitId", "Type", "Contest", "Election", "GpUnit"]),
        children, max_size=5),
    max_leaves=20,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 200), _JSON)
def test_mutated_nist_reports_give_returns_or_returns_error(seed: int, junk: object) -> None:
    # Replace one value somewhere in a valid report with random JSON.
    document = json.loads((FIXTURES / "nist_small.json").read_text(encoding="utf-8"))
    slots: list[tuple[object, object]] = []

    def walk(node: object) -> None:
        if isinstance(node, dict):
            slots.extend((node, key) for key in node)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            slots.extend((node, i) for i in range(len(node)))
            for value in node:
                walk(value)

    walk(document)
    container, key = slots[seed % len(slots)]
    container[key] = junk  # type: ignore[index]
    _outcome(json.dumps(document))
