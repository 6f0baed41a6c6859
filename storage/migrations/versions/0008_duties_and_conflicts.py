"""the money handed back after a recount; the office's roster of candidates

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-03 16:30:00

- `recount_cases.money_returned_*`: the refund (2)(d) or the unused deposit (2)(f) handed back to the requester,
  recorded when it is (until then it is a duty owed after the completion, rules.duties).
- `candidate_users`: a Slack user recorded as a candidate (a choice) in a contest, so that person is flagged on
  the contest's cards and may not decide, complete or certify its recount (rules.conflicts).
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('recount_cases', schema=None) as batch_op:
        batch_op.add_column(sa.Column('money_returned_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('money_returned_by', sa.String(length=200), nullable=True))
        batch_op.add_column(sa.Column('money_returned_method', sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column('money_returned_reference', sa.String(length=100), nullable=True))
    op.create_table('candidate_users',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('workspace_id', sa.Integer(), nullable=False),
    sa.Column('contest_id', sa.Integer(), nullable=False),
    sa.Column('choice_id', sa.Integer(), nullable=False),
    sa.Column('slack_user_id', sa.String(length=32), nullable=False),
    sa.Column('recorded_by', sa.String(length=64), nullable=False),
    sa.Column('recorded_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['choice_id'], ['choices.id'], name=op.f('fk_candidate_users_choice_id_choices')),
    sa.ForeignKeyConstraint(['contest_id'], ['contests.id'], name=op.f('fk_candidate_users_contest_id_contests')),
    sa.ForeignKeyConstraint(['workspace_id'], ['workspaces.id'],
                            name=op.f('fk_candidate_users_workspace_id_workspaces')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_candidate_users')),
    sa.UniqueConstraint('contest_id', 'slack_user_id', name=op.f('uq_candidate_users_contest_id_slack_user_id'))
    )


def downgrade() -> None:
    op.drop_table('candidate_users')
    with op.batch_alter_table('recount_cases', schema=None) as batch_op:
        batch_op.drop_column('money_returned_reference')
        batch_op.drop_column('money_returned_method')
        batch_op.drop_column('money_returned_by')
        batch_op.drop_column('money_returned_at')
