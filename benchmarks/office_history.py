"""An office with a long history, for `bench reminders` and `bench app-home`: N recount cases completed in past
elections with every duty done, beside the same small present at every N (what is live today).

The present, in the election of 2026-11-03 (NOW is 2026-11-24, 9 a.m. in Denver):
- case 1, automatic, open, one notice of the recount not yet given;
- case 2, automatic, counting (2 of 3 units tallied);
- case 3, requested, open, cost notified and not paid (a daily "payment pending" reminder);
- case 4, automatic, completed 2026-11-20, the notice of the results not yet given (a daily "duties owed");
- case 5, automatic, completed 2026-11-21, its certificate not yet delivered (the same);
- case 6, automatic, completed 2026-11-22, every duty done (only its election-contest window is live);
- a pending recount request to decide.

The history: elections a week apart going back from 2026-10-06, ten contests each, each contest's recount
completed 20 days after its election with everything recorded: notices given, the results notified, the
certificate delivered, for every fifth (a requested recount) the money settled and refunded, with what such a
case leaves behind: its deadlines, tally sheets, ledger, reminders sent and posts delivered. Rows are written
with SQLAlchemy Core in the shapes the use cases store (services.completion.complete and friends): the
benchmark then checks that the worker finds exactly the present live, so a history seeded wrong fails it.
"""
from __future__ import annotations

import datetime as dt
import hashlib
from decimal import Decimal
from typing import Any, Iterator

from sqlalchemy import insert

NOW = dt.datetime(2026, 11, 24, 16, 0, tzinfo=dt.timezone.utc)
TEAM, OFFICIAL, STAFF = "T0BENCH01", "U0OFFICIAL", "U0STAFF01"
CURRENT_ELECTION = dt.date(2026, 11, 3)
CONTESTS_PER_ELECTION = 10
PRESENT_CASES = 6
BATCH = 2000


def _at(day: dt.date, hour: int = 16) -> dt.datetime:
    return dt.datetime(day.year, day.month, day.day, hour, tzinfo=dt.timezone.utc)


class _Rows:
    """Rows per table, written in batches as they gather (the history never sits whole in memory)."""

    def __init__(self, session) -> None:
        from storage import models

        self.session, self.models, self.rows = session, models, {}
        self.ids: dict[str, int] = {}

    def next_id(self, table: str) -> int:
        self.ids[table] = self.ids.get(table, 0) + 1
        return self.ids[table]

    def add(self, table: str, **values: Any) -> int:
        if "id" not in values and table not in ("audit_head",):
            values["id"] = self.next_id(table)
        self.rows.setdefault(table, []).append(values)
        if len(self.rows[table]) >= BATCH:
            self.flush()  # every table, parents first
        return values.get("id", 0)

    def flush(self, only: str | None = None) -> None:
        order = ["workspaces", "memberships", "local_governments", "elections", "contests", "choices",
                 "survey_versions", "vote_counts", "recount_cases", "case_deadlines", "notices", "certificates",
                 "recount_requests", "ledger_entries", "cost_notices", "tally_sheets", "reminders", "outbox"]
        for table in order if only is None else [only]:
            rows = self.rows.pop(table, None)
            if rows:
                keys = set().union(*rows)  # one statement for many rows needs the same columns in each
                rows = [{key: row.get(key) for key in keys} for row in rows]
                self.session.execute(insert(self.models.Base.metadata.tables[table]), rows)


