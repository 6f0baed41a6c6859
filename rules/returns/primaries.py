"""Party primaries: one contest per office, district and party; candidates of two parties are never compared.

A primary file lists, under one office, every party's candidates (2016 Colorado: State Senate 25 has
Priola for the Republicans and May for the Democrats, each unopposed in their own primary). Read as
one contest, 4,743 vs 4,738 is an "automatic recount" between people who never ran against each
other. Read as two, each is uncontested.

How the kind of election is known, first that applies:
1. the caller says (`--election-kind primary|general`);
2. the file says: its name in the OpenElections convention (`20160628__co__primary__county.csv`), its
   own words (Clarity's ElectionName, `Report.stated_kind`), or the format's own flag per contest (NIST
   `PrimaryPartyIds`, read by that reader into `Draft.primary_party`);
3. its content. An unaffiliated candidate means a general election (a Colorado primary nominates party
   candidates only). Two candidates of one party who each hold a real share of their party's votes in
   one contest (at least 1/20) are a sign of a primary: in a general election each party nominates
   one, and the second name is a write-in with a handful of votes (2014: Gardner and Cunningham, REP,
   58,614 to 1 in Adams; 2016: Trump and Perry; 2018: DeGette and Lopez). The sign is not proof (a
   multi-seat general contest may have two nominees of one party), so each contest of several parties
   is then decided both ways (`Contest.if_primary`); where the readings disagree the contest is left
   undecided, asking for `--election-kind`.
Without a sign, the file is read as a general election; every verdict names the reading used.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from rules.contest import ContestKind
from rules.returns.draft import Draft
from rules.returns.options import ElectionKind, ReadOptions, kind_from_file_name
from rules.row_kinds import is_write_in_bucket, normalise

if TYPE_CHECKING:
    from rules.returns.problems import Report

# Party labels that are not a party with a primary: unaffiliated candidates and write-in markers.
_NO_PRIMARY = frozenset({
    "", "una", "unaffiliated", "ind", "independent", "npa", "no party", "no party affiliation", "nonpartisan",
    "non partisan", "none", "write in", "wri", "w i", "unaffiliated party", "unf", "nop", "np",
})
NO_PARTY = "party not given"
# Parties that never have a primary in Colorado: a candidate of one means the file is a general election.
_UNAFFILIATED = frozenset({"una", "uaf", "unaffiliated", "unf", "unaffiliated party", "unaffiliated candidate"})
# A party's second candidate is a real contender, not a write-in, with at least this share of its votes.
SUBSTANTIAL_SHARE = 20  # 1/20


def party_of(draft: Draft, choice: str) -> str:
    return draft.details.get(choice, {}).get("party", "").strip()


def _is_primary_party(party: str) -> bool:
    return normalise(party) not in _NO_PRIMARY


def primary_sign(drafts: list[Draft]) -> tuple[str, str, list[str]] | None:
    """(contest, party, its candidates) for the first contest where one party has two real contenders."""
    for draft in drafts:
        # A multi-seat general contest may have two nominees of one party (gen-01's County Assessor).
        if draft.kind is not ContestKind.CANDIDATE or draft.primary_party or (draft.seats or 1) > 1:
            continue
        totals = _totals(draft)
        by_party: dict[str, list[str]] = {}
        for choice in draft.choices:
            party = party_of(draft, choice)
            if _is_primary_party(party) and not is_write_in_bucket(choice) and "write" not in normalise(choice):
                by_party.setdefault(normalise(party), []).append(choice)
        for names in by_party.values():
            party_votes = sum(totals.get(n, 0) for n in names)
            contenders = [n for n in names if totals.get(n, 0) * SUBSTANTIAL_SHARE >= party_votes > 0]
            if len(contenders) >= 2:
                return draft.name, party_of(draft, names[0]), contenders
    return None


def general_sign(drafts: list[Draft]) -> tuple[str, str] | None:
    """(contest, candidate) of an unaffiliated candidate, who runs only in a general election."""
    for draft in drafts:
        if draft.kind is not ContestKind.CANDIDATE:
            continue
        for choice in draft.choices:
            if normalise(party_of(draft, choice)) in _UNAFFILIATED:
                return draft.name, choice
    return None


def _totals(draft: Draft) -> dict[str, int]:
    sums: dict[str, int] = {}
    for counts in draft.votes_by_unit.values():
        for choice, votes in counts.items():
            sums[choice] = sums.get(choice, 0) + votes
    return sums


def parties_in(draft: Draft) -> list[str]:
    """The parties of a candidate contest's choices, in order of first appearance ("" for none)."""
    seen: dict[str, None] = {}
    for choice in draft.choices:
        seen.setdefault(party_of(draft, choice), None)
    return list(seen)


