"""Business rows are sealed into the audit chain when written (storage/seals.py), on each database: what is
sealed and when, a savepoint rolled back, a legitimate change re-sealed, a change of a row's fixed columns
caught even when a new seal is appended for it, and the baseline that migration 0006 writes for older rows."""
from __future__ import annotations

import datetime as dt
import gc
from decimal import Decimal

from sqlalchemy import func, select, text, update

from rules.returns import parse_returns
from storage import audit, seals
from storage.db import Database
from storage.migrate import upgrade
from storage.models import AuditEntry, LedgerRow, TallySheetRow, VoteCount
from tests.support.recount_office import recount_in_progress

# Every column of a sealed table is either fixed (never changes once written) or listed here as changing:
# a column added to a sealed table must be classified (a new one belongs here: rows sealed before it existed
# have no fixed hash over it).
CHANGING = {
    "survey_versions": set(), "vote_counts": set(), "choices": set(), "ledger_entries": set(),
    "cost_notices": set(), "contests": {"seats", "kind"},
    "tally_sheets": {"withdrawn_at", "withdrawn_by", "withdrawn_reason"},
    "assistants": {"name", "capacity", "days_served", "compensation", "on_governing_body", "qualified_as_judge",
                   "served_as_judge", "replaces", "recorded_by", "recorded_at"},
    "memberships": {"role", "can_approve", "granted_by", "granted_at"},
    "candidate_users": set(),
    "recount_requests": {"status", "decided_by", "decided_at", "decision_note", "decision_reading", "channel_id",
                         "card_ts", "case_id"},
    "recount_cases": {"status", "survey_version_id", "multi_seat_rule", "verdict", "channel_id", "card_ts", "duties_done",
                      "counting_started_at", "counting_started_by", "count_method", "expected_units", "double_entry",
                      "election_sheet_ids", "completed_at", "completed_by", "completion", "settlement",
                      "amended_version_id", "results_notice_at", "results_notice_by", "results_notice_method",
                      "money_returned_at", "money_returned_by", "money_returned_method", "money_returned_reference"},
    "case_deadlines": {"done_at"},
    "notices": {"given_at", "given_by", "method", "details", "recorded_by", "recorded_at"},
    "evidence_demands": {"produced", "produced_at", "recorded_by"},
    "lot_drawings": {"amended_notice_at", "amended_notice_by", "amended_notice_method"},
    "certificates": {"token_sha256", "expires_at", "slack_file_id", "delivered_at", "delivered_by",
                     "delivery_method"},
    "automatic_recount_waivers": set(),
}


def _seal_entries(db, table: str | None = None) -> list[AuditEntry]:
    with db.transaction() as s:
        query = select(AuditEntry).where(AuditEntry.action == seals.ACTION).order_by(AuditEntry.id)
        if table:
            query = query.where(AuditEntry.entity_id == table)
        return list(s.scalars(query))


def _verify(db) -> audit.VerifyResult:
    with db.read() as s:
        return audit.verify(s)


def test_every_column_of_a_sealed_table_is_classified() -> None:
    assert set(seals.SEALED) == set(CHANGING)
    for name, (model, fixed) in seals.SEALED.items():
        columns = {c.name for c in model.__table__.columns}
        assert set(fixed) <= columns, name
        assert columns - set(fixed) == CHANGING[name], name
        assert not set(fixed) & set(seals.UNSEALED.get(name, ())), name
    assert set(seals.UNSEALED) <= set(seals.SEALED)


def _opened_seals(url: str) -> bool:
    """Open a database as a process does (a health check, a doctor's look), say whether a session of it would seal
    what it writes, and dispose of it."""
    other = Database(url)
    try:
        with other.sessionmaker() as session:
            return seals._seal_at_commit in list(session.dispatch.before_commit)
    finally:
        other.dispose()


def test_every_database_a_process_opens_seals_what_it_writes(db) -> None:
    """A process that opens and disposes many databases (the tests, a console, a worker reconnecting): each one's
    writes are sealed. SQLAlchemy's own "is this listener there" answer was fooled by a new sessionmaker reusing a
    collected one's id, and roles then written were reported by `audit verify` as written outside recount-bot."""
    url = db.engine.url.render_as_string(hide_password=False)
    unsealed = 0
    for _ in range(100):
        unsealed += not _opened_seals(url)
        gc.collect(1)  # that database and its sessionmaker are gone (young garbage): the next may reuse their memory
    assert unsealed == 0


