"""What every use case needs: the database and a clock (injectable, so tests control time)."""
from __future__ import annotations

import datetime as dt
import threading
from dataclasses import dataclass, field
from typing import Callable

from rules.calendar import DENVER
from storage.db import Database
from storage.types import utcnow


@dataclass
class Services:
    db: Database
    clock: Callable[[], dt.datetime] = field(default=utcnow)
    # Set after a use case queues Slack posts in the outbox, so the worker delivers them at once
    # instead of at its next poll.
    outbox_wake: threading.Event = field(default_factory=threading.Event)

    def now(self) -> dt.datetime:
        moment = self.clock()
        if moment.tzinfo is None:
            raise ValueError("the clock must return timezone-aware datetimes")
        return moment

    def today(self) -> dt.date:
        """Today's date in Colorado: the statute's days are America/Denver days."""
        return self.now().astimezone(DENVER).date()
