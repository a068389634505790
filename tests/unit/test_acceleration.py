"""The accelerated concrete run (engine/acceleration.py, T-A1) against the concrete semantics
of Fig. 2 (`concrete.trace`): the same final states at the same steps, on generated programs
with long loops and on the corpus's deep bugs scaled down; the full-size bugs replayed, with
their steps extrapolated from the scaled ones; planted faults caught."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from hypothesis import given, settings, strategies as st

from symcert.checking.campaign import SHAPE, random_input
from symcert.checking.generate import RandomChoices, program
from symcert.cli.main import main
from symcert.core.concrete import Env, State, head, is_stuck, step, trace
from symcert.engine import acceleration
from symcert.engine.acceleration import Affine, Constraint, run
from symcert.lang.parser import parse
from symcert.lang.syntax import While

LONG = replace(SHAPE, loop_bound=60, arrays=(), procedures=0)
"""The campaign's programs with loops of up to 60 iterations, and neither arrays nor calls."""

FUEL = 50_000

DEEP = {  # SV-COMP's simple_1, simple_4, phases_1 and nested_1 (bench/corpus), bound N
    "simple_1": "x = 0; while x < N do x = x + 2 od; assert x % 2 != 0",
    "simple_4": "x = N - 14; while x > 1 do x = x - 2 od; assert x % 2 == 0",
    "phases_1": "x = 0; while x < N do if x < M then x = x + 1 else x = x + 2 fi od; "
                "assert x % 2 == 0",
    "nested_1": "x = 0; y = 0; while x < N do y = 0; while y < 10 do y = y + 1 od; "
                "x = x + 1 od; assert x % 2 == 0",
}
FULL, PHASE = 268435455, 65521
"""The corpus's bound and phases_1's change of phase."""


def _last(states):
    last = None
    for last in states:
        pass
    return last


def _agree(p, env: Env) -> bool:
    """Whether the accelerated run ends where Fig. 2's run ends, at the same step."""
    plain = _last(trace(State(env, p), FUEL))
    if step(plain) is not None:
        return True  # not ended within the fuel: nothing to compare
    fast = _last(run(State(env, p), FUEL))
    return (fast, fast.steps) == (plain, plain.steps)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6))
def test_accelerated_runs_end_as_fig2_runs_on_generated_programs(seed):
    choices = RandomChoices(random.Random(seed))
    p = program(choices, LONG)
    for _ in range(2):
        assert _agree(p, random_input(choices, p, LONG))


ONE_ITERATION = ("i = 0; x = 0; while i < {bound} do if i {op} {at} then {then} else {other} "
                 "fi; i = i + 1 od; {last}")
"""A loop whose guard differs at one iteration only (`==` true there, `!=` false there)."""


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 3000), st.integers(-2, 3002), st.sampled_from(["==", "!="]),
       st.sampled_from(["x = 1", "fail"]), st.booleans(), st.sampled_from(["assert x == 1",
                                                                           "skip"]))
def test_accelerated_runs_end_as_fig2_runs_past_a_guard_at_one_iteration(bound, at, op, act,
                                                                         in_then, last):
    """Jumps never pass over the one iteration where an `==` or `!=` guard differs, the write
    (or `fail`) in either branch: the accelerated run ends where Fig. 2's does (T-A1)."""
    then, other = (act, "skip") if in_then else ("skip", act)
    p = parse(ONE_ITERATION.format(bound=bound, op=op, at=at, then=then, other=other,
                                   last=last))
    assert _agree(p, Env.of({}))


def _deep(name: str, n: int, m: int = PHASE):
    return parse(DEEP[name].replace("N", str(n)).replace("M", str(m)))


