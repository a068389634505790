"""`symcert.check` and its `Verdict` (seed 000, Figs. 8–10): the policy the CLI formats."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from symcert.cli.main import main
from symcert.core.concrete import State, is_stuck, run_concrete
from symcert.engine.bugfinder import Witness
from symcert.engine.explore import Strategy
from symcert.engine.status import Answer
from symcert.engine.verdict import Budget, Cause, Check, Kind, Reason, Stats, Verdict, check
from symcert.engine.verdict import has_bug
from symcert.lang.parser import parse, parse_file
from symcert.lang.syntax import Assert, Assign, Call, While
from symcert.solver.z3backend import Sat, Solver

EX = Path(__file__).resolve().parents[2] / "examples"
CORRECT = sorted(str(p) for p in EX.glob("*.imp")
                 if not p.stem.endswith(("_buggy", "_wrong_invariant")))
BUGGY = sorted(str(p) for p in EX.glob("*_buggy.imp"))


class UnknownSolver(Solver):
    """A solver that can decide nothing."""

    def check(self, pc: object, *hint: object) -> tuple[Sat, None]:  # type: ignore[override]
        return Sat.UNKNOWN, None


@pytest.mark.parametrize("path", BUGGY)
def test_a_buggy_example_is_a_bug_with_a_replayed_witness(path):
    """BUG only with an input whose concrete run reaches the failing statement: the assert, the
    division by zero of `mean_buggy.imp` (X-A2), or the null dereference of `alias_nil_buggy.imp`
    (seed 003 §4)."""
    p = parse_file(path)
    verdict = check(p, Budget(10_000))
    assert verdict.kind is Kind.BUG and verdict.exit_code == 1 and verdict.reason is None
    found = verdict.witness
    assert found is not None and verdict.bugs == (found,)
    final = run_concrete(State(found.input, p), found.final.steps)
    assert is_stuck(final.prog) and final.prog == found.bug.prog
    origin = found.failing.origin
    if path.endswith(("mean_buggy.imp", "alias_nil_buggy.imp")):
        assert found.failing.by_zero and isinstance(origin, Assign)
        what = "null dereference" if "alias_nil" in path else "division by zero"
        assert found.describe() == f"{what} in `{origin}`"
    elif isinstance(origin, While):  # a loop invariant broken by a concrete run (T-I1)
        assert not found.failing.by_zero and origin.invariants
        assert found.describe().startswith(f"invariant `{origin.invariant()}` does not hold")
    elif isinstance(origin, Call):  # a call breaking its callee's precondition (T-S1)
        assert not found.failing.by_zero and origin.procs[origin.name].requires is not None
        assert found.describe() == f"precondition of {origin.name} does not hold"
    else:
        assert not found.failing.by_zero and isinstance(origin, Assert)
        assert found.describe() == f"assertion `{origin.cond}` fails"
    # no `solver_queries > 0`: countdown_buggy's conditions only bound n, decided without z3
    assert verdict.stats.states > 0


@pytest.mark.parametrize("path", CORRECT)
def test_a_correct_example_is_safe_only_after_an_exhaustive_exploration(path):
    verdict = check(parse_file(path), Budget(10_000))
    assert verdict.kind is Kind.SAFE and verdict.exit_code == 0
    assert verdict.exhaustive and verdict.reason is None and verdict.witness is None
    assert verdict.stats.frontier == 0
    smaller = check(parse_file(path), Budget(verdict.stats.states - 1))
    assert smaller.kind is Kind.UNDECIDED and not smaller.exhaustive


@pytest.mark.parametrize("path", CORRECT + BUGGY)
def test_a_budget_too_small_is_undecided_and_says_which(path):
    verdict = check(parse_file(path), Budget(3))
    assert verdict.kind is Kind.UNDECIDED and verdict.exit_code == 3
    assert verdict.reason == Reason(Cause.STATES, "the state budget (3 states) ran out")
    assert verdict.stats.states == 3 and not verdict.exhaustive and not verdict.bugs


@pytest.mark.parametrize("path", CORRECT + BUGGY)
def test_solver_unknown_is_never_a_bug_nor_safe(path):
    """UNKNOWN keeps every state (nothing is pruned) and confirms no bug: undecided."""
    verdict = check(parse_file(path), Budget(300), UnknownSolver())
    assert verdict.kind is Kind.UNDECIDED and verdict.exit_code == 3


def test_solver_unknown_on_an_exhausted_program_names_the_solver():
    p = parse("if x > 3 then y = x - 4; assert y >= 0 else skip fi")
    assert check(p, Budget(100)).kind is Kind.SAFE
    verdict = check(p, Budget(100), UnknownSolver())
    assert verdict.kind is Kind.UNDECIDED and verdict.exhaustive
    assert verdict.reason == Reason(
        Cause.SOLVER, "the solver could not decide 1 path condition leading to `fail`")


def test_all_bugs_reports_each_failing_statement_once():
    p = parse("assert x != 1; assert x != 2; i = 0; while i < 2 do i = i + 1; assert y != 3 od")
    first = check(p, Budget(1000))
    assert len(first.bugs) == 1 and not first.exhaustive
    every = check(p, Budget(1000, all_bugs=True))
    assert every.kind is Kind.BUG and every.exhaustive
    assert [w.describe() for w in every.bugs] == [
        "assertion `x != 1` fails", "assertion `x != 2` fails", "assertion `y != 3` fails"]
    assert check(p, Budget(1000, Strategy.DFS, all_bugs=True)).exhaustive


def test_has_bug_answers_as_check():
    """Fig. 10's answer is the verdict's kind: YES bug, NO safe, UNKNOWN undecided."""
    for path, answer in [(BUGGY[0], Answer.YES), (CORRECT[0], Answer.NO)]:
        assert has_bug(parse_file(path), 10_000) is answer
    assert has_bug(parse_file(CORRECT[0]), 3) is Answer.UNKNOWN


class _Interrupt(BaseException):
    pass


class _StopAfter:
    """An observer that interrupts the check after `n` states, as a deadline would."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.bugs: list[Witness] = []

    def phase(self, name: str) -> None:
        pass

    def explored(self, states: int, frontier: int) -> None:
        if states >= self.n:
            raise _Interrupt

    def confirmed(self, found: Witness, states: int) -> None:
        self.bugs.append(found)


