"""Offline mode: the real bot against a local Slack stand-in, driven from a browser (web/: a Slack-like page,
its JSON API and server; `recount-bot sandbox`) or a terminal (console.py; `--console`). `Sandbox`
(sandbox.py) is the reusable core; `payloads` builds what Slack sends; clock.py keeps the example's calendar."""
from .people import CHANNEL, PEOPLE, Channel, Person
from .sandbox import Button, Followed, Reply, Sandbox, buttons_of

__all__ = ["CHANNEL", "PEOPLE", "Button", "Channel", "Followed", "Person", "Reply", "Sandbox", "buttons_of"]
