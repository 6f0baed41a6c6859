"""The HTTP server: Bolt behind waitress (a production WSGI server), with a health check.

    POST /slack/events   commands, interactivity and events: at most 1 MiB (413 beyond, unread), signed by
                         Slack (401 otherwise) and well formed (400 otherwise) before Bolt sees it
                         (bot.web.request_gate); each refusal is one log line with a reference, no traceback
    GET  /healthz        200 when the database answers, 503 when it does not
    GET  /slack/install, /slack/oauth_redirect
                         many offices on one install only (SLACK_CLIENT_ID): Slack's OAuth install flow
                         (bot/slack/oauth.py); 404 in the one-office mode
    GET  /certificates/<token>
                         a certificate of election (C.R.S. 1-13.5-1306(6)) as a PDF while its link is valid;
                         410 Gone once it expired (ask for a new link), 404 for a token it never made
    GET  /observe/<token>[/state.json | /certificates/<id>]
                         the observers' page of a recount (C.R.S. 1-13.5-1306(1)), its live state and its
                         certificates (bot/web/observers.py); 410 once revoked or expired, 404 otherwise
    GET  /metrics        Prometheus text (bot/metrics.py): with METRICS_TOKEN set, for a bearer of it only (401
                         otherwise); without it, only for a client on this machine (403 otherwise; bot/web/metrics.py)

HEAD is answered with the headers GET would send and no body (waitress sends whatever the app returns, and
a body after a HEAD answer is read by the client as the start of the next response on a kept-alive
connection).
"""
from __future__ import annotations

import datetime as dt
import gc
import json
import logging
import secrets
import threading
import time
from typing import Callable, Iterable

import waitress
from slack_bolt import App
from slack_bolt.adapter.wsgi.http_response import WsgiHttpResponse
from slack_bolt.request import BoltRequest
from waitress.channel import HTTPChannel
from waitress.server import BaseWSGIServer
from waitress.task import ErrorTask

from bot.metrics import Metrics, kind_of
from bot.slack.oauth import INSTALL_PATH, REDIRECT_PATH
from bot.web.metrics import METRICS_PATH, MetricsEndpoint
from bot.web.request_gate import MAX_BODY_BYTES, Gate, Refused
from storage.db import Database
from storage.types import utcnow

log = logging.getLogger("recount_bot.server")
EVENTS_PATH = "/slack/events"


