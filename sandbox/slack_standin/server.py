"""`SlackStandIn`: a real HTTP server on loopback that speaks the Slack Web API to `slack_sdk.WebClient`.

    with SlackStandIn() as slack:
        client = WebClient(token="xoxb-test", base_url=slack.base_url)
        client.chat_postMessage(channel="C123", text="hi")
        assert slack.calls_to("chat.postMessage")[0].args["text"] == "hi"

Besides `/api/<method>` it serves the upload URLs it hands out (`/upload/v1/<token>`) and the `url_private` /
`url_private_download` of every hosted file, the bot's uploads and files people uploaded
(`state.add_user_file`, e.g. into a modal's `file_input`): `/files-pri/<team>-<file>/...`, bot token required.
"""
from __future__ import annotations

import email.parser
import email.policy
import json
import logging
import mimetypes
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from .api import JSON_FIELDS, METHODS, NO_AUTH_METHODS
from .errors import SlackError
from .oauth import StandInOAuth, auth_test_of
from .responses import ResponseUrls
from .state import Clock, StandInState, StateChange, Workspace

log = logging.getLogger(__name__)

UPLOAD_METHOD = "upload_url"  # how POSTs to an upload URL appear in `calls` (not a Slack method name)
RESPONSE_METHOD = "response_url"  # how POSTs to a response_url appear in `calls`
DOWNLOAD_METHOD = "files-pri"  # how GETs of a file's url_private(_download) appear in `calls` (and fail_next)
ANY_METHOD = "*"
AUTHORIZE_METHOD = "oauth/v2/authorize"  # how visits to the consent page appear in `calls`
DEFAULT_SCOPES = ("channels:history", "channels:read", "chat:write", "commands", "files:read", "files:write",
                  "groups:read", "im:history", "im:write", "reactions:write", "users:read")
_DEFAULT_FAULT_ERRORS = {429: "ratelimited", 503: "service_unavailable"}


@dataclass(frozen=True)
class RecordedCall:
    method: str
    args: dict[str, Any]  # JSON-valued fields (blocks, view, ...) decoded; the token is not among them
    headers: dict[str, str]
    at: datetime
    status: int = 200
    response: dict[str, Any] | None = None  # the JSON body answered (None for non-JSON answers)


@dataclass
class _Fault:
    status: int | None
    retry_after: int | None
    delay: float | None
    error: str
    remaining: int
    stall: float | None = None


@dataclass
class _Reply:
    status: int
    body: bytes
    content_type: str = "application/json; charset=utf-8"
    headers: dict[str, str] = field(default_factory=dict)


def _json_reply(status: int, body: dict[str, Any], headers: dict[str, str] | None = None) -> _Reply:
    return _Reply(status, json.dumps(body).encode("utf-8"), headers=headers or {})


