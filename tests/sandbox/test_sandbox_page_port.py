"""The sandbox page keeps its port across a quick restart: the page left open in the browser finds the sandbox
again. A port another program holds is still replaced by a free one, with a note saying which; the port the
page had last time is preferred over a random one."""
from __future__ import annotations

import http.client
import shutil
import socket
import subprocess
from pathlib import Path

import pytest

from bot.commands.sandbox import OFFLINE_DATABASE_URL
from sandbox.ports import page_port_file, save_port, saved_port
from sandbox.web import WebSandbox
from tests.bot.test_cli_run import free_port
from tests.sandbox.test_sandbox_api import db, sandbox  # noqa: F401 - the fixtures

ROOT = Path(__file__).resolve().parents[2]


def open_event_stream(web: WebSandbox) -> http.client.HTTPConnection:
    """A page's live stream, as the open tab holds it: the server closes it when it stops (TIME_WAIT on its side)."""
    connection = http.client.HTTPConnection("127.0.0.1", web.server.port, timeout=5)
    connection.request("GET", "/api/events?since=0")
    response = connection.getresponse()
    assert response.status == 200 and response.readline().startswith(b"retry:")
    connection.response = response
    return connection


def test_a_quick_restart_keeps_the_port_though_the_last_sessions_connections_linger(sandbox) -> None:  # noqa: F811
    port = free_port()
    first = WebSandbox(sandbox, port=port).start()
    stream = open_event_stream(first)
    first.stop()  # the server closes the stream first: its end of the connection waits in TIME_WAIT
    try:
        second = WebSandbox(sandbox, port=port).start()
        try:
            assert (second.server.port, second.port_note) == (port, None)
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            connection.request("GET", "/", headers={"Host": f"127.0.0.1:{port}"})
            assert connection.getresponse().status == 200
        finally:
            second.stop()
    finally:
        stream.close()


def test_a_port_another_program_holds_is_replaced_and_last_sessions_port_is_preferred(sandbox) -> None:  # noqa: F811
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        held = taken.getsockname()[1]
        last_time = free_port()
        with WebSandbox(sandbox, port=held, fallback_port=last_time) as web:
            assert web.server.port == last_time
            assert web.port_note.startswith(f"port {held} is taken (")
            assert web.port_note.endswith(f"the page uses port {last_time} instead")
        with socket.socket() as also_taken:  # last time's port taken too: any free port, still said
            also_taken.bind(("127.0.0.1", last_time))
            also_taken.listen()
            with WebSandbox(sandbox, port=held, fallback_port=last_time) as web:
                assert web.server.port not in (held, last_time)
                assert f"the page uses port {web.server.port} instead" in web.port_note


def test_the_page_port_is_remembered_next_to_the_sqlite_file_only(tmp_path) -> None:
    path = page_port_file(f"sqlite:///{tmp_path / 'sandbox.sqlite3'}")
    assert path == tmp_path / "sandbox.sqlite3.page-port" and saved_port(path) is None
    save_port(path, 43117)
    assert saved_port(path) == 43117
    path.write_text("not a port\n")
    assert saved_port(path) is None
    assert page_port_file("postgresql://u@h/db") is None and page_port_file("sqlite://") is None


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_the_page_port_file_is_ignored_by_git() -> None:
    name = page_port_file(OFFLINE_DATABASE_URL).name
    assert subprocess.run(["git", "check-ignore", "--no-index", "-q", name], cwd=ROOT).returncode == 0
