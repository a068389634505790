"""Invariants inferred by Spacer (`solver.horn`) and their check by z3 and cvc5
(`verify.inductive`): T-I2, an inferred invariant is checked, never trusted."""

from __future__ import annotations

import pytest

from symcert.verify.inductive import check_invariants, obligations
from symcert.core.concrete import Ending, run_to_end
from symcert.lang.parser import parse
from symcert.lang.procedures import table_of
from symcert.lang.syntax import BExpr, Bool, While
from symcert.solver.horn import Safe, Unknown, Unsafe, infer, loops

COUNT = "x = 0; while x < n do x = x + 1 od; assert n < 0 or x == n"
SUM = ("assume n >= 0; i = 0; s = 0; while i < n do s = s + i; i = i + 1 od; "
       "assert s == n * (n - 1) / 2")
NESTED = ("i = 0; t = 0; while i < n do j = 0; while j < i do j = j + 1; t = t + 1 od; "
          "if j > 3 then k = 1 else k = 2 fi; i = i + 1 od; assert t >= 0 and i >= 0")
DOWN = "assume x >= 0; y = x; while y > 0 do y = y - 1 od; assert y == 0"
BRANCH = ("if c > 0 then x = 0; while x < c do x = x + 1 od else x = c fi; "
          "assert x == c or c <= 0")
BUDGET = 10_000


def cond(text: str) -> BExpr:
    """The condition of `assert text`: an IMP formula."""
    return parse(f"assert {text}").cond  # type: ignore[union-attr]


def inferred(source: str) -> tuple[object, Safe]:
    p = parse(source)
    answer = infer(p, timeout_ms=BUDGET)
    assert isinstance(answer, Safe), answer
    return p, answer


@pytest.mark.parametrize("source", [COUNT, NESTED, DOWN, BRANCH])
def test_spacer_invariants_pass_both_provers(source):
    """On safe linear loop programs Spacer proposes one invariant per loop, keyed by the loop's
    pre-order index and position, and z3 and cvc5 prove all three kinds of obligation."""
    p, answer = inferred(source)
    whiles = loops(p)
    assert [i.index for i in answer.invariants] == list(range(len(whiles)))
    assert [i.pos for i in answer.invariants] == [w.pos for w in whiles]
    check = check_invariants(p, {i.index: i.invariant for i in answer.invariants})
    assert check.accepted, check.failed()
    assert any("preserved" in r.obligation.name for r in check.results)
    assert any(r.obligation.name.startswith("assert") for r in check.results)


def test_loops_are_numbered_in_preorder():
    """An outer loop comes before the loops of its body, which come before later loops."""
    p = parse("while a < 1 do while b < 1 do b = 1 od od; while c < 1 do c = 1 od")
    found = loops(p)
    assert [str(w.cond) for w in found] == ["a < 1", "b < 1", "c < 1"]
    assert all(isinstance(w, While) for w in found)


def test_summation_is_never_called_unsafe_and_its_closed_form_checks():
    """The summation's invariant is quadratic: Spacer either proposes one that both provers
    accept or gives up with a reason (measured: it gives up); the written closed-form invariant
    passes the check, a weakened one does not."""
    p = parse(SUM)
    answer = infer(p, timeout_ms=3_000)
    assert not isinstance(answer, Unsafe)
    if isinstance(answer, Safe):
        assert check_invariants(p, {i.index: i.invariant for i in answer.invariants}).accepted
    else:
        assert answer.reason
    assert check_invariants(p, {0: cond("0 <= i and i <= n and 2 * s == i * (i - 1)")}).accepted
    weak = check_invariants(p, {0: cond("0 <= i and i <= n")})
    assert not weak.accepted and any(r.refuted for r in weak.results)


@pytest.mark.parametrize("planted", ["x >= 0", "true", "x == n", "x <= n"])
def test_a_planted_wrong_invariant_is_rejected(planted):
    """Weakened or arbitrary invariants for the counting loop fail some obligation: `x >= 0`
    and `true` do not give the assert, `x == n` and `x <= n` do not hold on entry (n < 0)."""
    p = parse(COUNT)
    check = check_invariants(p, {0: cond(planted)})
    assert not check.accepted
    assert check.failed()


def test_a_wrong_invariant_fails_the_right_obligation():
    """`x == 0` holds on entry but is not preserved: only consecution (and what rests on it)
    fails, and a prover gives a counterexample."""
    p = parse(COUNT)
    check = check_invariants(p, {0: cond("x == 0")})
    failed = check.failed()
    assert any("preserved" in name for name in failed)
    assert not any("on entry" in name for name in failed)
    assert any(r.refuted for r in check.results if "preserved" in r.obligation.name)


@pytest.mark.parametrize("source", [
    "x = 0; while x < n do x = x + 2 od; assert n < 0 or x == n",
    "i = 0; s = 0; while i < n do s = s + i; i = i + 1 od; assert s <= 5",
    "x = 0; while x < n do x = x + 1 od; y = 10 / (x - 3)",
    "assume n > 0; x = n; while x > 1 do x = x - 1 od; if x == n then fail else skip fi",
    "z = y * 2; if z == 14 then fail else skip fi",
    "z = 10 / (y - 7); assert z != 3",
    "assume y < 0; z = x % y; assert z >= 0",
    BRANCH.replace("x == c", "x == c + 1"),
])
def test_a_counterexample_replays_to_the_failure(source):
    """On a buggy program Spacer's counterexample becomes an input whose concrete run gets
    stuck at a `fail` (the failing assert, the division by zero, the `fail`)."""
    p = parse(source)
    answer = infer(p, timeout_ms=BUDGET)
    assert isinstance(answer, Unsafe), answer
    final = run_to_end(answer.input, p, 100_000)
    assert final is not None and final.ending is Ending.FAIL


