"""What a burst of `/recount check` leaves unanswered when `serve`'s deferred-work child is killed in it.

    python -m benchmarks.ack_child_kill [--checks 2000] [--clients 20] [--kill-after 4] [--quiet 30]

The fault of issue 14, item 11, replayed: a real `recount-bot serve` subprocess (SQLite in a temporary
directory, examples/survey-of-returns.csv imported), the Slack stand-in in this process, --checks signed
slash commands from --clients threads, each typed in a channel of its own so each answer is told apart. The
child is killed with SIGKILL --kill-after seconds after the burst began. Then it waits until every command is
answered or its person told, or until nothing new has arrived for --quiet seconds.

Reports: acknowledged (HTTP 200), answered once, answered more than once, told it was interrupted,
neither (lost), and the seconds from the burst's start to the last answer. Exit 1 if any was lost or answered
twice. Runs against whichever tree it is in (`cd` to another checkout to measure that one).
"""
from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEAM, CLERK, MAIN = "T0BENCH01", "U0CLERK01", "C0GENERAL"
SECRET, TOKEN = "bench-child-kill-signing-secret", "xoxb-bench-child-kill"
INTERRUPTED = "was interrupted"


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "bot.cli", *args]


def _env(database_url: str, api: str, port: int) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "DATABASE_URL"))}
    env.update(SLACK_BOT_TOKEN=TOKEN, SLACK_SIGNING_SECRET=SECRET, SLACK_API_BASE_URL=api, DATABASE_URL=database_url,
               PORT=str(port), PYTHONPATH=str(ROOT))
    return env


def _post(base: str, slack, channel: str) -> int:
    from sandbox import payloads

    fields = payloads.slash_command(
        command="/recount", text="check", team_id=TEAM, team_domain="bench", channel_id=channel,
        channel_name=channel.lower(), user_id=CLERK, user_name="clerk",
        response_url=slack.issue_response_url(channel=channel, user=CLERK), trigger_id=slack.issue_trigger_id(CLERK))
    body = payloads.form_body(fields)
    request = urllib.request.Request(f"{base}/slack/events", data=body, method="POST",
                                     headers=payloads.signed_headers(SECRET, body))
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status
    except OSError:
        return -1


def _child_of(pid: int) -> int | None:
    listed = subprocess.run(["ps", "-ww", "-o", "pid=,args=", "--ppid", str(pid)], capture_output=True,
                            text=True).stdout.splitlines()
    found = [int(line.split()[0]) for line in listed if "spawn_main" in line and "resource_tracker" not in line]
    return found[0] if found else None


def _tally(slack, channels: list[str], verdict: str) -> dict[str, int]:
    told = {m["channel"] for m in slack.state.ephemeral_messages(CLERK) if INTERRUPTED in (m.get("text") or "")}
    counts = {"answered once": 0, "answered once and told": 0, "told (not answered)": 0,
              "answered more than once": 0, "lost": 0}
    for channel in channels:
        answers = sum(m.get("text") == verdict for m in slack.state.messages(channel))
        key = ("answered more than once" if answers > 1 else
               ("answered once and told" if channel in told else "answered once") if answers else
               "told (not answered)" if channel in told else "lost")
        counts[key] += 1
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.ack_child_kill", description=__doc__.split("\n")[0])
    parser.add_argument("--checks", type=int, default=2000)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--kill-after", type=float, default=4.0)
    parser.add_argument("--quiet", type=float, default=30.0)
    parser.add_argument("--repeat", type=int, default=1, help="accepted for `python -m benchmarks --repeat`; unused")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from sandbox.slack_standin import SlackStandIn, Workspace

    with tempfile.TemporaryDirectory(prefix="recount-kill-") as tmp, SlackStandIn(
            tokens={TOKEN}, users=[{"id": CLERK, "name": "clerk", "is_admin": True}],
            workspace=Workspace(team_id=TEAM)) as slack:  # the bot token's workspace: the one office
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        env = _env(f"sqlite:///{Path(tmp) / 'bench.sqlite3'}", slack.base_url, port)
        subprocess.run(_cli("import", str(ROOT / "examples" / "survey-of-returns.csv"), "--election-date",
                            "2026-11-03", "--name", "Regular Special District Election", "--local-government",
                            "Front Range Districts", "--governing-body", "Board of Directors", "--team", TEAM),
                       env=env, cwd=ROOT, check=True, capture_output=True, timeout=300)
        log_path = Path(tmp) / "serve.log"
        with log_path.open("w") as log_file:
            server = subprocess.Popen(_cli("serve", "--host", "127.0.0.1"), env=env, cwd=ROOT,
                                      stdout=subprocess.DEVNULL, stderr=log_file)
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 120
            while True:
                try:
                    with urllib.request.urlopen(f"{base}/healthz", timeout=2):
                        break
                except OSError:
                    if time.monotonic() > deadline or server.poll() is not None:
                        raise SystemExit(f"serve did not start: {log_path.read_text()}") from None
                    time.sleep(0.2)
            assert _post(base, slack, MAIN) == 200  # the official, the cases and their cards
            verdict = slack.wait_for("chat.postMessage", count=3, timeout=120)[0].args["text"]
            time.sleep(2)
            channels = [f"C0KILL{i:05d}" for i in range(args.checks)]
            statuses: list[int] = []
            began = time.monotonic()

            def client(mine: list[str]) -> None:
                got = [_post(base, slack, channel) for channel in mine]
                statuses.extend(got)  # one call per thread: atomic

            senders = [threading.Thread(target=client, args=(channels[i::args.clients],)) for i in range(args.clients)]
            for sender in senders:
                sender.start()
            time.sleep(max(0.0, began + args.kill_after - time.monotonic()))
            child = _child_of(server.pid)
            at_kill = _tally(slack, channels, verdict)
            before_kill = sum(at_kill.values()) - at_kill["lost"]
            os.kill(child, signal.SIGKILL)
            print(f"killed the deferred-work process {child} {time.monotonic() - began:.1f} s into the burst, "
                  f"{before_kill} answered by then", file=sys.stderr, flush=True)
            for sender in senders:
                sender.join()
            last, last_change, counts = None, time.monotonic(), {}
            while time.monotonic() - last_change < args.quiet:
                counts = _tally(slack, channels, verdict)
                if counts != last:
                    last, last_change = counts, time.monotonic()
                if counts["lost"] == 0:
                    break
                time.sleep(1)
            finished = last_change - began
        finally:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(60)
            except subprocess.TimeoutExpired:
                server.kill()
    acked = sum(status == 200 for status in statuses)
    print(f"{args.checks} checks from {args.clients} clients; child killed {args.kill_after:g} s in")
    print(f"acknowledged (HTTP 200): {acked}")
    for name, count in counts.items():
        print(f"{name}: {count}")
    print(f"last answer {finished:.1f} s after the burst began")
    return 1 if counts["lost"] or counts["answered more than once"] else 0


if __name__ == "__main__":
    sys.exit(main())
