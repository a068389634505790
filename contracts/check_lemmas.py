"""Lemmas with extra universally quantified variables, as `check_*` functions (DESIGN rule 2).

Each returns a bool and carries `@ensure(lambda result: result)`, so `crosshair check` searches
for arguments that make it False, and the Hypothesis properties call the same functions. This is
a folder of scripts, not a package: import it by path (see `tests/properties/strategies.py`).
"""

from __future__ import annotations

from typing import Callable

from icontract import ensure

from symcert.core.algebra import fold
from symcert.core.concrete import VALUES, Cells, Env, aeval, beval
from symcert.core.state import Store, SymState, concretize
from symcert.core.symbolic import sym_aeval, sym_beval, sym_guard, sym_update
from symcert.core.terms import free_vars
from symcert.engine.explore import expand
from symcert.lang.structure import variables
from symcert.lang.syntax import AExpr, BExpr
from symcert.spec.definedness import defined
from symcert.spec.expansion import expand_complete_at, expand_sound_at
from symcert.spec.switch import lemma


def _agree(concrete: Callable[[], object], symbolic: Callable[[], object]) -> bool:
    """Where the concrete side is defined (no division by zero, X-A2), the symbolic side is
    defined and equal. (A symbolic term may be defined where the concrete side is not:
    `x / 0 * 0` folds to `0`; the guard, not the term, reports the division.)"""
    expected = defined(concrete)
    return expected is None or defined(symbolic) == expected


def _names(store: Store, *extra: frozenset[str]) -> frozenset[str]:
    out = frozenset(k for k, _ in store.bindings).union(*extra)
    return out.union(*(free_vars(t) for _, t in store.bindings))


@lemma("W-L2.1")
@ensure(lambda result: result)
def check_w_l2_1_compositionality(v: Env, store: Store, x: str, e: AExpr) -> bool:
    """`V∘(S[x := ⟦e⟧_S]) = (V∘S)[x := ⟦e⟧_{V∘S}]`, on every variable either side mentions,
    wherever the right side is defined."""
    names = _names(store, variables(e), frozenset({x}), frozenset(k for k, _ in v.bindings))
    before = concretize(v, store, names)
    return _agree(lambda: before.update(x, aeval(before, e)),
                  lambda: concretize(v, sym_update(store, x, e), names))


@lemma("B-L1")
@ensure(lambda result: result)
def check_b_l1_substitution(v: Env, store: Store, e: AExpr, b: BExpr) -> bool:
    """`(V∘σ)(e) = V(eσ)` for an arithmetic and a boolean expression."""
    names = _names(store, variables(e), variables(b))
    composed = concretize(v, store, names)
    return (_agree(lambda: aeval(composed, e), lambda: aeval(v, sym_aeval(store, e)))
            and _agree(lambda: beval(composed, b), lambda: beval(v, sym_beval(store, b))))


@lemma("B-A1")
@ensure(lambda result: result)
def check_b_a1_concrete_read_over_write(cells: dict[int, int], default: int, index: int,
                                        value: int, read: int) -> bool:
    """The concrete array (`Cells`, seed 003 §5) after `a[index] = value` reads `value` at
    `index` and the old cell elsewhere, equals (and hashes as) the array built from the
    updated map, and leaves the array it was written in unchanged."""
    before = Cells.of(cells, default)
    after = before.set(index, value)
    updated = Cells.of({**cells, index: value}, default)
    return (after(read) == (value if read == index else cells.get(read, default))
            and after == updated and hash(after) == hash(updated)
            and before == Cells.of(cells, default))


@lemma("X-A2")
@ensure(lambda result: result)
def check_x_a2_guard_exact(v: Env, store: Store, e: AExpr, b: BExpr) -> bool:
    """The guard `ok` of an expression in `S` holds at `V` iff the expression is defined at
    `V∘S` (a `/` or `%` by zero is `fail`), for an arithmetic and a boolean expression."""
    names = _names(store, variables(e), variables(b))
    composed = concretize(v, store, names)
    return all(beval(v, sym_guard(store, x)) == (defined(lambda: fold(VALUES, composed, x))
                                                  is not None) for x in (e, b))


@lemma("W-L2.3")
@ensure(lambda result: result)
def check_w_l2_3_one_step_soundness(state: SymState, v: Env) -> bool:
    """`σ̂ →sym σ̂' ∧ V ⊨ φ' ⇒ ⟨V∘S, p⟩ → ⟨V∘S', p'⟩` for every successor `expand` gives."""
    return expand_sound_at(state, v, expand(state))


@lemma("W-L2.5")
@ensure(lambda result: result)
def check_w_l2_5_one_step_completeness(state: SymState, v0: Env) -> bool:
    """`σ ≃_{V0} σ̂ ∧ σ → σ' ⇒ ∃σ̂' ∈ expand(σ̂). σ' ≃_{V0} σ̂'`, with `σ = ⟨V0∘S, p⟩`."""
    return expand_complete_at(state, v0, expand(state))