def test_a_recount_seals_its_returns_money_and_sheets_after_each_change(db) -> None:
    _, _, case_id = recount_in_progress(db)
    sealed = {e.entity_id for e in _seal_entries(db)}
    assert sealed == {"survey_versions", "contests", "choices", "vote_counts", "ledger_entries", "cost_notices",
                      "tally_sheets", "memberships", "recount_requests", "recount_cases", "case_deadlines", "notices",
                      "assistants"}
    with db.transaction() as s:
        entries = list(s.scalars(select(AuditEntry).order_by(AuditEntry.id)))
        payment = s.scalar(select(LedgerRow.id).where(LedgerRow.kind == "payment"))
    # The payment's seal follows the entry of the change that wrote it, in the same transaction, signed by its actor.
    [recorded] = [i for i, e in enumerate(entries) if e.action == "payment.recorded"]
    follower = entries[recorded + 1]
    assert (follower.action, follower.entity_id, follower.actor, follower.at) == (
        "rows.sealed", "ledger_entries", entries[recorded].actor, entries[recorded].at)
    assert list(follower.after["rows"]) == [str(payment)]
    # A ledger entry never changes: one hash. A contest may (seats): its fixed part and the whole.
    assert isinstance(follower.after["rows"][str(payment)], str)
    [contests] = _seal_entries(db, "contests")
    assert all(isinstance(v, list) and len(v) == 2 for v in contests.after["rows"].values())
    result = _verify(db)
    # 13 rows of returns, money and sheets; the official's membership, the request, its case, and the case's
    # deadlines and notices; and the assistant recorded (3).
    assert result.ok and result.business_rows == 22, result.describe()


def test_rows_of_a_rolled_back_savepoint_are_not_sealed(db) -> None:
    services, _, case_id = recount_in_progress(db)
    before = len(_seal_entries(db, "ledger_entries"))
    with db.transaction() as s:
        s.add(LedgerRow(case_id=case_id, kind="expense", amount=Decimal("1.00"), memo="kept", details={},
                        recorded_by="U0OFFICIAL"))
        try:
            with db.transaction() as inner:  # a savepoint of the same transaction
                inner.add(LedgerRow(case_id=case_id, kind="expense", amount=Decimal("2.00"), memo="undone",
                                    details={}, recorded_by="U0OFFICIAL"))
                inner.flush()
                raise RuntimeError("the inner step failed")
        except RuntimeError:
            pass
    entries = _seal_entries(db, "ledger_entries")
    assert len(entries) == before + 1
    with db.transaction() as s:
        kept = s.scalar(select(LedgerRow.id).where(LedgerRow.memo == "kept"))
        assert s.scalar(select(func.count()).select_from(LedgerRow).where(LedgerRow.memo == "undone")) == 0
    assert list(entries[-1].after["rows"]) == [str(kept)]
    assert _verify(db).ok


def test_a_withdrawn_sheet_is_sealed_again_and_its_fixed_columns_stay_guarded(db) -> None:
    _, _, case_id = recount_in_progress(db)
    with db.transaction() as s:
        sheet = s.scalars(select(TallySheetRow).order_by(TallySheetRow.id)).first()
        sheet.withdrawn_at = dt.datetime(2026, 11, 12, tzinfo=dt.timezone.utc)
        sheet.withdrawn_by, sheet.withdrawn_reason = "U0OFFICIAL", "mistyped"
        audit.append(s, actor="U0OFFICIAL", action="tally.sheet_withdrawn", entity="tally_sheet",
                     entity_id=sheet.id)
        sheet_id = sheet.id
    assert len(_seal_entries(db, "tally_sheets")) == 3  # two entered, one withdrawn
    assert _verify(db).ok

    # A changing column edited with SQL: differs from its latest seal.
    table = TallySheetRow.__table__
    with db.engine.begin() as c:
        c.execute(update(table).where(table.c.id == sheet_id).values(withdrawn_reason="no reason"))
    result = _verify(db)
    assert not result.ok and (result.bad_row.table, result.bad_row.row_id) == ("tally_sheets", sheet_id)
    assert "it was changed outside recount-bot" in result.bad_row.problem

    # A fixed column edited with SQL, and a seal of the new contents appended as recount-bot would: the row
    # matches its latest seal, but not what it held when first written.
    with db.engine.begin() as c:
        c.execute(update(table).where(table.c.id == sheet_id).values(
            withdrawn_reason="mistyped", counts={"Dana Whitfield": 1, "Sam Okafor": 999}))
    with db.transaction() as s:
        values = dict(s.execute(select(table).where(table.c.id == sheet_id)).one()._mapping)
        columns = sorted(c.name for c in table.columns)
        audit.append(s, actor="U0OFFICIAL", action=seals.ACTION, entity=seals.ENTITY, entity_id="tally_sheets",
                     after={"columns": columns,
                            "rows": {str(sheet_id): seals.seal_value("tally_sheets", sheet_id, values, columns)}})
    result = _verify(db)
    assert not result.ok and result.bad_row.row_id == sheet_id
    assert "when it was written: it was changed afterwards (and sealed again at audit row" in result.bad_row.problem
    assert result.describe().startswith(f"audit log BROKEN at tally sheet entry {sheet_id} (tally_sheets): it ")