def settle_process() -> None:
    """Call once the app is built, before serving: keeps garbage-collection pauses out of Slack's 3 seconds.

    Everything allocated at start-up (modules, the app, SQLAlchemy's mappers) lives for the whole
    process; `gc.freeze()` moves it out of the collector's view, so a full collection no longer walks
    it (60-160 ms pauses were measured before, see benchmarks/README.md). A larger first-generation
    threshold makes the frequent young collections rarer; the request path allocates many small
    short-lived objects.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 50)


CERTIFICATES_PREFIX = "/certificates/"
OBSERVE_PREFIX = "/observe/"
EXPIRED_TEXT = (b"This certificate link has expired. Ask the election office for a new link "
                b"(in Slack: the case card, New link).\n")


class WebApp:
    """A small WSGI router: the Slack endpoint, the health check, certificate links, observers' pages, metrics.

    `clock` decides when a certificate or observers' link has expired (tests pass their own); `observer_poll_ms`
    is how often an open observers' page asks whether anything changed; `metrics_token` is METRICS_TOKEN."""

    def __init__(self, app: App, db: Database, *, clock: Callable[[], dt.datetime] | None = None,
                 signing_secret: str | None = None, observer_poll_ms: int | None = None,
                 metrics_token: str | None = None) -> None:
        from bot.web.observers import POLL_MS, ObserversEndpoint

        self.db = db
        self.clock = clock or utcnow
        # Its own registry (bot/metrics.py); what runs beside it (the worker, the deferred-work process) is added
        # by whoever starts them: `serve` calls `metrics.watch_worker` and `metrics.watch_deferred`.
        self.metrics = Metrics(db, lambda: self.clock())
        self.metrics_endpoint = MetricsEndpoint(self.metrics, metrics_token)
        # The secret Bolt verifies with, unless given: the gate and Bolt must agree on it. A missing one is an
        # error here (Gate), never an endpoint that lets unsigned requests through.
        self.slack = SlackEndpoint(app, signing_secret if signing_secret is not None
                                   else getattr(app, "_signing_secret", ""), self.metrics)
        self.observers = ObserversEndpoint(db, lambda: self.clock(), poll_ms=observer_poll_ms or POLL_MS)

    def healthz(self, start_response) -> Iterable[bytes]:
        try:
            self.db.ping()
            status, body = "200 OK", {"ok": True, "database": "ok"}
        except Exception as exc:  # the probe must answer, not crash
            log.warning("health check: database unavailable: %s", exc)
            status, body = "503 Service Unavailable", {"ok": False, "database": "unavailable"}
        data = json.dumps(body).encode()
        start_response(status, [("Content-Type", "application/json"), ("Content-Length", str(len(data)))])
        return [data]

    def certificate(self, token: str, method: str, start_response) -> Iterable[bytes]:
        """A certificate of election by its link's token. Never logs the whole token."""
        from services.completion.certificates import LinkState, document_for_token, short
        from services.services import Services

        if method not in ("GET", "HEAD"):
            start_response("405 Method Not Allowed", [("Allow", "GET, HEAD"), ("Content-Length", "0")])
            return [b""]
        try:
            document = document_for_token(Services(self.db, clock=self.clock), token)
        except Exception:
            log.exception("certificate link %s: the lookup failed", short(token))
            return _plain(start_response, "503 Service Unavailable", b"The certificate cannot be read right now; "
                                                                       b"try again in a moment.\n")
        if document.state is LinkState.UNKNOWN:
            log.info("certificate link %s: unknown", short(token))
            return _plain(start_response, "404 Not Found", b"Not Found")
        if document.state is LinkState.EXPIRED:
            log.info("certificate link %s: expired", short(token))
            return _plain(start_response, "410 Gone", EXPIRED_TEXT)
        data = document.pdf()
        log.info("certificate link %s: served", short(token))
        start_response("200 OK", [
            ("Content-Type", "application/pdf"), ("Content-Length", str(len(data))),
            ("Content-Disposition", document.content_disposition()),
            ("Cache-Control", "private, no-store"), ("Referrer-Policy", "no-referrer"),
            ("X-Robots-Tag", "noindex"), ("X-Content-Type-Options", "nosniff")])
        return [data]

    def __call__(self, environ, start_response) -> Iterable[bytes]:
        body = self.route(environ, start_response)
        if environ.get("REQUEST_METHOD") == "HEAD":  # the headers GET would send (Content-Length too), no body
            close = getattr(body, "close", None)
            if close is not None:
                close()
            return []
        return body

    def route(self, environ, start_response) -> Iterable[bytes]:
        path, method = environ.get("PATH_INFO", ""), environ.get("REQUEST_METHOD", "GET")
        if path == "/healthz" and method in ("GET", "HEAD"):
            return self.healthz(start_response)
        if path.startswith(CERTIFICATES_PREFIX) and "/" not in path[len(CERTIFICATES_PREFIX):]:
            return self.certificate(path[len(CERTIFICATES_PREFIX):], method, start_response)
        if path.startswith(OBSERVE_PREFIX):
            return self.observers(environ, start_response)
        if path == METRICS_PATH:
            return self.metrics_endpoint(environ, start_response)
        if path in (INSTALL_PATH, REDIRECT_PATH):
            return self.install(environ, start_response, path, method)
        if path == EVENTS_PATH:
            if method != "POST":
                start_response("405 Method Not Allowed", [("Allow", "POST"), ("Content-Length", "0")])
                return [b""]
            return self.slack(environ, start_response)
        start_response("404 Not Found", [("Content-Type", "text/plain"), ("Content-Length", "9")])
        return [b"Not Found"]


    def install(self, environ, start_response, path: str, method: str) -> Iterable[bytes]:
        """Slack's OAuth install flow, when this install serves many offices (Bolt's OAuthFlow does the work)."""
        flow = self.slack.app.oauth_flow
        if flow is None:
            return _plain(start_response, "404 Not Found", b"Not Found")
        if method != "GET":  # not even HEAD: each answer issues a state (a row)
            start_response("405 Method Not Allowed", [("Allow", "GET"), ("Content-Length", "0")])
            return [b""]
        query = environ.get("QUERY_STRING", "")
        if len(query) > 4096:
            return refuse(environ, start_response, 400, "an install request's query string over 4 KiB")
        headers = {key[5:].replace("_", "-").lower(): value for key, value in environ.items()
                   if key.startswith("HTTP_")}
        request = BoltRequest(body="", query=query, headers=headers, mode="http")
        try:
            response = flow.handle_installation(request) if path == INSTALL_PATH else flow.handle_callback(request)
        except Exception:  # the flow's own failures have pages; this is anything else, and it is ours
            reference = new_reference()
            log.exception("GET %s failed; reference %s", path, reference)
            return _plain(start_response, "500 Internal Server Error",
                          f"The installation could not be completed. Reference: {reference}\n".encode())
        if path == REDIRECT_PATH:
            log.info("install redirect answered %s", response.status)
        answer = WsgiHttpResponse(status=response.status, headers=response.headers, body=response.body)
        start_response(answer.status, answer.get_headers() + [("Cache-Control", "no-store"),
                                                              ("Referrer-Policy", "no-referrer")])
        return answer.get_body()


