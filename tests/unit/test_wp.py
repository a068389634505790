"""The weakest-precondition calculus of `check-certificate` (`verify.wp`, T-C1), checked
against the concrete semantics: on a loop-free program, every verification condition holds at
an input exactly when the concrete run from that input reaches no `fail`."""

from __future__ import annotations

import random

import pytest

from symcert.verify import wp
from symcert.checking.generate import RandomChoices, Shape, env, program
from symcert.core.concrete import Ending, Env, beval, run_to_end
from symcert.lang.annotations import loops
from symcert.lang.parser import parse
from symcert.lang.syntax import BExpr, Bool, Stmt

SHAPES = [Shape(names=("x", "y"), loop_depth=0, leaves=8),
          Shape(names=("x", "y"), loop_depth=0, leaves=8, arrays=("b",)),
          Shape(names=("x", "y"), loop_depth=0, leaves=8, objects=True)]
PROGRAMS = 60
INPUTS = 4


def holds_at(goals: list[wp.Goal], sigma: Env) -> bool:
    """Whether every goal `H ⇒ G` is true at `sigma`, hypotheses read left to right (each
    guards the divisions of those after it)."""
    def true(b: BExpr) -> bool:
        return beval(sigma, b)

    return all(not all(map(true, g.hypotheses)) or true(g.goal) for g in goals)


def fails(p: Stmt, sigma: Env) -> bool:
    final = run_to_end(sigma, p, 10_000)
    assert final is not None, "a loop-free program ends"
    return final.ending is Ending.FAIL


def disagreements() -> list[tuple[str, Env]]:
    """The generated loop-free programs and inputs on which the VCs and the run disagree."""
    out = []
    for i, shape in enumerate(SHAPES):
        c = RandomChoices(random.Random(1_000 + i))
        checked = 0
        while checked < PROGRAMS:
            p = program(c, shape)
            try:
                goals = wp.vcs(p, {})
            except wp.OutsideFragment:  # `new`
                continue
            checked += 1
            for _ in range(INPUTS):
                sigma = env(c, shape)
                if holds_at(goals, sigma) == fails(p, sigma):
                    out.append((str(p), sigma))
    return out


def test_the_vcs_hold_exactly_where_no_run_fails():
    assert disagreements() == []


def test_a_planted_assignment_rule_that_substitutes_the_wrong_variable_is_caught(monkeypatch):
    right = wp.substitute

    def wrong(goals, sigma):  # `x = e` substitutes e for the variable after x
        names = {"x": "y", "y": "x"}
        return right(goals, {names.get(k, k): v for k, v in sigma.items()})

    monkeypatch.setattr(wp, "substitute", wrong)
    assert disagreements()


def test_a_loop_gives_entry_preservation_and_exit_over_fresh_values():
    p = parse("assume n >= 0; i = 0; while i < n invariant i <= n do i = i + 1 od; "
              "assert i == n")
    goals = {g.name: g for g in wp.vcs(p, {})}
    assert list(goals) == ["invariant of loop 0 at 1:23 holds on entry",
                           "invariant of loop 0 at 1:23 preserved", "assert at 1:69"]
    assert [str(h) for h in goals["assert at 1:69"].hypotheses] == [
        "n >= 0", "i!0 <= n", "not i!0 < n"]
    assert str(goals["invariant of loop 0 at 1:23 preserved"].goal) == "i!0 + 1 <= n"
    # the certificate's invariant replaces none written: a loop without one is outside
    with pytest.raises(wp.OutsideFragment, match="a loop without an invariant"):
        wp.vcs(parse("while x > 0 do x = x - 1 od"), {})
    assert len(wp.vcs(parse("while x > 0 do x = x - 1 od"), {0: parse("assert x >= 0").cond})) == 2


@pytest.mark.parametrize("source, construct", [
    ("proc f(a) begin return a end\nx = f(1)", "a procedure call at 2:1"),
    ("class C(f)\nx = new C", "object creation (`new`) at 2:1"),
])
def test_a_construct_outside_the_fragment_is_named(source, construct):
    with pytest.raises(wp.OutsideFragment) as e:
        wp.vcs(parse(source), {})
    assert str(e.value) == f"{construct} is outside the wp fragment"


def accepted_but_failing(count: int = 40) -> list[tuple[str, Env]]:
    """Generated programs with bounded loops, each loop given the invariant `true`: those whose
    every condition z3 proves, with an input on which the concrete run fails anyway. (With a
    weak invariant the conditions may fail on a correct program; they must never hold on a
    failing one.)"""
    from symcert.verify.certificate import goal_text
    from symcert.verify.provers import VALID, prove_z3

    shape = Shape(names=("x", "y"), loop_bound=2, loop_depth=1, leaves=5, divisions=False)
    c = RandomChoices(random.Random(7))
    out = []
    for _ in range(count):
        p = program(c, shape)
        k = len(list(loops(p)))
        goals = wp.vcs(p, {i: Bool(True) for i in range(k)})
        if all(prove_z3(goal_text(g), 1_000_000).status == VALID for g in goals):
            out += [(str(p), s) for s in (env(c, shape) for _ in range(INPUTS)) if fails(p, s)]
    return out


def test_the_loop_rule_never_accepts_a_program_that_fails():
    assert accepted_but_failing() == []


def test_a_planted_loop_rule_that_havocs_nothing_is_caught(monkeypatch):
    """Forgetting what the body assigns keeps the values from before the loop after it."""
    monkeypatch.setattr(wp, "assigned", lambda body: (frozenset(), frozenset()))
    assert accepted_but_failing()
