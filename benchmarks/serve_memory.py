"""Peak memory of `recount-bot serve` under one large unsigned POST (issue 14, item 4). Not a test: a figure.

    .venv/bin/python -m benchmarks.serve_memory                 # 200 MB, once
    .venv/bin/python -m benchmarks.serve_memory --mb 50 --repeat 3
    .venv/bin/python -m benchmarks.serve_memory --body json --log-level WARNING

What it does: starts a Slack Web API stand-in in this process and the real `recount-bot serve` (the console
script, `--deferred-work process`, an SQLite file in a temporary directory) as a child; waits for /healthz;
reads the serve process's `VmHWM` (its peak resident set) and `VmRSS` from /proc/<pid>/status; then sends a
POST /slack/events with `Content-Length: <N MB>` and no signature, streaming the body in 1 MiB pieces from a
raw socket (the whole body never exists in this process either), and reads the answer whenever it comes:
a server that refuses early answers and closes while the client is still sending, which the client sees as
a reset or a broken pipe. It then reads `VmHWM` again, checks /healthz still answers, and stops serve with
SIGTERM. `VmHWM` is the kernel's high-water mark of the process's resident memory, so a peak that lasted
only a moment still counts (see benchmarks/README.md on why not `ru_maxrss`). serve logs at INFO, as it runs by
default: before the request gate, Bolt wrote an unsigned body whole into the log at INFO, which cost memory too.
Linux only.

Prints one line per run and the figures as JSON on the last line.
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SECRET = "memory-bench-signing-secret"
TOKEN = "xoxb-memory-bench"
MIB = 1024 * 1024


def _status(pid: int) -> dict[str, int]:
    """VmHWM and VmRSS of a process, in KiB."""
    values = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, rest = line.partition(":")
        if key in ("VmHWM", "VmRSS"):
            values[key] = int(rest.split()[0])
    return values


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _healthy(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as response:
            return response.status == 200
    except OSError:
        return False


def _post_unsigned(port: int, size: int, kind: str) -> tuple[str, int, float]:
    """Stream an unsigned POST of `size` bytes; the status line (or what ended the exchange), the bytes sent.

    `form`: a slash-command-like form (`text=aaaa...`), which the old server parsed whole and then checked the
    signature of; `json`: `{aaaa...`, which it failed to parse (a 500 and a traceback) before any check."""
    started = time.monotonic()
    sent = 0
    status = "no answer"
    with socket.create_connection(("127.0.0.1", port), timeout=120) as sock:
        content_type = "application/json" if kind == "json" else "application/x-www-form-urlencoded"
        sock.sendall(f"POST /slack/events HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: {content_type}\r\n"
                     f"Content-Length: {size}\r\n\r\n".encode())
        first = (b"{" if kind == "json" else b"text=") + b"a" * MIB
        chunk = b"a" * MIB
        try:
            while sent < size:
                piece = (first if sent == 0 else chunk)[: min(MIB, size - sent)]
                sock.sendall(piece)
                sent += len(piece)
        except (BrokenPipeError, ConnectionResetError) as exc:
            status = f"sending stopped: {type(exc).__name__}"
        try:
            answer = sock.recv(4096)
            if answer:
                status = answer.split(b"\r\n", 1)[0].decode("latin-1")
        except (ConnectionResetError, socket.timeout) as exc:
            status = status if status != "no answer" else f"reading: {type(exc).__name__}"
    return status, sent, time.monotonic() - started


def run_once(size: int, kind: str, log_level: str) -> dict:
    sys.path.insert(0, str(ROOT))
    from sandbox.slack_standin import SlackStandIn

    script = Path(sys.executable).with_name("recount-bot")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "bot.cli"]
    port = _free_port()
    with SlackStandIn(tokens={TOKEN}) as slack, tempfile.TemporaryDirectory() as tmp:
        env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "PUBLIC_BASE_URL")}
        env.update(SLACK_BOT_TOKEN=TOKEN, SLACK_SIGNING_SECRET=SECRET, SLACK_API_BASE_URL=slack.base_url,
                   PORT=str(port), DATABASE_URL=f"sqlite:///{Path(tmp) / 'bot.sqlite3'}", LOG_LEVEL=log_level)
        log_path = Path(tmp) / "serve.log"
        log_file = log_path.open("w")
        process = subprocess.Popen([*command, "serve", "--host", "127.0.0.1"], cwd=tmp, env=env,
                                   stdout=subprocess.DEVNULL, stderr=log_file, text=True)
        try:
            deadline = time.monotonic() + 60
            while not _healthy(port):
                if process.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit(f"serve did not start: {log_path.read_text()[-2000:]}")
                time.sleep(0.2)
            time.sleep(0.5)
            before = _status(process.pid)
            status, sent, seconds = _post_unsigned(port, size, kind)
            time.sleep(1.0)  # let a request still being handled finish
            after = _status(process.pid)
            healthy = _healthy(port)
        finally:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            log_file.close()
        log_bytes = log_path.stat().st_size
        with log_path.open(errors="replace") as log:  # line by line: an old server logged the whole body
            traceback = False
            refusals = []
            for line in log:
                traceback = traceback or "Traceback" in line
                if "refused" in line or "Invalid request signature" in line:
                    refusals.append(line[:300].rstrip())
    return {"body_mb": size / MIB, "body": kind, "answer": status, "sent_mb": round(sent / MIB, 1),
            "seconds": round(seconds, 2),
            "vmhwm_before_mb": round(before["VmHWM"] / 1024, 1), "vmhwm_after_mb": round(after["VmHWM"] / 1024, 1),
            "vmrss_after_mb": round(after["VmRSS"] / 1024, 1), "healthz_after": healthy,
            "traceback_in_log": traceback, "log_bytes": log_bytes, "log_lines_about_it": refusals[-3:]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="serve_memory", description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=200, help="size of the unsigned body in MiB (default 200)")
    parser.add_argument("--body", choices=("form", "json"), default="form",
                        help="a form body (`text=aaa...`, default) or a JSON-looking one (`{aaa...`)")
    parser.add_argument("--log-level", default="INFO", help="serve's LOG_LEVEL (default INFO, as serve runs)")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args(argv)
    if not Path("/proc/self/status").exists():
        print("serve_memory: needs Linux (/proc/<pid>/status)", file=sys.stderr)
        return 2
    runs = []
    for _ in range(args.repeat):
        result = run_once(args.mb * MIB, args.body, args.log_level)
        runs.append(result)
        print(f"{result['body_mb']:.0f} MiB unsigned {result['body']} POST: {result['answer']!r} after "
              f"{result['sent_mb']} MiB sent, {result['seconds']} s; "
              f"serve VmHWM {result['vmhwm_before_mb']} -> {result['vmhwm_after_mb']} MiB; "
              f"/healthz after: {result['healthz_after']}; traceback logged: {result['traceback_in_log']}; "
              f"log: {result['log_bytes']:,} bytes")
    print(json.dumps(runs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
