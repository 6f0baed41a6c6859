"""the identifiers of the tally sheets used at the election, per recount case; who signs a certificate

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-10 10:00:00

- `recount_cases.election_sheet_ids`: the tally sheets used at the election, entered when the count is set up,
  so that a recount sheet with one of those identifiers is refused: under C.R.S. 1-13.5-1306(5) the votes of a
  recount of paper or electronic ballots "must be tallied on sheets other than those used at the election".
  Cases already open have none (NULL): nothing is checked for them until the office enters the identifiers.
- `certificates.signer_name`, `certificates.signer_title`: the signature line of a certificate of election (6),
  the official's name and title from the office's settings when it was made. Certificates made before have none
  (NULL) and show the settings as they are.
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0010'
down_revision = '0009'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('recount_cases', schema=None) as batch_op:
        batch_op.add_column(sa.Column('election_sheet_ids', sa.JSON(), nullable=True))
    with op.batch_alter_table('certificates', schema=None) as batch_op:
        batch_op.add_column(sa.Column('signer_name', sa.String(length=200), nullable=True))
        batch_op.add_column(sa.Column('signer_title', sa.String(length=200), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('certificates', schema=None) as batch_op:
        batch_op.drop_column('signer_title')
        batch_op.drop_column('signer_name')
    with op.batch_alter_table('recount_cases', schema=None) as batch_op:
        batch_op.drop_column('election_sheet_ids')
