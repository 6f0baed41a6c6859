"""A synthetic statewide survey of returns in the project's CSV template, for benchmarks.

    generate(path, rows=500_000, seed=2026) -> Synthetic

Deterministic: the same `rows` and `seed` give the same bytes (only `random.Random.random()` is used,
whose sequence Python keeps stable across versions). The file looks like a precinct-level export:

- 64 counties (Colorado's), the same number of precincts in each, as many as needed to reach `rows`
  (whole precincts: the file has at least `rows` data rows);
- 60 contests: 20 statewide (offices and Yes/No measures), 8 congressional and 8 State Board of
  Education districts (blocks of counties), 4 multi-seat boards (2 or 3 seats) and 20 county ballot
  issues (one county each);
- columns `contest,choice,votes,seats,kind,unit`, rows ordered by county, precinct, contest, choice;
  CRLF line endings (the csv module's and Excel's default); a few names need CSV quoting
  (`"Smith, Jr."`, doubled quotes).

Three contests are made to fall inside the margin of 1306(1) and one just outside, so a benchmark can
check the verdicts as well as the time (`Synthetic.expected_recounts`, `Synthetic.expected_no_recount`):

- Amendment C: margin exactly `highest // 200` (the largest that still triggers);
- Congress District 3: margin a third of that;
- RTD Director At Large (3 seats): the last winner and the first loser tied;
- State Board of Education District 5: margin `highest // 200 + 1` (the smallest that does not).
"""
from __future__ import annotations

import csv
import math
import random
from dataclasses import dataclass, field
from pathlib import Path

GENERATOR_VERSION = 1
DEFAULT_ROWS = 500_000
DEFAULT_SEED = 2026

COUNTIES = (
    "Adams", "Alamosa", "Arapahoe", "Archuleta", "Baca", "Bent", "Boulder", "Broomfield", "Chaffee", "Cheyenne",
    "Clear Creek", "Conejos", "Costilla", "Crowley", "Custer", "Delta", "Denver", "Dolores", "Douglas", "Eagle",
    "El Paso", "Elbert", "Fremont", "Garfield", "Gilpin", "Grand", "Gunnison", "Hinsdale", "Huerfano", "Jackson",
    "Jefferson", "Kiowa", "Kit Carson", "La Plata", "Lake", "Larimer", "Las Animas", "Lincoln", "Logan", "Mesa",
    "Mineral", "Moffat", "Montezuma", "Montrose", "Morgan", "Otero", "Ouray", "Park", "Phillips", "Pitkin",
    "Prowers", "Pueblo", "Rio Blanco", "Rio Grande", "Routt", "Saguache", "San Juan", "San Miguel", "Sedgwick",
    "Summit", "Teller", "Washington", "Weld", "Yuma",
)
assert len(COUNTIES) == 64

_FIRST = ("Maria", "Thomas", "Priya", "Walt", "Dana", "Sam", "Helen", "Luis", "Grace", "Omar", "Ruth", "Kenji",
          "Ana", "Joseph", "Leah", "Marcus", "Ines", "Caleb", "Nora", "Felix")
_LAST = ("Alvarez", "Reed", "Natarajan", "Kowalski", "Whitfield", "Okafor", "Marsh", "Baca", "Lindqvist", "Haddad",
         "Archuleta", "Tanaka", "Romero", "Begay", "Schultz", "Nguyen", "Martinez", "Olsen", "Yazzie", "Fischer")
# Names a CSV writer has to quote, as real returns have them.
_AWKWARD = ('Robert "Bob" Smith, Jr.', "Carmen O'Neil-Vigil", "Lee, Kim")

# Shares of the vote for the k choices of a contest, highest first: gaps of 12% or more between
# neighbours, so no contest lands near the margin by chance (the close ones are made so on purpose).
_SHARES = {
    2: (0.56, 0.44), 3: (0.46, 0.34, 0.20), 4: (0.38, 0.29, 0.20, 0.13), 5: (0.32, 0.25, 0.19, 0.14, 0.10),
    6: (0.28, 0.22, 0.17, 0.14, 0.11, 0.08),
}


@dataclass
class ContestSpec:
    name: str
    choices: tuple[str, ...]
    shares: tuple[float, ...]  # expected share of each choice, same order
    seats: int
    kind: str  # "candidate" or "question"
    counties: tuple[int, ...]  # indexes into COUNTIES
    close: str | None = None  # None, "at-threshold", "inside", "tie-last-seat", "just-outside"


