"""Predicates about symbolic evaluation: compositionality, W-L2.1 and B-L1 (seed 000 Fig. 3,
seed 003), spot-checked at the sample valuations of `spec.concretization` at which the concrete
side is defined."""

from __future__ import annotations

from symcert.core.algebra import fold
from symcert.core.concrete import VALUES, aeval
from symcert.core.state import Store, concretize
from symcert.core.terms import free_vars
from symcert.lang.structure import variables
from symcert.lang.syntax import AExpr, BExpr
from symcert.spec.concretization import sample_valuations
from symcert.spec.definedness import defined
from symcert.spec.switch import lemma


def _composes(store: Store, e: AExpr | BExpr, result: AExpr | BExpr) -> bool:
    """At the sample valuations `V` of the names involved, `⟦result⟧_V = ⟦e⟧_{V∘S}` wherever
    the right side is defined (a division by zero is `fail`, X-A2, which the guard reports)."""
    names = variables(e)
    inputs = frozenset().union(*(variables(store(x)) for x in names)) if names else frozenset()
    for v in sample_valuations(inputs | names):
        expected = defined(lambda: fold(VALUES, concretize(v, store, names), e))
        if expected is not None and fold(VALUES, v, result) != expected:
            return False
    return True


@lemma("W-L2.1", "B-L1", "B-H3")
def aeval_compositional(store: Store, e: AExpr, result: AExpr) -> bool:
    """At fixed sample valuations `V`, `⟦⟦e⟧_S⟧_V = ⟦e⟧_{V∘S}`; for a read `a[i]` of an array
    the store binds to an update sequence, the resolved read against the substitution (B-H3)."""
    return _composes(store, e, result)


@lemma("W-L2.1", "B-L1", "B-H3")
def beval_compositional(store: Store, b: BExpr, result: BExpr) -> bool:
    """At fixed sample valuations `V`, `⟦⟦b⟧_S⟧_V = ⟦b⟧_{V∘S}` (reads resolved: B-H3)."""
    return _composes(store, b, result)


@lemma("W-L2.1")
def update_compositional(store: Store, x: str, e: AExpr, result: Store) -> bool:
    """At fixed sample valuations `V`, `V∘(S[x := ⟦e⟧_S]) = (V∘S)[x := ⟦e⟧_{V∘S}]`."""
    names = variables(e) | {x} | frozenset(k for k, _ in store.bindings)
    inputs = names.union(*(free_vars(store(y)) for y in names))
    for v in sample_valuations(inputs):
        before = defined(lambda: concretize(v, store, names))
        value = defined(lambda: aeval(before, e)) if before is not None else None
        if value is not None and concretize(v, result, names) != before.update(x, value):
            return False
    return True

