"""The campaign's `invariants` and `summaries` checks (checking/annotated.py): generated loops
annotated with invariants that hold and procedures whose contract is their strongest
postcondition pass; a planted havoc set that forgets what a loop or a callee writes is a
disagreement."""

from __future__ import annotations

import random

from symcert.checking import annotated, campaign
from symcert.checking.annotated import check_invariants, check_summaries, with_invariants
from symcert.checking.generate import RandomChoices
from symcert.engine import contracts, invariants
from symcert.engine.contracts import summaries
from symcert.engine.verdict import Budget, check
from symcert.lang.parser import parse
from symcert.lang.procedures import show_program
from symcert.solver.z3backend import Solver

LOOPS = """k1 = 0;
while k1 < 2 and x < 3 do
  var_free = 1;
  k1 = k1 + 1
od"""


def test_bounded_loops_get_their_counter_bounds_once():
    """The counter's bounds, and nothing more where the draw adds no clause; an annotated
    loop is left as it is (the shrinker checks annotated programs again)."""
    q = with_invariants(parse(LOOPS), RandomChoices(random.Random(1)), campaign.SHAPE)
    assert q is not None
    assert "while k1 < 2 and x < 3 invariant 0 <= k1 and k1 <= 2" in show_program(q)
    again = with_invariants(q, RandomChoices(random.Random(1)), campaign.SHAPE)
    assert show_program(again) == show_program(q)
    assert with_invariants(parse("x = 1"), RandomChoices(random.Random(1)), campaign.SHAPE) \
        is None


def test_the_checks_pass_on_generated_programs_and_catch_a_planted_havoc(monkeypatch):
    """Program 8 of seed 3 writes `x` in a loop: T-I1 that forgets it misses the concrete
    exit; a summary that forgets the callee's `g` misses the concrete call."""
    p, sigmas = campaign.numbered(3, 8)
    solver = Solver()
    assert check_invariants(p, sigmas, solver, campaign.SHAPE) is None
    assert check_summaries(p, sigmas, solver) is None
    correct, writes = invariants.havocked, contracts.writes
    monkeypatch.setattr(invariants, "havocked", lambda loop, q: correct(loop, q) - {"x"})
    found = check_invariants(p, sigmas, solver, campaign.SHAPE)
    assert found is not None and found[0] == "invariant transition (T-I1) not exhaustive (T-D2)"
    monkeypatch.setattr(contracts, "writes", lambda q: writes(q) - {"g"})
    found = check_summaries(p, sigmas, solver)
    assert found is not None and found[0].startswith("contract transition (T-S1)")


def test_the_drawn_contract_is_the_strongest_postcondition():
    """Summarised and inlined, the drawn program has the same verdict, decided."""
    text = annotated.contract_program(RandomChoices(random.Random(5)))
    assert "proc w(x, y)" in text and "ensures" in text
    p = parse(text)
    summarised = check(p, Budget(500))
    with summaries(False):
        assert check(p, Budget(500)).kind is summarised.kind


def test_the_checks_are_registered_in_the_campaign():
    assert {"invariants", "summaries", "derived-annotated"} <= set(campaign.CHECKS)
    report = campaign.campaign(2, 0, None, ("invariants", "summaries"))
    assert report.programs == 2 and report.disagreement is None


def test_a_program_with_a_contract_is_checked_itself():
    """What the shrinker hands back: the drawn program's disagreement, on itself and its input."""
    from symcert.core.concrete import Env
    text = annotated.contract_program(RandomChoices(random.Random(2)))
    p = parse(text)
    solver = Solver()
    sigmas = [Env.of({"a": 1, "b": 2})]
    assert check_summaries(p, sigmas, solver) is None
    wrong = parse(text.replace("ensures", "ensures g == 99 and", 1))  # f's contract is wrong
    found = check_summaries(wrong, sigmas, solver)
    assert found is not None and found[1] is wrong and found[2] == sigmas[0]
