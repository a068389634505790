"""Bounded quantifiers (X-Q1): the concrete evaluation over the range, the symbolic term, z3's
and cvc5's bounded `∀`/`∃` and the engine's verdict agree on generated quantified assertions;
a translation that reads the range as half-open is caught."""

from __future__ import annotations

import z3
from hypothesis import example, given, settings
from hypothesis import strategies as st

from symcert.core import terms
from symcert.core.algebra import fold_b
from symcert.core.concrete import Cells, Env, beval
from symcert.engine.verdict import Budget, Kind, check
from symcert.lang.parser import parse
from symcert.lang.syntax import Quant
from symcert.verify.provers import INVALID, VALID, prove_cvc5, prove_z3
from symcert.verify.smtlib import Script
from symcert.solver.z3terms import Z3, Z3Terms

CELLS = 4
"""The input's cells drawn: `a[0 .. CELLS - 1]`, every other cell 0."""
PINNED = range(-1, CELLS + 1)
"""Every cell an assertion below may read (`k` from -1 to 3, `a[k + 1]` up to 4)."""

BODIES = ["a[k] == {c}", "a[k] <= {c}", "a[k] != k + {c}", "a[k] >= k", "a[k] <= a[k + 1]",
          "(exists j in k .. {hi} :: a[j] == a[k] + {c})"]
BOUND = st.sampled_from(["0", "1", "2", "3", "n", "n - 1", "m"])


@st.composite
def assertions(draw: st.DrawFn) -> tuple[str, Env]:
    """A quantified assertion over `a`, `n`, `m` (reading cells of `PINNED` only), and an
    input."""
    word = draw(st.sampled_from(["forall", "exists"]))
    lo, hi = draw(BOUND), draw(BOUND)
    body = draw(st.sampled_from(BODIES)).format(c=draw(st.integers(-1, 2)), hi=hi)
    n, m = draw(st.integers(0, 3)), draw(st.integers(-1, 2))
    cells = draw(st.lists(st.integers(-1, 2), min_size=CELLS, max_size=CELLS))
    text = f"{word} k in {lo} .. {hi} :: {body}"
    if draw(st.booleans()):
        text = f"not ({text})"
    env = Env.of({"n": n, "m": m, "a": Cells.of(dict(enumerate(cells)))})
    return text, env


def _cells(env: Env) -> Cells:
    """The input array `a` (an environment drops an array of zeros)."""
    a = env("a")
    return a if isinstance(a, Cells) else Cells()


def _pinned(env: Env) -> str:
    """`n`, `m` and the cells `PINNED` as IMP conjuncts."""
    a = _cells(env)
    return " and ".join([f"n == {env('n')}", f"m == {env('m')}",
                         *(f"a[{i}] == {a(i)}" for i in PINNED)])


def _z3_value(b: object, env: Env, algebra: Z3Terms = Z3) -> bool:
    """The value z3 gives the formula `b` at `env` (the constants pinned): SAT of `b` alone."""
    s = z3.Solver()
    a = z3.Array("a", z3.IntSort(), z3.IntSort())
    s.add(z3.Int("n") == env("n"), z3.Int("m") == env("m"))
    s.add(*(z3.Select(a, i) == _cells(env)(i) for i in PINNED))
    s.add(fold_b(algebra, None, b))  # type: ignore[arg-type]
    answer = s.check()
    assert answer != z3.unknown
    return answer == z3.sat


@settings(max_examples=60, deadline=None)
@given(assertions())
@example(("forall k in 0 .. n - 1 :: a[k] == 0", Env.of({"n": 2, "a": Cells.of({1: 1})})))
def test_concrete_terms_z3_and_smtlib_agree(drawn):
    """X-Q1: at a pinned input, the concrete evaluation over the range, the symbolic term
    evaluated concretely, z3's bounded quantifier and the SMT-LIB text read by z3 and cvc5
    give the assertion the same value."""
    text, env = drawn
    b = parse(f"assert {text}").cond  # type: ignore[attr-defined]
    truth = beval(env, b)
    term = fold_b(terms.TERMS, terms.Var, b)
    assert beval(env, term) is truth
    assert _z3_value(b, env) is truth
    script = Script()
    pins = [script.bexpr(parse(f"assume {_pinned(env)}").cond)]  # type: ignore[attr-defined]
    goal = script.bexpr(b)
    text_goal = goal if truth else f"(not {goal})"
    smt = script.text(pins, text_goal)
    # Nested quantifiers over an unpinned array may leave a prover UNKNOWN (quantifier
    # alternation is undecidable in general); a refutation would be a wrong rule.
    answers = {prove_z3(smt, 2_000_000).status, prove_cvc5(smt, 2_000_000).status}
    assert INVALID not in answers and (VALID in answers or "exists" in text)


@settings(max_examples=12, deadline=None)
@given(assertions())
def test_the_engine_verdict_is_the_concrete_value(drawn):
    """X-Q1: `assume` the input, `assert` the quantified formula: the engine reports a bug,
    replayed, exactly when the concrete evaluation makes the assertion false."""
    text, env = drawn
    p = parse(f"assume {_pinned(env)};\nassert {text}")
    truth = beval(env, p.second.cond)  # type: ignore[attr-defined]
    verdict = check(p, Budget(200))
    assert verdict.kind is (Kind.SAFE if truth else Kind.BUG)
    if not truth:
        assert verdict.witness is not None and verdict.witness.final.steps > 0


class HalfOpen(Z3Terms):
    """A planted wrong rule: the range read as `lo ≤ k < hi` (inclusive at one end only)."""

    def quantifier(self, universal, name, lo, hi, body):  # type: ignore[no-untyped-def]
        k = z3.Int(name)
        within = z3.And(lo <= k, k < hi)
        return (z3.ForAll([k], z3.Implies(within, body(k))) if universal
                else z3.Exists([k], z3.And(within, body(k))))


def test_a_half_open_range_is_caught():
    """The comparison above catches a translation that drops the range's last value."""
    b = parse("assert forall k in 0 .. n - 1 :: a[k] == 0").cond  # type: ignore[attr-defined]
    env = Env.of({"n": 2, "a": Cells.of({1: 1})})
    assert isinstance(b, Quant) and beval(env, b) is False
    assert _z3_value(b, env) is False
    assert _z3_value(b, env, HalfOpen()) is True  # the planted rule disagrees: caught