def test_a_thousand_rows_and_more_are_sealed_in_entries_of_a_thousand(db) -> None:
    from services.returns.versions import import_returns
    from services.services import Services

    rows = ["contest,choice,votes,kind,unit"]
    rows += [f"Water District - Director,{who},{7 + unit % 5},candidate,Precinct {unit}"
             for unit in range(1, 1251) for who in ("Ada", "Ben")]
    services = Services(db, clock=lambda: dt.datetime(2026, 11, 10, 17, 0, tzinfo=dt.timezone.utc))
    import_returns(services, team_id="T0MANY", returns=parse_returns("\n".join(rows).encode()), election_name="E",
                   election_date=dt.date(2026, 11, 3), local_government="W", governing_body="B", actor="test")
    entries = _seal_entries(db, "vote_counts")
    assert [sum(last - first + 1 for first, last in e.after["ids"]) for e in entries] == [1000, 1000, 500]
    assert [len(e.after["hashes"]) for e in entries] == [64000, 64000, 32000]
    result = _verify(db)
    assert result.ok and result.business_rows == 1 + 1 + 2 + 2500
    with db.engine.begin() as c:
        last = c.execute(select(func.max(VoteCount.id))).scalar()
        c.execute(update(VoteCount.__table__).where(VoteCount.__table__.c.id >= last - 2).values(votes=0))
    result = _verify(db)
    assert not result.ok and (result.bad_row.row_id, result.more_bad_rows) == (last - 2, 2)
    assert "2 more rows do not match" in result.describe()


def test_migration_0006_seals_the_rows_written_before_it(empty_database_url) -> None:
    db = Database(empty_database_url)
    try:
        upgrade(db, "0005")
        at = dt.datetime(2026, 11, 1, 12, 0)
        with db.engine.begin() as c:  # an older recount-bot's returns, written without seals
            for statement, values in (
                ("INSERT INTO workspaces (id, slack_team_id, name, settings, created_at) "
                 "VALUES (1, 'T1', 'Office', '{}', :at)", {"at": at}),
                ("INSERT INTO local_governments (id, workspace_id, name, governing_body) "
                 "VALUES (1, 1, 'District', 'Board')", {}),
                ("INSERT INTO elections (id, local_government_id, name, election_date, created_at, "
                 "abstract_preparers) VALUES (1, 1, 'Regular', :day, :at, '[]')",
                 {"day": dt.date(2026, 11, 3), "at": at}),
                ("INSERT INTO contests (id, election_id, name, kind, seats, position) "
                 "VALUES (1, 1, 'Director', 'candidate', 1, 0)", {}),
                ("INSERT INTO choices (id, contest_id, name, position) VALUES (1, 1, 'Ada', 0), (2, 1, 'Ben', 1)", {}),
                ("INSERT INTO survey_versions (id, election_id, number, reason, evidence, source_format, source_name, "
                 "created_by, created_at) VALUES (1, 1, 1, 'imported', '[]', 'template', 'a.csv', 'cli:x', :at)",
                 {"at": at}),
                ("INSERT INTO vote_counts (id, survey_version_id, contest_id, choice_id, unit, votes) "
                 "VALUES (1, 1, 1, 1, '', 120), (2, 1, 1, 2, '', 80)", {}),
            ):
                c.execute(text(statement), values)
        upgrade(db)
        entries = _seal_entries(db)
        assert {e.entity_id for e in entries} == {"survey_versions", "contests", "choices", "vote_counts"}
        assert {e.actor for e in entries} == {"recount-bot db upgrade 0006 (rows written before rows were sealed)"}
        result = _verify(db)
        assert result.ok and (result.rows_checked, result.business_rows) == (4, 6), result.describe()
        with db.engine.begin() as c:
            c.execute(text("UPDATE vote_counts SET votes = 81 WHERE id = 2"))
        result = _verify(db)
        assert not result.ok and (result.bad_row.table, result.bad_row.row_id) == ("vote_counts", 2)
    finally:
        db.dispose()


