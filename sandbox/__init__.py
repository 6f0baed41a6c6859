"""Offline mode: the real bot against a local Slack stand-in, driven from a browser (web/: a Slack-like page,
its JSON API and server; `recount-bot sandbox`) or a terminal (console.py; `--console`). `Sandbox`
(sandbox.py) is the reusable core; `payloads` builds what Slack sends; clock.py keeps the example's calendar."""
from .office import Button, Followed, Reply, Sandbox, buttons_of
from .people import CHANNEL, PEOPLE, Channel, Person

__all__ = ["CHANNEL", "PEOPLE", "Button", "Channel", "Followed", "Person", "Reply", "Sandbox", "buttons_of"]
