"""What a request to POST /slack/events must be before anything parses it: small, signed by Slack, well formed.

Bolt reads a request whole, decodes it, parses it and only then checks its signature; on the way, a body of any
size is held several times over (a 200 MB unsigned POST took `serve` from 110 MB to 1.3 GB), undecodable bytes
or a payload that is not a JSON object end in a 500 with a traceback in the log, and an unsigned body is
written whole into the log at INFO. This gate runs first, in this order, each step refusing with one log line
(the reason and a reference, never a traceback, never the body) and nothing written anywhere:

1. size: a declared body over MAX_BODY_BYTES is 413 without reading it (waitress refuses it even earlier, see
   bot.web.server; this covers any other WSGI server and a body that turns out longer than declared);
2. signature, on the raw bytes: a missing or non-numeric `X-Slack-Request-Timestamp`, one more than five
   minutes from now, a missing or wrong `X-Slack-Signature` are 401 (Slack's v0 scheme: HMAC-SHA256 of
   `v0:<timestamp>:<body>` with the app's signing secret);
3. only then parsing, the way Bolt parses (`slack_bolt.request.internals.parse_body`): a signed body that is
   not UTF-8, not JSON where JSON is due, nested deeper than MAX_JSON_DEPTH, not a JSON object, that has
   identity fields of the wrong type, or no team, is 400. A payload without a team would otherwise create a
   workspace with team id "". The depth is counted before anything parses the JSON (`json_depth`): Python's
   parser recurses once per level and fails with RecursionError near a thousand, and whatever walks the parsed
   payload afterwards (Bolt, the listeners, the log) would recurse with it.

What passes is handed to Bolt as the `BoltRequest` built here (Bolt verifies the signature again; cheap at 1 MB).
"""
from __future__ import annotations

import hashlib
import hmac
import re
import time
from dataclasses import dataclass
from typing import Any, Callable
from urllib.parse import parse_qs

from slack_bolt.adapter.wsgi.http_request import WsgiHttpRequest
from slack_bolt.request import BoltRequest
from slack_bolt.request.internals import build_normalized_headers, extract_content_type, parse_body

# Slack's payloads are a few KB (a modal's state, a message with 50 blocks); 1 MiB leaves room for all of them.
MAX_BODY_BYTES = 1024 * 1024
# Slack's own recommendation, and what slack_sdk's SignatureVerifier allows.
MAX_SIGNATURE_AGE = 5 * 60
_TIMESTAMP = re.compile(r"^[0-9]{1,12}$", re.ASCII)
_SIGNATURE = re.compile(r"^v0=[0-9a-f]{64}$", re.ASCII)
# Slack's ids (T0123ABCD, U0123ABCD, E0123ABCD): letters and digits; the columns hold 32 characters.
_SLACK_ID = re.compile(r"^[A-Za-z0-9]{1,32}$", re.ASCII)
# Fields our code reads for who and where (handlers.interaction._ids) and Bolt's matchers read: objects when
# present (None is allowed where Slack sends null, e.g. `enterprise`, `team` for org-wide installs).
_OBJECT_FIELDS = ("team", "user", "channel", "container", "event", "view", "message", "enterprise")
_TEXT_FIELDS = ("type", "team_id", "user_id", "channel_id", "trigger_id", "response_url", "command", "text",
                "callback_id", "api_app_id", "event_id", "ssl_check")
# Slack's payloads nest a dozen levels or so (a modal's state, a message's rich text inside an event): four times
# that is room enough, and far from the interpreter's recursion limit.
MAX_JSON_DEPTH = 64
_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)  # "...", with \" and \\ inside
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
# Requests Bolt answers itself, before any listener: Slack's URL check for the Events API and the slash
# command SSL check. They carry no team and touch nothing.
_HANDSHAKES = ("url_verification",)


class Refused(Exception):
    """A request refused before it reached the app: an HTTP status and a one-line reason for the log."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status, self.reason = status, reason


def shown(value: object, limit: int = 40) -> str:
    """A hostile value as a log line may show it: repr (control characters escaped), cut short."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def declared_length(environ: dict, limit: int = MAX_BODY_BYTES) -> int:
    raw = environ.get("CONTENT_LENGTH") or "0"
    if not raw.isascii() or not raw.isdigit():
        raise Refused(400, f"Content-Length {shown(raw)} is not a number")
    length = int(raw)
    if length > limit:
        raise Refused(413, f"a body of {length:,} bytes, over the limit of {limit:,}")
    return length


def read_body(environ: dict, limit: int = MAX_BODY_BYTES) -> bytes:
    """At most `limit` bytes, read only once the declared length is known to be within it."""
    length = declared_length(environ, limit)
    stream = environ.get("wsgi.input")
    if stream is None or length == 0:
        return b""
    body = stream.read(length)
    if len(body) != length:
        raise Refused(400, f"the body ended after {len(body):,} of the {length:,} bytes declared")
    return body


