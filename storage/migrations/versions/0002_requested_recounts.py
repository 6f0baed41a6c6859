"""requested recounts: requests, ledger, cost notices, approvers, counting start

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-02 15:13:24.469218
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('cost_notices',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('case_id', sa.Integer(), nullable=False),
    sa.Column('cost', sa.BigInteger(), nullable=False),
    sa.Column('notified_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('method', sa.String(length=64), nullable=False),
    sa.Column('notified_by', sa.String(length=200), nullable=False),
    sa.Column('details', sa.Text(), nullable=True),
    sa.Column('recorded_by', sa.String(length=64), nullable=False),
    sa.Column('recorded_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['case_id'], ['recount_cases.id'], name=op.f('fk_cost_notices_case_id_recount_cases')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_cost_notices'))
    )
    op.create_table('ledger_entries',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('case_id', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=32), nullable=False),
    sa.Column('amount', sa.BigInteger(), nullable=False),
    sa.Column('memo', sa.Text(), nullable=False),
    sa.Column('details', sa.JSON(), nullable=False),
    sa.Column('recorded_by', sa.String(length=64), nullable=False),
    sa.Column('recorded_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['case_id'], ['recount_cases.id'], name=op.f('fk_ledger_entries_case_id_recount_cases')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_ledger_entries'))
    )
    op.create_table('recount_requests',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('workspace_id', sa.Integer(), nullable=False),
    sa.Column('contest_id', sa.Integer(), nullable=False),
    sa.Column('requester_name', sa.String(length=300), nullable=False),
    sa.Column('requester_contact', sa.String(length=500), nullable=False),
    sa.Column('requester_slack_user', sa.String(length=32), nullable=True),
    sa.Column('party_kind', sa.String(length=32), nullable=False),
    sa.Column('candidate_choice', sa.String(length=300), nullable=True),
    sa.Column('committee_side', sa.String(length=300), nullable=True),
    sa.Column('in_favor_of', sa.String(length=300), nullable=False),
    sa.Column('received_on', sa.Date(), nullable=False),
    sa.Column('received_reference', sa.String(length=300), nullable=False),
    sa.Column('entered_by', sa.String(length=64), nullable=False),
    sa.Column('entered_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('evaluation', sa.JSON(), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('decided_by', sa.String(length=64), nullable=True),
    sa.Column('decided_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('decision_note', sa.Text(), nullable=True),
    sa.Column('channel_id', sa.String(length=32), nullable=True),
    sa.Column('card_ts', sa.String(length=32), nullable=True),
    sa.Column('case_id', sa.Integer(), nullable=True),
    sa.ForeignKeyConstraint(['case_id'], ['recount_cases.id'], name=op.f('fk_recount_requests_case_id_recount_cases')),
    sa.ForeignKeyConstraint(['contest_id'], ['contests.id'], name=op.f('fk_recount_requests_contest_id_contests')),
    sa.ForeignKeyConstraint(['workspace_id'], ['workspaces.id'], name=op.f('fk_recount_requests_workspace_id_workspaces')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_recount_requests'))
    )
    with op.batch_alter_table('memberships', schema=None) as batch_op:
        batch_op.add_column(sa.Column('can_approve', sa.Boolean(), server_default='0', nullable=False))

    with op.batch_alter_table('recount_cases', schema=None) as batch_op:
        batch_op.add_column(sa.Column('counting_started_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('counting_started_by', sa.String(length=64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('recount_cases', schema=None) as batch_op:
        batch_op.drop_column('counting_started_by')
        batch_op.drop_column('counting_started_at')

    with op.batch_alter_table('memberships', schema=None) as batch_op:
        batch_op.drop_column('can_approve')

    op.drop_table('recount_requests')
    op.drop_table('ledger_entries')
    op.drop_table('cost_notices')
