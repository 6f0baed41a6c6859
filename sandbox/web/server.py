"""The browser sandbox's own small web server (stdlib, loopback only): the page, its static files, the JSON
API and a live stream of changes.

    GET  /                      the page (static/index.html)
    GET  /static/NAME           its CSS and JavaScript
    GET  /api/state?as=KEY      the workspace as KEY's Slack client shows it
    GET  /api/events?since=N    server-sent events: "change" whenever the Slack stand-in changes
    POST /api/ACTION            JSON {"as": KEY, ...}: command, act, view_act, submit, close, home, shortcut,
                                dismiss, upload (a file for a modal's file input, base64; see person_actions.py)
    GET  /files/ID/NAME         a file the bot shared (Slack's url_private wants the bot's token)

It acts as anyone in the sandbox without asking who is there: so it listens on 127.0.0.1 only, answers
only requests addressed to that host (a web page elsewhere cannot rebind a name to it), and takes actions
only as JSON posts (which another site's page cannot send without a preflight this server never grants).
"""
from __future__ import annotations

import json
import logging
import os
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from .api import SandboxApi
from .errors import ApiError

log = logging.getLogger("recount_bot.offline.web")
STATIC = Path(__file__).resolve().parent / "static"
TYPES = {".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8",
         ".js": "text/javascript; charset=utf-8", ".svg": "image/svg+xml", ".png": "image/png"}
STATIC_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]*\.(html|css|js|svg|png)$")
MAX_BODY = 2_000_000
MAX_UPLOAD_BODY = 15_000_000  # /api/upload: Slack's 10 MB for a file in a form, in base64, and a little more
KEEPALIVE_SECONDS = 15.0
SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Content-Security-Policy": ("default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
                                "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; "
                                "form-action 'none'"),
}


class SandboxWebServer:
    def __init__(self, api: SandboxApi, host: str = "127.0.0.1", port: int = 0,
                 fallback_port: int | None = None) -> None:
        # fallback_port: the port the page had last time, when `port` was taken then too (ports.py keeps it).
        # Preferred over a random free port, so a page left open in the browser finds the sandbox again.
        self.api, self.host, self.wanted_port, self.fallback_port = api, host, port, fallback_port
        self.port_note: str | None = None
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self.stopping = threading.Event()

    def start(self) -> "SandboxWebServer":
        handler = type("SandboxPageHandler", (_Handler,), {"web": self})
        try:
            self._server = _Server((self.host, self.wanted_port), handler)
        except OSError as exc:
            if self.wanted_port == 0:
                raise
            self._server = self._bind_fallback(handler)
            self.port_note = (f"port {self.wanted_port} is taken ({exc.strerror or exc}); "
                              f"the page uses port {self._server.server_address[1]} instead")
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.1},
                                        name="sandbox-page", daemon=True)
        self._thread.start()
        return self

    def _bind_fallback(self, handler: type) -> "_Server":
        """The port the page had last time if it is free now, else any free port."""
        if self.fallback_port and self.fallback_port != self.wanted_port:
            try:
                return _Server((self.host, self.fallback_port), handler)
            except OSError:
                pass
        return _Server((self.host, 0), handler)

    @property
    def port(self) -> int:
        return self._server.server_address[1]

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}/"

    def allowed_hosts(self) -> set[str]:
        return {f"{name}:{self.port}" for name in (self.host, "127.0.0.1", "localhost", "[::1]")}

    def stop(self) -> None:
        self.stopping.set()
        self.api.close()  # ends the event streams
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> "SandboxWebServer":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    # SO_REUSEADDR on POSIX: a quick restart binds the port again although the connections the last session
    # closed (the page's event stream) still wait out TIME_WAIT on it. It never lets two listeners share a
    # port there, so a port another process holds is still taken. Not on Windows, where SO_REUSEADDR would
    # let this server take over a port another process listens on.
    allow_reuse_address = os.name == "posix"
    allow_reuse_port = False

    def handle_error(self, request: Any, client_address: Any) -> None:
        log.exception("sandbox page: unhandled error serving %s", client_address)