@dataclass
class Synthetic:
    """What `generate` wrote."""

    path: Path
    rows: int
    bytes: int
    units: int
    precincts_per_county: int
    contests: list[ContestSpec]
    seed: int
    expected_recounts: set[str] = field(default_factory=set)
    expected_no_recount: set[str] = field(default_factory=set)

    def describe(self) -> dict:
        return {
            "path": str(self.path), "rows": self.rows, "bytes": self.bytes, "units": self.units,
            "counties": len(COUNTIES), "precincts_per_county": self.precincts_per_county,
            "contests": len(self.contests), "multi_seat_contests": sum(c.seats > 1 for c in self.contests),
            "seed": self.seed, "generator_version": GENERATOR_VERSION,
            "expected_recounts": sorted(self.expected_recounts),
            "expected_no_recount": sorted(self.expected_no_recount),
        }


def _names(rng: random.Random, k: int) -> tuple[str, ...]:
    names: list[str] = []
    while len(names) < k:
        name = f"{_FIRST[int(rng.random() * len(_FIRST))]} {_LAST[int(rng.random() * len(_LAST))]}"
        if name not in names:
            names.append(name)
    return tuple(names)


def _blocks(n_blocks: int, offset: int = 0) -> list[tuple[int, ...]]:
    """Split the counties into n contiguous blocks (rotated by offset), as districts."""
    order = [(i + offset) % len(COUNTIES) for i in range(len(COUNTIES))]
    size = math.ceil(len(order) / n_blocks)
    return [tuple(order[i:i + size]) for i in range(0, len(order), size)]


def contest_specs(seed: int = DEFAULT_SEED) -> list[ContestSpec]:
    rng = random.Random(f"contests-{seed}")
    everywhere = tuple(range(len(COUNTIES)))
    specs: list[ContestSpec] = []

    def candidate(name: str, k: int, counties: tuple[int, ...], seats: int = 1, close: str | None = None,
                  shares: tuple[float, ...] | None = None) -> None:
        specs.append(ContestSpec(name, _names(rng, k), shares or _SHARES[k], seats, "candidate", counties, close))

    def question(name: str, counties: tuple[int, ...], close: str | None = None) -> None:
        yes_first = rng.random() < 0.5
        shares = (0.56, 0.44) if yes_first else (0.44, 0.56)
        specs.append(ContestSpec(name, ("Yes", "No"), shares, 1, "question", counties, close))

    # 20 statewide contests
    candidate("United States Senator", 6, everywhere)
    candidate("Representative to the State Board of Education - At Large", 3, everywhere)
    candidate("Regent of the University of Colorado - At Large", 4, everywhere)
    candidate("State Treasurer", 3, everywhere)
    candidate("Secretary of State", 4, everywhere)
    candidate("Attorney General", 3, everywhere)
    candidate("Governor / Lieutenant Governor", 5, everywhere)
    specs[-1] = ContestSpec(specs[-1].name, (_AWKWARD[0], *specs[-1].choices[1:]), specs[-1].shares, 1, "candidate",
                            everywhere)
    for letter in "ABCDEF":
        question(f"Amendment {letter} (Constitutional)", everywhere, close="at-threshold" if letter == "C" else None)
    for number in range(120, 127):
        question(f"Proposition {number} (Statutory)", everywhere)

    # 8 congressional districts, 8 State Board of Education districts
    for district, counties in enumerate(_blocks(8), start=1):
        candidate(f"Representative to the 119th United States Congress - District {district}", 4, counties,
                  close="inside" if district == 3 else None)
    for district, counties in enumerate(_blocks(8, offset=5), start=1):
        candidate(f"State Board of Education Member - Congressional District {district}", 3, counties,
                  close="just-outside" if district == 5 else None)

    # 4 multi-seat boards over groups of counties
    front_range = tuple(COUNTIES.index(c) for c in ("Adams", "Arapahoe", "Boulder", "Broomfield", "Denver",
                                                     "Douglas", "Jefferson", "Weld"))
    candidate("Regional Transportation District - Director At Large", 6, front_range, seats=3, close="tie-last-seat",
              shares=(0.24, 0.20, 0.16, 0.16, 0.14, 0.10))
    candidate("Front Range Community College - Trustee", 4, front_range[:5], seats=2)
    candidate("Colorado River Water Conservation District - Director", 5, _blocks(4)[3], seats=2)
    candidate("Northern Colorado Water Conservancy District - Director", 4, _blocks(4)[1], seats=2)
    specs[-1] = ContestSpec(specs[-1].name, (*specs[-1].choices[:3], _AWKWARD[2]), specs[-1].shares, 2, "candidate",
                            specs[-1].counties)

    # 20 county ballot issues
    for county in range(0, len(COUNTIES), 3)[:20]:
        question(f"{COUNTIES[county]} County Ballot Issue 1A", (county,))
    assert len(specs) == 60, len(specs)
    return specs


