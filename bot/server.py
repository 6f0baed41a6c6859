"""The HTTP server: Bolt behind waitress (a production WSGI server), with a health check.

    POST /slack/events   commands, interactivity and events (Slack signs each request; Bolt verifies it)
    GET  /healthz        200 when the database answers, 503 when it does not
    GET  /certificates/<token>
                         a certificate of election (C.R.S. 1-13.5-1306(6)) as a PDF while its link is valid;
                         410 Gone once it expired (ask for a new link), 404 for a token it never made
"""
from __future__ import annotations

import gc
import json
import logging
import datetime as dt
import threading
from typing import Callable, Iterable

import waitress
from slack_bolt import App
from slack_bolt.adapter.wsgi import SlackRequestHandler

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
EXPIRED_TEXT = (b"This certificate link has expired. Ask the election office for a new link "
                b"(in Slack: the case card, New link).\n")


class WebApp:
    """A small WSGI router: the Slack endpoint, the health check, certificate links.

    `clock` decides when a certificate link has expired (tests pass their own)."""

    def __init__(self, app: App, db: Database, *, clock: Callable[[], dt.datetime] | None = None) -> None:
        self.slack = SlackRequestHandler(app, path=EVENTS_PATH)
        self.db = db
        self.clock = clock or utcnow

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
        from bot.services.certificates import LinkState, document_for_token, short
        from bot.services.context import Services

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
            ("Content-Disposition", f'inline; filename="{document.filename}"'),
            ("Cache-Control", "private, no-store"), ("Referrer-Policy", "no-referrer"),
            ("X-Robots-Tag", "noindex"), ("X-Content-Type-Options", "nosniff")])
        return [data]  # waitress sends no body for HEAD

    def __call__(self, environ, start_response) -> Iterable[bytes]:
        path, method = environ.get("PATH_INFO", ""), environ.get("REQUEST_METHOD", "GET")
        if path == "/healthz" and method in ("GET", "HEAD"):
            return self.healthz(start_response)
        if path.startswith(CERTIFICATES_PREFIX) and "/" not in path[len(CERTIFICATES_PREFIX):]:
            return self.certificate(path[len(CERTIFICATES_PREFIX):], method, start_response)
        if path == EVENTS_PATH:
            if method != "POST":
                start_response("405 Method Not Allowed", [("Allow", "POST"), ("Content-Length", "0")])
                return [b""]
            return self.slack(environ, start_response)
        start_response("404 Not Found", [("Content-Type", "text/plain"), ("Content-Length", "9")])
        return [b"Not Found"]


def _plain(start_response, status: str, body: bytes) -> Iterable[bytes]:
    start_response(status, [("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", str(len(body))),
                            ("Cache-Control", "no-store")])
    return [body]


class RunningServer:
    """waitress in a background thread (tests, the offline mode, benchmarks)."""

    def __init__(self, wsgi_app: Callable, host: str = "127.0.0.1", port: int = 0, threads: int = 8) -> None:
        self.server = waitress.create_server(wsgi_app, host=host, port=port, threads=threads, ident="recount-bot")
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


def serve_forever(wsgi_app: Callable, *, host: str, port: int, threads: int = 16) -> None:
    waitress.serve(wsgi_app, host=host, port=port, threads=threads, ident="recount-bot")
