"""certificate links: keep the SHA-256 of each token, not the token

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-03 12:00:00

`certificates.token` (the secret in a certificate's link) becomes `certificates.token_sha256`, the hex SHA-256
of its UTF-8 bytes, so a copy of the database holds no working link. The links already handed out keep working:
each stored token is hashed here, and the server looks a link up by the hash of its token. The hash is written
out here rather than imported (storage.models.conduct.link_token_sha256) so that this revision stays what it
is if the code changes; tests/bot/test_certificate_token_hashes.py checks the two agree.

Downgrading cannot bring the tokens back: the column `token` gets the hash, so links made before the
downgrade answer 404 there (the case card's New link makes a working one).
"""
from __future__ import annotations

import hashlib

import sqlalchemy as sa
from alembic import op

revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None

_certificates = sa.table("certificates", sa.column("id", sa.Integer), sa.column("token", sa.String),
                         sa.column("token_sha256", sa.String))


def upgrade() -> None:
    with op.batch_alter_table('certificates', schema=None) as batch_op:
        batch_op.add_column(sa.Column('token_sha256', sa.String(length=64), nullable=True))
    bind = op.get_bind()
    for row_id, token in bind.execute(sa.select(_certificates.c.id, _certificates.c.token)).all():
        digest = hashlib.sha256(token.encode("utf-8")).hexdigest()
        bind.execute(_certificates.update().where(_certificates.c.id == row_id).values(token_sha256=digest))
    with op.batch_alter_table('certificates', schema=None) as batch_op:
        batch_op.drop_constraint(op.f('uq_certificates_token'), type_='unique')
        batch_op.drop_column('token')
        batch_op.alter_column('token_sha256', existing_type=sa.String(length=64), nullable=False)
        batch_op.create_unique_constraint(op.f('uq_certificates_token_sha256'), ['token_sha256'])


def downgrade() -> None:
    with op.batch_alter_table('certificates', schema=None) as batch_op:
        batch_op.add_column(sa.Column('token', sa.String(length=64), nullable=True))
    bind = op.get_bind()
    bind.execute(_certificates.update().values(token=_certificates.c.token_sha256))
    with op.batch_alter_table('certificates', schema=None) as batch_op:
        batch_op.drop_constraint(op.f('uq_certificates_token_sha256'), type_='unique')
        batch_op.drop_column('token_sha256')
        batch_op.alter_column('token', existing_type=sa.String(length=64), nullable=False)
        batch_op.create_unique_constraint(op.f('uq_certificates_token'), ['token'])
