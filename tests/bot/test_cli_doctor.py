"""`recount-bot doctor` through the real console script, against the Slack stand-in and a real database (SQLite,
and PostgreSQL with TEST_DATABASE_URL): a healthy install exits 0; each fault is named on its own line, with
what to fix, and exits 1 while every other check still holds."""
from __future__ import annotations

import datetime as dt
import json
import re
import subprocess
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Iterator

import pytest
from sqlalchemy import update

from bot.slack.scopes import BOT_SCOPES
from handlers.slack_io.outbox import enqueue
from sandbox.slack_standin import SlackStandIn
from services.office import access
from services.services import Services
from storage.db import Database
from storage.migrate import head_revision, upgrade
from storage.models import AuditEntry, Role, WorkerHeartbeat
from storage.types import utcnow
from tests.bot.test_cli_serve import (
    GOOD,
    ROOT,
    SECRET,
    command,
    environment,
    free_port,
    run_with,
    stop,
    wait_for_health,
)

LINE = re.compile(r"^(ok|FAIL|skip)\s+([^:]+):")
APPROVALS = "C0APPROVALS"
OFFICIAL = "U0OFFICIAL"
CHECKS = ["settings", "database", "slack token", "slack scopes", "approvals channel", "public URL", "worker",
          "outbox", "audit log"]


class _Health(BaseHTTPRequestHandler):
    """What the reverse proxy in front of a running `serve` answers (the real one: test_a_healthy_install...)."""

    def do_GET(self) -> None:  # noqa: N802
        body = b'{"ok": true, "database": "ok"}' if self.path == "/healthz" else b"{}"
        self.send_response(200 if self.path == "/healthz" else 404)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args) -> None:
        pass


@contextmanager
def health_endpoint() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Health)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@dataclass
class Install:
    slack: SlackStandIn
    db: Database
    url: str
    env: dict[str, str]

    def doctor(self, *args: str, **overrides: str) -> subprocess.CompletedProcess[str]:
        return run_with("doctor", *args, **{**self.env, **overrides})

    def worker_once(self) -> None:
        result = run_with("worker", "--once", **self.env)
        assert result.returncode == 0, result.stderr


def statuses(result: subprocess.CompletedProcess[str]) -> dict[str, str]:
    """check -> ok / FAIL / skip, from doctor's text output (one line each, in order)."""
    found = {}
    for line in result.stdout.splitlines()[:-1]:
        mark, check = LINE.match(line).groups()
        found[check] = mark
    assert list(found) == CHECKS, result.stdout
    return found


def line_of(result: subprocess.CompletedProcess[str], check: str) -> str:
    return next(line for line in result.stdout.splitlines()
                if (m := LINE.match(line)) is not None and m.group(2) == check)


def only_failing(result: subprocess.CompletedProcess[str], *checks: str) -> None:
    assert result.returncode == 1, result.stdout + result.stderr
    failing = {name for name, mark in statuses(result).items() if mark != "ok"}
    assert failing == set(checks), result.stdout
    assert "Traceback" not in result.stderr


@pytest.fixture
def install(empty_database_url) -> Iterator[Install]:
    """An office's install as docs/admin/deploying.md leaves it: migrated, the official set the approvals channel, the
    bot invited to it, the token with the manifest's scopes, a worker that has run, the public URL answering."""
    db = Database(empty_database_url)
    upgrade(db)
    with SlackStandIn(tokens={GOOD}, scopes=BOT_SCOPES, users=[{"id": OFFICIAL, "name": "dana", "is_admin": True}],
                      channels=[{"id": APPROVALS, "name": "approvals"}]) as slack, health_endpoint() as public:
        team = slack.state.workspace.team_id
        services = Services(db)
        access.bootstrap_official(services, team, OFFICIAL, reason="test")
        access.update_settings(services, team_id=team, actor=OFFICIAL, actor_role=Role.OFFICIAL,
                               changes={"approvals_channel": APPROVALS})
        env = {"DATABASE_URL": empty_database_url, "SLACK_BOT_TOKEN": GOOD, "SLACK_SIGNING_SECRET": SECRET,
               "SLACK_API_BASE_URL": slack.base_url, "PUBLIC_BASE_URL": public}
        installed = Install(slack, db, empty_database_url, env)
        installed.worker_once()
        try:
            yield installed
        finally:
            db.dispose()


def test_the_prepared_install_is_healthy(install) -> None:
    result = install.doctor()
    assert result.returncode == 0, result.stdout + result.stderr
    assert set(statuses(result).values()) == {"ok"}
    assert result.stdout.splitlines()[-1] == "doctor: all 9 checks hold"
    assert f"at revision {head_revision()} (the latest)" in line_of(result, "database")
    assert "exactly the 9 scopes of manifest.yml" in line_of(result, "slack scopes")
    assert f"<#{APPROVALS}>, and the bot is a member" in line_of(result, "approvals channel")
    assert line_of(result, "worker").startswith("ok    worker: worker:")
    assert GOOD not in result.stdout + result.stderr and SECRET not in result.stdout + result.stderr


def test_json_says_the_same(install) -> None:
    install.slack.state.set_bot_membership(APPROVALS, False)
    result = install.doctor("--format", "json")
    assert result.returncode == 1
    report = json.loads(result.stdout)
    assert report["ok"] is False
    assert [c["check"] for c in report["checks"]] == CHECKS
    failed = [c for c in report["checks"] if c["status"] != "ok"]
    assert [(c["check"], c["status"]) for c in failed] == [("approvals channel", "fail")]
    assert "/invite @recount-bot" in failed[0]["fix"]


