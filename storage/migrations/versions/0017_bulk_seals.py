"""the audit log may hold bulk seals: a thousand vote counts sealed as a whole and each alone

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-05 01:10:00

Issue 25, item 2: from this revision the vote counts of a survey version are sealed in the bulk form
(storage/seal_batches.py), which `audit verify` checks with one hash per thousand rows. No table changes; the
revision is the mark that tells an earlier recount-bot this database is newer than it is. An earlier version
reads only the per-row form, so it would report every vote count sealed in bulk as "written outside
recount-bot": with this revision it refuses the database (and a backup of it) instead.

Nothing already sealed is sealed again: seals written before stay in the per-row form, which `verify` still reads.
Going back is refused once a bulk seal exists: the audit log is append-only and its entries cannot be rewritten
into the older form.
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0017'
down_revision = '0016'
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass  # no table changes: see the docstring (the revision itself is the change)


def downgrade() -> None:
    log = sa.table("audit_log", sa.column("action", sa.String), sa.column("after", sa.JSON))
    entries = op.get_bind().execute(sa.select(log.c.after).where(log.c.action == "rows.sealed"))
    if any(isinstance(after, dict) and "sha256" in after for (after,) in entries):
        raise RuntimeError("the audit log holds bulk seals (revision 0017), which revision 0016's recount-bot cannot "
                           "read, and its entries cannot be rewritten: restore a backup made before the upgrade")
