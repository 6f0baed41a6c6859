"""a request decided under a named reading; business rows sealed into the audit chain

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-03 15:00:00

- `recount_requests.decision_reading`: the reading a decision was made under, with the official's reason: an
  official who entered a request on the requester's behalf decides it only when no one else in the office may
  ("one office, one person", rules.requests).
- From this revision on, every returns, tally and money row is sealed into the audit log when written
  (storage/seals.py). Rows already in the database are sealed here, as they are now, by one audit entry per
  table (per 1,000 rows) whose actor says it was this upgrade: `audit verify` then checks them too, and nothing
  from before can be told apart from what was checked when written except by that actor.

The baseline is computed by storage.seals.baseline, not written out here: it must hash exactly as
`audit verify` recomputes, and it reads and writes through Core over the columns the database has at this
revision, so a later revision's columns do not break it.
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None

BASELINE_ACTOR = "recount-bot db upgrade 0006 (rows written before rows were sealed)"
# The tables sealed from this revision on (storage.seals.SEALED has grown since: 0014 baselines the rest).
SEALED_HERE = ("survey_versions", "contests", "choices", "vote_counts", "tally_sheets", "ledger_entries",
               "cost_notices", "assistants")


def upgrade() -> None:
    with op.batch_alter_table('recount_requests', schema=None) as batch_op:
        batch_op.add_column(sa.Column('decision_reading', sa.Text(), nullable=True))

    from storage.seals import baseline
    from storage.types import utcnow

    baseline(op.get_bind(), actor=BASELINE_ACTOR, at=utcnow(), tables=SEALED_HERE)


def downgrade() -> None:
    # The seals stay in the audit log: it is append-only, and an older recount-bot reads them as plain entries.
    with op.batch_alter_table('recount_requests', schema=None) as batch_op:
        batch_op.drop_column('decision_reading')
