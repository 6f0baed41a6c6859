"""One read of a results file as a plain value: what a child process with a memory limit sends back.

The Slack upload is to be parsed outside the web process (issue 21, item 5), so that a file that exhausts a
limit, or a reader that dies, takes down only its own process. `read_outcome` is that process's whole job:
bytes and limits in, a `ReadOutcome` out, never an exception (a ReturnsError becomes its problems), and the
outcome pickles (every field is a frozen dataclass, tuple, dict, str or int), so it crosses a pipe as is.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.contest import Returns
from rules.returns import parse_returns, read_returns
from rules.returns.limits import DEFAULT_LIMITS, ReadLimits
from rules.returns.problems import Problem, ReturnsError


@dataclass(frozen=True)
class ReadOutcome:
    """returns: what the file lets us decide (None when it cannot be read, or a strict read found problems);
    problems: why not, each with its location; strict: whether every contest had to be complete (recording)."""

    returns: Returns | None
    problems: tuple[Problem, ...] = ()
    strict: bool = False

    @property
    def ok(self) -> bool:
        return self.returns is not None and not self.problems


def read_outcome(data: bytes | str, *, strict: bool = False, limits: ReadLimits = DEFAULT_LIMITS,
                 **options: Any) -> ReadOutcome:
    """`parse_returns` (strict) or `read_returns` with `options` (format, seats, election_kind, file_name).

    Running out of memory is not a problem of the file but of the process reading it: the readers turn any error
    of theirs into a ReturnsError ("internal error"), so a MemoryError behind one is raised again as itself, for
    the caller to name the memory limit (handlers/slack_io/reading_child.py)."""
    try:
        read = parse_returns if strict else read_returns
        return ReadOutcome(read(data, limits=limits, **options), (), strict)
    except ReturnsError as exc:
        if isinstance(exc.__cause__, MemoryError):
            raise exc.__cause__ from None
        return ReadOutcome(None, tuple(exc.problems), strict)