class _Handler(BaseHTTPRequestHandler):
    web: SandboxWebServer
    server_version = "recount-bot-sandbox/1"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        log.debug("%s " + format, self.address_string(), *args)

    # ----------------------------------------------------------------- routing
    def do_GET(self) -> None:  # noqa: N802
        if not self._host_ok():
            return
        parts = urlsplit(self.path)
        path, query = parts.path, parse_qs(parts.query)
        if path in ("/", "/index.html"):
            self._static("index.html")
        elif path.startswith("/static/"):
            self._static(path[len("/static/"):])
        elif path == "/api/state":
            self._api(lambda: self.web.api.state((query.get("as") or [""])[0]))
        elif path == "/api/events":
            self._events(int((query.get("since") or ["0"])[0] or 0))
        elif path.startswith("/files/"):
            self._file(path)
        elif path == "/favicon.ico":
            self._static("favicon.svg")
        else:
            self._send(404, b"not found", "text/plain; charset=utf-8")

    def do_POST(self) -> None:  # noqa: N802
        if not self._host_ok():
            return
        path = urlsplit(self.path).path
        if not path.startswith("/api/"):
            self._send(404, b"not found", "text/plain; charset=utf-8")
            return
        if self.headers.get("Content-Type", "").split(";")[0].strip().lower() != "application/json":
            self._json(415, {"ok": False, "error": "send JSON (Content-Type: application/json)"})
            return
        length = int(self.headers.get("Content-Length") or 0)
        if length > (MAX_UPLOAD_BODY if path == "/api/upload" else MAX_BODY):
            self._json(413, {"ok": False, "error": "too large"})
            return
        try:
            body = json.loads(self.rfile.read(length) or b"{}")
        except ValueError:
            self._json(400, {"ok": False, "error": "not JSON"})
            return
        if not isinstance(body, dict):
            self._json(400, {"ok": False, "error": "expected a JSON object"})
            return
        self._api(lambda: self.web.api.perform(path[len("/api/"):], body))

    # ----------------------------------------------------------------- answers
    def _host_ok(self) -> bool:
        if self.headers.get("Host", "") in self.web.allowed_hosts():
            return True
        self._send(421, b"this sandbox answers only on its loopback address", "text/plain; charset=utf-8")
        return False

    def _api(self, work) -> None:
        try:
            self._json(200, work())
        except ApiError as exc:
            self._json(exc.status, {"ok": False, "error": exc.message})
        except Exception as exc:  # a sandbox bug: say so on the page, keep the traceback in the log
            log.exception("sandbox API failed on %s", self.path)
            self._json(500, {"ok": False, "error": f"the sandbox failed: {type(exc).__name__}: {exc}"})

    def _json(self, status: int, body: dict[str, Any]) -> None:
        self._send(status, json.dumps(body).encode("utf-8"), "application/json; charset=utf-8")

    def _static(self, name: str) -> None:
        target = STATIC / name
        if not STATIC_NAME.match(name) or not target.is_file():
            self._send(404, b"not found", "text/plain; charset=utf-8")
            return
        self._send(200, target.read_bytes(), TYPES[target.suffix])

    def _file(self, path: str) -> None:
        file_id = unquote(path[len("/files/"):].split("/", 1)[0])
        state = self.web.api.sandbox.standin.state
        meta = state.files().get(file_id)
        data = state.file_content(file_id)
        if meta is None or data is None or not meta.get("completed"):
            self._send(404, b"no such file", "text/plain; charset=utf-8")
            return
        kind = (meta.get("file") or {}).get("mimetype") or "application/octet-stream"
        name = re.sub(r'[^\w .()-]', "_", meta.get("name") or "file")
        # No page policy here: it would keep the browser's PDF viewer from showing the file.
        self._send(200, data, kind, {"Content-Disposition": f'inline; filename="{name}"'}, policy=False)

    def _events(self, since: int) -> None:
        """Server-sent events: a "change" (the new version) whenever the workspace changes."""
        try:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream; charset=utf-8")
            self.send_header("Cache-Control", "no-store")
            for name, value in SECURITY_HEADERS.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(b"retry: 1000\n\n")
            self.wfile.flush()
            api = self.web.api
            while not self.web.stopping.is_set() and not api.closed:
                version = api.wait_change(since, KEEPALIVE_SECONDS)
                if version > since:
                    since = version
                    self.wfile.write(f"event: change\ndata: {version}\n\n".encode())
                else:
                    self.wfile.write(b": keep-alive\n\n")
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError, ConnectionAbortedError):
            pass  # the page went away

    def _send(self, status: int, body: bytes, content_type: str, headers: dict[str, str] | None = None,
              policy: bool = True) -> None:
        security = SECURITY_HEADERS if policy else {"X-Content-Type-Options": "nosniff"}
        try:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            for name, value in {**security, **(headers or {})}.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError, ConnectionAbortedError):
            log.debug("the page went away before the answer")
