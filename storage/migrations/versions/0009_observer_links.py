"""observers' links: a read-only page of a recount for candidates and issue committees (1306(1))

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-10 12:00:00

Only the SHA-256 of each link's token is stored (as for certificate links, 0005): a copy of the database holds
no working link.
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0009'
down_revision = '0008'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('observer_links',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('case_id', sa.Integer(), nullable=False),
    sa.Column('token_sha256', sa.String(length=64), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('created_by', sa.String(length=64), nullable=False),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('revoked_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('revoked_by', sa.String(length=64), nullable=True),
    sa.Column('views', sa.Integer(), nullable=False),
    sa.Column('last_viewed_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('view_audited_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('views_audited', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['case_id'], ['recount_cases.id'], name=op.f('fk_observer_links_case_id_recount_cases')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_observer_links')),
    sa.UniqueConstraint('token_sha256', name=op.f('uq_observer_links_token_sha256'))
    )


def downgrade() -> None:
    op.drop_table('observer_links')