def test_an_interrupted_check_keeps_its_confirmed_bugs_and_says_why():
    time_out = Reason(Cause.TIME, "the time budget ran out")
    running = Check(parse_file(CORRECT[0]), Budget(10_000), Solver())
    with pytest.raises(_Interrupt):
        running.run(_StopAfter(4))
    verdict = running.stopped(time_out)
    assert verdict.kind is Kind.UNDECIDED and verdict.reason == time_out
    assert verdict.stats.states == 4 and not verdict.exhaustive
    p = parse("assert x != 1; assert x != 2; i = 0; while i < n do i = i + 1 od")
    running = Check(p, Budget(10_000, all_bugs=True), Solver())
    observer = _StopAfter(40)
    with pytest.raises(_Interrupt):
        running.run(observer)
    verdict = running.stopped(time_out)
    assert verdict.kind is Kind.BUG and verdict.bugs == tuple(observer.bugs)
    assert len(verdict.bugs) == 2 and verdict.reason is None and verdict.exit_code == 1


def test_a_verdict_cannot_claim_what_it_lacks():
    budget, stats = Budget(), Stats()
    with pytest.raises(ValueError):
        Verdict(Kind.SAFE, False, budget, stats)
    with pytest.raises(ValueError):
        Verdict(Kind.BUG, False, budget, stats)
    with pytest.raises(ValueError):
        Verdict(Kind.UNDECIDED, False, budget, stats)
    with pytest.raises(ValueError):
        Budget(-1)


@pytest.mark.parametrize("path", CORRECT + BUGGY)
@pytest.mark.parametrize("max_states", [5, 500])
def test_symcert_run_answers_what_check_answers(capsys, path, max_states):
    """The CLI's `done` event and exit code are the library's verdict: at 500 states a case
    study is safe, a bug, or undecided (the recursive ones), so every kind is formatted."""
    verdict = check(parse_file(path), Budget(max_states))
    code = main(["run", "--json", "--no-infer", "--max-states", str(max_states), path])
    done = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert code == verdict.exit_code
    assert (done["verdict"], done["exhaustive"], done["states"]) == (
        verdict.kind.value, verdict.exhaustive, verdict.stats.states)
    reason = verdict.reason
    if reason is not None and reason.cause is Cause.STATES:
        assert done["reason"] == f"the state budget (--max-states {max_states:,}) ran out"
    else:
        assert done["reason"] == (reason and reason.message)


def test_the_library_docs_run():
    """docs/library.md and README's library section: their examples are doctests."""
    import doctest

    root = EX.parent
    for doc in ("docs/library.md", "README.md"):
        result = doctest.testfile(str(root / doc), module_relative=False,
                                  optionflags=doctest.ELLIPSIS)
        assert result.failed == 0, doc
    assert doctest.testfile(str(root / "docs/library.md"), module_relative=False).attempted > 5