def split_by_party(draft: Draft) -> list[Draft]:
    """One draft per party; choices without a party form their own ("... (party not given)")."""
    parts: list[Draft] = []
    for party in parties_in(draft):
        choices = {c: None for c in draft.choices if party_of(draft, c) == party}
        if not party and all(is_write_in_bucket(c) for c in choices):
            continue  # a write-in line of no party belongs to no party's primary; it could never win anyway
        label = party or NO_PARTY
        part = Draft(name=f"{draft.name} ({label})", kind=draft.kind, seats=draft.seats,
                     seats_location=draft.seats_location, choices=choices, primary_party=label,
                     readings=list(draft.readings))
        for unit, counts in draft.votes_by_unit.items():
            mine = {c: v for c, v in counts.items() if c in choices}
            if mine:
                part.votes_by_unit[unit] = mine
        part.details = {c: d for c, d in draft.details.items() if c in choices}
        part.uncertain = {key: bound for key, bound in draft.uncertain.items() if key[1] in choices}
        parts.append(part)
    return parts


def settle_election_kind(drafts: list[Draft], options: ReadOptions, report: "Report") -> tuple[list[Draft], list[str]]:
    """The drafts as the kind of election says (split per party in a primary), and the file-level reading."""
    partisan = [d for d in drafts if d.kind is ContestKind.CANDIDATE and not d.primary_party
                and any(parties_in(d))]
    multi_party = [d for d in partisan if len([p for p in parties_in(d) if p]) >= 2]
    flagged = any(d.primary_party for d in drafts)
    kind, source = options.election_kind, "as you said (--election-kind)"
    if kind is None:
        kind = kind_from_file_name(options.file_name)
        source = f"the file's name says so ({options.file_name})"
    if kind is None and report.stated_kind is not None:
        kind, source = report.stated_kind
    if kind is None and flagged:
        kind, source = ElectionKind.PRIMARY, "the file marks its contests as party primaries"
    if kind is ElectionKind.PRIMARY:
        out: list[Draft] = []
        for draft in drafts:
            out.extend(split_by_party(draft) if draft in partisan else [draft])
        reading = f"party primary: {source}; each party's candidates are a contest of their own"
        for d in out:
            if d.primary_party:
                d.readings.append(f"party primary ({d.primary_party}): only its own candidates are compared")
        return out, [reading]
    if kind is ElectionKind.GENERAL:
        reading = f"general election: {source}; candidates of every party are compared"
        return drafts, [reading] if multi_party else []
    if not multi_party:
        return drafts, []
    unaffiliated = general_sign(drafts)
    if unaffiliated is not None:
        contest, candidate = unaffiliated
        return drafts, [f"general election: the file does not say, but {candidate!r} in {contest!r} is unaffiliated, "
                        "and a primary nominates party candidates only; candidates of every party are compared "
                        "(--election-kind primary if it is a primary)"]
    sign = primary_sign(drafts)
    if sign is None:
        return drafts, ["general election: the file does not say, and no party has two real contenders in one "
                        "contest; candidates of every party are compared (--election-kind primary if it is a "
                        "primary)"]
    contest, party, names = sign
    for draft in multi_party:
        draft.if_primary = split_by_party(draft)
    shown = ", ".join(names[:3]) + (" ..." if len(names) > 3 else "")
    return drafts, [f"election kind unknown: the file does not say whether it is a party primary, and in "
                    f"{contest!r} the party {party!r} has {len(names)} candidates ({shown}), as in a primary; a "
                    "contest of several parties is decided only where both readings agree "
                    "(say --election-kind primary or general)"]
