#!/usr/bin/env python3
"""Install recount-bot as docs/admin/deploying.md does and start it, the way an office's server would.

A clean virtual environment, `pip install <source>` with no test extras (a test-only dependency once hid that a
real install could not start), then from a directory outside the source tree (so only what was installed is
imported): `db upgrade`, `admin grant`, `import` and `check` of the example returns, `backup`, `worker --once`,
`serve` answering /healthz, and `doctor` with all its checks holding; the install holds no rehearsal tooling
(sandbox/) and `run` without Slack credentials says so in one line. Slack is the local Web API stand-in,
run by the development environment (it is rehearsal tooling, not part of the install). Runs on SQLite, and
on PostgreSQL too when TEST_DATABASE_URL names one (in a database of its own, dropped afterwards).

    python3 .ci/production_install.py      (from .ci/run; sets up the development environment itself)
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "xoxb-production-install"
SECRET = "production-install-signing-secret"
OFFICIAL = "U0OFFICIAL1"
APPROVALS = "C0APPROVALS"


def _in_development_environment() -> None:
    """Re-run this script with the development environment's Python (it has the Slack stand-in)."""
    sys.path.insert(0, str(ROOT))
    import dev

    python = dev.ensure_environment()
    if Path(sys.prefix).resolve() != python.parent.parent.resolve():
        os.execv(str(python), [str(python), __file__, *sys.argv[1:]])


def _step(title: str) -> None:
    print(f"production install: {title}", flush=True)


def _run(venv: Path, work: Path, env: dict[str, str], *args: str, expect: int = 0) -> str:
    result = subprocess.run([str(venv / "bin" / "recount-bot"), *args], cwd=work, env=env, capture_output=True,
                            text=True, timeout=300)
    shown = " ".join(args)
    if result.returncode != expect or "Traceback" in result.stderr:
        sys.exit(f"production install: `recount-bot {shown}` exited {result.returncode} (expected {expect})\n"
                 f"{result.stdout}\n{result.stderr}")
    _step(f"`recount-bot {shown}` exited {result.returncode}")
    return result.stdout


def _install(venv: Path) -> None:
    _step(f"python3 -m venv {venv}; pip install {ROOT} (no extras)")
    subprocess.run([sys.base_prefix + "/bin/python3", "-m", "venv", str(venv)], check=True)
    subprocess.run([str(venv / "bin" / "pip"), "install", "--quiet", "--disable-pip-version-check", str(ROOT)],
                   check=True)
    for tooling, why in (("pytest", "a test extra leaked into it"),
                         ("sandbox", "the rehearsal tooling is shipped with the product")):
        probe = subprocess.run([str(venv / "bin" / "python"), "-c", f"import {tooling}"], capture_output=True,
                               cwd=venv)
        if probe.returncode == 0:
            sys.exit(f"production install: {tooling} is importable in the clean install; {why}")