def _present(rows: _Rows, election_id: int, version_id: int) -> None:
    contests = []
    for n in range(1, PRESENT_CASES + 1):
        contest = rows.add("contests", election_id=election_id, name=f"Present contest {n}", kind="candidate",
                           seats=1, position=n)
        for p, (name, votes) in enumerate((("Alice Able", 60), ("Bo Baker", 40)), 1):
            choice = rows.add("choices", contest_id=contest, name=f"{name} {n}", position=p)
            for unit in ("P1", "P2", "P3"):
                rows.add("vote_counts", survey_version_id=version_id, contest_id=contest, choice_id=choice, unit=unit,
                         votes=votes)
        contests.append(contest)
    day = CURRENT_ELECTION
    for n, contest in enumerate(contests, 1):
        requested = n == 3
        completed = {4: dt.date(2026, 11, 20), 5: dt.date(2026, 11, 21), 6: dt.date(2026, 11, 22)}.get(n)
        case = rows.add(
            "recount_cases", workspace_id=1, contest_id=contest, kind="requested" if requested else "automatic",
            status="completed" if completed else ("counting" if n == 2 else "open"), opened_at=_at(day + dt.timedelta(days=2)),
            opened_by=OFFICIAL, survey_version_id=version_id, multi_seat_rule="last-winner-first-loser", verdict={},
            channel_id="C0CASES", card_ts=f"1762000000.{n:06d}", double_entry=False,
            counting_started_at=_at(day + dt.timedelta(days=5)) if n in (2, 4, 5, 6) else None,
            counting_started_by=OFFICIAL if n in (2, 4, 5, 6) else None,
            count_method="precinct" if n in (2, 4, 5, 6) else None,
            expected_units=["P1", "P2", "P3"] if n in (2, 4, 5, 6) else None,
            completed_at=_at(completed) if completed else None, completed_by=OFFICIAL if completed else None,
            completion=_completion(n) if completed else None,
            results_notice_at=_at(dt.date(2026, 11, 23)) if n == 6 else None,
            results_notice_by="Clerk" if n == 6 else None, results_notice_method="email" if n == 6 else None)
        name = "requested_recount_deadline" if requested else "automatic_recount_deadline"
        rows.add("case_deadlines", case_id=case, name=name, due_date=dt.date(2026, 12, 3), citation="C.R.S. 1-10.5-101",
                 note="bench")
        rows.add("case_deadlines", case_id=case, name="contest_filing_deadline", due_date=dt.date(2026, 11, 25),
                 citation="C.R.S. 1-13.5-1403", note="bench")
        rows.add("notices", case_id=case, recipient_kind="governing_body", recipient_name="Board",
                 citation="C.R.S. 1-13.5-1306(1)", given_at=None if n == 1 else _at(day + dt.timedelta(days=3)),
                 given_by=None if n == 1 else "Clerk", method=None if n == 1 else "email")
        if n in (2, 4, 5, 6):
            for unit in ("P1", "P2", "P3")[: 2 if n == 2 else 3]:
                rows.add("tally_sheets", case_id=case, sheet_id=f"S-{unit}", unit=unit, method="precinct",
                         counts={f"Alice Able {n}": 60, f"Bo Baker {n}": 40}, entry=1, entered_by=STAFF,
                         entered_at=_at(day + dt.timedelta(days=6)))
        if completed:
            rows.add("certificates", case_id=case, candidate=f"Alice Able {n}", votes=180,
                     token_sha256=hashlib.sha256(f"present-{n}".encode()).hexdigest(), created_at=_at(completed),
                     expires_at=_at(completed) + dt.timedelta(days=90),
                     delivered_at=None if n == 5 else _at(completed), delivered_by=None if n == 5 else "Clerk",
                     delivery_method=None if n == 5 else "in person")
        if requested:
            rows.add("recount_requests", workspace_id=1, contest_id=contest, requester_name="Rita Requester",
                     requester_contact="rita@example.org", party_kind="candidate", candidate_choice="Bo Baker 3",
                     in_favor_of="Bo Baker 3", received_on=day + dt.timedelta(days=2), received_reference="letter",
                     entered_by=OFFICIAL, entered_at=_at(day + dt.timedelta(days=2)), evaluation={},
                     status="approved", decided_by=OFFICIAL, decided_at=_at(day + dt.timedelta(days=2)), case_id=case)
            rows.add("ledger_entries", case_id=case, kind="cost_determined", amount=Decimal("300.00"), memo="cost",
                     details={"lines": ["staff 300.00"]}, recorded_by=OFFICIAL, recorded_at=_at(day + dt.timedelta(days=3)))
            rows.add("cost_notices", case_id=case, cost=Decimal("300.00"), notified_at=_at(day + dt.timedelta(days=4)),
                     method="email", notified_by="Clerk", recorded_by=OFFICIAL, recorded_at=_at(day + dt.timedelta(days=4)))
    # A request still waiting for the official.
    rows.add("recount_requests", workspace_id=1, contest_id=contests[0], requester_name="Quinn Questioner",
             requester_contact="quinn@example.org", party_kind="candidate", candidate_choice="Bo Baker 1",
             in_favor_of="Bo Baker 1", received_on=dt.date(2026, 11, 20), received_reference="letter",
             entered_by=STAFF, entered_at=_at(dt.date(2026, 11, 20)), evaluation={}, status="pending")


def _completion(n: int) -> dict:
    return {"outcome": "confirmed", "reason": "bench", "citation": "C.R.S. 1-13.5-1306(6)",
            "certificates": [f"Alice Able {n}"], "winners_after": [f"Alice Able {n}"], "tie_for_last_seat": False,
            "notice_of_results_to": "Board of District"}


