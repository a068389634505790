"""The invariant transition T-I1 (engine/invariants.py): a loop with an invariant is run once
from an arbitrary state satisfying it; a failure on such a path is a bug only when a concrete
run replays it, else the invariant's fault (undecided, its own cause)."""

from __future__ import annotations

import json
import random

import pytest

from symcert.cli.main import main
from symcert.core.concrete import Ending, Env, run_to_end
from symcert.engine import invariants
from symcert.engine.invariants import INVARIANTS, abstract, expand_invariant
from symcert.engine.prove import prove
from symcert.engine.verdict import Budget, Cause, Kind, check
from symcert.core.state import initial
from symcert.engine.explore import run
from symcert.lang.parser import parse
from symcert.lang.structure import inputs
from symcert.solver.z3backend import solver_for

SUM = """assume n >= 0;
i = 0; s = 0;
while i < n invariant 0 <= i and i <= n and s == i * (i - 1) / 2 do s = s + i; i = i + 1 od;
assert s == n * (n - 1) / 2"""

NOT_PRESERVED = """assume n >= 0;
x = 0; y = 0;
while x < n invariant y >= 0 do x = x + 1; y = y + x od;
assert y >= 0"""

TOO_WEAK = """assume n >= 0;
x = 0; y = 0;
while x < n invariant y >= 0 and x >= 0 do x = x + 1; y = y + x od;
assert y >= n"""

COPY = """assume n >= 0 and 0 <= k and k < n;
i = 0;
while i < n invariant 0 <= i and i <= n and (k >= i or b[k] == a[k]) do
  b[i] = a[i]; i = i + 1
od;
assert b[k] == a[k]"""


def _never_fails(text: str, runs: int = 40) -> bool:
    """No concrete run from a random input fails (within its fuel)."""
    p = parse(text)
    rng = random.Random(7)
    for _ in range(runs):
        final = run_to_end(Env.of({x: rng.randint(-3, 12) for x in inputs(p)}), p, 20_000)
        if final is not None and final.ending is Ending.FAIL:
            return False
    return True


@pytest.mark.parametrize("text", [SUM, COPY, """proc gcd(a, b) begin
  while b != 0 invariant a > 0 and b >= 0 do var t = b; b = a % b; a = t od;
  return a
end
assume x > 0 and y >= 0;
g = gcd(x, y);
assert g > 0"""])
def test_an_inductive_invariant_proves_an_unbounded_loop(text):
    """With every check UNSAT the exploration ends: `run` says safe and `prove` PROVED; the
    concrete runs agree."""
    p = parse(text)
    assert check(p, Budget(2_000)).kind is Kind.SAFE
    assert prove(p, 2_000).verdict.kind is Kind.SAFE
    assert _never_fails(text)


def test_without_the_transition_the_same_loop_is_only_unrolled():
    """Switched off, the loop is unrolled with its checks and the budget runs out."""
    token = INVARIANTS.set(False)
    try:
        verdict = check(parse(SUM), Budget(300))
    finally:
        INVARIANTS.reset(token)
    assert verdict.kind is Kind.UNDECIDED and verdict.reason.cause is Cause.STATES


def test_the_successors_of_a_loop_head():
    """Entry check, one iteration, exit; each adds one conjunct; the havocked ones are
    abstract and bind the body's variables to fresh symbols."""
    p = parse("i = 0; while i < n invariant i >= 0 do i = i + 1 od")
    head_state = next(s for s in run([initial(p)]) if s is not None and s.depth == 2)
    out = expand_invariant(head_state)
    assert len(out) == 3
    iteration, leave, entry = out
    assert all(t.pc.length == head_state.pc.length + 1 for t in out)
    assert str(iteration.store("i")) == "i#1@1:8" and abstract(iteration) and abstract(leave)
    assert not abstract(entry) and "fail" == str(entry.prog)
    after = next(t for t in run([iteration]) if t is not None and getattr(t.prog, "entered", 0))
    (check_end,) = expand_invariant(after)  # at the head again: the preservation check only
    assert str(check_end.prog) == "fail"


def test_a_wrong_entry_is_a_replayed_bug_and_a_concrete_violation_too():
    entry = check(parse("i = 5; while i < n invariant i <= 2 do i = i + 1 od"))
    assert entry.kind is Kind.BUG
    assert entry.witness.describe() == "invariant `i <= 2` does not hold on entry"
    later = check(parse("i = 0; while i < n invariant i <= 3 do i = i + 1 od"))
    assert later.kind is Kind.BUG and later.witness.input("n") >= 4
    assert later.witness.describe() == "invariant `i <= 3` does not hold after an iteration"
    assert all("#" not in x for x, _ in later.witness.input.bindings)


