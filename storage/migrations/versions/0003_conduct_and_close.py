"""conduct and close: assistants, tally sheets, evidence, certificates, completion

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-02 15:46:45.464103
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('assistants',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('case_id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=200), nullable=False),
    sa.Column('capacity', sa.String(length=32), nullable=False),
    sa.Column('days_served', sa.Integer(), nullable=False),
    sa.Column('compensation', sa.BigInteger(), nullable=False),
    sa.Column('on_governing_body', sa.Boolean(), nullable=False),
    sa.Column('qualified_as_judge', sa.Boolean(), nullable=True),
    sa.Column('served_as_judge', sa.Boolean(), nullable=True),
    sa.Column('replaces', sa.String(length=200), nullable=True),
    sa.Column('recorded_by', sa.String(length=64), nullable=False),
    sa.Column('recorded_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['case_id'], ['recount_cases.id'], name=op.f('fk_assistants_case_id_recount_cases')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_assistants')),
    sa.UniqueConstraint('case_id', 'name', name=op.f('uq_assistants_case_id_name'))
    )
    op.create_table('certificates',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('case_id', sa.Integer(), nullable=False),
    sa.Column('candidate', sa.String(length=300), nullable=False),
    sa.Column('votes', sa.BigInteger(), nullable=False),
    sa.Column('token', sa.String(length=64), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('slack_file_id', sa.String(length=32), nullable=True),
    sa.Column('delivered_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('delivered_by', sa.String(length=200), nullable=True),
    sa.Column('delivery_method', sa.String(length=64), nullable=True),
    sa.ForeignKeyConstraint(['case_id'], ['recount_cases.id'], name=op.f('fk_certificates_case_id_recount_cases')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_certificates')),
    sa.UniqueConstraint('case_id', 'candidate', name=op.f('uq_certificates_case_id_candidate')),
    sa.UniqueConstraint('token', name=op.f('uq_certificates_token'))
    )
    op.create_table('evidence_demands',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('case_id', sa.Integer(), nullable=False),
    sa.Column('description', sa.Text(), nullable=False),
    sa.Column('demanded_of', sa.String(length=300), nullable=False),
    sa.Column('demanded_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('demanded_by', sa.String(length=64), nullable=False),
    sa.Column('produced', sa.Text(), nullable=True),
    sa.Column('produced_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('recorded_by', sa.String(length=64), nullable=True),
    sa.ForeignKeyConstraint(['case_id'], ['recount_cases.id'], name=op.f('fk_evidence_demands_case_id_recount_cases')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_evidence_demands'))
    )
    op.create_table('tally_sheets',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('case_id', sa.Integer(), nullable=False),
    sa.Column('sheet_id', sa.String(length=100), nullable=False),
    sa.Column('unit', sa.String(length=200), nullable=False),
    sa.Column('method', sa.String(length=32), nullable=False),
    sa.Column('counts', sa.JSON(), nullable=False),
    sa.Column('entry', sa.Integer(), nullable=False),
    sa.Column('entered_by', sa.String(length=64), nullable=False),
    sa.Column('entered_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('withdrawn_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('withdrawn_by', sa.String(length=64), nullable=True),
    sa.Column('withdrawn_reason', sa.Text(), nullable=True),
    sa.ForeignKeyConstraint(['case_id'], ['recount_cases.id'], name=op.f('fk_tally_sheets_case_id_recount_cases')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_tally_sheets'))
    )
    with op.batch_alter_table('elections', schema=None) as batch_op:
        batch_op.add_column(sa.Column('abstract_preparers', sa.JSON(), server_default='[]', nullable=False))

    with op.batch_alter_table('recount_cases', schema=None) as batch_op:
        batch_op.add_column(sa.Column('count_method', sa.String(length=32), nullable=True))
        batch_op.add_column(sa.Column('expected_units', sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column('double_entry', sa.Boolean(), server_default='0', nullable=False))
        batch_op.add_column(sa.Column('completed_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('completed_by', sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column('completion', sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column('settlement', sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column('amended_version_id', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('results_notice_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('results_notice_by', sa.String(length=200), nullable=True))
        batch_op.add_column(sa.Column('results_notice_method', sa.String(length=64), nullable=True))
        batch_op.create_foreign_key(batch_op.f('fk_recount_cases_amended_version_id_survey_versions'), 'survey_versions', ['amended_version_id'], ['id'])


def downgrade() -> None:
    with op.batch_alter_table('recount_cases', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_recount_cases_amended_version_id_survey_versions'), type_='foreignkey')
        batch_op.drop_column('results_notice_method')
        batch_op.drop_column('results_notice_by')
        batch_op.drop_column('results_notice_at')
        batch_op.drop_column('amended_version_id')
        batch_op.drop_column('settlement')
        batch_op.drop_column('completion')
        batch_op.drop_column('completed_by')
        batch_op.drop_column('completed_at')
        batch_op.drop_column('double_entry')
        batch_op.drop_column('expected_units')
        batch_op.drop_column('count_method')

    with op.batch_alter_table('elections', schema=None) as batch_op:
        batch_op.drop_column('abstract_preparers')

    op.drop_table('tally_sheets')
    op.drop_table('evidence_demands')
    op.drop_table('certificates')
    op.drop_table('assistants')
