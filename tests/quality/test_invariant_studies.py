"""The case studies of loops with invariants (`examples/`): each correct version is proved safe
by the invariant transition T-I1 (exhaustive, every check UNSAT), each planted bug is found
with an input whose concrete run replays it, and a wrong invariant is reported as not
preserved, with its counterexample to induction, never as a bug nor as safe."""

from __future__ import annotations

from pathlib import Path

import pytest

from symcert.cli.main import main
from symcert.core.concrete import State, head, run_concrete
from symcert.engine.prove import prove
from symcert.engine.verdict import Budget, Cause, Kind, check
from symcert.lang.parser import parse_file

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
STUDIES = {"sum_closed_form": "assertion `s == n * (n + 1) / 2` fails",
           "array_copy": "invariant `0 <= i and i <= n and (k >= i or b[k] == a[k])` does not "
                         "hold after an iteration"}
BUDGET = Budget(5_000)


@pytest.mark.parametrize("name", [*STUDIES, "triangle"])
def test_the_correct_version_is_safe_and_proved(name):
    p = parse_file(EXAMPLES / f"{name}.imp")
    verdict = check(p, BUDGET)
    assert verdict.kind is Kind.SAFE and verdict.exhaustive
    assert prove(p, BUDGET.max_states).verdict.kind is Kind.SAFE


@pytest.mark.parametrize("name", STUDIES)
def test_the_planted_bug_is_found_and_replayed(name):
    p = parse_file(EXAMPLES / f"{name}_buggy.imp")
    verdict = check(p, BUDGET)
    assert verdict.kind is Kind.BUG
    found = verdict.witness
    assert found is not None and found.describe() == STUDIES[name]
    final = run_concrete(State(found.input, p), 100_000)
    assert str(head(final.prog)) == "fail" and head(final.prog).pos == found.failing.pos


def test_the_wrong_invariant_is_named_with_its_counterexample_to_induction(capsys):
    path = EXAMPLES / "triangle_wrong_invariant.imp"
    verdict = check(parse_file(path), BUDGET)
    assert verdict.kind is Kind.UNDECIDED and verdict.reason.cause is Cause.INVARIANT
    assert str(verdict.reason).startswith("invariant `y >= 0` at 7:1 is not preserved: one "
                                          "iteration of the loop's body from {x = ")
    assert main(["run", str(path)]) == 3
    assert "is not preserved" in capsys.readouterr().out
