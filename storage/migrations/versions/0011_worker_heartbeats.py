"""worker heartbeats: one row per running worker, written at every tick (`recount-bot doctor` reads them)

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-12 10:00:00

A worker that stopped leaves its row behind with an old `beat_at`; rows not written for a week are deleted by
the next worker's beat.
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0011'
down_revision = '0010'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('worker_heartbeats',
    sa.Column('worker_id', sa.String(length=128), nullable=False),
    sa.Column('interval_ms', sa.Integer(), nullable=False),
    sa.Column('started_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('beat_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('worker_id', name=op.f('pk_worker_heartbeats'))
    )


def downgrade() -> None:
    op.drop_table('worker_heartbeats')
