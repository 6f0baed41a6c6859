"""Offline mode: the real bot against a local Slack stand-in, driven from a terminal (console.py) or, later,
a browser. `Sandbox` (sandbox.py) is the reusable core; `payloads` builds what Slack sends."""
from .people import CHANNEL, PEOPLE, Channel, Person
from .sandbox import Button, Reply, Sandbox, buttons_of

__all__ = ["CHANNEL", "PEOPLE", "Button", "Channel", "Person", "Reply", "Sandbox", "buttons_of"]
