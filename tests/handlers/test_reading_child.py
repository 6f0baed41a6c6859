"""An upload's file is read in a child process with a memory and a time limit: what comes back is the read's outcome,
or a sentence naming both limits; a child that dies, hangs or is killed is reported, never waited on for ever."""
from __future__ import annotations

import os
import pickle
import signal
import threading
import time
from pathlib import Path

import pytest

from handlers.slack_io.reading_child import ChildReader, ParseLimits, ReadAborted, read_in_child
from rules.returns.outcome import read_outcome

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "returns" / "dominion_sovc_siskiyou_2025.xlsx"


# Children's jobs for the tests, at module level: the fork server imports them by name.
def hang(answer, data, memory_mib, strict, options, **_) -> None:
    time.sleep(120)


def answer_with_a_call(answer, data, memory_mib, strict, options, **_) -> None:
    answer.send_bytes(pickle.dumps(("outcome", os.getpid)))  # a function, not data: must never be called


def answer_with_a_number(answer, data, memory_mib, strict, options, **_) -> None:
    answer.send_bytes(pickle.dumps(("outcome", 42)))  # plain data, but not a read's outcome


def allocate(answer, data, memory_mib, strict, options, **_) -> None:
    from handlers.slack_io import reading_child

    reading_child._limit_memory(memory_mib)
    try:
        hoard = bytearray(2 * memory_mib << 20)  # twice the limit
        answer.send_bytes(pickle.dumps(("outcome", len(hoard))))
    except MemoryError:
        answer.send_bytes(pickle.dumps(("memory", None)))


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    try:  # a zombie (exited, not yet reaped) is gone too
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(") ", 1)[1].startswith("Z")
    except FileNotFoundError:
        return True


def test_a_workbook_is_read_in_another_process_and_comes_back_as_read_here() -> None:
    data = FIXTURE.read_bytes()
    reader = ChildReader(ParseLimits(), "siskiyou.xlsx")
    outcome = reader(data, strict=False, file_name="siskiyou.xlsx")
    [pid] = reader.pids
    assert pid != os.getpid()
    assert outcome == read_outcome(data, strict=False, file_name="siskiyou.xlsx")
    assert outcome.returns is not None and outcome.returns.contests


def test_a_refusal_of_the_readers_comes_back_as_problems() -> None:
    outcome = ChildReader(ParseLimits(), "results.csv")(b"contest,choice,seats\nBoard,Alice,1\n", strict=True)
    assert outcome.returns is None
    assert "missing column 'votes'" in str(outcome.problems[0])


def test_a_child_killed_mid_read_is_reported_not_waited_on() -> None:
    reader = ChildReader(ParseLimits(seconds=60), "county.xlsx", target=hang)

    def kill_when_started() -> None:
        deadline = time.monotonic() + 20
        while not reader.pids and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.3)
        os.kill(reader.pids[0], signal.SIGKILL)

    killer = threading.Thread(target=kill_when_started)
    killer.start()
    started = time.monotonic()
    with pytest.raises(ReadAborted) as aborted:
        reader(b"contest,choice,votes\n", strict=True)
    killer.join()
    assert time.monotonic() - started < 15  # reported at once, not at the time limit
    assert aborted.value.message == (
        "county.xlsx could not be read within 512 MiB / 60 s (its reader was stopped by signal 9, most likely for "
        "lack of memory); nothing was saved. A file this heavy is not a survey of returns I can read here: check "
        "it is the right file, or import it at the console (`recount-bot import`).")


def test_a_read_past_the_time_limit_is_stopped_and_its_process_killed() -> None:
    waits: list[float] = []
    reader = ChildReader(ParseLimits(seconds=2), "slow.csv", target=hang, on_wait=lambda s, _: waits.append(s))
    started = time.monotonic()
    with pytest.raises(ReadAborted, match=r"^slow\.csv could not be read within 512 MiB / 2 s \(it took longer "
                                          r"than that\); nothing was saved"):
        reader(b"contest,choice,votes\n", strict=True)
    assert 2 <= time.monotonic() - started < 8
    assert _gone(reader.pids[0])
    assert waits and all(0.5 < s < 3 for s in waits)  # told about every second while it read


def test_the_time_limit_covers_every_read_of_one_upload() -> None:
    reader = ChildReader(ParseLimits(seconds=2), "slow.csv", target=hang)
    with pytest.raises(ReadAborted):
        reader(b"", strict=True)
    started = time.monotonic()
    with pytest.raises(ReadAborted, match="took longer"):
        reader(b"", strict=False)  # the lenient read after the strict one: no new two seconds
    assert time.monotonic() - started < 2


def test_a_child_out_of_memory_is_named_with_the_limit() -> None:
    reader = ChildReader(ParseLimits(memory_mib=256), "huge.csv", target=allocate)
    with pytest.raises(ReadAborted, match=r"^huge\.csv could not be read within 256 MiB / 60 s \(it ran out of "
                                          r"memory\); nothing was saved"):
        reader(b"", strict=True)


def test_the_real_reader_runs_out_of_memory_in_the_child_not_here() -> None:
    rows = b"".join(b"Board of Directors %d,Candidate %d,%d\n" % (i % 50, i, i) for i in range(600_000))
    data = b"contest,choice,votes\n" + rows  # about 27 MB of CSV: held twice on its way in, and then read
    with pytest.raises(ReadAborted, match=r"within 64 MiB / 60 s \(it ran out of memory\)"):
        ChildReader(ParseLimits(memory_mib=64), "big.csv", target=read_in_child)(data, strict=False)
    assert ChildReader(ParseLimits(), "big.csv")(data, strict=False).returns is not None  # within the default


def test_only_plain_data_comes_back_from_the_child() -> None:
    with pytest.raises(ReadAborted, match="its reader gave no usable answer"):
        ChildReader(ParseLimits(), "odd.csv", target=answer_with_a_call)(b"", strict=True)
    with pytest.raises(ReadAborted, match="its reader gave no usable answer"):
        ChildReader(ParseLimits(), "odd.csv", target=answer_with_a_number)(b"", strict=True)


def test_a_reader_ends_itself_at_its_alarm_when_nobody_is_left_to_kill_it() -> None:
    """`serve` killed mid-read leaves nobody to kill the child: its own alarm, set before it reads, ends it."""
    from handlers.slack_io import reading_child

    rows = b"".join(b"Board of Directors %d,Candidate %d,%d\n" % (i % 50, i, i) for i in range(300_000))
    theirs, ours = reading_child._CONTEXT.Pipe(duplex=False)
    child = reading_child._CONTEXT.Process(target=read_in_child,
                                           args=(ours, b"contest,choice,votes\n" + rows, 512, True, {}),
                                           kwargs={"alarm_seconds": 1})  # the read takes seconds
    started = time.monotonic()
    child.start()
    ours.close()
    child.join(20)  # nobody kills it
    assert child.exitcode == -signal.SIGALRM and time.monotonic() - started < 4
    with pytest.raises(EOFError):  # it never answered
        theirs.recv_bytes()
