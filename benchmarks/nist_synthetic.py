"""A large NIST SP 1500-100 v2 results file with the structure of a real one, for benchmarks.

    python -m benchmarks.nist_synthetic OUT.json PRECINCT_COPIES CONTEST_COPIES   (prints a JSON summary)

The base is the excerpt of Cambridge MA's 2022 primary export in tests/fixtures/returns/
(nist_cambridge_2022_primary_small.json: 88 GpUnits, 42 precincts, wards, districts, polling places and
vote centers listing their precincts in ComposingGpUnitIds; 6 contests, by party and district, whose
write-in lines are given for all 42 precincts). It grows in both directions, deterministically:
- every precinct gets PRECINCT_COPIES - 1 copies ("Precinct 1-1 ~2", same counts), added to every
  GpUnit that lists the precinct, so districts and the city stay whole;
- the contests are repeated CONTEST_COPIES times ("SECRETARY OF STATE #2", ...);
- every selection also gets a count for the city, the election's scope: the sum of its counts in the
  contest's district, as a county total in NIST's synthetic files, so every contest has a level to
  cross-check and set aside.
Counts copied k times multiply every total by k, and the test of 1306(1) is the same at any scale:
each copy of SECRETARY OF STATE (DEMOCRAT) is an automatic recount (7,684 to 7,666 in the base), and no
other contest is.
"""
from __future__ import annotations

import copy
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BASE = ROOT / "tests" / "fixtures" / "returns" / "nist_cambridge_2022_primary_small.json"
SCOPE = "loc-cambridge"
GENERATOR_VERSION = 1


def generate(path: Path, precinct_copies: int, contest_copies: int) -> dict:
    text, info = build(precinct_copies, contest_copies)
    path.write_text(text, encoding="utf-8")
    return {"path": str(path), "bytes": path.stat().st_size, **info}


def build(precinct_copies: int, contest_copies: int) -> tuple[str, dict]:
    document = json.loads(BASE.read_text(encoding="utf-8"))
    copies: dict[str, list[str]] = {}
    units = []
    for unit in document["GpUnit"]:
        units.append(unit)
        if unit.get("Type") == "precinct":
            copies[unit["@id"]] = [unit["@id"]]
            for k in range(2, precinct_copies + 1):
                twin = copy.deepcopy(unit)
                twin["@id"] = f"{unit['@id']}~{k}"
                twin["Name"]["Text"][0]["Content"] = f"{unit['Name']['Text'][0]['Content'].strip()} ~{k}"
                copies[unit["@id"]].append(twin["@id"])
                units.append(twin)
    inside: dict[str, set[str]] = {}
    for unit in units:
        if unit.get("ComposingGpUnitIds"):
            unit["ComposingGpUnitIds"] = [c for part in unit["ComposingGpUnitIds"] for c in copies.get(part, [part])]
            inside[unit["@id"]] = set(unit["ComposingGpUnitIds"])
    document["GpUnit"] = units
    election = document["Election"][0]
    base_contests = election["Contest"]
    contests = []
    for k in range(1, contest_copies + 1):
        for contest in base_contests:
            contest = copy.deepcopy(contest)
            if k > 1:
                contest["@id"] += f"~{k}"
                contest["Name"] = f"{contest['Name']} #{k}"
            district = inside[contest["ElectionDistrictId"]]
            for selection in contest["ContestSelection"]:
                selection["@id"] += f"~{k}"
                counts = [dict(vc, GpUnitId=c) for vc in selection["VoteCounts"] for c in copies[vc["GpUnitId"]]]
                city = sum(vc["Count"] for vc in counts if vc["GpUnitId"] in district)
                selection["VoteCounts"] = counts + [{"Count": city, "@type": "ElectionResults.VoteCounts",
                                                     "GpUnitId": SCOPE, "Type": "total"}]
            contest["OtherCounts"] = [dict(oc, GpUnitId=c) for oc in contest.get("OtherCounts", [])
                                      for c in copies.get(oc["GpUnitId"], [oc["GpUnitId"]])]
            contests.append(contest)
    election["Contest"] = contests
    text = json.dumps(document, indent=0, ensure_ascii=False)
    recounts = sorted(c["Name"] + " (DEMOCRAT)" for c in contests
                      if c["Name"].startswith("SECRETARY OF STATE") and c["PrimaryPartyIds"] == ["par-dem"])
    return text, {"precinct_copies": precinct_copies, "contest_copies": contest_copies,
                  "precincts": sum(len(v) for v in copies.values()), "gpunits": len(units), "contests": len(contests),
                  "vote_counts": sum(len(s["VoteCounts"]) for c in contests for s in c["ContestSelection"]),
                  "expected_recounts": recounts, "generator_version": GENERATOR_VERSION}


def copies_for(target_bytes: int) -> tuple[int, int]:
    """Precinct and contest copies giving about target_bytes: precincts grow as the square root of the
    factor, and contests fill the rest (the bytes of one more copy of the contests, measured)."""
    factor = max(1.0, target_bytes / len(BASE.read_bytes()))
    precincts = max(1, round((factor / 4) ** 0.5))
    one, two = (len(build(precincts, c)[0].encode("utf-8")) for c in (1, 2))
    return precincts, max(1, round(1 + (target_bytes - one) / (two - one)))


if __name__ == "__main__":
    print(json.dumps(generate(Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]))))