def test_a_token_slack_refuses(install) -> None:
    result = install.doctor(SLACK_BOT_TOKEN="xoxb-revoked")
    only_failing(result, "slack token", "slack scopes", "approvals channel")
    assert "FAIL  slack token: SLACK_BOT_TOKEN was refused by Slack: invalid_auth -> copy the Bot User OAuth " \
           "Token" in line_of(result, "slack token")
    assert line_of(result, "slack scopes").startswith("skip  slack scopes: not checked")
    assert "xoxb-revoked" not in result.stdout


def test_a_missing_scope_and_one_too_many(install) -> None:
    install.slack.scopes = tuple(s for s in BOT_SCOPES if s != "groups:history") + ("channels:read",)
    result = install.doctor()
    only_failing(result, "slack scopes")
    assert ("FAIL  slack scopes: the token lacks groups:history and has channels:read, which recount-bot does not "
            "use -> in https://api.slack.com/apps") in line_of(result, "slack scopes")


def test_the_bot_not_in_the_approvals_channel(install) -> None:
    install.slack.state.set_bot_membership(APPROVALS, False)
    result = install.doctor()
    only_failing(result, "approvals channel")
    assert (f"FAIL  approvals channel: <#{APPROVALS}> is set, but the bot is not a member of it (not_in_channel) "
            "-> in that channel type `/invite @recount-bot`") in line_of(result, "approvals channel")


def test_no_approvals_channel_set(install) -> None:
    access.update_settings(Services(install.db), team_id=install.slack.state.workspace.team_id, actor=OFFICIAL,
                           actor_role=Role.OFFICIAL, changes={"approvals_channel": None})
    result = install.doctor()
    only_failing(result, "approvals channel")
    assert "approvals-channel #channel" in line_of(result, "approvals channel")


def test_no_worker_heartbeat(install) -> None:
    with install.db.transaction() as session:
        session.execute(update(WorkerHeartbeat).values(beat_at=utcnow() - dt.timedelta(hours=3)))
    result = install.doctor()
    only_failing(result, "worker")
    line = line_of(result, "worker")
    assert line.startswith("FAIL  worker: the last heartbeat (worker:") and "was 3 h 0 min ago" in line
    assert "start the worker" in line
    install.worker_once()  # a worker running again is all it takes
    assert install.doctor().returncode == 0


def test_a_worker_that_never_ran(install) -> None:
    with install.db.transaction() as session:
        session.query(WorkerHeartbeat).delete()
    result = install.doctor()
    only_failing(result, "worker")
    assert "no worker has ever run against this database" in line_of(result, "worker")


def test_a_stuck_outbox(install) -> None:
    an_hour_ago = utcnow() - dt.timedelta(hours=1)
    with install.db.transaction() as session:
        enqueue(session, method="chat.postMessage", payload={"channel": APPROVALS, "text": "waiting"},
                now=an_hour_ago)
    result = install.doctor()
    only_failing(result, "outbox")
    assert "FAIL  outbox: 1 post waiting, the oldest 60 min old: delivery is stuck" in line_of(result, "outbox")


def test_a_broken_audit_chain(install) -> None:
    with install.db.transaction() as session:
        session.execute(update(AuditEntry).where(AuditEntry.id == 1).values(actor="someone-else"))
    result = install.doctor()
    only_failing(result, "audit log")
    assert "FAIL  audit log: audit log BROKEN at row 1" in line_of(result, "audit log")


def test_the_public_url_down(install) -> None:
    result = install.doctor(PUBLIC_BASE_URL=f"http://127.0.0.1:{free_port()}")
    only_failing(result, "public URL")
    assert "/healthz did not answer within 5 s" in line_of(result, "public URL")


def test_an_unmigrated_database(install) -> None:
    from alembic import command as alembic_command

    from storage.migrate import alembic_config

    config = alembic_config()
    with install.db.engine.begin() as connection:
        config.attributes["connection"] = connection
        alembic_command.downgrade(config, "0010")
    result = install.doctor()
    assert result.returncode == 1
    marks = statuses(result)
    assert marks["database"] == "FAIL"
    assert {c for c, m in marks.items() if m == "skip"} == {"approvals channel", "worker", "outbox", "audit log"}
    assert f"is at revision 0010, not {head_revision()} -> run `recount-bot db upgrade`" in line_of(result, "database")


def test_bad_settings_are_listed_and_the_rest_still_checked(install) -> None:
    result = install.doctor(SLACK_SIGNING_SECRET="short")
    assert result.returncode == 1
    marks = statuses(result)
    assert marks["settings"] == "FAIL" and marks["database"] == "ok" and marks["worker"] == "ok"
    assert "SLACK_SIGNING_SECRET: is too short" in line_of(result, "settings")


def test_a_healthy_install_with_a_real_serve(install) -> None:
    """serve itself behind PUBLIC_BASE_URL, with its worker thread beating."""
    port = free_port()
    env = {**install.env, "PORT": str(port), "PUBLIC_BASE_URL": f"http://127.0.0.1:{port}"}
    with install.db.transaction() as session:
        session.query(WorkerHeartbeat).delete()
    process = subprocess.Popen([*command(), "serve", "--host", "127.0.0.1", "--deferred-work", "thread"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                               env=environment(**env), cwd=ROOT)
    try:
        wait_for_health(f"http://127.0.0.1:{port}/healthz", process)
        result = run_with("doctor", **env)
        for _ in range(50):  # the worker thread's first beat may follow the first answer by a moment
            if "worker: serve:" in result.stdout:
                break
            result = run_with("doctor", **env)
        assert result.returncode == 0, result.stdout
        assert line_of(result, "worker").startswith("ok    worker: serve:")
        assert f"http://127.0.0.1:{port}/healthz answers" in line_of(result, "public URL")
    finally:
        status, _, stderr = stop(process)
    assert status == 0, stderr
