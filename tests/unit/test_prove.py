"""`prove` and `symcert prove`: proving from the leaves of an exhaustive execution (T-L2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from symcert.cli.main import main
from symcert.core.concrete import State, is_stuck, run_concrete
from symcert.engine.prove import prove
from symcert.engine.verdict import Cause, Kind
from symcert.lang.parser import parse, parse_file
from symcert.solver.z3backend import Solver

EX = Path(__file__).resolve().parents[2] / "examples"

CORRECT = [f"{EX}/factorial.imp", f"{EX}/gcd.imp", f"{EX}/isqrt.imp",
           f"{EX}/min3.imp"]
BUGGY = [f"{EX}/factorial_buggy.imp", f"{EX}/gcd_buggy.imp", f"{EX}/isqrt_buggy.imp",
         f"{EX}/min3_buggy.imp", f"{EX}/countdown_buggy.imp"]


@pytest.mark.parametrize("path", CORRECT)
def test_correct_examples_are_proved(path):
    """Every correct case study is PROVED after an exhaustive exploration."""
    proof = prove(parse_file(path), 10_000)
    assert proof.verdict.kind is Kind.SAFE and proof.verdict.exit_code == 0
    assert proof.verdict.exhaustive and proof.obligations > 0 and not proof.undecided


@pytest.mark.parametrize("path", BUGGY)
def test_buggy_examples_give_a_replayed_counterexample(path):
    """A SAT obligation gives an input whose concrete run gets stuck at the failing assert."""
    p = parse_file(path)
    proof = prove(p, 10_000)
    assert proof.verdict.kind is Kind.BUG and proof.verdict.exit_code == 1
    found = proof.verdict.witness
    final = run_concrete(State(found.input, p), 100_000)
    assert is_stuck(final.prog)
    assert final.prog == found.bug.prog


@pytest.mark.parametrize("path", CORRECT + BUGGY)
def test_a_solver_that_cannot_decide_never_proves(path):
    """With `rlimit=1` every query is UNKNOWN: the verdict is undecided, never PROVED."""
    proof = prove(parse_file(path), 300, solver=Solver(rlimit=1))
    assert proof.verdict.kind is Kind.UNDECIDED and proof.verdict.exit_code == 3


def test_input_unbounded_loop_is_undecided_on_budget():
    """A true assertion after a loop bounded only by an input: the budget runs out."""
    p = parse("i = 0; while i < n do i = i + 1 od; assert i >= n")
    proof = prove(p, 200)
    assert proof.verdict.kind is Kind.UNDECIDED and not proof.verdict.exhaustive
    assert proof.verdict.reason.cause is Cause.STATES
    assert str(proof.verdict.reason) == "the state budget (200 states) ran out"
    assert proof.undecided == ()


def test_explicit_fail_is_an_obligation():
    """`fail` under a satisfiable path is a counterexample; under an infeasible one, proved."""
    assert prove(parse("if x > 5 then fail else skip fi"), 100).verdict.witness.input("x") > 5
    assert prove(parse("if x > x then fail else skip fi"), 100).verdict.kind is Kind.SAFE


def test_cli_prove_exit_codes(capsys, tmp_path):
    """0 PROVED, 1 counterexample with input and replay, 3 undecided with reason, 65 bad file."""
    assert main(["prove", f"{EX}/isqrt.imp"]) == 0
    assert capsys.readouterr().out.startswith(
        f"{EX}/isqrt.imp: PROVED: every assertion holds for all inputs\n")
    assert main(["prove", f"{EX}/min3_buggy.imp"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == (f"{EX}/min3_buggy.imp:7:1: counterexample: "
                      "assertion `m <= a and m <= b and m <= c` fails")
    assert out[1].startswith("  input:  a = ")
    loop = tmp_path / "loop.imp"
    loop.write_text("i = 0; while i < n do i = i + 1 od; assert i >= n\n")
    assert main(["prove", str(loop), "--max-states", "50", "--no-infer"]) == 3
    assert "not exhaustive: the state budget (50 states) ran out" in capsys.readouterr().out
    assert main(["prove", str(loop), "--max-states", "50"]) == 0  # inference is the default
    assert ("the loop invariant inferred (z3's Spacer, or guessed from concrete runs)"
            in capsys.readouterr().out)
    bad = tmp_path / "bad.imp"
    bad.write_text("x = ;\n")
    assert main(["prove", str(bad)]) == 65
    with pytest.raises(SystemExit) as usage:
        main(["prove", f"{EX}/isqrt.imp", "--max-states", "0"])
    assert usage.value.code == 2
