"""the waiver of an automatic recount (C.R.S. 1-10.5-103), recorded with its written notice

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-04 23:10:00

Issue 22, item 3: under 1-10.5-103 the political subdivision that referred a ballot issue or question that failed
may waive its automatic recount by written notice to the county clerk and recorder within twenty-three days after
the election. One row per case: who waived, in what capacity, the day the notice was received, the notice itself
(its description or file reference), the decision that allowed it, and who recorded it when. A new table starts
empty, so there is nothing to seal here: its rows are sealed as written (storage/seals.py). A waived case's status
is "waived", a new value of the existing String column: no change to `recount_cases`.
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0016'
down_revision = '0015'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('automatic_recount_waivers',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('case_id', sa.Integer(), nullable=False),
    sa.Column('waived_by', sa.String(length=200), nullable=False),
    sa.Column('capacity', sa.String(length=200), nullable=False),
    sa.Column('received_on', sa.Date(), nullable=False),
    sa.Column('reference', sa.Text(), nullable=False),
    sa.Column('citation', sa.String(length=100), nullable=False),
    sa.Column('decision', sa.JSON(), nullable=False),
    sa.Column('recorded_by', sa.String(length=64), nullable=False),
    sa.Column('recorded_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['case_id'], ['recount_cases.id'],
                            name=op.f('fk_automatic_recount_waivers_case_id_recount_cases')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_automatic_recount_waivers')),
    sa.UniqueConstraint('case_id', name=op.f('uq_automatic_recount_waivers_case_id'))
    )


def downgrade() -> None:
    # A waived case keeps its status "waived": `status` is sealed (storage/seals.py), and rewriting it here would
    # show as a row altered outside recount-bot; the audit log keeps the waiver's record ("case.waived").
    op.drop_table('automatic_recount_waivers')
