"""`UnitCounts` (a contest's votes kept a column per choice) behaves as the dict of dicts it replaces, and its
column-at-a-time steps give what summing cell by cell gives."""
from __future__ import annotations

import pickle
import pickletools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.contest import Contest
from rules.returns import ReturnsError, parse_returns
from rules.unit_counts import UnitCounts, UnitNumbers

UNITS = st.sampled_from(["P1", "P2", "P3", "P4", "Total"])
CHOICES = st.sampled_from(["Ann", "Bo", "Cy", "Write-ins"])
VOTES = st.integers(0, 10**30)  # a count far past 64 bits still fits: the columns hold Python ints
OPERATIONS = st.lists(st.one_of(
    st.tuples(st.just("put"), UNITS, CHOICES, VOTES),
    st.tuples(st.just("set unit"), UNITS, st.dictionaries(CHOICES, VOTES, max_size=3)),
    st.tuples(st.just("pop unit"), UNITS),
    st.tuples(st.just("pop choice"), UNITS, CHOICES),
    st.tuples(st.just("setdefault"), UNITS, CHOICES, VOTES),
), max_size=40)


def apply(counts, operation) -> object:
    """One operation on either mapping; what it returned, as plain values."""
    kind, unit, *rest = operation
    if kind == "put":
        choice, votes = rest
        if unit not in counts:
            counts[unit] = {}
        counts[unit][choice] = votes
        return None
    if kind == "set unit":
        counts[unit] = dict(rest[0])
        return None
    if kind == "pop unit":
        found = counts.pop(unit, None)
        return None if found is None else dict(found)
    if kind == "pop choice":
        return counts[unit].pop(rest[0], None) if unit in counts else None
    choice, votes = rest
    counts.setdefault(unit, {})[choice] = votes  # what setdefault returns is the stored row, as with a dict
    return None


def plain(counts) -> list:
    """The content with its order: units in order, each unit's choices as a set (a unit's choices come in the
    contest's order, not necessarily the order they were given)."""
    return [(unit, dict(votes)) for unit, votes in counts.items()]


@settings(max_examples=300, deadline=None)
@given(OPERATIONS)
def test_it_behaves_as_a_dict_of_dicts(operations) -> None:
    expected: dict[str, dict[str, int]] = {}
    # Another contest of the same file, numbering its units first: the two share the units' numbers, not their rows
    other = UnitCounts({"Total": {"Ann": 1}, "P9": {"Bo": 2}, "P3": {}}, numbers=UnitNumbers())
    counts = UnitCounts(numbers=other.numbers)
    for operation in operations:
        assert apply(counts, operation) == apply(expected, operation)
        assert plain(counts) == list(expected.items())
        assert len(counts) == len(expected) and list(counts) == list(expected)
    assert counts == expected and expected == counts
    assert plain(other) == [("Total", {"Ann": 1}), ("P9", {"Bo": 2}), ("P3", {})]
    for unit, votes in expected.items():
        assert len(counts[unit]) == len(votes) and set(counts[unit]) == set(votes)
        for choice in ("Ann", "Bo", "Cy", "Write-ins"):
            assert (choice in counts[unit], counts[unit].get(choice)) == (choice in votes, votes.get(choice))
    sums: dict[str, int] = {}
    for votes in expected.values():
        for choice, count in votes.items():
            sums[choice] = sums.get(choice, 0) + count
    assert counts.sums() == sums
    assert counts.units_with_votes() == {unit for unit, votes in expected.items() if any(votes.values())}
    assert counts.plain({"Ann", "Bo", "Cy", "Write-ins"})
    assert counts.plain({"Ann"}) == all(set(votes) <= {"Ann"} for votes in expected.values())
    assert UnitCounts(expected) == expected
    assert pickle.loads(pickle.dumps(counts)) == expected


def test_a_contest_refuses_what_it_refused_as_dicts() -> None:
    with pytest.raises(ValueError, match="counts unknown choice 'Zed'"):
        Contest(name="Mayor", choices=("Ann",), votes_by_unit=UnitCounts({"P1": {"Ann": 1, "Zed": 2}}))
    with pytest.raises(ValueError, match="must be a whole number >= 0"):
        Contest(name="Mayor", choices=("Ann",), votes_by_unit=UnitCounts({"P1": {"Ann": -1}}))
    with pytest.raises(ValueError, match="must be a whole number >= 0"):
        Contest(name="Mayor", choices=("Ann",), votes_by_unit=UnitCounts({"P1": {"Ann": True}}))
    contest = Contest(name="Mayor", choices=("Ann", "Bo"), votes_by_unit=UnitCounts({"P1": {"Ann": 3}, "P2": {"Bo": 4}}))
    assert dict(contest.totals) == {"Ann": 3, "Bo": 4}
    as_dicts = Contest(name="Mayor", choices=("Ann", "Bo"), votes_by_unit={"P1": {"Ann": 3}, "P2": {"Bo": 4}})
    assert contest == as_dicts
    assert pickle.loads(pickle.dumps(contest)) == as_dicts  # a contest crosses a pipe (rules.returns.outcome)
    # ... to an unpickler that builds rules' classes and plain containers only (handlers/slack_io/reading_child.py)
    assert "array" not in str(pickletools_names(pickle.dumps(contest)))