def new_reference() -> str:
    """A short id for a refusal, in the log line and in the answer (the format of handlers.interaction's)."""
    return secrets.token_hex(4).upper()


class SlackEndpoint:
    """POST /slack/events: the gate (bot.web.request_gate), then Bolt with the request the gate built."""

    def __init__(self, app: App, signing_secret: str, metrics: Metrics | None = None) -> None:
        self.app = app
        self.gate = Gate(signing_secret)
        self.metrics = metrics or Metrics()

    def __call__(self, environ, start_response) -> Iterable[bytes]:
        started = time.perf_counter()
        try:
            request = self.gate.admit(environ)
        except Refused as refused:
            self.metrics.count_refused(refused.status)
            return refuse(environ, start_response, refused.status, refused.reason)
        kind = kind_of(request.body)
        try:
            response = self.app.dispatch(request)
        except Exception:  # Bolt handles listeners' errors itself; this is anything else, and it is ours
            reference = new_reference()
            log.exception("POST %s failed in Bolt; reference %s", EVENTS_PATH, reference)
            return _plain(start_response, "500 Internal Server Error",
                          f"Something went wrong. Reference: {reference}\n".encode())
        finally:  # answered or failed, an admitted request is an acknowledgement Slack waited for
            self.metrics.observe_ack(kind, time.perf_counter() - started)
        answer = WsgiHttpResponse(status=response.status, headers=response.headers, body=response.body)
        start_response(answer.status, answer.get_headers())
        return answer.get_body()


REFUSED_STATUS = {400: "400 Bad Request", 401: "401 Unauthorized", 413: "413 Request Entity Too Large"}


def refuse(environ, start_response, status: int, reason: str) -> Iterable[bytes]:
    """One log line (the reason and a reference, never the body), and a short answer with the reference."""
    reference = new_reference()
    log.warning("refused %s %s from %s: %s (%d); reference %s", environ.get("REQUEST_METHOD", "?"),
                environ.get("PATH_INFO", "?"), environ.get("REMOTE_ADDR", "?"), reason, status, reference)
    line = REFUSED_STATUS[status]
    return _plain(start_response, line, f"{line[4:]}. Reference: {reference}\n".encode())


def _plain(start_response, status: str, body: bytes) -> Iterable[bytes]:
    start_response(status, [("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", str(len(body))),
                            ("Cache-Control", "no-store")])
    return [body]


