"""The bug finder (seed 000, Figs. 8-10): statuses, `has_bug`, witnesses and their replay."""

from __future__ import annotations

import pytest

from symcert.core.concrete import Env, State, is_stuck, run_concrete
from symcert.core.state import SymState, initial, satisfies
from symcert.engine.bugfinder import ReplayMismatch, display, find_bugs_n, witness
from symcert.engine.explore import Strategy
from symcert.engine.status import Answer, BugFound, Finished, Pending
from symcert.engine.verdict import has_bug
from symcert.lang.parser import parse
from symcert.lang.syntax import Fail
from symcert.solver.z3backend import Solver

BUGGY = parse("if x > 3 then if x < 6 then y = x - 4; assert y != 1 else skip fi else skip fi")
SAFE = parse("if x > 3 then y = x - 4; assert y >= 0 else skip fi")


def test_display_maps_states_to_statuses():
    assert display(None) == Finished()
    assert isinstance(display(initial(parse("fail"))), BugFound)
    assert isinstance(display(initial(parse("skip"))), Pending)


def test_find_bugs_reports_the_bug_and_then_finished():
    statuses = find_bugs_n(BUGGY, 30, Strategy.BFS, Solver())
    bugs = [s for s in statuses if isinstance(s, BugFound)]
    assert len(bugs) == 1
    assert isinstance(statuses[-1], Finished)
    first_finished = next(i for i, s in enumerate(statuses) if isinstance(s, Finished))
    assert all(isinstance(s, Finished) for s in statuses[first_finished:])
    # the bug's path condition holds exactly for x == 5
    assert [x for x in range(-10, 20) if satisfies(Env.of({"x": x}), bugs[0].state.pc)] == [5]


def test_witness_replays_to_the_stuck_state():
    bug = next(s for s in find_bugs_n(BUGGY, 30, Strategy.BFS, Solver()) if isinstance(s, BugFound))
    w = witness(BUGGY, bug, Solver())
    assert w is not None and w.input("x") == 5
    assert is_stuck(w.final.prog) and w.final.steps == bug.state.depth
    assert w.describe() == "assertion `y != 1` fails"
    assert w.failing.pos.line == 1
    concrete = run_concrete(State(w.input, BUGGY), 1_000)
    assert concrete.prog == w.final.prog


def test_a_replay_that_disagrees_is_an_engine_bug():
    bug = next(s for s in find_bugs_n(BUGGY, 30, Strategy.BFS, Solver()) if isinstance(s, BugFound))
    wrong = SymState(bug.state.pc, bug.state.store, bug.state.prog, bug.state.depth, Env.of({"x": 4}))
    with pytest.raises(Exception) as info:
        witness(BUGGY, BugFound(wrong), Solver())
    # with contracts on the replay's own postcondition (W-T3.5) fires first
    assert isinstance(info.value, ReplayMismatch) or "W-T3.5" in str(info.value)


def test_has_bug_yes_no_unknown():
    assert has_bug(BUGGY, 100) is Answer.YES
    assert has_bug(SAFE, 100) is Answer.NO
    loop = parse("i = 0; while i < n do i = i + 1 od; assert i >= 0")
    assert has_bug(loop, 200) is Answer.UNKNOWN  # unbounded loop: never exhaustive
    assert has_bug(BUGGY, 3) is Answer.UNKNOWN  # budget too small to reach the bug


def test_solver_unknown_is_never_yes_nor_no():
    assert has_bug(BUGGY, 100, Solver(rlimit=1)) is Answer.UNKNOWN
    assert has_bug(SAFE, 100, Solver(rlimit=1)) is Answer.UNKNOWN


def test_unreachable_fail_is_no_bug():
    p = parse("if x < 0 then if x > 0 then fail else skip fi else skip fi")
    assert has_bug(p, 100) is Answer.NO
    statuses = find_bugs_n(p, 20, Strategy.BFS, None)  # without a solver the fail is reached
    assert any(isinstance(s, BugFound) for s in statuses)


def test_bug_independent_of_input():
    statuses = find_bugs_n(parse("skip; fail"), 5, Strategy.BFS, Solver())
    bug = next(s for s in statuses if isinstance(s, BugFound))
    w = witness(parse("skip; fail"), bug, Solver())
    assert w is not None and w.input == Env() and isinstance(w.failing, Fail)
    assert w.describe() == "`fail` reached"
