"""Why a quantified assertion fails, read off the concrete state (X-Q1): the values of its
bound variables at which it is false, found by the concrete evaluation itself, so a reported
`k` is replayed, not taken from a solver's model (which leaves bound variables unnamed)."""

from __future__ import annotations

from typing import Callable

from symcert.core.algebra import bound, fold_a, fold_b
from symcert.core.concrete import VALUES, Value
from symcert.lang.syntax import And, BExpr, Not, Or, Quant

Reading = Callable[[str], Value]


def refutation(env: Reading, b: BExpr) -> list[tuple[str, int]]:
    """The bound values at which `b`, false at `env`, fails: through the false conjunct of an
    `and`, each false disjunct of an `or`, `forall k ...` at its first value whose body is
    false, `not exists k ...` at its first value whose body holds; empty when `b` has no
    quantifier on that way (or holds)."""
    out: list[tuple[str, int]] = []
    want = False  # the value `b` has at `env` that is explained
    while True:
        match b:
            case Not(inner):
                b, want = inner, not want
            case And(left, right) if not want:
                b = left if fold_b(VALUES, env, left) is False else right
            case Or(left, right) if want:
                b = left if fold_b(VALUES, env, left) is True else right
            case Or(left, right) | And(left, right):  # both disjuncts false, conjuncts true
                first = refutation(env, left if not want else Not(left))
                return out + first + refutation(env, right if not want else Not(right))
            case Quant(universal, k, lo, hi, body) if universal is want:
                return out  # `forall` true or `exists` false: every value alike
            case Quant(_, k, lo, hi, body):
                found = _first(env, k, fold_a(VALUES, env, lo), fold_a(VALUES, env, hi),
                               body, want)
                if found is None:
                    return out
                out.append((k, found))
                env, b = bound(env, k, found), body
            case _:
                return out


def _first(env: Reading, k: str, lo: int, hi: int, body: BExpr, want: bool) -> int | None:
    """The least `v` in `lo .. hi` at which `body` (with `k` read as `v`) is `want`."""
    for v in range(lo, hi + 1):
        if fold_b(VALUES, bound(env, k, v), body) is want:
            return v
    return None