@pytest.mark.parametrize("name", sorted(DEEP))
def test_the_deep_bugs_are_reached_at_the_step_fig2_reaches_them(name):
    """Scaled down (bounds 2001 and 2003, of the full one's parity; phases_1 changing phase at
    1001), the accelerated run ends where Fig. 2's does; at full size it fails, having jumped,
    at the step the scaled runs' linear growth predicts (phases_1: at the bound)."""
    small, bigger = (_last(trace(State(Env(), _deep(name, n, 1001)), 10**6)) for n in (2001, 2003))
    for n, plain in ((2001, small), (2003, bigger)):
        fast = _last(run(State(Env(), _deep(name, n, 1001)), FUEL))
        assert (fast, fast.steps) == (plain, plain.steps) and is_stuck(plain.prog)
    full = _last(run(State(Env(), _deep(name, FULL)), FUEL))
    assert step(full) is None and is_stuck(full.prog) and full.steps > FULL
    if name == "phases_1":
        assert full.env("x") == FULL
    else:
        assert full.steps == small.steps + (bigger.steps - small.steps) * (FULL - 2001) // 2


def test_a_non_convex_condition_taken_as_convex_is_caught_by_fig2(monkeypatch):
    """Planted: `!=` read as always true. The jump's checked first and last iterations do not
    see the iteration in the middle that takes the other branch; z3's check of every
    iteration does (the run still agrees with Fig. 2), and with that check switched off the
    comparison with Fig. 2 does."""
    p = parse("x = 0; y = 0; while x < 100 do if x != 50 then x = x + 1 else x = x + 1; "
              "y = y + 1 fi od")
    assert _agree(p, Env())
    cmp = acceleration._cmp
    monkeypatch.setattr(acceleration, "_cmp",
                        lambda op, a, b: () if op == "!=" else cmp(op, a, b))
    assert _agree(p, Env())
    monkeypatch.setattr(acceleration, "proved", lambda state, j, solver: True)
    assert not _agree(p, Env())


def test_a_jump_one_iteration_too_long_is_refused_by_its_last_iteration(monkeypatch):
    p = parse("x = 0; while x < 1000 do x = x + 1 od")
    at_head = next(s for s in trace(State(Env(), p), 10) if isinstance(head(s.prog), While))
    assert acceleration.checked(at_head, FUEL) is not None
    right = acceleration.jump
    monkeypatch.setattr(acceleration, "jump", lambda s, per, fuel: (
        lambda j: j and replace(j, n=j.n + 1))(right(s, per, fuel)))
    assert acceleration.checked(at_head, FUEL) is None
    assert _agree(p, Env())


def test_the_affine_reading_of_conditions():
    """`x < 5` is `4 - x ≥ 0`; its negation `x - 5 ≥ 0`; `!=`, `or` of two constraints and
    `%` of a variable are not convex or not affine; a comparison of constants is decided."""
    moving = acceleration.Reading(frozenset({"x"}), Env.of({"c": 5}))
    fold = lambda text: acceleration.fold_b(acceleration.AFFINITY, moving,  # noqa: E731
                                            parse(f"assert {text}").cond)
    assert fold("x < c") == (Constraint(Affine((("x", -1),), 4)),)
    assert fold("not x < c") == (Constraint(Affine((("x", 1),), -5)),)
    assert fold("2 * x == c + 1") == (Constraint(Affine((("x", 2),), -6), eq=True),)
    for opaque in ("x != 1", "x < 1 or x > 3", "x % 2 == 0", "x * x < 4"):
        assert fold(opaque) is acceleration.OPAQUE
    assert fold("c != 0 and x < c") == fold("x < c")  # `c` is never written: a constant
    assert fold("not c % 2 == 1") == acceleration.FALSE


def test_a_deep_bug_is_reported_with_its_jumps(capsys, tmp_path):
    src = tmp_path / "deep.imp"
    src.write_text("x = 0; while x < 10000001 do x = x + 2 od; assert x % 2 != 0\n")
    assert main(["run", "--max-states", "100", "--json", "--trace", str(src)]) == 1
    [bug] = [e for e in map(json.loads, capsys.readouterr().out.splitlines())
             if e["event"] == "bug"]
    assert bug["replay_steps"] == 15_000_008 and bug["jumped_steps"] > 14_000_000
    assert bug["found_by"] == "sampling" and bug["input"] == {}
    [jumped] = [s for s in bug["trace"] if "checked jump" in s["statement"]]
    assert jumped["kind"] == "while" and jumped["changes"] == {"x": 10_000_002}
    assert jumped["step"] - bug["jumped_steps"] < 10