def test_migration_0014_seals_who_may_act_and_what_was_decided_written_before_it(empty_database_url) -> None:
    db = Database(empty_database_url)
    try:
        upgrade(db, "0012")
        at = dt.datetime(2026, 11, 1, 12, 0)
        with db.engine.begin() as c:  # an older recount-bot's office: roles and a returns row, roles unsealed
            c.execute(text("INSERT INTO workspaces (id, slack_team_id, name, settings, created_at) "
                           "VALUES (1, 'T1', 'Office', '{}', :at)"), {"at": at})
            c.execute(text("INSERT INTO memberships (id, workspace_id, slack_user_id, role, can_approve, granted_by, "
                           "granted_at) VALUES (1, 1, 'U0DANA', 'official', false, 'U0DANA', :at), "
                           "(2, 1, 'U0SAM', 'staff', false, 'U0DANA', :at)"), {"at": at})
        upgrade(db)
        entries = _seal_entries(db)
        assert [(e.entity_id, sorted(e.after["rows"])) for e in entries] == [("memberships", ["1", "2"])]
        assert entries[0].actor.startswith("recount-bot db upgrade 0014 ")
        assert "card_ts" not in seals._columns("recount_cases")
        result = _verify(db)
        assert result.ok and result.business_rows == 2, result.describe()
        with db.engine.begin() as c:
            c.execute(text("UPDATE memberships SET role = 'official' WHERE id = 2"))
        result = _verify(db)
        assert not result.ok and (result.bad_row.table, result.bad_row.row_id) == ("memberships", 2)
    finally:
        db.dispose()


def test_the_hash_written_out_by_hand_is_the_canonical_json_one() -> None:
    """row_hash writes the canonical JSON itself, for speed; it must be the bytes json.dumps writes, or every seal
    made before (and by `baseline`) would stop matching."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    scalars = st.one_of(st.none(), st.booleans(), st.integers(min_value=-2**70, max_value=2**70), st.text(),
                        st.decimals(allow_nan=False, allow_infinity=False, places=2),
                        st.datetimes(timezones=st.just(dt.timezone.utc)), st.dates(),
                        st.floats(allow_nan=False))
    values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                           st.dictionaries(st.text(max_size=5), inner, max_size=3)),
                          max_leaves=6)
    names = st.lists(st.text(alphabet="abcdefghij_", min_size=1, max_size=8), min_size=1, max_size=6, unique=True)

    @settings(max_examples=300, deadline=None)
    @given(names=names, data=st.data(), row_id=st.integers(min_value=1, max_value=2**40),
           table=st.sampled_from(sorted(seals.SEALED)))
    def same(names, data, row_id, table) -> None:
        row = {name: data.draw(values) for name in names}
        columns = names[: data.draw(st.integers(min_value=1, max_value=len(names)))] + ["missing"]
        assert seals.row_hash(table, row_id, row, columns) == seals.row_hash_by_json(table, row_id, row, columns)

    same()


def test_a_re_import_streams_its_counts_sealed_and_carries_the_contests_left_out(db) -> None:
    from services.returns.versions import import_returns
    from services.services import Services
    from storage.models import SurveyVersion

    def returns(*contests: str, votes: int = 7) -> bytes:
        rows = ["contest,choice,votes,kind,unit"]
        rows += [f"{contest},{who},{votes + unit},candidate,Precinct {unit}"
                 for contest in contests for unit in range(1, 801) for who in ("Ada", "Ben")]
        return "\n".join(rows).encode()

    services = Services(db, clock=lambda: dt.datetime(2026, 11, 10, 17, 0, tzinfo=dt.timezone.utc))
    common = {"team_id": "T0STREAM", "election_name": "E", "election_date": dt.date(2026, 11, 3),
              "local_government": "W", "governing_body": "B", "actor": "test"}
    first = import_returns(services, returns=parse_returns(returns("Water - Director", "Fire - Director")), **common)
    assert first.version_number == 1 and first.new_version
    same = import_returns(services, returns=parse_returns(returns("Water - Director")), **common)
    assert not same.new_version  # the one contest in the file as it was; the other carried: nothing changed
    second = import_returns(services, returns=parse_returns(returns("Water - Director", votes=9)), **common)
    assert second.new_version and second.changed_contests == ("Water - Director",)
    assert second.carried_over == ("Fire - Director",)
    with db.transaction() as s:
        versions = {v.number: v.id for v in s.scalars(select(SurveyVersion))}

        def counts(version: int) -> dict:
            return {(c, u, ch): v for c, u, ch, v in s.execute(
                select(VoteCount.contest_id, VoteCount.unit, VoteCount.choice_id, VoteCount.votes)
                .where(VoteCount.survey_version_id == versions[version]))}

        one, two = counts(1), counts(2)
    assert len(one) == len(two) == 2 * 800 * 2
    changed = {k for k in one if one[k] != two[k]}
    assert changed and {k[0] for k in changed} == {min(k[0] for k in one)}  # only Water's counts differ
    result = _verify(db)
    assert result.ok and result.business_rows == 2 + 2 + 4 + 2 * 3200
