"""The array case studies with bounded quantifiers (`examples/arrays/`, X-Q1, X-Q2), through the
`symcert` command: each correct version PROVED (z3 and cvc5), its certificate re-checked, each
buggy twin a replayed bug with the failing value of the quantifier's variable; a prefix
invariant off by one is never accepted."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from symcert.core.concrete import State, head, run_concrete
from symcert.engine.verdict import Budget, Kind, check
from symcert.lang.parser import parse, parse_file
from symcert.verify.inductive import check_invariants

ARRAYS = Path(__file__).resolve().parents[2] / "examples" / "arrays"
STUDIES = ["zero_fill", "copy", "max"]
BUGS = {"zero_fill": ("assertion `forall k in 0 .. n - 1 :: a[k] == 0` fails", "k = "),
        "copy": ("invariant `0 <= i and i <= n and (forall j in 0 .. i - 1 :: b[j] == a[j])` "
                 "does not hold after an iteration", None),
        "max": ("assertion `forall j in 0 .. n - 1 :: a[j] <= m` fails", "j = 1")}


def symcert(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "symcert", *args], capture_output=True,
                          text=True, timeout=300)


@pytest.mark.parametrize("name", STUDIES)
def test_the_correct_version_is_proved_and_certified(name, tmp_path):
    source = str(ARRAYS / f"{name}.imp")
    cert = tmp_path / "proof.json"
    done = symcert("prove", source, "--certificate", str(cert))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "PROVED" in done.stdout and "each one UNSAT for z3 and for cvc5" in done.stdout
    again = symcert("check-certificate", str(cert), source)
    assert again.returncode == 0 and ": valid: " in again.stdout, again.stdout + again.stderr


@pytest.mark.parametrize("name", STUDIES)
def test_the_buggy_twin_is_a_replayed_bug(name):
    path = ARRAYS / f"{name}_buggy.imp"
    done = symcert("run", str(path))
    message, value = BUGS[name]
    assert done.returncode == 1 and f"bug: {message}" in done.stdout, done.stdout + done.stderr
    if value is not None:
        assert f"  fails at: {value}" in done.stdout
    verdict = check(parse_file(path), Budget(5_000))
    assert verdict.kind is Kind.BUG and verdict.witness is not None
    final = run_concrete(State(verdict.witness.input, parse_file(path)), 100_000)
    assert str(head(final.prog)) == "fail" and head(final.prog).pos == verdict.witness.failing.pos


ZERO_FILL = (ARRAYS / "zero_fill.imp").read_text()


def test_the_prefix_invariant_is_inductive_for_both_provers():
    """X-Q2: the obligations of `verify.inductive` (entry, preservation, the asserts after the
    exit) for zero fill's quantified invariant are VALID for z3 and for cvc5."""
    p = parse(ZERO_FILL)
    loop_invariant = p.second.second.first.invariant()  # type: ignore[attr-defined]
    result = check_invariants(p, {0: loop_invariant})
    assert result.results and result.accepted, result.failed()


@pytest.mark.parametrize("wrong, exit_code", [("0 .. i ::", 1), ("0 .. i - 2 ::", 3)])
def test_an_off_by_one_prefix_invariant_is_not_accepted(wrong, exit_code, tmp_path):
    """X-Q2, planted: the prefix one cell too long does not hold on entry (a replayed bug),
    one cell too short cannot show the assertion (undecided); neither is proved, and the
    inductive obligations refute the first."""
    text = ZERO_FILL.replace("0 .. i - 1 ::", wrong)
    p = parse(text)
    invariant = p.second.second.first.invariant()  # type: ignore[attr-defined]
    assert not check_invariants(p, {0: invariant}).accepted
    path = tmp_path / "wrong.imp"
    path.write_text(text)
    done = symcert("prove", "--timeout", "30", str(path))  # undecided, or a bug: never proved
    assert done.returncode == exit_code and "PROVED" not in done.stdout, done.stdout


@pytest.mark.slow
@pytest.mark.parametrize("name", ["zero_fill_buggy", "max_buggy"])
def test_the_seed004_interpreter_and_the_engine_agree_with_the_concrete_runs(name):
    """X-Q1 in the other formulations: seed 004's interpreter (its substitution through the
    fold's binder) and the main engine against the concrete semantics, at inputs that fail
    the quantified assertion and at one that does not."""
    from symcert.checking.campaign import check_interp, check_main
    from symcert.core.concrete import Cells, Env
    from symcert.solver.z3backend import Solver

    p = parse_file(ARRAYS / f"{name}.imp")
    sigmas = [Env.of({"n": 3, "a": Cells.of({1: 5})}), Env.of({"n": 2, "a": Cells.of({0: 5})}),
              Env.of({"n": 1})]
    assert check_interp(p, sigmas, Solver()) is None
    assert check_main(p, sigmas, Solver()) is None


INFERRED = {"zero_fill": "forall k in 0 .. i - 1 :: a[k] == 0",
            "copy": "forall k in 0 .. i - 1 :: b[k] == a[k]",
            "max": "forall k in 0 .. i - 1 :: a[k] <= m"}


@pytest.mark.parametrize("name", [pytest.param("zero_fill", marks=pytest.mark.slow),
                                  pytest.param("copy", marks=pytest.mark.slow), "max"])
def test_without_its_invariant_the_quantified_one_is_inferred_and_certified(name, tmp_path):
    """X-Q2 with inference: the case study without its written invariant is PROVED by
    `prove`, the cell-wise invariant guessed (verify/cells.py) and checked by z3 and cvc5; the
    certificate carries it and `check-certificate` re-checks it."""
    source = str(ARRAYS / f"{name}_inferred.imp")
    cert = tmp_path / "proof.json"
    done = symcert("prove", source, "--certificate", str(cert))
    assert done.returncode == 0 and "PROVED" in done.stdout, done.stdout + done.stderr
    assert f"({INFERRED[name]})" in done.stdout
    assert INFERRED[name] in cert.read_text()
    again = symcert("check-certificate", str(cert), source)
    assert again.returncode == 0 and ": valid: " in again.stdout, again.stdout + again.stderr


def test_run_infers_the_running_maximum():
    """`run` proves max without its invariant and names the inferred quantified one."""
    done = symcert("run", str(ARRAYS / "max_inferred.imp"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "(guessed from concrete runs): invariant" in done.stdout
    assert "(exists k in 0 .. i - 1 :: a[k] == m)" in done.stdout


def test_a_cell_wise_guess_that_the_samples_refute_is_not_proposed():
    """A loop that writes 1 where the assertion wants 0: the guess is `a[k] == 1`, never the
    wrong `a[k] == 0`, and `run` finds the replayed bug."""
    from symcert.verify.cells import candidates

    text = (ARRAYS / "zero_fill_inferred.imp").read_text().replace("a[i] = 0", "a[i] = 1")
    assert [str(c) for c in candidates(parse(text))[0]] == [
        "forall k in 0 .. i - 1 :: a[k] == 1", "forall k in 0 .. i - 2 :: a[k] <= a[k + 1]"]
    path = Path(ARRAYS / "zero_fill_inferred.imp")
    done = subprocess.run([sys.executable, "-m", "symcert", "run", "-"], input=text,
                          capture_output=True, text=True, timeout=300, cwd=path.parent)
    assert done.returncode == 1 and "bug: assertion `forall k in 0 .. n - 1 :: a[k] == 0` " \
        "fails" in done.stdout, done.stdout + done.stderr