def verify_signature(secret: str, environ: dict, body: bytes, *, now: float) -> None:
    """Slack's v0 signature over the raw bytes; raises Refused(401) with what is wrong."""
    timestamp = environ.get("HTTP_X_SLACK_REQUEST_TIMESTAMP")
    signature = environ.get("HTTP_X_SLACK_SIGNATURE")
    if timestamp is None and signature is None:
        raise Refused(401, "not signed (no X-Slack-Request-Timestamp, no X-Slack-Signature)")
    if timestamp is None or not _TIMESTAMP.match(timestamp):
        raise Refused(401, f"X-Slack-Request-Timestamp {shown(timestamp)} is not a number")
    if abs(now - int(timestamp)) > MAX_SIGNATURE_AGE:
        raise Refused(401, f"X-Slack-Request-Timestamp is {int(now) - int(timestamp):+,} s old, more than "
                           f"{MAX_SIGNATURE_AGE // 60} minutes from now")
    if signature is None or not _SIGNATURE.match(signature):
        raise Refused(401, f"X-Slack-Signature {shown(signature)} is not a v0 signature")
    expected = hmac.new(secret.encode(), b"v0:" + timestamp.encode() + b":" + body, hashlib.sha256).hexdigest()
    if not hmac.compare_digest("v0=" + expected, signature):
        raise Refused(401, "X-Slack-Signature does not match the body")


def team_of(body: dict) -> Any:
    """The workspace a payload is from, read as handlers.interaction._ids reads it (team.id, team_id, user.team_id)."""
    return ((body.get("team") or {}).get("id") or body.get("team_id")
            or (body.get("user") or {}).get("team_id"))


def user_of(body: dict) -> Any:
    return (body.get("user") or {}).get("id") or body.get("user_id")


def check_payload(body: Any) -> None:
    """A signed payload's shape, as far as routing and identity go; raises Refused(400)."""
    if not isinstance(body, dict):
        raise Refused(400, f"the payload is a JSON {type(body).__name__}, not an object")
    if body.get("type") in _HANDSHAKES or body.get("ssl_check") == "1":
        return
    for name in _OBJECT_FIELDS:
        if body.get(name) is not None and not isinstance(body[name], dict):
            raise Refused(400, f"the payload's {name!r} is a {type(body[name]).__name__}, not an object")
    for name in _TEXT_FIELDS:
        if body.get(name) is not None and not isinstance(body[name], str):
            raise Refused(400, f"the payload's {name!r} is a {type(body[name]).__name__}, not text")
    actions = body.get("actions")
    if actions is not None and not (isinstance(actions, list) and all(isinstance(a, dict) for a in actions)):
        raise Refused(400, "the payload's 'actions' is not a list of objects")
    team = team_of(body)
    if not isinstance(team, str) or not _SLACK_ID.match(team):
        raise Refused(400, "the payload names no workspace (no team id)" if not team
                      else f"the payload's team id {shown(team)} is not a Slack id")
    user = user_of(body)
    if body.get("type") != "event_callback" and (not isinstance(user, str) or not _SLACK_ID.match(user)):
        raise Refused(400, "the payload names no user" if not user else f"the payload's user id {shown(user)} is "
                                                                          "not a Slack id")


def json_depth(text: str, limit: int = MAX_JSON_DEPTH) -> int:
    """How deep the arrays and objects of JSON `text` nest, counted without parsing it (strings are skipped, so a
    bracket inside one does not count); counting stops once past `limit`. Malformed JSON is the parser's to refuse."""
    brackets = _NOT_BRACKET.sub("", _JSON_STRING.sub("", text))
    depth = deepest = 0
    for bracket in brackets:
        depth += 1 if bracket in "[{" else -1
        if depth > deepest:
            deepest = depth
            if deepest > limit:
                break
    return deepest


def _json_text(text: str, content_type: str | None) -> str | None:
    """The JSON inside a body as Bolt will parse it: the body itself, or a form's `payload` field."""
    if content_type == "application/json":
        return text
    if "payload=" in text:
        return (parse_qs(text).get("payload") or [""])[0]
    return None


def parse(environ: dict, body: bytes) -> BoltRequest:
    """The signed body as Bolt will see it; raises Refused(400) for anything Slack never sends."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise Refused(400, f"the body is not UTF-8 (byte {exc.start:,})") from None
    headers = WsgiHttpRequest(environ).get_headers()
    content_type = extract_content_type(build_normalized_headers(headers))  # exactly as Bolt will read it
    json_text = _json_text(text, content_type)
    if json_text is not None and json_depth(json_text) > MAX_JSON_DEPTH:
        raise Refused(400, f"the payload's JSON nests deeper than {MAX_JSON_DEPTH} levels")
    try:
        payload = parse_body(text, content_type)
    except RecursionError:  # the count above keeps it away; kept so no parse can end in a traceback
        raise Refused(400, "the payload's JSON nests too deeply to read") from None
    except ValueError as exc:  # json.JSONDecodeError is a ValueError
        raise Refused(400, f"the payload is not JSON ({type(exc).__name__} at character {getattr(exc, 'pos', '?')})") \
            from None
    check_payload(payload)
    try:
        return BoltRequest(body=text, query=environ.get("QUERY_STRING", ""), headers=headers)
    except Exception as exc:  # noqa: BLE001 - anything Bolt cannot read is a malformed request, not our fault
        raise Refused(400, f"Bolt cannot read the payload ({type(exc).__name__})") from None


@dataclass(frozen=True)
class Gate:
    """The three steps above, with the app's signing secret and a clock for the timestamp (Slack's real time)."""

    signing_secret: str
    max_body: int = MAX_BODY_BYTES
    now: Callable[[], float] = time.time

    def __post_init__(self) -> None:
        if not self.signing_secret:
            raise ValueError("the Slack endpoint needs the signing secret to check requests")

    def admit(self, environ: dict) -> BoltRequest:
        body = read_body(environ, self.max_body)
        verify_signature(self.signing_secret, environ, body, now=self.now())
        return parse(environ, body)