class RunningServer:
    """waitress in a background thread (tests, the offline mode, benchmarks)."""

    def __init__(self, wsgi_app: Callable, host: str = "127.0.0.1", port: int = 0, threads: int = 8) -> None:
        self.server = create_server(wsgi_app, host=host, port=port, threads=threads)
        self.thread = threading.Thread(target=self.server.run, name="http", daemon=True)

    @property
    def port(self) -> int:
        return self.server.effective_port

    @property
    def url(self) -> str:
        return f"http://{self.server.effective_host}:{self.port}"

    def start(self) -> "RunningServer":
        self.thread.start()
        return self

    def stop(self) -> None:
        # End waitress's loop from inside its own thread by emptying its map (the loop runs while the map
        # has dispatchers), and close the sockets only once the loop is gone: closing them while it
        # still selects on them ends in "Bad file descriptor".
        dispatchers: list = []

        def end_loop() -> None:
            dispatchers.extend(self.server._map.values())
            self.server._map.clear()

        if self.thread.is_alive():
            try:
                self.server.trigger.pull_trigger(end_loop)
            except OSError:  # the loop already ended and closed its trigger
                pass
            self.thread.join(timeout=5)
        for dispatcher in dispatchers or list(self.server._map.values()):
            try:
                dispatcher.close()
            except OSError:
                pass
        self.server.task_dispatcher.shutdown()

    def __enter__(self) -> "RunningServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


class _RefusalTask(ErrorTask):
    """waitress's own refusals (a body over the limit, headers too large, a malformed request line): the same
    one log line with a reference as the app's, and the reference in the answer."""

    def execute(self) -> None:
        error, request = self.request.error, self.request
        reference = new_reference()
        if error.code != 500:  # a 500 here follows an app exception waitress has logged with its traceback
            metrics = getattr(getattr(self.channel.server, "application", None), "metrics", None)
            if isinstance(metrics, Metrics):  # refused before the app saw it; counted with the gate's refusals
                metrics.count_refused(error.code)
            peer = self.channel.addr[0] if isinstance(self.channel.addr, tuple) else self.channel.addr
            log.warning("refused %s %s from %s: %s (%d); reference %s", getattr(request, "command", None) or "?",
                        getattr(request, "path", None) or "?", peer, _waitress_reason(error), error.code, reference)
            error.body = (f"A request body is at most {MAX_BODY_BYTES:,} bytes here" if error.code == 413
                          else str(error.body)[:200]) + f". Reference: {reference}"
        super().execute()


def _waitress_reason(error) -> str:
    if error.code == 413:
        return f"a body over the limit of {MAX_BODY_BYTES:,} bytes (refused unread)"
    return f"{error.reason.lower()}: {str(error.body)[:80]}"


class _Channel(HTTPChannel):
    error_task_class = _RefusalTask


def create_server(wsgi_app: Callable, *, host: str, port: int, threads: int):
    """waitress, refusing a body over MAX_BODY_BYTES as soon as its headers say so (413, nothing read: waitress
    would otherwise buffer it whole, to a temporary file, before calling the app), with a log line each."""
    # Proxy headers are left as they came (waitress would drop them, no proxy being trusted): nothing reads them
    # but GET /metrics, which takes a request carrying them as relayed from elsewhere (bot/web/metrics.py).
    # REMOTE_ADDR stays the peer's address either way.
    server = waitress.create_server(wsgi_app, host=host, port=port, threads=threads, ident="recount-bot",
                                    max_request_body_size=MAX_BODY_BYTES + 1,  # waitress refuses >= this
                                    clear_untrusted_proxy_headers=False)
    listeners = [server] if isinstance(server, BaseWSGIServer) else [
        d for d in server.map.values() if isinstance(d, BaseWSGIServer)]  # one per address ("localhost": two)
    for listener in listeners:
        listener.channel_class = _Channel  # the class each accepted connection gets
    return server


def serve_forever(wsgi_app: Callable, *, host: str, port: int, threads: int = 16) -> None:
    server = create_server(wsgi_app, host=host, port=port, threads=threads)
    server.print_listen("Serving on http://{}:{}")  # as waitress.serve does
    server.run()
