"""The HTTP server: Bolt behind waitress (a production WSGI server), with a health check.

    POST /slack/events   commands, interactivity and events (Slack signs each request; Bolt verifies it)
    GET  /healthz        200 when the database answers, 503 when it does not
"""
from __future__ import annotations

import gc
import json
import logging
import threading
from typing import Callable, Iterable

import waitress
from slack_bolt import App
from slack_bolt.adapter.wsgi import SlackRequestHandler

from storage.db import Database

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


class WebApp:
    """A small WSGI router: the Slack endpoint, the health check, and room for more routes."""

    def __init__(self, app: App, db: Database) -> None:
        self.slack = SlackRequestHandler(app, path=EVENTS_PATH)
        self.db = db

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

    def __call__(self, environ, start_response) -> Iterable[bytes]:
        path, method = environ.get("PATH_INFO", ""), environ.get("REQUEST_METHOD", "GET")
        if path == "/healthz" and method in ("GET", "HEAD"):
            return self.healthz(start_response)
        if path == EVENTS_PATH:
            if method != "POST":
                start_response("405 Method Not Allowed", [("Allow", "POST"), ("Content-Length", "0")])
                return [b""]
            return self.slack(environ, start_response)
        start_response("404 Not Found", [("Content-Type", "text/plain"), ("Content-Length", "9")])
        return [b"Not Found"]


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
        # Close every dispatcher (listener, connections, the trigger) from inside waitress's own loop
        # thread, so the loop ends because its map is empty instead of selecting on closed sockets.
        def close_all() -> None:
            for dispatcher in list(self.server._map.values()):
                try:
                    dispatcher.close()
                except OSError:
                    pass

        if self.thread.is_alive():
            self.server.trigger.pull_trigger(close_all)
            self.thread.join(timeout=5)
        if self.thread.is_alive():  # a connection that would not close: fall back to closing from here
            self.server.close()
            self.thread.join(timeout=5)
        self.server.task_dispatcher.shutdown()

    def __enter__(self) -> "RunningServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def serve_forever(wsgi_app: Callable, *, host: str, port: int, threads: int = 16) -> None:
    waitress.serve(wsgi_app, host=host, port=port, threads=threads, ident="recount-bot")