class SlackStandIn:
    def __init__(
        self,
        host: str = "127.0.0.1",
        port: int = 0,
        *,
        tokens: Iterable[str] | Callable[[str], bool] | None = None,
        clock: Clock | None = None,
        workspace: Workspace | None = None,
        users: Mapping[str, Mapping[str, Any]] | Iterable[Mapping[str, Any]] | None = None,
        channels: Mapping[str, Any] | Iterable[Mapping[str, Any]] | None = None,
        strict: bool = False,
        strict_triggers: bool | None = None,
        trigger_ttl: float = 3.0,
        scopes: Iterable[str] = DEFAULT_SCOPES,
    ) -> None:
        self.host, self.port = host, port
        self.scopes = tuple(scopes)
        if tokens is None:
            self._token_ok: Callable[[str], bool] = lambda t: t.startswith("xoxb-")
        elif callable(tokens):
            self._token_ok = tokens
        else:
            valid = frozenset(tokens)
            self._token_ok = valid.__contains__
        self.state = StandInState(clock=clock, workspace=workspace, users=users, channels=channels,
                                  strict=strict, strict_triggers=strict_triggers, trigger_ttl=trigger_ttl)
        self.responses = ResponseUrls(self.state)
        self.oauth = StandInOAuth(self.state.workspace)  # install flow and per-token teams (oauth.py)
        self.server_errors: list[str] = []  # stand-in bugs (answered as HTTP 500); tests may assert it is empty
        self._calls: list[RecordedCall] = []
        self._calls_changed = threading.Condition()
        self._faults: dict[str, list[_Fault]] = {}
        self._stopping = threading.Event()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # ----------------------------------------------------------------- lifecycle
    def start(self) -> SlackStandIn:
        if self._server is not None:
            raise RuntimeError("the stand-in is already running (or was stopped; make a new one)")
        handler = type("StandInHandler", (_Handler,), {"standin": self})
        self._server = _Server((self.host, self.port), handler)
        self.port = self._server.server_address[1]
        self.state.files_root = self.url
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05},
                                        name=f"slack-standin:{self.port}", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()  # cuts injected delays short
        if self._server is not None and self._thread is not None and self._thread.is_alive():
            self._server.shutdown()
            self._server.server_close()
            self._thread.join(timeout=5)

    def __enter__(self) -> SlackStandIn:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def url(self) -> str:
        if self._server is None:
            raise RuntimeError("start() the stand-in first")
        return f"http://{self.host}:{self.port}"

    @property
    def base_url(self) -> str:
        """What `WebClient(base_url=...)` expects: ends with "/api/"."""
        return f"{self.url}/api/"

    # ----------------------------------------------------------------- recording
    @property
    def calls(self) -> list[RecordedCall]:
        with self._calls_changed:
            return list(self._calls)

    def calls_to(self, method: str) -> list[RecordedCall]:
        with self._calls_changed:
            return [c for c in self._calls if c.method == method]

    def clear(self) -> None:
        """Forget recorded calls and pending faults (the workspace state stays)."""
        with self._calls_changed:
            self._calls.clear()
            self._faults.clear()

    def wait_for(self, method: str, count: int = 1, timeout: float = 5.0) -> list[RecordedCall]:
        """Block until `count` calls to `method` were answered; returns them all. TimeoutError otherwise."""
        with self._calls_changed:
            done = self._calls_changed.wait_for(
                lambda: sum(c.method == method for c in self._calls) >= count, timeout=timeout)
            seen = [c.method for c in self._calls]
        if not done:
            raise TimeoutError(f"expected {count} call(s) to {method} within {timeout}s; calls so far: {seen}")
        return self.calls_to(method)

    def _record(self, call: RecordedCall) -> None:
        with self._calls_changed:
            self._calls.append(call)
            self._calls_changed.notify_all()

    # ----------------------------------------------------------------- faults
    def fail_next(self, method: str, status: int | None = None, retry_after: int | None = None,
                  delay: float | None = None, times: int = 1, error: str | None = None,
                  stall: float | None = None) -> None:
        """Make the next `times` calls to `method` ("*" for any) fail or dawdle.

        `status` answers with that HTTP status and `{"ok": false, "error": ...}` (429 -> "ratelimited" with a
        `Retry-After` header, 2 s unless given); the call is not carried out. `delay` sleeps that long before
        carrying the call out; alone, the call then succeeds normally (it is processed, as Slack would, even if
        the client gave up). `stall` carries the call out at once and holds its answer back that long: the
        post is in the channel while a client with a shorter timeout gives up on it (Slack took it, the
        answer never came). Neither status, delay nor stall means a 429.
        """
        if times < 1:
            raise ValueError("times must be at least 1")
        if status is None and delay is None and stall is None:
            status = 429
        if status == 429 and retry_after is None:
            retry_after = 2
        if error is None and status is not None:
            error = _DEFAULT_FAULT_ERRORS.get(status, "internal_error" if status >= 500 else "invalid_request")
        fault = _Fault(status, retry_after, delay, error or "", times, stall)
        with self._calls_changed:
            self._faults.setdefault(method, []).append(fault)

    def _take_fault(self, method: str) -> _Fault | None:
        with self._calls_changed:
            for key in (method, ANY_METHOD):
                queue = self._faults.get(key, [])
                if queue:
                    fault = queue[0]
                    fault.remaining -= 1
                    if fault.remaining <= 0:
                        queue.pop(0)
                    return fault
        return None

    # ----------------------------------------------------------------- conveniences
    def issue_trigger_id(self, user_id: str) -> str:
        return self.state.issue_trigger_id(user_id)

    def subscribe(self, callback: Callable[[StateChange], None]) -> Callable[[], None]:
        return self.state.subscribe(callback)

    def issue_response_url(self, *, channel: str, user: str, message_ts: str | None = None) -> str:
        """A `response_url` as Slack puts in a command or interaction payload (posts into `channel`)."""
        return self.responses.issue(self.url, channel=channel, user=user, message_ts=message_ts)

    # ----------------------------------------------------------------- the Web API proper
    def _api(self, method: str, args: dict[str, Any], token: str | None, authorization: str | None = None) -> _Reply:
        if method == "oauth.v2.access":  # the app's credentials, not a token
            try:
                return _json_reply(200, {"ok": True, **self.oauth.access(args, authorization)})
            except SlackError as exc:
                return _json_reply(exc.status, exc.body())
        handler = METHODS.get(method)
        if handler is None:
            return _json_reply(404, {"ok": False, "error": "unknown_method", "req_method": method})
        if method in NO_AUTH_METHODS:
            pass
        elif not token:
            return _json_reply(200, {"ok": False, "error": "not_authed"})
        elif not self._token_ok(token) and self.oauth.team_of_token(token) is None:
            return _json_reply(200, {"ok": False, "error": "invalid_auth"})
        scopes = {"x-oauth-scopes": ",".join(self.scopes)} if token else {}  # Bolt reads it after auth.test
        team = self.oauth.team_of_token(token)
        if team is not None and method == "auth.test":
            return _json_reply(200, {"ok": True, **auth_test_of(team)}, scopes)
        if self.oauth.refuses(token, args):  # another workspace's channel
            return _json_reply(200, {"ok": False, "error": "channel_not_found"}, scopes)
        try:
            return _json_reply(200, {"ok": True, **handler(self.state, args)}, scopes)
        except SlackError as exc:
            return _json_reply(exc.status, exc.body(), scopes)
        except Exception as exc:  # a stand-in bug: answer like a server in trouble, keep it visible
            log.exception("slack stand-in failed on %s", method)
            self.server_errors.append(f"{method}: {exc!r}")
            return _json_reply(500, {"ok": False, "error": "internal_error"})


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128  # bursts of concurrent clients must not wait for SYN retransmits

    def handle_error(self, request: Any, client_address: Any) -> None:
        log.exception("slack stand-in: unhandled error serving %s", client_address)


