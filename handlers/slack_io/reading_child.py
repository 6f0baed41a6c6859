"""An uploaded results file is read in a process of its own, with a memory limit and a time limit.

Why: every file is hostile until read. The readers measure a workbook before they materialise it
(rules/returns/workbook_guard.py), but a reader's bug, a layout nobody foresaw or a library that aborts when an
allocation fails must cost one child process, never `recount-bot serve` and every request it is answering. So
`ChildReader` (the reader `services.returns.upload` is handed) sends the downloaded bytes to a child and gets back
only a `rules.returns.outcome.ReadOutcome`: frozen dataclasses of strings and whole numbers.

How:

- multiprocessing's "forkserver" context. Not "fork": the web process has threads (the HTTP server's, the
  worker's, the listeners') and open database connections that a forked child must not inherit. Not a fresh
  "spawn" per upload: that imports the readers again each time; the fork server imports them once (preloaded)
  and forks a single-threaded copy of itself per read (about 30 ms each, measured on this machine).
- The child lowers its own RLIMIT_AS (address space) to `ParseLimits.memory_mib` before it reads: an allocation
  past it fails inside the child (a MemoryError, or an abort in a native library), never in `serve`.
- The parent waits on the pipe and on the child's sentinel, never past the deadline (`ParseLimits.seconds` for the
  whole upload, however many reads it takes); at the deadline it kills the child (SIGKILL: a reader stuck in
  native code does not answer SIGTERM). A child that exits without an answer, however it died, is reported. The
  child also sets an alarm a second past the deadline, so it ends even if `serve` is killed while it reads.
- What comes back is unpickled with an allow-list: rules' own classes and plain containers, nothing else, so a
  child whose memory a file managed to corrupt still cannot make the parent call anything.

Failures are `ReadAborted`: a sentence for the person naming both limits, e.g. "returns.xlsx could not be read
within 512 MiB / 60 s (it ran out of memory); nothing was saved."
"""
from __future__ import annotations

import io
import logging
import math
import multiprocessing
import pickle
import signal
import threading
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any, Callable, NoReturn

from rules.returns.outcome import ReadOutcome
from rules.returns.registry import READERS

log = logging.getLogger("recount_bot.upload_reading")

MIB = 1 << 20
DEFAULT_MEMORY_MIB = 512  # a county's statement of votes reads in tens of MiB; a statewide file in a few hundred
DEFAULT_SECONDS = 60  # a statewide file reads in a few seconds here; a file that takes a minute is not one
MEMORY_ENV, SECONDS_ENV = "UPLOAD_READ_MEMORY_MIB", "UPLOAD_READ_SECONDS"  # bot/settings.py reads them
# The least the setting accepts: the child starts with the readers it was forked with (some 30-100 MiB of address
# space, more under `serve`), and an ordinary county file needs tens of MiB more, held twice on its way in.
MIN_MEMORY_MIB = 128
TICK_SECONDS = 1.0  # how often `on_wait` hears about a read in progress (the modal is updated at most this often)
RESERVE_BYTES = 4 * MIB  # let go in the child when it runs out of memory, to say so with
MAX_ANSWER_BYTES = 1 << 30  # an outcome larger than this is not one a file within the read limits can give

_CONTEXT = multiprocessing.get_context("forkserver")
# Imported once in the fork server, so that each child starts with every reader in memory: the registry imports a
# reader when a file first needs it, and a child under its memory limit must not spend it compiling one.
# (The workbook libraries the readers import when they first meet a workbook are preloaded too.)
_CONTEXT.set_forkserver_preload(["rules.returns", "rules.returns.outcome", *READERS.values(), "rules.returns.workbook",
                                 "rules.returns.xls_guard", "python_calamine", "olefile", "rules.serialize",
                                 "handlers.slack_io.reading_child"])
_START_LOCK = threading.Lock()  # two uploads at once: one starts the fork server, the other waits for it


@dataclass(frozen=True)
class ParseLimits:
    """How much an upload's reading may take: memory of the child (MiB of address space) and time (seconds,
    for the whole upload: the strict read and, when it finds problems, the lenient one)."""

    memory_mib: int = DEFAULT_MEMORY_MIB
    seconds: int = DEFAULT_SECONDS

    @property
    def named(self) -> str:
        return f"{self.memory_mib:,} MiB / {self.seconds:,} s"


