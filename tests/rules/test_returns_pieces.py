"""A file read in pieces (`Pieces`, how the command line streams a file from disk) reads exactly as its bytes do:
the same encoding, the same notes, the same contests and the same problems, whatever the size of the pieces."""
from __future__ import annotations

import codecs
from pathlib import Path
from typing import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.returns import Pieces, ReadLimits, ReturnsError, parse_returns, read_returns
from rules.returns.problems import Report
from rules.returns.source import open_source

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "returns"
TEXT = "contest,choice,votes,unit\r\nMayor,Zoë Núñez,3,P1\r\nMayor,\"Ann, \ufffd\",2,P1\r\nMayor,Zoë Núñez,4,P2\r\n"


def pieces(data: bytes, size: int, opened: list[int] | None = None) -> Pieces:
    def each() -> Iterator[bytes]:
        if opened is not None:
            opened.append(1)
        for at in range(0, len(data), size):
            yield data[at:at + size]
    return Pieces(each)


def same_source(data: bytes, size: int) -> None:
    whole, streamed = Report(), Report()
    expected, got = open_source(data, whole), open_source(pieces(data, size), streamed)
    assert (got.encoding, got.errors, got.start, got.drop_bom_character, got.may_hold_replacement_character,
            got.size) == (expected.encoding, expected.errors, expected.start, expected.drop_bom_character,
                          expected.may_hold_replacement_character, len(data))
    assert whole.notes == streamed.notes
    assert "".join(got.lines()) == "".join(expected.lines())
    assert got.text() == expected.text()
    assert (got.is_blank(), got.first_char(), got.head(40)) == (expected.is_blank(), expected.first_char(),
                                                                 expected.head(40))


ENCODED = {
    "utf-8": TEXT.encode("utf-8"),
    "utf-8 with a byte-order mark": codecs.BOM_UTF8 + TEXT.encode("utf-8"),
    "utf-16": TEXT.encode("utf-16"),
    "utf-16-be": codecs.BOM_UTF16_BE + TEXT.encode("utf-16-be"),
    "cp1252": TEXT.replace("\ufffd", "é").encode("cp1252"),
    "cp1252 with an unassigned byte": TEXT.replace("\ufffd", "é").encode("cp1252") + b"Mayor,X\x81,1,P3\r\n",
    "utf-8, then a bad byte": TEXT.encode("utf-8") + b"Mayor,Jos\xe9,1,P3\r\n",
    "a byte-order mark, then a bad byte": codecs.BOM_UTF8 + b"contest,choice,votes\nMayor,Jos\xe9,1\n",
    "a UTF-16 mark on bytes that are not UTF-16": codecs.BOM_UTF16_LE + b"contest,choice,votes\nMayor,A,1\n\x00",
    "ascii": b"contest,choice,votes\nMayor,Ann,1\n",
    "blank": b" \r\n\t\n",
    "empty": b"",
}


@pytest.mark.parametrize("size", [1, 2, 3, 5, 64, 1 << 20])
@pytest.mark.parametrize("name", list(ENCODED))
def test_pieces_settle_the_encoding_as_bytes_do(name: str, size: int) -> None:
    same_source(ENCODED[name], size)


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=60),
       st.sampled_from(["utf-8", "utf-16", "cp1252-ish"]), st.integers(1, 9))
def test_any_text_in_any_pieces(text: str, encoding: str, size: int) -> None:
    # "cp1252-ish": the text as UTF-8 with a byte that makes it invalid somewhere, so it is read as cp1252
    if encoding == "cp1252-ish":
        data = text.encode("utf-8")
        data = data[:len(data) // 2] + b"\xff" + data[len(data) // 2:]
    else:
        data = text.encode(encoding)
    same_source(data, size)


@pytest.mark.parametrize("name", ["template_small.csv", "openelections_small_cr.csv", "sos_precinct_2024_small.csv",
                                  "dominion_sov_boulder_2023_small.csv", "clarity_co_2024_detail_small.xml",
                                  "nist_small.json", "corla_tabulate_2024_small.csv",
                                  "dominion_sovc_siskiyou_2025.xlsx"])
def test_every_format_reads_the_same_from_pieces(name: str) -> None:
    data = (FIXTURES / name).read_bytes()
    opened: list[int] = []
    assert read_returns(pieces(data, 4096, opened)) == read_returns(data)
    assert opened  # the pieces were read, not some copy


def test_problems_are_the_same_from_pieces() -> None:
    data = b"contest,choice,votes\nMayor,Ann,x\nMayor,Bob,1\n"
    with pytest.raises(ReturnsError) as whole:
        parse_returns(data)
    with pytest.raises(ReturnsError) as streamed:
        parse_returns(pieces(data, 7))
    assert streamed.value.problems == whole.value.problems
    with pytest.raises(ReturnsError) as empty:
        parse_returns(pieces(b"", 7))
    assert [str(p) for p in empty.value.problems] == ["file: is empty"]


def test_the_size_limit_holds_for_pieces() -> None:
    data = TEXT.encode("utf-8") * 1000
    limits = ReadLimits(max_file_bytes=len(data) - 1)
    with pytest.raises(ReturnsError) as whole:
        read_returns(data, limits=limits)
    with pytest.raises(ReturnsError) as streamed:
        read_returns(pieces(data, 1000), limits=limits)
    assert streamed.value.problems == whole.value.problems
    assert "over the limit" in streamed.value.problems[0].message


def test_a_reader_that_stops_early_closes_the_file() -> None:
    closed: list[bool] = []

    def each() -> Iterator[bytes]:
        try:
            yield b"contest,choice,votes\n"
            yield b"Mayor,Ann,1\n"
        finally:
            closed.append(True)
    source = open_source(Pieces(each), Report())
    closed.clear()
    assert source.first_char() == "c" and not source.is_blank() and source.head(3) == "con"
    assert closed == [True, True, True]  # each pass that stopped early closed its file at once


def _outcome(data) -> object:
    """What reading gives a clerk: the returns (with the notes on how the file was read), or the problems."""
    try:
        return read_returns(data)
    except ReturnsError as error:
        return [str(p) for p in error.problems]


@pytest.mark.parametrize("size", [1, 3, 64, 1 << 20])
@pytest.mark.parametrize("name", list(ENCODED))
def test_a_file_read_in_pieces_reads_as_its_bytes_do(name: str, size: int) -> None:
    """Whatever its encoding and however it is cut, a file from disk gives the returns, the notes on the encoding
    and the problems its bytes give."""
    assert _outcome(pieces(ENCODED[name], size)) == _outcome(ENCODED[name])


def test_a_bad_byte_past_the_first_mebibyte_is_read_as_cp1252_with_the_same_note() -> None:
    rows = "".join(f"Mayor,Candidate {i % 3},{i},P{i}\n" for i in range(60000))
    data = ("contest,choice,votes,unit\n" + rows).encode() + b"Mayor,Jos\xe9,1,P-last\n"
    assert len(data) > 1 << 20
    streamed, whole = _outcome(pieces(data, 1 << 20)), _outcome(data)
    assert streamed == whole
    assert any("not valid UTF-8" in note for note in streamed.notes)

