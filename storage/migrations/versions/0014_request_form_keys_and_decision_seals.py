"""one request per form; the rows that say who may act and what was decided sealed into the audit chain

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-04 20:00:00

- `recount_requests.form_key`, unique per workspace: the Slack form a request was entered in. A form submitted
  again (Slack gave up waiting for the first answer and the clerk submitted once more) finds the request it
  recorded instead of recording a second one (issue 23, item 10).
- From this revision on, the rows that decide who may act (memberships, candidate_users) and what was decided
  (recount_requests, recount_cases, case_deadlines, notices, evidence_demands, lot_drawings, certificates) are
  sealed when written, as 0006 began for the returns, tallies and money (storage/seals.py). Rows already in the
  database are sealed here, as they are now, by one audit entry per table (per 1,000 rows) whose actor says it
  was this upgrade (issue 23, item 11).
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0014'
down_revision = '0013'
branch_labels = None
depends_on = None

BASELINE_ACTOR = "recount-bot db upgrade 0014 (rows written before who may act and what was decided were sealed)"
SEALED_HERE = ("memberships", "candidate_users", "recount_requests", "recount_cases", "case_deadlines", "notices",
               "evidence_demands", "lot_drawings", "certificates")


def upgrade() -> None:
    with op.batch_alter_table('recount_requests', schema=None) as batch_op:
        batch_op.add_column(sa.Column('form_key', sa.String(length=64), nullable=True))
    op.create_index('ix_recount_requests_form_key', 'recount_requests', ['workspace_id', 'form_key'], unique=True)

    from storage.seals import baseline
    from storage.types import utcnow

    baseline(op.get_bind(), actor=BASELINE_ACTOR, at=utcnow(), tables=SEALED_HERE)


def downgrade() -> None:
    # The seals stay in the audit log: it is append-only, and an older recount-bot reads them as plain entries.
    op.drop_index('ix_recount_requests_form_key', table_name='recount_requests')
    with op.batch_alter_table('recount_requests', schema=None) as batch_op:
        batch_op.drop_column('form_key')