class ReadAborted(Exception):
    """The child did not answer: it ran out of memory or time, or died. `message` is for the person."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


# ------------------------------------------------------------------ the child
def _limit_memory(memory_mib: int) -> None:
    import resource

    limit = memory_mib * MIB
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


def read_in_child(answer: Connection, data: bytes, memory_mib: int, strict: bool, options: dict, *,
                  alarm_seconds: int = 0) -> None:
    """The child's whole job: limit its memory, read, send the outcome (or why it could not) and exit. At
    `alarm_seconds` it ends itself (SIGALRM), in case the parent that would have killed it died first."""
    if alarm_seconds:
        signal.alarm(alarm_seconds)
    from rules.returns.outcome import read_outcome

    # Made before the read: once an allocation has failed, the freed memory is not always given back in a form a
    # new object can use (the allocator keeps part-used arenas), so the answer "out of memory" is ready, and a
    # reserve is let go to send it with.
    out_of_memory = pickle.dumps(("memory", None))
    reserve = bytearray(RESERVE_BYTES)
    _limit_memory(memory_mib)
    outcome = message = None
    try:
        outcome = read_outcome(data, strict=strict, **options)
        message = pickle.dumps(("outcome", outcome), pickle.HIGHEST_PROTOCOL)
    except MemoryError:  # reading, or an outcome too large to send within the limit
        outcome = message = None
    del reserve
    answer.send_bytes(message if message is not None else out_of_memory)
    answer.close()


# ------------------------------------------------------------------ the parent
_ALLOWED_BUILTINS = frozenset({"frozenset", "set", "tuple", "list", "dict", "int", "str", "bytes", "float", "bool",
                               "complex", "slice", "range"})
_ALLOWED_MODULES = frozenset({"datetime", "decimal", "fractions", "collections"})


class _PlainData(pickle.Unpickler):
    """Only rules' own classes and plain containers: what a `ReadOutcome` is made of (see the module's doc)."""

    def find_class(self, module: str, name: str) -> Any:
        if module == "rules" or module.startswith("rules.") or module in _ALLOWED_MODULES or (
                module == "builtins" and name in _ALLOWED_BUILTINS) or (
                module == "copyreg" and name == "_reconstructor"):
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"{module}.{name} is not part of a read's outcome")


def _start(process) -> None:
    with _START_LOCK:
        process.start()


class ChildReader:
    """`services.returns.upload`'s reader for one upload: each call reads in a new child, all within one deadline.

    `on_wait(elapsed_seconds, limits)` is called about every TICK_SECONDS while a child reads (the modal's
    "Reading… 12 s"); `target` is the child's job (tests give one that dies or hangs)."""

    def __init__(self, limits: ParseLimits, file_name: str, *,
                 on_wait: Callable[[float, ParseLimits], None] | None = None,
                 target: Callable[..., None] = read_in_child) -> None:
        self.limits, self.file_name, self.on_wait, self.target = limits, file_name, on_wait, target
        self.started: float | None = None  # the first read's start: the deadline covers every read of the upload
        self.pids: list[int] = []  # the children started (a test kills one)

    def __call__(self, data: bytes, *, strict: bool, **options: Any) -> ReadOutcome:
        now = time.monotonic()
        if self.started is None:
            self.started = now
        deadline = self.started + self.limits.seconds
        theirs, ours = _CONTEXT.Pipe(duplex=False)
        # The child's own alarm, a second past the deadline: should this process die (a `serve` killed), nobody
        # would be left to kill the child, and the fork server does not outlive it (it watches this process).
        alarm = math.ceil(deadline - now) + 1
        process = _CONTEXT.Process(target=self.target, args=(ours, data, self.limits.memory_mib, strict, options),
                                   kwargs={"alarm_seconds": alarm}, name="recount-bot-upload-read", daemon=True)
        _start(process)
        ours.close()  # the child's end: when the child is gone, reading ours ends instead of waiting
        self.pids.append(process.pid or 0)
        try:
            return self._answer(theirs, process, deadline)
        finally:
            theirs.close()
            if process.is_alive():
                process.kill()
            process.join(5)
            process.close()

    def _answer(self, answer: Connection, process, deadline: float) -> ReadOutcome:
        next_tick = time.monotonic() + TICK_SECONDS
        while True:
            now = time.monotonic()
            if now >= deadline:
                process.kill()
                log.warning("reading %r took over %s s; its process %s was killed", self.file_name,
                            self.limits.seconds, process.pid)
                raise self._aborted("it took longer than that")
            ready = wait([answer, process.sentinel], timeout=max(0.0, min(deadline, next_tick) - now))
            if answer in ready:
                try:
                    raw = answer.recv_bytes(MAX_ANSWER_BYTES)
                except (EOFError, OSError):  # the child died before it answered
                    break
                try:
                    kind, outcome = _PlainData(io.BytesIO(raw)).load()
                except Exception:  # noqa: BLE001 - whatever it was, it is not an outcome
                    log.exception("the process reading %r answered with something other than an outcome",
                                  self.file_name)
                    raise self._aborted("its reader gave no usable answer") from None
                if kind == "memory":
                    log.warning("reading %r ran out of memory (%s MiB)", self.file_name, self.limits.memory_mib)
                    raise self._aborted("it ran out of memory")
                if kind != "outcome" or not isinstance(outcome, ReadOutcome):
                    log.error("the process reading %r answered %r, not an outcome", self.file_name, kind)
                    raise self._aborted("its reader gave no usable answer")
                return outcome
            if process.sentinel in ready and not answer.poll():
                break
            if time.monotonic() >= next_tick:
                next_tick += TICK_SECONDS
                if self.on_wait is not None and self.started is not None:
                    try:
                        self.on_wait(time.monotonic() - self.started, self.limits)
                    except Exception:  # telling the person how long it takes must not stop the read
                        log.exception("could not report the reading of %r", self.file_name)
        process.join(5)
        code = process.exitcode
        log.warning("the process reading %r exited without an answer (exit code %s)", self.file_name, code)
        self._died(code)

    def _died(self, code: int | None) -> NoReturn:
        if code is not None and code < 0:
            how = f"its reader was stopped by signal {-code}"
            if -code in (6, 9):  # SIGABRT: a native library whose allocation failed; SIGKILL: the kernel's OOM killer
                how += ", most likely for lack of memory"
        else:
            how = f"its reader stopped (exit code {code})"
        raise self._aborted(how)

    def _aborted(self, how: str) -> ReadAborted:
        return ReadAborted(f"{self.file_name} could not be read within {self.limits.named} ({how}); nothing was "
                           "saved. A file this heavy is not a survey of returns I can read here: check it is the "
                           "right file, or import it at the console (`recount-bot import`).")
