"""Slack's OAuth install records, kept in our own database (many offices on one install).

The tables are slack-sdk's own (`SQLAlchemyInstallationStore`, `SQLAlchemyOAuthStateStore`), built here by the
stores' own classmethods on our metadata, so that migration 0012 creates them, `db upgrade` owns the schema,
tests/storage/test_migrations.py holds the migration to exactly slack-sdk's definition, and a backup carries the
installations (their bot tokens: a restored database serves every office at once; keep backups as secret as
the database). The stores themselves read and write through their own Table objects of the same shape.

Not sealed (storage/seals.py seals the record of the law, not credentials), not audited: an install is Slack's
record, not an act of the office.
"""
from __future__ import annotations

from slack_sdk.oauth.installation_store.sqlalchemy import SQLAlchemyInstallationStore
from slack_sdk.oauth.state_store.sqlalchemy import SQLAlchemyOAuthStateStore

from storage.models.base import Base

INSTALLATIONS_TABLE = SQLAlchemyInstallationStore.default_installations_table_name  # "slack_installations"
BOTS_TABLE = SQLAlchemyInstallationStore.default_bots_table_name  # "slack_bots"
OAUTH_STATES_TABLE = SQLAlchemyOAuthStateStore.default_table_name  # "slack_oauth_states"

slack_installations = SQLAlchemyInstallationStore.build_installations_table(Base.metadata, INSTALLATIONS_TABLE)
slack_bots = SQLAlchemyInstallationStore.build_bots_table(Base.metadata, BOTS_TABLE)
slack_oauth_states = SQLAlchemyOAuthStateStore.build_oauth_states_table(Base.metadata, OAUTH_STATES_TABLE)
