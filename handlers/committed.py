"""What a person's action recorded, so the answer to them after a failure says what is true.

"Something went wrong and nothing was saved" is true when the use case's transaction rolled back, and false
when it committed and what failed came after (a post Slack took but answered too late). A use case that
records something writes an audit row in its transaction (storage/audit.py); `watching()` collects the audit
rows that committed while a listener ran in this thread (or this task), from SQLAlchemy's session events:
rows flushed in a savepoint or transaction that rolled back are not counted. Rows other people's actions
commit meanwhile, in other threads, are not seen.
"""
from __future__ import annotations

import http.client
import socket
import urllib.error
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Iterator

from slack_sdk.errors import SlackApiError
from sqlalchemy import event, inspect
from sqlalchemy.orm import Session, SessionTransaction

from handlers.slack_io.posting import Unconfirmed
from storage.models import AuditEntry

_WATCH: ContextVar[list[str] | None] = ContextVar("recount_bot_recorded", default=None)
_FLUSHED = "recount_bot_audit_flushed"


@contextmanager
def watching() -> Iterator[list[str]]:
    """The actions of the audit rows committed inside the block (e.g. ["survey.checked", "case.opened"])."""
    actions: list[str] = []
    token = _WATCH.set(actions)
    try:
        yield actions
    finally:
        _WATCH.reset(token)


@event.listens_for(Session, "after_flush")
def _flushed(session: Session, _context) -> None:
    if _WATCH.get() is not None:
        session.info.setdefault(_FLUSHED, []).extend(o for o in session.new if isinstance(o, AuditEntry))


@event.listens_for(Session, "after_commit")
def _committed(session: Session) -> None:
    if session.in_nested_transaction():  # a savepoint released: the outer transaction may still roll back
        return
    entries = session.info.pop(_FLUSHED, [])
    actions = _WATCH.get()
    if actions is not None:
        # A row added in a savepoint that rolled back is transient again: it was never written.
        actions.extend(e.action for e in entries if inspect(e).persistent)


@event.listens_for(Session, "after_transaction_end")
def _ended(session: Session, transaction: SessionTransaction) -> None:
    if transaction.parent is None:  # the outermost transaction: whatever was not committed never will be
        session.info.pop(_FLUSHED, None)


def slack_failure(exc: BaseException) -> bool:
    """A failure of a call to Slack (an error it answered, no answer in time, a dropped connection), as opposed
    to one of ours: after a committed change it means the record stands and only telling about it failed."""
    return isinstance(exc, (SlackApiError, Unconfirmed, urllib.error.URLError, http.client.HTTPException,
                            socket.timeout, TimeoutError, ConnectionError))


def failure_message(reference: str, recorded: list[str], exc: BaseException) -> str:
    """What to tell a person when their action failed, by what it really left recorded."""
    if not recorded:
        return (f":warning: Something went wrong and nothing was saved. Reference: *{reference}* (give it to your "
                "administrator; the details are in the bot's log).")
    if slack_failure(exc):
        return (f":warning: Your change was recorded, but Slack did not take (or did not confirm) a message about "
                f"it, so the channel may not show it yet. Do not enter it again. Reference: *{reference}* (give it "
                "to your administrator; the details are in the bot's log).")
    return (f":warning: Your change was recorded, but something went wrong after it, so the channel may not show "
            f"it yet. Do not enter it again. Reference: *{reference}* (give it to your administrator; the details "
            "are in the bot's log).")
