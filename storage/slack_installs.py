"""slack-sdk's installation and OAuth state stores over our own tables (storage/models/slack_install.py).

Both the token lookup of many offices (handlers/slack_io/clients.py) and the install flow (bot/slack/oauth.py) read
installations through the same store, so it is made here, below both of them.
"""
from __future__ import annotations

import logging

from slack_sdk.oauth.installation_store.sqlalchemy import SQLAlchemyInstallationStore
from slack_sdk.oauth.state_store.sqlalchemy import SQLAlchemyOAuthStateStore

from storage.db import Database
from storage.models.slack_install import BOTS_TABLE, INSTALLATIONS_TABLE, OAUTH_STATES_TABLE

STATE_SECONDS = 600  # an install started more than ten minutes ago is started again


def installation_store(db: Database, client_id: str) -> SQLAlchemyInstallationStore:
    return SQLAlchemyInstallationStore(client_id=client_id, engine=db.engine, bots_table_name=BOTS_TABLE,
                                       installations_table_name=INSTALLATIONS_TABLE,
                                       logger=logging.getLogger("recount_bot.oauth.store"))


def state_store(db: Database) -> SQLAlchemyOAuthStateStore:
    return SQLAlchemyOAuthStateStore(expiration_seconds=STATE_SECONDS, engine=db.engine,
                                     table_name=OAUTH_STATES_TABLE, logger=logging.getLogger("recount_bot.oauth.state"))