def pickletools_names(data: bytes) -> list[str]:
    """The globals a pickle names (what an unpickler's find_class is asked for)."""
    names, strings = [], []
    for opcode, arg, _ in pickletools.genops(data):
        if opcode.name in ("SHORT_BINUNICODE", "BINUNICODE", "UNICODE"):
            strings.append(arg)
        elif opcode.name == "STACK_GLOBAL":
            names.append(".".join(strings[-2:]))
        elif opcode.name == "GLOBAL":
            names.append(arg)
    return names


def test_the_template_reader_keeps_columns_and_sets_aside_a_sum_subtotal() -> None:
    rows = ["contest,choice,votes,unit"]
    for unit, (ann, bo) in {"P1": (10, 4), "P2": (6, 8), "P3": (2, 2), "All Precincts": (18, 14)}.items():
        rows += [f"Mayor,Ann,{ann},{unit}", f"Mayor,Bo,{bo},{unit}"]
    returns = parse_returns("\n".join(rows) + "\n")
    mayor = returns.contest("Mayor")
    assert isinstance(mayor.votes_by_unit, UnitCounts)
    assert mayor.units == ("P1", "P2", "P3") and dict(mayor.totals) == {"Ann": 18, "Bo": 14}
    assert [s.kind for s in returns.set_aside] == ["subtotal"]


def test_a_count_past_four_bytes_widens_its_column_and_keeps_every_count() -> None:
    # A column is an array of 4-byte counts; a larger count (a county's total, a typo) must not be cut or refused.
    big, bigger = 3_000_000_000, 10**14
    rows = ["contest,choice,votes,unit", "Mayor,Ann,5,P1", "Mayor,Bo,4,P1", f"Mayor,Ann,{big},P2", "Mayor,Bo,7,P2",
            f'Mayor,Bo,"{bigger:,}",P3', "Mayor,Ann,1,P3", "Mayor,Ann,2,P4"]
    mayor = parse_returns("\n".join(rows) + "\n").contest("Mayor")
    assert dict(mayor.totals) == {"Ann": 5 + big + 1 + 2, "Bo": 4 + 7 + bigger}
    assert {unit: dict(votes) for unit, votes in mayor.votes_by_unit.items()} == {
        "P1": {"Ann": 5, "Bo": 4}, "P2": {"Ann": big, "Bo": 7}, "P3": {"Ann": 1, "Bo": bigger}, "P4": {"Ann": 2}}
    with pytest.raises(ReturnsError) as refused:  # a repeat of a cell of the widened column is still refused
        parse_returns("\n".join([*rows, "Mayor,Ann,9,P2"]) + "\n")
    assert any("repeats row 4" in str(problem) for problem in refused.value.problems), refused.value.problems


def test_a_column_given_what_no_reader_stores_keeps_it_for_the_contest_to_refuse() -> None:
    counts = UnitCounts({"P1": {"Ann": 3}, "P2": {"Ann": 4}})
    counts["P3"] = {"Ann": 2**70}  # past 8 bytes: the column becomes a list
    counts["P2"]["Ann"] = -2  # and holds a negative count as given
    assert dict(counts["P2"]) == {"Ann": -2} and dict(counts["P3"]) == {"Ann": 2**70}
    assert not counts.plain({"Ann"})
    del counts["P2"]["Ann"]
    assert "Ann" not in counts["P2"] and counts.sums() == {"Ann": 3 + 2**70} and counts.plain({"Ann"})
    assert pickle.loads(pickle.dumps(counts)) == {"P1": {"Ann": 3}, "P2": {}, "P3": {"Ann": 2**70}}


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["Mayor", "Council"]), st.sampled_from(["P1", "P2", "P3", "P4", "P5"]),
                          st.sampled_from(["Ann", "Bo"])), min_size=1, max_size=30, unique_by=lambda row: row))
def test_units_in_any_order_keep_their_counts(rows) -> None:
    # A contest whose units are the file's, in the file's order, keeps no arrays of rows; one listing a unit out of
    # that order (or skipping one) makes them: both read the same. Each count a distinct power of two, so no unit
    # holds half of a sum (the subtotal rule would set it aside).
    text = "contest,choice,votes,unit\n" + "".join(f"{c},{ch},{2**i},{u}\n" for i, (c, u, ch) in enumerate(rows))
    expected: dict[str, dict[str, dict[str, int]]] = {}
    for i, (contest, unit, choice) in enumerate(rows):
        expected.setdefault(contest, {}).setdefault(unit, {})[choice] = 2**i
    returns = parse_returns(text)
    for contest, by_unit in expected.items():
        counts = returns.contest(contest).votes_by_unit
        assert list(counts) == list(by_unit)
        assert {unit: dict(votes) for unit, votes in counts.items()} == by_unit
        assert all(counts.row(unit) is not None for unit in by_unit) and counts.row("P9") is None
