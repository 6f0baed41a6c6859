"""The stand-in's memory of a Slack workspace: channels, messages and threads, views, ephemerals, files.

Everything lives behind one re-entrant lock. Public mutators take the lock, queue a `StateChange`, release the
lock and only then call subscribers, so a subscriber may read the state (or even call the API) without
deadlocking. Readers return deep copies; nothing handed out aliases internal data.

Built in layers, each a file: the core (state_core.py: clock, ids, users, channels), messages on it
(state_messages.py), and views and files on messages (state_views.py, state_files.py).
"""
from __future__ import annotations

from .state_core import Clock, StateChange, Workspace, utc_now
from .state_files import FilesMixin
from .state_views import ViewsMixin

__all__ = ["Clock", "StandInState", "StateChange", "Workspace", "utc_now"]


class StandInState(ViewsMixin, FilesMixin):
    def _init_parts(self) -> None:
        self._init_messages()
        self._init_views()
        self._init_files()
