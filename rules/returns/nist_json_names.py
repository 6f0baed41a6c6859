"""Contest names of a NIST report: unique, and saying district and party where the file repeats a name.

Real files repeat a contest's Name: Cambridge MA's 2022 primary has "GOVERNOR" once per party and
"REPRESENTATIVE IN GENERAL COURT" once per party in each of six districts; its general election has
"REPRESENTATIVE IN CONGRESS" for two districts; every NIST primary file repeats each office per party.
Contest names must be unique in a file, so within each group of contests of one Name (case aside):
- the district (ElectionDistrictId -> that GpUnit's name) is added when the group's districts differ;
- the party is added when the group's parties differ: the names of the contest's PrimaryPartyIds
  (Cambridge, NIST's pre-election primary files); in a primary election (Election Type primary,
  partisan-primary-open/-closed) without them (NIST's err-prim-*), the ballot header the contest sits
  under in every BallotStyle ("Libertarian Party": prim-02's Libertarian "Senate" contest lists a
  Democrat, so its candidates' party would say the wrong thing), else the one party of all its
  candidates;
giving "GOVERNOR (DEMOCRAT)", "REPRESENTATIVE IN CONGRESS (FIFTH DISTRICT)" or
"REPRESENTATIVE IN GENERAL COURT (SECOND SUFFOLK DISTRICT, DEMOCRAT)". A name still repeated gets
the contest's @id. A note says which names were told apart and how.

Only PrimaryPartyIds make a contest a party primary (`Draft.primary_party`): a header or the
candidates' party only tell names apart; the shared pipeline reads those contests as the file groups
them (each contest is already one party's).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.returns.nist_json_units import GpUnits, text_of
from rules.returns.problems import Report

PRIMARY_TYPES = frozenset({"primary", "partisan-primary-open", "partisan-primary-closed"})


@dataclass(frozen=True)
class Naming:
    name: str
    primary_party: str = ""  # names of the PrimaryPartyIds parties, " / " between two or more
    unknown_parties: tuple[int, ...] = ()  # indexes of PrimaryPartyIds naming no Party


def contest_names(document: dict, units: GpUnits, parties: dict[str, str],
                  candidates: dict[str, tuple[str, str]], report: Report) -> dict[tuple[int, int], Naming]:
    """(election index, contest index) -> its unique name and primary party, for every contest object."""
    headers = {h["@id"]: text_of(h.get("Name")).strip() for h in _dicts(document.get("Header"))
               if isinstance(h.get("@id"), str)}  # a header without an id is under nothing
    base: dict[tuple[int, int], str] = {}
    facets: dict[tuple[int, int], tuple[str, str]] = {}  # (district, party label)
    namings: dict[tuple[int, int], Naming] = {}
    for i, election in enumerate(document.get("Election", [])):
        if not isinstance(election, dict):
            continue
        primary = isinstance(election.get("Type"), str) and election["Type"] in PRIMARY_TYPES
        under = _headers(election, headers) if primary else {}
        for j, contest in enumerate(election.get("Contest", [])):
            key = (i, j)
            if not isinstance(contest, dict):
                base[key], facets[key] = f"contest at $.Election[{i}].Contest[{j}]", ("", "")
                namings[key] = Naming(base[key])
                continue
            name = contest.get("Name")
            name = name.strip() if isinstance(name, str) else ""
            base[key] = name or f"unnamed contest at $.Election[{i}].Contest[{j}]"
            district = contest.get("ElectionDistrictId")
            shown = units.name(district) if isinstance(district, str) and units.known(district) else str(district or "")
            ids = _strings(contest.get("PrimaryPartyIds"))
            party = " / ".join(dict.fromkeys(parties[p] for p in ids if p in parties))
            unknown = tuple(k for k, p in enumerate(ids) if p not in parties)
            label = party
            if not label and primary and contest.get("@type") == "ElectionResults.CandidateContest":
                cid = contest.get("@id")
                label = (under.get(cid) if isinstance(cid, str) else "") or _candidates_party(contest, candidates)
            facets[key] = (shown, label)
            namings[key] = Naming(base[key], party, unknown)
    groups: dict[str, list[tuple[int, int]]] = {}
    for key, name in base.items():
        groups.setdefault(name.casefold(), []).append(key)
    for keys in groups.values():
        if len(keys) > 1:
            _tell_apart(keys, base, facets, namings, report)
    _last_resort(document, namings, report)
    return namings


def _tell_apart(keys: list[tuple[int, int]], base: dict, facets: dict, namings: dict, report: Report) -> None:
    differ = [len({facets[k][n] for k in keys}) > 1 for n in (0, 1)]
    if not any(differ):
        return
    for key in keys:
        extra = [facets[key][n] for n in (0, 1) if differ[n] and facets[key][n]]
        if extra:
            namings[key] = Naming(f"{base[key]} ({', '.join(extra)})", namings[key].primary_party,
                                  namings[key].unknown_parties)
    how = " and ".join(w for w, d in zip(("district", "party"), differ) if d)
    report.note(f"{len(keys)} contests are named {base[keys[0]]!r}: told apart by {how} "
                f"({', '.join(namings[k].name for k in keys[:4])}{', ...' if len(keys) > 4 else ''})",
                kind="contest names")


def _last_resort(document: dict, namings: dict[tuple[int, int], Naming], report: Report) -> None:
    """Names still repeated (same district and party) get the contest's @id, else its place."""
    seen: dict[str, list[tuple[int, int]]] = {}
    for key, naming in namings.items():
        seen.setdefault(naming.name.casefold(), []).append(key)
    taken = set(seen)
    for keys in seen.values():
        if len(keys) < 2:
            continue
        repeated = namings[keys[0]].name
        for i, j in keys:
            contest = document["Election"][i]["Contest"][j]
            cid = contest.get("@id") if isinstance(contest, dict) else None
            old = namings[(i, j)]
            name = f"{old.name} ({cid})" if isinstance(cid, str) and cid else old.name
            if name.casefold() in taken:
                name = f"{old.name} ($.Election[{i}].Contest[{j}])"
            taken.add(name.casefold())
            namings[(i, j)] = Naming(name, old.primary_party, old.unknown_parties)
        report.note(f"{len(keys)} contests are named {repeated!r} with the same district and party: told apart "
                    "by their @id", kind="contest names")