def _decode_args(query: str, body: bytes, content_type: str) -> tuple[dict[str, Any], str | None]:
    """Query string plus body, as WebClient sends them. Returns (args, error code or None)."""
    args: dict[str, Any] = dict(parse_qsl(query, keep_blank_values=True))
    ctype = content_type.split(";")[0].strip().lower()
    if body and ctype == "application/json":
        try:
            decoded = json.loads(body)
        except ValueError:
            return args, "invalid_json"
        if not isinstance(decoded, dict):
            return args, "json_not_object"
        args.update(decoded)
    elif body and ctype == "multipart/form-data":
        args.update(_multipart(body, content_type))
    elif body:
        args.update(parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True))
    for key in JSON_FIELDS & args.keys():
        if isinstance(args[key], str) and args[key][:1] in ("[", "{"):
            try:
                args[key] = json.loads(args[key])
            except ValueError:
                pass  # left as a string; the method reports it the way Slack would
    return args, None


def _multipart(body: bytes, content_type: str) -> dict[str, Any]:
    head = f"Content-Type: {content_type}\r\n\r\n".encode("latin-1")
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(head + body)
    fields: dict[str, Any] = {}
    for part in message.iter_parts():  # type: ignore[attr-defined]
        name = part.get_param("name", header="content-disposition")
        payload = part.get_payload(decode=True) or b""
        fields[name] = payload if part.get_filename() is not None else payload.decode("utf-8", "replace")
    return fields


