"""the drawing of lots for a tie the recount did not break (1-13.5-1304)

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-04 10:00:00

- `lot_drawings`: one per case (unique case_id): when, where, by whom, the witnesses, the method, the tied
  candidates and the winners of the lot, each tied candidate's notice of the drawing, the rules' decision, and
  the amended notice of the results to the governing body when the first notice went before the lot.
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('lot_drawings',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('case_id', sa.Integer(), nullable=False),
    sa.Column('drawn_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('place', sa.String(length=300), nullable=False),
    sa.Column('conducted_by', sa.Text(), nullable=False),
    sa.Column('witnesses', sa.Text(), nullable=False),
    sa.Column('method', sa.String(length=64), nullable=False),
    sa.Column('method_details', sa.Text(), nullable=True),
    sa.Column('tied', sa.JSON(), nullable=False),
    sa.Column('winners', sa.JSON(), nullable=False),
    sa.Column('candidate_notices', sa.JSON(), nullable=False),
    sa.Column('decision', sa.JSON(), nullable=False),
    sa.Column('recorded_by', sa.String(length=64), nullable=False),
    sa.Column('recorded_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('amended_notice_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('amended_notice_by', sa.String(length=200), nullable=True),
    sa.Column('amended_notice_method', sa.String(length=64), nullable=True),
    sa.ForeignKeyConstraint(['case_id'], ['recount_cases.id'], name=op.f('fk_lot_drawings_case_id_recount_cases')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_lot_drawings')),
    sa.UniqueConstraint('case_id', name=op.f('uq_lot_drawings_case_id'))
    )


def downgrade() -> None:
    op.drop_table('lot_drawings')