def test_an_invariant_that_is_not_inductive_is_undecided_with_its_counterexample():
    """`y >= 0` holds on every run but is not preserved from `x = -2, y = 0`: never a bug,
    never safe."""
    verdict = check(parse(NOT_PRESERVED))
    assert verdict.kind is Kind.UNDECIDED and verdict.exhaustive
    assert verdict.reason.cause is Cause.INVARIANT
    message = str(verdict.reason)
    assert message.startswith("invariant `y >= 0` at 3:1 is not preserved: one iteration of "
                              "the loop's body from {x = ")
    assert "where it does not hold (a counterexample to induction" in message
    assert _never_fails(NOT_PRESERVED)


def test_an_invariant_too_weak_for_the_assertion_is_undecided():
    verdict = check(parse(TOO_WEAK))
    assert verdict.kind is Kind.UNDECIDED and verdict.reason.cause is Cause.INVARIANT
    assert "too weak to show that no assertion `y >= n` fails at 4:1" in str(verdict.reason)
    assert prove(parse(TOO_WEAK), 2_000).verdict.kind is Kind.UNDECIDED


def test_the_cli_reports_the_cause_in_text_and_json(capsys, tmp_path):
    path = tmp_path / "weak.imp"
    path.write_text(NOT_PRESERVED)
    assert main(["run", str(path)]) == 3
    assert "undecided: invariant `y >= 0` at 3:1 is not preserved" in capsys.readouterr().out
    assert main(["run", "--json", str(path)]) == 3
    done = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert done["verdict"] == "undecided" and done["cause"] == "invariant"
    assert main(["prove", str(path)]) == 3
    assert "is not preserved" in capsys.readouterr().out
    path.write_text(SUM)
    assert main(["prove", str(path)]) == 0


def test_a_planted_havoc_that_forgets_an_array_is_caught_by_the_concrete_runs(monkeypatch):
    """The havoc set matters: forgetting the array the body writes makes T-I1 claim safe for a
    program whose concrete runs fail; with the correct set the invariant is too weak for the
    assertion (never safe)."""
    text = """assume c[0] == 0 and n >= 0;
i = 0;
while i < n invariant 0 <= i and i <= n do c[0] = 5; i = i + 1 od;
assert c[0] == 0"""
    assert check(parse(text)).kind is not Kind.SAFE
    assert not _never_fails(text)
    correct = invariants.havocked
    monkeypatch.setattr(invariants, "havocked", lambda loop, p: correct(loop, p) - {"c"})
    assert check(parse(text)).kind is Kind.SAFE  # wrong, and the concrete runs refute it


def test_test_generation_unrolls_annotated_loops():
    """`symcert tests` wants one concrete path per test: it explores without T-I1, so every
    leaf replays."""
    from symcert.engine.testgen import generate_tests
    suite = generate_tests(parse("assume n >= 0 and n < 3; i = 0;\n"
                                 "while i < n invariant i <= n do i = i + 1 od;\n"
                                 "assert i == n"), 1_000)
    assert suite.exhaustive and len(suite.tests) == 3
    assert sorted(t.input("n") for t in suite.tests) == [0, 1, 2]


def test_the_oracles_stream_transition_unrolls_annotated_loops():
    """The seed-001 oracles' `run` transition is the plain rule (the havoc's fresh symbols are
    no input their concretization reads): exhaustive and precise, with no false counterexample."""
    from symcert.checking.oracles import is_probably_exhaustive, is_probably_precise
    from symcert.checking.transitions import stream
    p = parse(NOT_PRESERVED.replace("assume n >= 0", "assume n >= 0 and n < 6"))
    t = stream(1_000, solver_for(p))
    assert is_probably_exhaustive(t, p, runs=4).counterexample is None
    assert is_probably_precise(t, p, runs=4).counterexample is None


def test_a_loop_that_makes_objects_even_through_a_call_is_unrolled():
    """The counter of new objects must stay a literal (B-T4): no havoc of it."""
    from symcert.engine.invariants import applies
    p = parse("class C(v)\nproc mk() begin var o = new C; return o end\n"
              "while i < n invariant i >= 0 do x = mk(); i = i + 1 od")
    q = parse("class C(v)\nwhile i < n invariant i >= 0 do x = new C; i = i + 1 od")
    r = parse("while i < n invariant i >= 0 do i = i + 1 od")
    assert not applies(p) and not applies(q) and applies(r)


def test_the_eager_twins_of_the_streams_stay_over_expand():
    """`run_n` and `find_bugs_n`, on which the stream lemmas are stated (contracts on), unroll
    annotated loops: every state they give is an `expand` step from the start."""
    from symcert.engine.bugfinder import find_bugs_n
    from symcert.engine.explore import run_n
    p = parse(NOT_PRESERVED)
    assert not any(abstract(s) for s in run_n([initial(p)], 40, solver=solver_for(p))
                   if s is not None)
    assert len(find_bugs_n(p, 30, solver=solver_for(p))) == 30