class _Handler(BaseHTTPRequestHandler):
    standin: SlackStandIn
    server_version = "SlackStandIn/1"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - quiet; calls are recorded instead
        log.debug("%s " + format, self.address_string(), *args)

    def do_GET(self) -> None:  # noqa: N802
        self._dispatch()

    def do_POST(self) -> None:  # noqa: N802
        self._dispatch()

    def _dispatch(self) -> None:
        parts = urlsplit(self.path)
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length > 0 else b""
        headers = dict(self.headers.items())
        if parts.path.startswith("/api/"):
            method = parts.path[len("/api/"):].strip("/")
            args, decode_error = _decode_args(parts.query, body, self.headers.get("Content-Type", ""))
            token = self._bearer() or args.pop("token", None)
            args.pop("token", None)
            basic = self.headers.get("Authorization") if method == "oauth.v2.access" else None
            reply = self._faulted(method, lambda: (
                _json_reply(200, {"ok": False, "error": decode_error}) if decode_error
                else self.standin._api(method, args, token, basic)))
        elif parts.path == "/oauth/v2/authorize":
            method, args = AUTHORIZE_METHOD, dict(parse_qsl(parts.query))
            status, extra, page = self.standin.oauth.authorize(parts.query)
            reply = _Reply(status, page, "text/plain; charset=utf-8", extra)
        elif parts.path.startswith("/upload/v1/"):
            method, args = UPLOAD_METHOD, {"length": len(body)}
            reply = self._faulted(method, lambda: self._upload(parts.path.rsplit("/", 1)[-1], body, args))
        elif parts.path.startswith("/response/"):
            method = RESPONSE_METHOD
            try:
                args = json.loads(body or b"{}")
            except ValueError:
                args = {}
            reply = self._faulted(method, lambda: self._respond(parts.path.rsplit("/", 1)[-1], args))
        elif parts.path.startswith("/files-pri/"):
            method, args = DOWNLOAD_METHOD, {"path": parts.path}
            reply = self._faulted(method, lambda: self._download(parts.path))
        else:
            method, args = "(unknown path)", {"path": parts.path}
            reply = _Reply(404, b"not found", "text/plain")
        try:
            response = json.loads(reply.body) if reply.content_type.startswith("application/json") else None
        except ValueError:
            response = None
        self.standin._record(RecordedCall(method, args, headers, self.standin.state.now(), reply.status, response))
        self._send(reply)

    def _bearer(self) -> str | None:
        auth = self.headers.get("Authorization", "")
        return auth[7:].strip() or None if auth.lower().startswith("bearer ") else None

    def _faulted(self, method: str, carry_out: Callable[[], _Reply]) -> _Reply:
        """The reply to a call, through the fault queued for its method, if any (see `fail_next`)."""
        fault = self.standin._take_fault(method)
        if fault is None:
            return carry_out()
        if fault.delay:
            self.standin._stopping.wait(fault.delay)
        if fault.status is None:
            reply = carry_out()
        else:
            extra = {"Retry-After": str(fault.retry_after)} if fault.retry_after is not None else {}
            reply = _json_reply(fault.status, {"ok": False, "error": fault.error}, extra)
        if fault.stall:
            self.standin._stopping.wait(fault.stall)  # done; the answer is late (the client may be gone)
        return reply

    def _respond(self, token: str, payload: dict[str, Any]) -> _Reply:
        try:
            return _json_reply(200, self.standin.responses.use(token, payload))
        except SlackError as exc:
            return _json_reply(exc.status, exc.body())

    def _upload(self, token: str, body: bytes, args: dict[str, Any]) -> _Reply:
        ctype = self.headers.get("Content-Type", "")
        if ctype.lower().startswith("multipart/form-data"):
            files = [v for v in _multipart(body, ctype).values() if isinstance(v, bytes)]
            body = files[0] if files else b""
        try:
            args["file_id"] = self.standin.state.receive_upload(token, body)
        except KeyError:
            return _Reply(404, b"upload url not found", "text/plain")
        return _Reply(200, f"OK - {len(body)}".encode(), "text/plain; charset=utf-8")

    def _download(self, path: str) -> _Reply:
        token = self._bearer()
        if not token or not self.standin._token_ok(token):
            return _Reply(403, b"forbidden", "text/plain")
        key = path[len("/files-pri/"):].split("/", 1)[0]
        found = self.standin.state.file_by_team_path(key)
        if found is None:
            return _Reply(404, b"file not found", "text/plain")
        meta, data = found
        return _Reply(200, data, mimetypes.guess_type(meta["name"])[0] or "application/octet-stream")

    def _send(self, reply: _Reply) -> None:
        try:
            self.send_response(reply.status)
            self.send_header("Content-Type", reply.content_type)
            self.send_header("Content-Length", str(len(reply.body)))
            for name, value in reply.headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(reply.body)
        except (BrokenPipeError, ConnectionResetError, ConnectionAbortedError):
            log.debug("client went away before the answer (e.g. it timed out)")
