"""office, elections, survey versions, recount cases, notices, audit log

Revision ID: 0001
Revises:
Create Date: 2026-12-02 15:00:51.716557
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0001'
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:

    op.create_table('audit_head',
    sa.Column('id', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('last_id', sa.Integer(), nullable=False),
    sa.Column('last_hash', sa.String(length=64), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_audit_head'))
    )
    op.create_table('audit_log',
    sa.Column('id', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('workspace_id', sa.Integer(), nullable=True),
    sa.Column('actor', sa.String(length=100), nullable=False),
    sa.Column('action', sa.String(length=64), nullable=False),
    sa.Column('entity', sa.String(length=64), nullable=False),
    sa.Column('entity_id', sa.String(length=64), nullable=False),
    sa.Column('before', sa.JSON(), nullable=True),
    sa.Column('after', sa.JSON(), nullable=True),
    sa.Column('prev_hash', sa.String(length=64), nullable=False),
    sa.Column('hash', sa.String(length=64), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_audit_log'))
    )
    op.create_table('processed_deliveries',
    sa.Column('key', sa.String(length=200), nullable=False),
    sa.Column('received_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('key', name=op.f('pk_processed_deliveries'))
    )
    op.create_table('workspaces',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('slack_team_id', sa.String(length=32), nullable=False),
    sa.Column('name', sa.String(length=200), nullable=False),
    sa.Column('settings', sa.JSON(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_workspaces')),
    sa.UniqueConstraint('slack_team_id', name=op.f('uq_workspaces_slack_team_id'))
    )
    op.create_table('local_governments',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('workspace_id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=300), nullable=False),
    sa.Column('governing_body', sa.String(length=300), nullable=False),
    sa.ForeignKeyConstraint(['workspace_id'], ['workspaces.id'], name=op.f('fk_local_governments_workspace_id_workspaces')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_local_governments')),
    sa.UniqueConstraint('workspace_id', 'name', name=op.f('uq_local_governments_workspace_id_name'))
    )
    op.create_table('memberships',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('workspace_id', sa.Integer(), nullable=False),
    sa.Column('slack_user_id', sa.String(length=32), nullable=False),
    sa.Column('role', sa.String(length=16), nullable=False),
    sa.Column('granted_by', sa.String(length=64), nullable=False),
    sa.Column('granted_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['workspace_id'], ['workspaces.id'], name=op.f('fk_memberships_workspace_id_workspaces')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_memberships')),
    sa.UniqueConstraint('workspace_id', 'slack_user_id', name=op.f('uq_memberships_workspace_id_slack_user_id'))
    )
    op.create_table('elections',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('local_government_id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=300), nullable=False),
    sa.Column('election_date', sa.Date(), nullable=False),
    sa.Column('canvass_date', sa.Date(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['local_government_id'], ['local_governments.id'], name=op.f('fk_elections_local_government_id_local_governments')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_elections')),
    sa.UniqueConstraint('local_government_id', 'election_date', 'name', name=op.f('uq_elections_local_government_id_election_date_name'))
    )
    op.create_table('contests',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('election_id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=300), nullable=False),
    sa.Column('kind', sa.String(length=16), nullable=False),
    sa.Column('seats', sa.Integer(), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['election_id'], ['elections.id'], name=op.f('fk_contests_election_id_elections')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_contests')),
    sa.UniqueConstraint('election_id', 'name', name=op.f('uq_contests_election_id_name'))
    )
    op.create_table('survey_versions',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('election_id', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('reason', sa.Text(), nullable=False),
    sa.Column('evidence', sa.JSON(), nullable=False),
    sa.Column('source_format', sa.String(length=32), nullable=False),
    sa.Column('source_name', sa.String(length=300), nullable=False),
    sa.Column('source_sha256', sa.String(length=64), nullable=True),
    sa.Column('created_by', sa.String(length=64), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['election_id'], ['elections.id'], name=op.f('fk_survey_versions_election_id_elections')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_survey_versions')),
    sa.UniqueConstraint('election_id', 'number', name=op.f('uq_survey_versions_election_id_number'))
    )
    op.create_table('choices',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('contest_id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=300), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('party', sa.String(length=200), nullable=True),
    sa.ForeignKeyConstraint(['contest_id'], ['contests.id'], name=op.f('fk_choices_contest_id_contests')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_choices')),
    sa.UniqueConstraint('contest_id', 'name', name=op.f('uq_choices_contest_id_name'))
    )
    op.create_table('issue_committees',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('contest_id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=300), nullable=False),
    sa.Column('side', sa.String(length=300), nullable=True),
    sa.Column('contact', sa.String(length=300), nullable=True),
    sa.ForeignKeyConstraint(['contest_id'], ['contests.id'], name=op.f('fk_issue_committees_contest_id_contests')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_issue_committees')),
    sa.UniqueConstraint('contest_id', 'name', name=op.f('uq_issue_committees_contest_id_name'))
    )
    op.create_table('recount_cases',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('workspace_id', sa.Integer(), nullable=False),
    sa.Column('contest_id', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=16), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('opened_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('opened_by', sa.String(length=64), nullable=False),
    sa.Column('survey_version_id', sa.Integer(), nullable=False),
    sa.Column('multi_seat_rule', sa.String(length=40), nullable=False),
    sa.Column('verdict', sa.JSON(), nullable=False),
    sa.Column('channel_id', sa.String(length=32), nullable=True),
    sa.Column('card_ts', sa.String(length=32), nullable=True),
    sa.ForeignKeyConstraint(['contest_id'], ['contests.id'], name=op.f('fk_recount_cases_contest_id_contests')),
    sa.ForeignKeyConstraint(['survey_version_id'], ['survey_versions.id'], name=op.f('fk_recount_cases_survey_version_id_survey_versions')),
    sa.ForeignKeyConstraint(['workspace_id'], ['workspaces.id'], name=op.f('fk_recount_cases_workspace_id_workspaces')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_recount_cases')),
    sa.UniqueConstraint('contest_id', name=op.f('uq_recount_cases_contest_id'))
    )
    op.create_table('case_deadlines',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('case_id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=64), nullable=False),
    sa.Column('due_date', sa.Date(), nullable=False),
    sa.Column('citation', sa.String(length=100), nullable=False),
    sa.Column('note', sa.Text(), nullable=False),
    sa.Column('reading', sa.Text(), nullable=True),
    sa.Column('rolled_from', sa.Date(), nullable=True),
    sa.Column('estimated', sa.Boolean(), nullable=False),
    sa.Column('falls_on', sa.String(length=100), nullable=True),
    sa.Column('done_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['case_id'], ['recount_cases.id'], name=op.f('fk_case_deadlines_case_id_recount_cases')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_case_deadlines')),
    sa.UniqueConstraint('case_id', 'name', name=op.f('uq_case_deadlines_case_id_name'))
    )
    op.create_table('notices',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('case_id', sa.Integer(), nullable=False),
    sa.Column('recipient_kind', sa.String(length=32), nullable=False),
    sa.Column('recipient_name', sa.String(length=300), nullable=False),
    sa.Column('citation', sa.String(length=100), nullable=False),
    sa.Column('given_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('given_by', sa.String(length=200), nullable=True),
    sa.Column('method', sa.String(length=64), nullable=True),
    sa.Column('details', sa.Text(), nullable=True),
    sa.Column('recorded_by', sa.String(length=64), nullable=True),
    sa.Column('recorded_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['case_id'], ['recount_cases.id'], name=op.f('fk_notices_case_id_recount_cases')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_notices')),
    sa.UniqueConstraint('case_id', 'recipient_kind', 'recipient_name', name=op.f('uq_notices_case_id_recipient_kind_recipient_name'))
    )
    op.create_table('vote_counts',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('survey_version_id', sa.Integer(), nullable=False),
    sa.Column('contest_id', sa.Integer(), nullable=False),
    sa.Column('choice_id', sa.Integer(), nullable=False),
    sa.Column('unit', sa.String(length=200), nullable=False),
    sa.Column('votes', sa.BigInteger(), nullable=False),
    sa.ForeignKeyConstraint(['choice_id'], ['choices.id'], name=op.f('fk_vote_counts_choice_id_choices')),
    sa.ForeignKeyConstraint(['contest_id'], ['contests.id'], name=op.f('fk_vote_counts_contest_id_contests')),
    sa.ForeignKeyConstraint(['survey_version_id'], ['survey_versions.id'], name=op.f('fk_vote_counts_survey_version_id_survey_versions')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_vote_counts')),
    sa.UniqueConstraint('survey_version_id', 'choice_id', 'unit', name=op.f('uq_vote_counts_survey_version_id_choice_id_unit'))
    )
    with op.batch_alter_table('vote_counts', schema=None) as batch_op:
        batch_op.create_index('ix_vote_counts_version_contest', ['survey_version_id', 'contest_id'], unique=False)



def downgrade() -> None:

    with op.batch_alter_table('vote_counts', schema=None) as batch_op:
        batch_op.drop_index('ix_vote_counts_version_contest')

    op.drop_table('vote_counts')
    op.drop_table('notices')
    op.drop_table('case_deadlines')
    op.drop_table('recount_cases')
    op.drop_table('issue_committees')
    op.drop_table('choices')
    op.drop_table('survey_versions')
    op.drop_table('contests')
    op.drop_table('elections')
    op.drop_table('memberships')
    op.drop_table('local_governments')
    op.drop_table('workspaces')
    op.drop_table('processed_deliveries')
    op.drop_table('audit_log')
    op.drop_table('audit_head')
