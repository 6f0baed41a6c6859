"""slack installations: slack-sdk's installation and OAuth state tables, for many offices on one install

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-14 10:00:00

The tables `SQLAlchemyInstallationStore` (slack_installations, slack_bots) and `SQLAlchemyOAuthStateStore`
(slack_oauth_states) define, column for column as slack-sdk 3.x builds them (storage/models/slack_install.py
builds them on our metadata with slack-sdk's own classmethods; tests/storage/test_migrations.py compares this
migration with them). Created here so that `db upgrade` owns every table, rather than the stores'
`create_tables()` at start-up. Empty in the one-office mode (SLACK_BOT_TOKEN).
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0012'
down_revision = '0011'
branch_labels = None
depends_on = None


def _bot_columns() -> list[sa.Column]:
    return [
        sa.Column('bot_token', sa.String(length=200), nullable=True),
        sa.Column('bot_id', sa.String(length=32), nullable=True),
        sa.Column('bot_user_id', sa.String(length=32), nullable=True),
        sa.Column('bot_scopes', sa.String(length=1000), nullable=True),
        sa.Column('bot_refresh_token', sa.String(length=200), nullable=True),
        sa.Column('bot_token_expires_at', sa.DateTime(), nullable=True),
    ]


def upgrade() -> None:
    op.create_table('slack_installations',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('client_id', sa.String(length=32), nullable=False),
    sa.Column('app_id', sa.String(length=32), nullable=False),
    sa.Column('enterprise_id', sa.String(length=32), nullable=True),
    sa.Column('enterprise_name', sa.String(length=200), nullable=True),
    sa.Column('enterprise_url', sa.String(length=200), nullable=True),
    sa.Column('team_id', sa.String(length=32), nullable=True),
    sa.Column('team_name', sa.String(length=200), nullable=True),
    *_bot_columns(),
    sa.Column('user_id', sa.String(length=32), nullable=False),
    sa.Column('user_token', sa.String(length=200), nullable=True),
    sa.Column('user_scopes', sa.String(length=1000), nullable=True),
    sa.Column('user_refresh_token', sa.String(length=200), nullable=True),
    sa.Column('user_token_expires_at', sa.DateTime(), nullable=True),
    sa.Column('incoming_webhook_url', sa.String(length=200), nullable=True),
    sa.Column('incoming_webhook_channel', sa.String(length=200), nullable=True),
    sa.Column('incoming_webhook_channel_id', sa.String(length=200), nullable=True),
    sa.Column('incoming_webhook_configuration_url', sa.String(length=200), nullable=True),
    sa.Column('is_enterprise_install', sa.Boolean(), nullable=False),
    sa.Column('token_type', sa.String(length=32), nullable=True),
    sa.Column('installed_at', sa.DateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_slack_installations'))
    )
    op.create_index('slack_installations_idx', 'slack_installations',
                    ['client_id', 'enterprise_id', 'team_id', 'user_id', 'installed_at'], unique=False)
    op.create_table('slack_bots',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('client_id', sa.String(length=32), nullable=False),
    sa.Column('app_id', sa.String(length=32), nullable=False),
    sa.Column('enterprise_id', sa.String(length=32), nullable=True),
    sa.Column('enterprise_name', sa.String(length=200), nullable=True),
    sa.Column('team_id', sa.String(length=32), nullable=True),
    sa.Column('team_name', sa.String(length=200), nullable=True),
    *_bot_columns(),
    sa.Column('is_enterprise_install', sa.Boolean(), nullable=False),
    sa.Column('installed_at', sa.DateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_slack_bots'))
    )
    op.create_index('slack_bots_idx', 'slack_bots', ['client_id', 'enterprise_id', 'team_id', 'installed_at'],
                    unique=False)
    op.create_table('slack_oauth_states',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('state', sa.String(length=200), nullable=False),
    sa.Column('expire_at', sa.DateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_slack_oauth_states'))
    )


def downgrade() -> None:
    op.drop_table('slack_oauth_states')
    op.drop_index('slack_bots_idx', table_name='slack_bots')
    op.drop_table('slack_bots')
    op.drop_index('slack_installations_idx', table_name='slack_installations')
    op.drop_table('slack_installations')