def _no_sandbox(venv: Path, work: Path) -> None:
    """Without Slack credentials `run` would start the offline sandbox, which an install does not have: one clear
    line and exit status 1, not an ImportError."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "DATABASE_URL", "TEST_DATABASE"))}
    said = subprocess.run([str(venv / "bin" / "recount-bot"), "run"], cwd=work, env=env, capture_output=True,
                          text=True, timeout=120)
    if said.returncode != 1 or "Traceback" in said.stderr or "python3 dev.py run" not in said.stderr:
        sys.exit(f"production install: `recount-bot run` without credentials exited {said.returncode}:\n"
                 f"{said.stdout}\n{said.stderr}")
    _step("`recount-bot run` without Slack credentials says the sandbox is rehearsal tooling, exit 1")


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_for_health(url: str, process: subprocess.Popen, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            sys.exit(f"production install: serve exited with {process.returncode}:\n{process.stderr.read()}")
        try:
            with urllib.request.urlopen(url, timeout=5) as answer:
                if answer.status == 200:
                    return
        except (OSError, urllib.error.HTTPError):
            pass
        time.sleep(0.2)
    sys.exit(f"production install: {url} did not answer 200 within {timeout:.0f} s")


def _set_approvals_channel(venv: Path, work: Path, env: dict[str, str], team: str) -> None:
    """What the official does once in Slack (the office's settings): done here through the installed code."""
    code = ("from services.office import access; from services.services import Services; "
            "from storage.db import Database; from storage.models import Role; import os; "
            "services = Services(Database(os.environ['DATABASE_URL'])); "
            f"access.update_settings(services, team_id={team!r}, actor={OFFICIAL!r}, actor_role=Role.OFFICIAL, "
            f"changes={{'approvals_channel': {APPROVALS!r}}})")
    subprocess.run([str(venv / "bin" / "python"), "-c", code], cwd=work, env=env, check=True)


def exercise(venv: Path, work: Path, database_url: str, slack_base_url: str, team: str) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "DATABASE_URL", "TEST_DATABASE"))}
    port = _free_port()
    env.update(DATABASE_URL=database_url, SLACK_BOT_TOKEN=TOKEN, SLACK_SIGNING_SECRET=SECRET,
               SLACK_API_BASE_URL=slack_base_url, PORT=str(port), PUBLIC_BASE_URL=f"http://127.0.0.1:{port}")
    _step(f"database {database_url}")
    # One district of the example (the example holds four local governments; an import is one election).
    example = (ROOT / "examples" / "survey-of-returns.csv").read_text(encoding="utf-8").splitlines()
    returns = str(work / "bear-creek.csv")
    Path(returns).write_text("\n".join([example[0], *(r for r in example if r.startswith("Bear Creek"))]) + "\n",
                             encoding="utf-8")
    _run(venv, work, env, "db", "upgrade")
    _run(venv, work, env, "admin", "grant", "--team", team, "--user", OFFICIAL, "--role", "official")
    _set_approvals_channel(venv, work, env, team)
    verdicts = _run(venv, work, env, "check", returns, expect=0)
    if "automatic recount" not in verdicts:
        sys.exit(f"production install: `check` gave no verdicts:\n{verdicts}")
    _run(venv, work, env, "import", returns, "--election-date", "2027-05-04",
         "--name", "Regular Special District Election", "--team", team,
         "--local-government", "Bear Creek Fire Protection District", "--governing-body", "Board of Directors")
    _run(venv, work, env, "backup", str(work / f"backup-{port}.json"))
    _run(venv, work, env, "audit", "verify")
    _run(venv, work, env, "worker", "--once")
    serve = subprocess.Popen([str(venv / "bin" / "recount-bot"), "serve", "--host", "127.0.0.1"], cwd=work, env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        _wait_for_health(f"http://127.0.0.1:{port}/healthz", serve)
        _step("serve answers /healthz with 200")
        report = _run(venv, work, env, "doctor")
        _step(report.strip().splitlines()[-1])
    finally:
        serve.send_signal(signal.SIGTERM)
        try:
            serve.wait(timeout=30)
        except subprocess.TimeoutExpired:
            serve.kill()
            sys.exit("production install: serve did not stop on SIGTERM within 30 s")
    if serve.returncode != 0:
        sys.exit(f"production install: serve exited {serve.returncode} on SIGTERM:\n{serve.stderr.read()}")
    _step("serve stopped cleanly on SIGTERM")


def _postgres_database(url: str):
    """A database of its own on the server TEST_DATABASE_URL names, and how to drop it."""
    import sqlalchemy

    name = f"recount_install_{os.getpid()}"
    admin = sqlalchemy.create_engine(url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}"')
        connection.exec_driver_sql(f'CREATE DATABASE "{name}"')

    def drop() -> None:
        with admin.connect() as connection:
            connection.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.dispose()

    return sqlalchemy.make_url(url).set(database=name).render_as_string(hide_password=False), drop


def main() -> int:
    _in_development_environment()
    from bot.slack.scopes import BOT_SCOPES
    from sandbox.slack_standin import SlackStandIn

    with tempfile.TemporaryDirectory(prefix="recount-install-") as tmp:
        work = Path(tmp)
        venv = work / "venv"
        _install(venv)
        _no_sandbox(venv, work)
        with SlackStandIn(tokens={TOKEN}, scopes=BOT_SCOPES,
                          users=[{"id": OFFICIAL, "name": "official", "is_admin": True}],
                          channels=[{"id": APPROVALS, "name": "approvals"}]) as slack:
            team = slack.state.workspace.team_id
            slack.state.set_bot_membership(APPROVALS, True)
            exercise(venv, work, f"sqlite:///{work / 'recount-bot.sqlite3'}", slack.base_url, team)
            postgres = os.environ.get("TEST_DATABASE_URL", "")
            if postgres.startswith("postgresql"):
                url, drop = _postgres_database(postgres)
                try:
                    exercise(venv, work, url, slack.base_url, team)
                finally:
                    drop()
    _step("every step held")
    return 0


if __name__ == "__main__":
    sys.exit(main())
