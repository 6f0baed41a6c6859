"""The offline workspace's starting point: the example elections' surveys of returns, and a staff member.

The example office rehearses the three recount laws it may run under (issue 22), one election each, on dates
lawful for that law:

- the Regular Special District Election of Tuesday 2027-05-04 (May of odd years: 32-1-103(17), 1-13.5-111),
  under C.R.S. 1-13.5-1306: four special districts, each its own local government with its own governing body
  (the body owed the notices of (1) and paying for an automatic recount), so it is imported as one election per
  district on the same date; `/recount check` covers every election of the latest election day;
- the Regular Town Election of Tuesday 2026-04-07 (a statutory town's April of even years: 31-10-108), under
  C.R.S. 31-10-1207;
- the Coordinated Election of Tuesday 2026-11-03 (November: 1-7-116), which the county clerk conducts for the
  school district on its ballot, under C.R.S. 1-10.5.

Only the elections held by the sandbox's clock are loaded, so the clock chooses which law is rehearsed: the
default moment (sandbox/clock.py) is just after the May election, with every example loaded and the May one the
latest; `--clock 2026-11-16 --fresh` makes the coordinated election the latest, `--clock 2026-04-09 --fresh`
the town election.

Seeded once: the returns when the workspace has no election yet, the staff role when nobody in the
workspace holds a role yet. The official is not seeded: she is a workspace admin, so the bot makes her
its designated election official the first time she uses it, exactly as in Slack.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import func, select

from rules.returns import parse_returns
from services.office.access import ensure_workspace
from services.office.operator import grant_role_from_console
from services.returns.versions import import_returns
from services.services import Services
from storage.models import Membership, Role
from storage.repositories import latest_election

from .people import Person

EXAMPLES_DIR = Path(__file__).resolve().parents[1] / "examples"
EXAMPLE = EXAMPLES_DIR / "survey-of-returns.csv"
ELECTION_NAME = "Regular Special District Election"
ELECTION_DATE = dt.date(2027, 5, 4)
# Each district of the example (the part of a contest's name before " - ") and its governing body.
GOVERNING_BODIES = {
    "Cherry Creek Valley Water and Sanitation District":
        "Board of Directors of the Cherry Creek Valley Water and Sanitation District",
    "Bear Creek Fire Protection District": "Board of Directors of the Bear Creek Fire Protection District",
    "Pine Ridge Metropolitan District": "Board of Directors of the Pine Ridge Metropolitan District",
    "Aspen Grove Library District": "Board of Trustees of the Aspen Grove Library District",
}


@dataclass(frozen=True)
class ExampleElection:
    """One example election: its returns file, split by local government (a contest's name up to " - ")."""

    name: str
    election_date: dt.date
    law: str  # a rules.laws key
    path: Path
    governing_bodies: dict[str, str]


EXAMPLES = (
    ExampleElection(ELECTION_NAME, ELECTION_DATE, "1-13.5-1306", EXAMPLE, GOVERNING_BODIES),
    ExampleElection("Regular Town Election", dt.date(2026, 4, 7), "31-10-1207", EXAMPLES_DIR / "town-election.csv",
                    {"Town of Elk Springs": "Board of Trustees of the Town of Elk Springs"}),
    ExampleElection("Coordinated Election", dt.date(2026, 11, 3), "1-10.5", EXAMPLES_DIR / "coordinated-election.csv",
                    {"Willow Valley School District RE-3": "Board of Education of the Willow Valley School District "
                                                           "RE-3"}),
)
ACTOR = "offline:seed"


@dataclass(frozen=True)
class Seeded:
    election: str | None  # what was imported, None when the workspace already had an election
    staff: str | None  # who was made staff, None when roles were already set

    def describe(self) -> str:
        parts = [f"seeded {self.election}" if self.election else "the database already has an election; "
                 "nothing imported"]
        if self.staff:
            parts.append(f"{self.staff} is staff")
        return "; ".join(parts)


def seed(services: Services, team_id: str, team_name: str, staff: Person | None,
         examples: tuple[ExampleElection, ...] = EXAMPLES) -> Seeded:
    with services.db.transaction() as session:
        workspace = ensure_workspace(session, team_id, name=team_name, actor=ACTOR)
        has_election = latest_election(session, workspace.id) is not None
        has_roles = bool(session.scalar(select(func.count()).select_from(Membership).where(
            Membership.workspace_id == workspace.id)))
    made_staff = None
    if staff is not None and not has_roles:
        grant_role_from_console(services, team_id, staff.user_id, Role.STAFF, ACTOR)
        made_staff = staff.real_name
    if has_election:
        return Seeded(None, made_staff)
    loaded = []
    # Returns exist once the election is held: an election after the clock's day is not loaded yet.
    for example in (e for e in examples if e.election_date <= services.today()):
        contests = 0
        for government, data in by_district(example.path.read_bytes()):
            result = import_returns(services, team_id=team_id, returns=parse_returns(data),
                                    election_name=example.name, election_date=example.election_date,
                                    local_government=government,
                                    governing_body=example.governing_bodies.get(government),
                                    source_name=example.path.name, source_bytes=data, actor=ACTOR, law=example.law)
            contests += result.contests
        loaded.append(f"{example.name} of {example.election_date:%Y-%m-%d} under C.R.S. {example.law} ({contests} "
                      f"contests of {len(example.governing_bodies)} local government"
                      f"{'s' if len(example.governing_bodies) != 1 else ''} from {example.path.name})")
    return Seeded("; ".join(loaded) or None, made_staff)


def by_district(data: bytes) -> list[tuple[str, bytes]]:
    """The example's rows split by district (the contest name up to " - "), each part with the header."""
    header, *rows = data.decode("utf-8").splitlines(keepends=True)
    parts: dict[str, list[str]] = {}
    for row in rows:
        if row.strip():
            parts.setdefault(row.split(",", 1)[0].split(" - ", 1)[0].strip().strip('"'), []).append(row)
    return [(district, (header + "".join(lines)).encode("utf-8")) for district, lines in parts.items()]
