"""the recount law an election runs under, stored with the election

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-04 22:00:00

Issue 22, phase 2: an election runs under one of the recount laws in rules/laws (1-13.5-1306, 31-10-1207,
1-10.5), chosen when its returns are imported or entered. Every election already in the database was run under
C.R.S. 1-13.5-1306, the only law the bot applied before; it keeps that law, and `law_basis` "before" lets every
answer say the law was recorded before it was chosen per election. `elections` is not a sealed table
(storage/seals.py), so there is nothing to re-seal.
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0015'
down_revision = '0014'
branch_labels = None
depends_on = None

# Written out, not imported: a migration keeps meaning what it meant when it was written.
LAW_BEFORE_CHOICE = "1-13.5-1306"


# Plain ALTER TABLE, not a batch: a batch rebuilds the table on SQLite (copy, drop, rename), and dropping `elections`
# fails while contests and reminders refer to it. SQLite adds and (since 3.35) drops a column that is in no index or
# constraint in place, as PostgreSQL does.


def upgrade() -> None:
    op.add_column('elections', sa.Column('law', sa.String(length=16), nullable=False,
                                         server_default=LAW_BEFORE_CHOICE))
    op.add_column('elections', sa.Column('law_basis', sa.String(length=16), nullable=False, server_default='before'))


def downgrade() -> None:
    op.drop_column('elections', 'law_basis')
    op.drop_column('elections', 'law')