def _precincts_for(rows: int, specs: list[ContestSpec]) -> int:
    rows_per_precinct_index = sum(len(s.choices) * len(s.counties) for s in specs)
    return max(1, math.ceil(rows / rows_per_precinct_index))


def _make_close(spec: ContestSpec, votes: list[list[int]]) -> None:
    """Move votes between units of the lower choice so the compared pair ends at the wanted margin."""
    totals = [sum(unit[i] for unit in votes) for i in range(len(spec.choices))]
    ranked = sorted(range(len(spec.choices)), key=lambda i: -totals[i])
    upper, lower = (ranked[spec.seats - 1], ranked[spec.seats])
    high = totals[upper]
    threshold = high // 200
    margin = {"at-threshold": threshold, "inside": threshold // 3, "tie-last-seat": 0,
              "just-outside": threshold + 1}[spec.close or ""]
    delta = (high - margin) - totals[lower]
    step = 1 if delta > 0 else -1
    i = 0
    while delta:
        unit = votes[i % len(votes)]
        if step > 0 or unit[lower] > 0:
            unit[lower] += step
            delta -= step
        i += 1


def generate(path: Path, rows: int = DEFAULT_ROWS, seed: int = DEFAULT_SEED) -> Synthetic:
    """Write the file and return what it holds. Takes a few seconds for 500,000 rows."""
    if rows < 1:
        raise ValueError("rows must be at least 1")
    specs = contest_specs(seed)
    precincts = _precincts_for(rows, specs)
    rng = random.Random(f"votes-{seed}")
    units = [f"{county} - Precinct {p:03d}" for county in COUNTIES for p in range(1, precincts + 1)]

    # votes[contest index][unit index within that contest] = [votes per choice]
    votes: list[list[list[int]]] = []
    for spec in specs:
        per_unit = []
        for _ in range(len(spec.counties) * precincts):
            turnout = 300 + int(rng.random() * 900)
            per_unit.append([int(turnout * share * (0.9 + 0.2 * rng.random())) for share in spec.shares])
        if spec.close:
            _make_close(spec, per_unit)
        votes.append(per_unit)

    # Which contests each county votes in, and where a county's precincts start in each contest's list.
    by_county: list[list[tuple[int, int]]] = [[] for _ in COUNTIES]
    for c, spec in enumerate(specs):
        for position, county in enumerate(spec.counties):
            by_county[county].append((c, position * precincts))
    for entries in by_county:
        entries.sort()

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    written = 0
    with path.open("w", encoding="utf-8", newline="") as f:
        writer = csv.writer(f)  # lineterminator "\r\n"
        writer.writerow(("contest", "choice", "votes", "seats", "kind", "unit"))
        for county in range(len(COUNTIES)):
            for p in range(precincts):
                unit = units[county * precincts + p]
                batch = []
                for c, start in by_county[county]:
                    spec = specs[c]
                    seats = str(spec.seats)
                    for choice, count in zip(spec.choices, votes[c][start + p]):
                        batch.append((spec.name, choice, count, seats, spec.kind, unit))
                writer.writerows(batch)
                written += len(batch)

    return Synthetic(
        path=path, rows=written, bytes=path.stat().st_size, units=len(units), precincts_per_county=precincts,
        contests=specs, seed=seed,
        expected_recounts={s.name for s in specs if s.close in ("at-threshold", "inside", "tie-last-seat")},
        expected_no_recount={s.name for s in specs if s.close == "just-outside"},
    )


if __name__ == "__main__":  # python -m benchmarks.synthetic OUT.csv [ROWS] [SEED]
    import json
    import sys

    args = sys.argv[1:]
    if not args:
        sys.exit("usage: python -m benchmarks.synthetic OUT.csv [ROWS] [SEED]")
    result = generate(Path(args[0]), int(args[1]) if len(args) > 1 else DEFAULT_ROWS,
                      int(args[2]) if len(args) > 2 else DEFAULT_SEED)
    print(json.dumps(result.describe(), indent=2))
