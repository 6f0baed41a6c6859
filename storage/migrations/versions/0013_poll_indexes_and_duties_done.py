"""poll indexes and duties_done: indexes on the foreign keys the queries filter by, and a case's mark that nothing
is owed any more

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-15 10:00:00

Issue 25: the worker's poll and App Home read every case of an office's history on every tick. The foreign keys
they (and the cards) filter by had no index, so each lookup scanned its table; each gets one here. A composite
index on recount_cases (workspace_id, duties_done, completed_at) lets them read only the cases still owing
something and those completed lately.

recount_cases.duties_done starts false for every case, completed or not: which completed cases owe nothing is
decided by the statute's rules (rules.duties), not by SQL, so the worker's first poll after the upgrade reads each
once and marks those owing nothing (services/conduct/owed.py); from then on the use cases keep it.
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0013'
down_revision = '0012'
branch_labels = None
depends_on = None

# (index name, table, columns): single columns named as the models' index=True names them.
INDEXES = (
    ('ix_recount_cases_live', 'recount_cases', ['workspace_id', 'duties_done', 'completed_at']),
    ('ix_tally_sheets_case_id', 'tally_sheets', ['case_id']),
    ('ix_evidence_demands_case_id', 'evidence_demands', ['case_id']),
    ('ix_observer_links_case_id', 'observer_links', ['case_id']),
    ('ix_recount_requests_case_id', 'recount_requests', ['case_id']),
    ('ix_recount_requests_workspace_status', 'recount_requests', ['workspace_id', 'status']),
    ('ix_ledger_entries_case_id', 'ledger_entries', ['case_id']),
    ('ix_cost_notices_case_id', 'cost_notices', ['case_id']),
    ('ix_reminders_case_id', 'reminders', ['case_id']),
    ('ix_reminders_election_id', 'reminders', ['election_id']),
    ('ix_reminders_workspace_status', 'reminders', ['workspace_id', 'status']),
    ('ix_candidate_users_workspace_id', 'candidate_users', ['workspace_id']),
)


def upgrade() -> None:
    with op.batch_alter_table('recount_cases', schema=None) as batch_op:
        batch_op.add_column(sa.Column('duties_done', sa.Boolean(), server_default='0', nullable=False))
    for name, table, columns in INDEXES:
        op.create_index(name, table, columns, unique=False)


def downgrade() -> None:
    for name, table, _ in reversed(INDEXES):
        op.drop_index(name, table_name=table)
    with op.batch_alter_table('recount_cases', schema=None) as batch_op:
        batch_op.drop_column('duties_done')