def _history_case(rows: _Rows, election_id: int, day: dt.date, version_id: int, index: int) -> None:
    contest = rows.add("contests", election_id=election_id, name=f"Contest {index}", kind="candidate", seats=1,
                       position=index % CONTESTS_PER_ELECTION)
    choices = [rows.add("choices", contest_id=contest, name=f"{name} {index}", position=p)
               for p, name in enumerate(("Alice Able", "Bo Baker"), 1)]
    for choice, votes in zip(choices, (600, 400), strict=True):
        rows.add("vote_counts", survey_version_id=version_id, contest_id=contest, choice_id=choice, unit="", votes=votes)
    requested = index % 5 == 0
    completed = _at(day + dt.timedelta(days=20))
    settlement = ({"outcome": "refund", "refund": "500.00", "deposit_return": "0.00", "balance_due": "0.00",
                   "reason": "bench"} if requested else None)
    case = rows.add(
        "recount_cases", workspace_id=1, contest_id=contest, kind="requested" if requested else "automatic",
        status="completed", opened_at=_at(day + dt.timedelta(days=2)), opened_by=OFFICIAL, survey_version_id=version_id,
        multi_seat_rule="last-winner-first-loser", verdict={"outcome": "automatic_recount"}, channel_id="C0CASES",
        card_ts=f"1600000000.{index:06d}", double_entry=False, counting_started_at=_at(day + dt.timedelta(days=5)),
        counting_started_by=OFFICIAL, count_method="precinct", expected_units=["P1", "P2"],
        completed_at=completed, completed_by=OFFICIAL, completion=_completion(index), settlement=settlement,
        results_notice_at=completed + dt.timedelta(days=1), results_notice_by="Clerk", results_notice_method="email",
        money_returned_at=completed + dt.timedelta(days=2) if requested else None,
        money_returned_by="Clerk" if requested else None, money_returned_method="check" if requested else None,
        money_returned_reference="1001" if requested else None)
    name = "requested_recount_deadline" if requested else "automatic_recount_deadline"
    for deadline, due in ((name, day + dt.timedelta(days=30)), ("contest_filing_deadline", day + dt.timedelta(days=31))):
        rows.add("case_deadlines", case_id=case, name=deadline, due_date=due, citation="C.R.S. 1-13.5-1306",
                 note="bench")
    for kind, recipient in (("governing_body", "Board"), ("candidate", f"Alice Able {index}"),
                            ("candidate", f"Bo Baker {index}")):
        rows.add("notices", case_id=case, recipient_kind=kind, recipient_name=recipient,
                 citation="C.R.S. 1-13.5-1306(1)", given_at=_at(day + dt.timedelta(days=3)), given_by="Clerk",
                 method="email", recorded_by=OFFICIAL, recorded_at=_at(day + dt.timedelta(days=3)))
    rows.add("certificates", case_id=case, candidate=f"Alice Able {index}", votes=600,
             token_sha256=hashlib.sha256(f"history-{index}".encode()).hexdigest(), created_at=completed,
             expires_at=completed + dt.timedelta(days=90), delivered_at=completed + dt.timedelta(days=1),
             delivered_by="Clerk", delivery_method="in person")
    for unit in ("P1", "P2"):
        for entry in (1, 2):
            rows.add("tally_sheets", case_id=case, sheet_id=f"S-{unit}", unit=unit, method="precinct",
                     counts={f"Alice Able {index}": 300, f"Bo Baker {index}": 200}, entry=entry, entered_by=STAFF,
                     entered_at=_at(day + dt.timedelta(days=8)))
    if requested:
        rows.add("recount_requests", workspace_id=1, contest_id=contest, requester_name="Past Requester",
                 requester_contact="past@example.org", party_kind="candidate", candidate_choice=f"Bo Baker {index}",
                 in_favor_of=f"Bo Baker {index}", received_on=day + dt.timedelta(days=2), received_reference="letter",
                 entered_by=OFFICIAL, entered_at=_at(day + dt.timedelta(days=2)), evaluation={}, status="approved",
                 decided_by=OFFICIAL, decided_at=_at(day + dt.timedelta(days=2)), case_id=case)
        for kind, amount in (("cost_determined", "500.00"), ("payment", "500.00"), ("expense", "450.00"),
                             ("governing_body_payment", "450.00"), ("refund", "500.00")):
            rows.add("ledger_entries", case_id=case, kind=kind, amount=Decimal(amount), memo=kind,
                     details={"step": "settlement"} if kind in ("expense", "governing_body_payment", "refund") else {},
                     recorded_by=OFFICIAL, recorded_at=completed)
        rows.add("cost_notices", case_id=case, cost=Decimal("500.00"), notified_at=_at(day + dt.timedelta(days=4)),
                 method="email", notified_by="Clerk", recorded_by=OFFICIAL, recorded_at=_at(day + dt.timedelta(days=4)))
    for days_before, status in ((5, "queued"), (1, "queued"), (0, "queued"), (-1, "cancelled")):
        fire = _at(day + dt.timedelta(days=30 - days_before), 15)
        reminder = rows.add("reminders", workspace_id=1, case_id=case, election_id=election_id, deadline_name=name,
                            due_date=day + dt.timedelta(days=30), kind="before" if days_before else "on_the_day",
                            days=max(days_before, 0), fire_at=fire, status=status, late=False,
                            queued_at=fire if status == "queued" else None, created_at=_at(day + dt.timedelta(days=2)))
        if status == "queued":
            rows.add("outbox", workspace_id=1, method="chat.postMessage", payload={"text": "reminder"},
                     dedupe_key=f"reminder:{reminder}:thread", status="sent", attempts=1, next_attempt_at=fire,
                     result={"ok": True}, created_at=fire, sent_at=fire)


