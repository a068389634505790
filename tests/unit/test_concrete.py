"""The concrete semantics (seed 000, Fig. 2) and `is_stuck` (W-F9)."""

from __future__ import annotations

import pytest

from symcert.core.concrete import Env, State, head, is_stuck, run_concrete, step, trace
from symcert.lang.parser import parse
from symcert.lang.syntax import Assert, Fail, Skip


def final(source: str, max_steps: int = 10_000, **inputs: int) -> State:
    return run_concrete(State(Env.of(inputs), parse(source)), max_steps)


def test_env_defaults_to_zero_and_drops_zero_bindings():
    env = Env.of({"x": 3, "y": 0})
    assert env("x") == 3 and env("y") == 0 and env("z") == 0
    assert env == Env.of({"x": 3}) and env.update("x", 0) == Env()


def test_assignment_sequence_and_branches():
    s = final("x = a + 1; if x < 3 then y = 10 else y = 20 fi", a=1)
    assert s.env("x") == 2 and s.env("y") == 10 and s.prog == Skip()
    s = final("x = a + 1; if x < 3 then y = 10 else y = 20 fi", a=5)
    assert s.env("y") == 20


def test_while_loop_counts_steps():
    s = final("i = 0; while i < n do i = i + 1 od", n=4)
    assert s.env("i") == 4 and s.prog == Skip()
    # i = 0 (1) + seq-skip (1) + per iteration: enter, assign, seq-skip (3) + exit (1)
    assert s.steps == 2 + 3 * 4 + 1


def test_each_step_is_one_rule():
    s0 = State(Env(), parse("x = 1; y = 2"))
    s1 = step(s0)
    assert s1.env("x") == 1 and s1.prog == parse("skip; y = 2") and s1.steps == 1
    s2 = step(s1)
    assert s2.env == s1.env and s2.prog == parse("y = 2")


def test_failing_assert_becomes_a_stuck_fail_that_remembers_it():
    s = final("x = 1; assert x == 2; x = 3")
    assert is_stuck(s.prog) and s.env("x") == 1
    failing = head(s.prog)
    assert isinstance(failing, Fail) and isinstance(failing.origin, Assert)
    assert step(s) is None


def test_passing_assert_continues():
    s = final("x = 2; assert x == 2; x = 3")
    assert not is_stuck(s.prog) and s.env("x") == 3


@pytest.mark.parametrize("source, stuck", [
    ("fail", True), ("fail; skip", True), ("skip", False), ("skip; fail", False),
    ("x = 1", False), ("if true then fail else skip fi", False),
])
def test_is_stuck_iff_next_statement_is_fail(source, stuck):
    assert is_stuck(parse(source)) is stuck


def test_runs_are_bounded():
    s = final("while true do skip od", max_steps=100)
    assert s.steps == 100 and not is_stuck(s.prog)
    assert len(list(trace(State(Env(), parse("while true do skip od")), 7))) == 8
