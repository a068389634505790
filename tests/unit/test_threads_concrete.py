"""The concrete semantics of threads (seed 003 §5, core/threads.py): a schedule runs one
interleaving; spawn, get and await; deadlocks and gets of non-futures are bugs; `exec`."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from symcert.core.concrete import Env
from symcert.core.threads import (
    ScheduleError, deadlocked, enabled, initial_config, run_schedule, stuck_at,
)
from symcert.lang.parser import parse

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "threads" / "issue_two_bugs.imp"


def _end(text: str, schedule: tuple[int, ...] = (), **inputs: int):
    *_, (_, last) = run_schedule(initial_config(Env.of(inputs), parse(text)), schedule, 500)
    return last


def test_the_default_schedule_runs_the_lowest_thread_that_can_step():
    """Main runs to `get f` first, then worker 1 blocks at its await (turn is 2): deadlock."""
    last = _end(EXAMPLE.read_text())
    fail = deadlocked(last)
    assert fail is not None and fail.pos.line == 13
    assert "deadlock" in fail.what()
    assert last.env("count") == 3 and last.env("$2") == 20


def test_a_schedule_shows_the_lost_update():
    """Both workers read count before either writes it: the assertion fails with count 2."""
    last = _end(EXAMPLE.read_text(), (0, 0, 0, 0, 0, 1, 2, 1, 2, 1, 1, 0, 2, 2, 0, 0, 0))
    fail = stuck_at(last.threads)
    assert fail is not None and fail.what().startswith("assertion")
    assert (last.env("count"), last.env("v"), last.env("done")) == (2, 10, 2)


def test_a_good_schedule_finishes():
    last = _end(EXAMPLE.read_text(), (0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 2, 2, 2, 2, 0, 0, 0))
    assert all(t.finished for t in last.threads) and stuck_at(last.threads) is None
    assert (last.env("count"), last.env("v")) == (3, 10)


def test_a_schedule_naming_a_thread_that_cannot_step_is_refused():
    with pytest.raises(ScheduleError, match="thread 1 cannot step"):
        _end(EXAMPLE.read_text(), (1,))


def test_locals_are_per_thread_and_globals_shared():
    last = _end("proc w(k) begin var t = k; s = s + t; return t * 2 end\n"
                "f = spawn w(3); g = spawn w(4); a = get f; b = get g", (0, 0, 1, 2, 1, 2))
    assert (last.env("s"), last.env("a"), last.env("b"), last.env("t")) == (7, 6, 8, 0)


def test_await_then_runs_its_body_in_the_same_step():
    c = initial_config(Env(), parse("m = 0; await m == 0 then m = 1; n = 5 end; assert n == 5"))
    steps = list(run_schedule(c, (), 10))
    assert [i for i, _ in steps] == [None, 0, 0, 0]
    assert steps[2][1].env("m") == 1 and steps[2][1].env("n") == 5


def test_get_of_a_non_future_is_a_bug_and_a_future_starts_at_zero():
    text = ("proc p() begin return 7 end\n"
            "if x > 0 then f = spawn p() else skip fi; v = get f")
    fail = stuck_at(_end(text).threads)
    assert fail is not None and "non-future" in fail.what()
    assert _end(text, f=3).env("v") == 0  # an input cannot make f a future
    assert _end(text, x=1).env("v") == 7


def test_a_thread_blocked_by_assume_is_no_deadlock():
    last = _end("proc p() begin assume x > 0 end\nf = spawn p(); v = get f")
    assert not enabled(last) and deadlocked(last) is None


def test_a_failure_in_any_thread_stops_the_program():
    last = _end("proc p() begin assert x > 0 end\nspawn p(); y = 1; y = 2", (0, 1))
    assert stuck_at(last.threads) is not None and not enabled(last)
    assert last.env("y") == 0


@pytest.mark.parametrize("schedule, code, words", [
    ("", 1, "deadlock"),
    ("0,0,0,0,0,1,2,1,2,1,1,0,2,2,0,0,0", 1, "assertion"),
    ("0,0,0,0,1,1,1,1,0,0,2,2,2,2,0,0,0", 0, "finished"),
    ("2", 2, "cannot step"),
])
def test_exec_runs_a_schedule(schedule, code, words):
    argv = [sys.executable, "-m", "symcert", "exec", str(EXAMPLE)]
    done = subprocess.run(argv + (["--schedule", schedule] if schedule else []),
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == code, done.stdout + done.stderr
    assert words in done.stdout


def test_a_thread_s_last_step_is_shown_as_its_end():
    """The step from a thread's finished program `skip` (no place in the source) ends it."""
    from symcert.cli.commands.threads import interleaving
    from symcert.core.concrete import head
    from symcert.lang.syntax import Skip
    p = parse("proc w() begin y = 1 end\nspawn w()")
    first = head(p)
    assert interleaving([(0, first), (1, Skip())]) == [
        f"  thread 0 at 2:1: {first}", "  thread 1 ends"]


def test_run_trace_on_a_thread_bug_shows_its_interleaving():
    """`run --trace` on a bug of threads: the interleaving is its trace (an internal error,
    exit 70, before)."""
    done = subprocess.run([sys.executable, "-m", "symcert", "run", "--trace",
                           str(EXAMPLE.parent / "counter_buggy.imp")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "interleaving:" in done.stdout and "thread 2 ends" in done.stdout