def _elections(completed: int) -> Iterator[tuple[int, dt.date]]:
    day = dt.date(2026, 10, 6)
    for index in range(completed):
        if index % CONTESTS_PER_ELECTION == 0:
            yield index, day
            day -= dt.timedelta(days=7)


def seed(db, completed: int) -> None:
    """The office: the present (see the module's doc) and `completed` past cases, all in one transaction."""
    with db.transaction() as session:
        rows = _Rows(session)
        rows.add("workspaces", slack_team_id=TEAM, name="Bench County Clerk", settings={}, created_at=_at(dt.date(2010, 1, 4)))
        rows.add("memberships", workspace_id=1, slack_user_id=OFFICIAL, role="official", granted_by="bench",
                 granted_at=_at(dt.date(2010, 1, 4)))
        rows.add("memberships", workspace_id=1, slack_user_id=STAFF, role="staff", granted_by="bench",
                 granted_at=_at(dt.date(2010, 1, 4)))
        rows.add("local_governments", workspace_id=1, name="District", governing_body="Board")
        current = rows.add("elections", local_government_id=1, name="Current Election", election_date=CURRENT_ELECTION,
                           abstract_preparers=[], created_at=_at(CURRENT_ELECTION - dt.timedelta(days=30)))
        version = rows.add("survey_versions", election_id=current, number=1, reason="bench", evidence=[],
                           source_format="bench", source_name="bench.csv", created_by=OFFICIAL,
                           created_at=_at(CURRENT_ELECTION + dt.timedelta(days=1)))
        rows.flush()
        _present(rows, current, version)
        rows.flush()
        starts = dict(_elections(completed))
        election = version = 0
        for index in range(completed):
            if index in starts:
                day = starts[index]
                election = rows.add("elections", local_government_id=1, name=f"Election of {day.isoformat()}",
                                    election_date=day, abstract_preparers=[], created_at=_at(day - dt.timedelta(days=30)))
                rows.flush("elections")
                version = rows.add("survey_versions", election_id=election, number=1, reason="bench", evidence=[],
                                   source_format="bench", source_name="bench.csv", created_by=OFFICIAL,
                                   created_at=_at(day + dt.timedelta(days=1)))
                rows.flush("survey_versions")
            _history_case(rows, election, day, version, index + 1)
            if index % 500 == 499:
                rows.flush()
        rows.flush()
    if db.dialect == "postgresql":
        from sqlalchemy import text

        with db.engine.connect() as conn:
            for table, _ in sorted(rows.ids.items()):
                conn.execute(text(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                                  f"(SELECT MAX(id) FROM {table}))"))
            conn.commit()


def settle_statistics(db) -> None:
    """PostgreSQL: the planner's statistics as autovacuum keeps them once the history is marked done (ANALYZE);
    left stale, they describe a table in which no case was marked yet. SQLite: none, as in production, where
    recount-bot never runs ANALYZE (without statistics SQLite assumes an index narrows a search)."""
    if db.dialect == "postgresql":
        from sqlalchemy import text

        with db.engine.connect() as conn:
            conn.execute(text("ANALYZE"))
            conn.commit()
