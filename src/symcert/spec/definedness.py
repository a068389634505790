"""Predicates about definedness (X-A2): a `/` or `%` by zero has no value, it steps to `fail`.

`defined` evaluates where evaluation may divide by zero; `guard_exact` says the guard
`guards.GUARDS` computes holds exactly where the concrete evaluation is defined."""

from __future__ import annotations

from typing import Callable, TypeVar

from symcert.core.algebra import fold
from symcert.core.concrete import VALUES, beval
from symcert.core.state import Store, concretize
from symcert.lang.structure import variables
from symcert.lang.syntax import AExpr, BExpr
from symcert.spec.concretization import sample_valuations
from symcert.spec.switch import lemma

T = TypeVar("T")


def defined(compute: Callable[[], T]) -> T | None:
    """`compute()`, or None when it divides by zero (no value of the concrete algebra is None)."""
    try:
        return compute()
    except ZeroDivisionError:
        return None


@lemma("X-A2")
def guard_exact(store: Store, e: AExpr | BExpr, result: BExpr) -> bool:
    """At the sample valuations `V` at which the store is defined, the guard holds iff `e` is
    defined at `V∘S`: `⟦ok⟧_V ⇔ ⟦e⟧_{V∘S} ≠ fail`."""
    names = variables(e)
    inputs = frozenset().union(*(variables(store(x)) for x in names)) if names else frozenset()
    for v in sample_valuations(inputs | names):
        before = defined(lambda: concretize(v, store, names))
        if before is None:
            continue
        ok = defined(lambda: beval(v, result))
        value = defined(lambda: fold(VALUES, before, e))
        if ok is None or ok != (value is not None):
            return False
    return True