def _headers(election: dict, header_names: dict[str, str]) -> dict[str, str]:
    """Contest @id -> the ballot header it sits under, where every BallotStyle agrees."""
    found: dict[str, set[str]] = {}
    for style in _dicts(election.get("BallotStyle")):
        stack: list[tuple[list, str]] = [(style.get("OrderedContent") or [], "")]
        while stack:  # headers may nest; contests after a header (not inside it) are under it too
            items, current = stack.pop()
            for item in _dicts(items):
                if item.get("@type") == "ElectionResults.OrderedHeader":
                    header = item.get("HeaderId")
                    current = header_names.get(header, "") if isinstance(header, str) else ""
                    stack.append((item.get("OrderedContent") or [], current))
                elif item.get("@type") == "ElectionResults.OrderedContest" and current:
                    contest = item.get("ContestId")
                    if isinstance(contest, str):
                        found.setdefault(contest, set()).add(current)
    return {cid: names.pop() for cid, names in found.items() if len(names) == 1}


def _candidates_party(contest: dict, candidates: dict[str, tuple[str, str]]) -> str:
    parties = {candidates.get(cid, ("", ""))[1] for s in _dicts(contest.get("ContestSelection"))
               for cid in _strings(s.get("CandidateIds"))}
    return parties.pop() if len(parties) == 1 else ""


def _strings(items: Any) -> list[str]:
    return [item for item in items if isinstance(item, str)] if isinstance(items, list) else []


def _dicts(items: Any) -> list[dict]:
    return [item for item in items if isinstance(item, dict)] if isinstance(items, list) else []