def test_division_by_a_variable_is_floor_division():
    """A quotient by a term is a fresh name with floor division's bounds: Python's `%` of a
    positive divisor lies in [0, y), which Spacer proves and both provers confirm."""
    p = parse("assume y > 0; z = x % y; assert z < y and z >= 0")
    answer = infer(p, timeout_ms=BUDGET)
    assert isinstance(answer, Safe), answer
    assert check_invariants(p, {}).accepted


ZERO = "i = 0; while i < n do a[i] = 0; i = i + 1 od; assert n <= 1 or a[1] == 0"
CHOICES = "i = 0; x = 0; while c[i] != 0 do x = x + 2; i = i + 1 od; assert x % 2 == 0"


@pytest.mark.parametrize("source", [ZERO, CHOICES])
def test_array_invariants_read_cells_and_pass_both_provers(source):
    """Arrays are arguments of the loop predicates (sort `Int → Int`); an invariant that reads
    a cell comes back as IMP (`a[1]`) and both provers accept it. An input array read once per
    iteration stands for a nondeterministic choice (CHOICES)."""
    p, answer = inferred(source)
    check = check_invariants(p, {i.index: i.invariant for i in answer.invariants})
    assert check.accepted, check.failed()


@pytest.mark.parametrize("planted", ["i >= 0", "i < 2 or a[1] == 1", "a[1] == 0"])
def test_a_planted_wrong_array_invariant_is_rejected(planted):
    """An invariant that forgets the written cell, names the wrong value, or does not hold on
    entry (the input's `a[1]` is arbitrary) fails some obligation."""
    check = check_invariants(parse(ZERO), {0: cond(planted)})
    assert not check.accepted and check.failed()


@pytest.mark.parametrize("source", [
    CHOICES.replace("x % 2 == 0", "x != 4"),
    "a[j] = 1; i = 0; while i < 3 do a[i] = 0; i = i + 1 od; assert a[j] == 1",
])
def test_an_array_counterexample_replays_to_the_failure(source):
    """Spacer's counterexample over arrays becomes an input with cells (`Cells`) that the
    concrete interpreter replays to the failing assert."""
    answer = infer(parse(source), timeout_ms=BUDGET)
    assert isinstance(answer, Unsafe), answer
    final = run_to_end(answer.input, parse(source), 100_000)
    assert final is not None and final.ending is Ending.FAIL


def test_unsupported_constructs_give_a_reason():
    """Objects and procedures are outside the encoding: an answer with a reason, no z3 call."""
    for source in ["class C(f) x = new C; x.f = 1; assert x.f == 1",
                   "proc f(x) begin return x end y = f(1); assert y == 1"]:
        answer = infer(parse(source))
        assert isinstance(answer, Unknown) and "not supported" in answer.reason


def test_obligations_of_a_loop_free_program_are_its_asserts_and_divisions():
    """Without loops the obligations are the safety ones of the single segment from the
    start; a written `true` invariant map changes nothing."""
    p = parse("assume y != 0; z = 10 / y; if z > 3 then assert y < 2 else skip fi")
    names = [o.name for o in obligations(p, {})]
    assert any(n.startswith("assert") for n in names)
    assert any(n.startswith("no division by zero") for n in names)
    check = check_invariants(p, {})
    assert check.failed() == [n for n in names if n.startswith("assert")]  # y == 2: z == 5
    assert check_invariants(parse("assume y != 0; z = 10 / y; if z > 3 then assert y < 4 "
                                  "else skip fi"), {}).accepted
    assert [o.name for o in obligations(p, {0: Bool(True)})] == names


def test_a_loop_head_keeps_what_the_body_does_not_write_once_per_state_reaching_it():
    """At a loop head only what the body may write is havocked (T-I1's havoc set), so an
    unwritten `n` keeps its value; and the body and the exit are enumerated once per distinct
    state reaching the head: the path with `y = 2` is checked too (planted: enumerating them
    only from the first state to arrive, `y = 1`, accepts a failing assert)."""
    kept = parse("n = 5; i = 0; while i < n do i = i + 1 od; assert i == 5")
    assert check_invariants(kept, {0: cond("i <= n")}).accepted
    p = parse("if x > 0 then y = 1 else y = 2 fi; i = 0; while i < 1 do i = i + 1 od; "
              "assert y == 1")
    [exit_] = [o for o in obligations(p, {}) if o.name.startswith("assert")]  # y = 1: true
    assert "loop 0 exit" in exit_.name and exit_.goal == Bool(False)
    failed = check_invariants(p, {0: cond("i <= 1")}).failed()
    assert len(failed) == 1 and failed[0].startswith("assert at main, loop 0 exit")


def test_a_call_without_a_contract_is_outside_the_check():
    """A call of a procedure with no contract, written or passed, is outside the fragment; a
    written contract is read as written, and a passed one fills in only its unwritten clauses
    (`verify.summaries` passes the contracts)."""
    with pytest.raises(ValueError, match="not in the fragment"):
        obligations(parse("proc f(x) begin return x end y = f(1); assert y == 1"), {})
    p = parse("proc f(x) requires true ensures result == x begin return x end "
              "y = f(1); assert y == 1")
    assert check_invariants(p, {}).accepted
    wrong = parse("assert false").cond
    assert check_invariants(p, {}, contracts={"f": (wrong, wrong)}).accepted
