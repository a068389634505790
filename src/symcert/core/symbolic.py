"""Symbolic evaluation of IMP, `⟦e⟧_S` (seed 000, Fig. 3; seed 003's substitution `eσ`).

`sym_aeval` and `sym_beval` replace each variable of `e` by its term in `S` (the fold of
algebra.py with the symbolic algebra `terms.TERMS`); the identity store `id` maps every variable
to the symbolic input of the same name. `sym_update` is the assignment's store `S[x := ⟦e⟧_S]`.
`sym_guard` is the condition under which `e` divides by no zero in `S` (X-A2, guards.py).
"""

from __future__ import annotations

from symcert.core import terms
from symcert.core.algebra import fold, fold_a, fold_b
from symcert.core.guards import GUARDS
from symcert.core.state import Store
from symcert.lang.syntax import AExpr, BExpr
from symcert.spec.definedness import guard_exact
from symcert.spec.evaluation import aeval_compositional, beval_compositional, update_compositional
from symcert.spec.switch import CONTRACTS, icontract


@icontract.ensure(aeval_compositional, "W-L2.1 compositionality", enabled=CONTRACTS)
def sym_aeval(store: Store, e: AExpr) -> AExpr:
    """`⟦e⟧_S` for an arithmetic expression: `e` with each variable replaced by its term."""
    return fold_a(terms.TERMS, store, e)


@icontract.ensure(beval_compositional, "W-L2.1 compositionality", enabled=CONTRACTS)
def sym_beval(store: Store, b: BExpr) -> BExpr:
    """`⟦b⟧_S` for a boolean expression."""
    return fold_b(terms.TERMS, store, b)


@icontract.ensure(update_compositional, "W-L2.1 compositionality", enabled=CONTRACTS)
def sym_update(store: Store, x: str, e: AExpr) -> Store:
    """`S[x := ⟦e⟧_S]`: the store after the assignment `x = e`."""
    return store.update(x, sym_aeval(store, e))



@icontract.ensure(guard_exact, "X-A2 division by zero fails", enabled=CONTRACTS)
def sym_guard(store: Store, e: AExpr | BExpr) -> BExpr:
    """The guard of `e` in `S`: true exactly where evaluating `e` in `V∘S` divides by no zero."""
    return fold(GUARDS, store, e)[1]  # type: ignore[index]
