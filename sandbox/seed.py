"""The offline workspace's starting point: the example survey of returns, and a staff member.

The example office conducts the Regular Special District Election of four special districts on one day. Each
district is its own local government with its own governing body (the body owed the notices of (1) and paying
for an automatic recount), so the example is imported as one election per district, on the same date;
`/recount check` covers every election of the latest election day.

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

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "survey-of-returns.csv"
ELECTION_NAME = "Regular Special District Election"
ELECTION_DATE = dt.date(2026, 11, 3)
# Each district of the example (the part of a contest's name before " - ") and its governing body.
GOVERNING_BODIES = {
    "Cherry Creek Valley Water and Sanitation District":
        "Board of Directors of the Cherry Creek Valley Water and Sanitation District",
    "Bear Creek Fire Protection District": "Board of Directors of the Bear Creek Fire Protection District",
    "Pine Ridge Metropolitan District": "Board of Directors of the Pine Ridge Metropolitan District",
    "Aspen Grove Library District": "Board of Trustees of the Aspen Grove Library District",
}
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


def seed(services: Services, team_id: str, team_name: str, staff: Person | None, example: Path = EXAMPLE) -> Seeded:
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
    contests = 0
    for district, data in by_district(example.read_bytes()):
        result = import_returns(services, team_id=team_id, returns=parse_returns(data), election_name=ELECTION_NAME,
                                election_date=ELECTION_DATE, local_government=district,
                                governing_body=GOVERNING_BODIES.get(district), source_name=example.name,
                                source_bytes=data, actor=ACTOR)
        contests += result.contests
    return Seeded(f"{ELECTION_NAME} of {ELECTION_DATE:%Y-%m-%d} ({contests} contests of "
                  f"{len(GOVERNING_BODIES)} districts from {example.name})", made_staff)


def by_district(data: bytes) -> list[tuple[str, bytes]]:
    """The example's rows split by district (the contest name up to " - "), each part with the header."""
    header, *rows = data.decode("utf-8").splitlines(keepends=True)
    parts: dict[str, list[str]] = {}
    for row in rows:
        if row.strip():
            parts.setdefault(row.split(",", 1)[0].split(" - ", 1)[0].strip().strip('"'), []).append(row)
    return [(district, (header + "".join(lines)).encode("utf-8")) for district, lines in parts.items()]
