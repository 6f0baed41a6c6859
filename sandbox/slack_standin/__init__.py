"""A local Slack Web API stand-in: a real loopback HTTP server that `slack_sdk.WebClient` talks to.

Used by the test suite, the offline mode and the browser sandbox. See server.py for the entry point and
state.py for what it remembers.
"""
from .errors import SlackError
from .server import ANY_METHOD, UPLOAD_METHOD, RecordedCall, SlackStandIn
from .state import StandInState, StateChange, Workspace
from .state_views import UNKNOWN_USER

__all__ = [
    "ANY_METHOD", "UNKNOWN_USER", "UPLOAD_METHOD", "RecordedCall", "SlackError", "SlackStandIn", "StandInState",
    "StateChange", "Workspace",
]
