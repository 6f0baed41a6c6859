"""The offline sandbox in a browser: the page (static/), its JSON API (api.py, the actions in person_actions.py)
and its web server (server.py).

    with Sandbox(db).start() as sandbox, WebSandbox(sandbox, port=3001).start() as web:
        print(web.url)          # open it: a Slack-like client acting as the sandbox's people

See sandbox/office.py for the bot and the Slack stand-in underneath.
"""
from __future__ import annotations

from sandbox.office import Sandbox

from .api import SandboxApi
from .errors import ApiError
from .server import SandboxWebServer

__all__ = ["ApiError", "SandboxApi", "SandboxWebServer", "WebSandbox"]


class WebSandbox:
    """A running sandbox's page: the API over it and the server that serves both."""

    def __init__(self, sandbox: Sandbox, *, host: str = "127.0.0.1", port: int = 0,
                 fallback_port: int | None = None) -> None:
        self.sandbox = sandbox
        self.api = SandboxApi(sandbox)
        self.server = SandboxWebServer(self.api, host=host, port=port, fallback_port=fallback_port)

    def start(self) -> "WebSandbox":
        try:
            self.server.start()
        except BaseException:
            self.api.close()
            raise
        return self

    def stop(self) -> None:
        self.server.stop()

    @property
    def url(self) -> str:
        return self.server.url

    @property
    def port_note(self) -> str | None:
        return self.server.port_note

    def __enter__(self) -> "WebSandbox":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
