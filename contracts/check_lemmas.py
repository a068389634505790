"""Lemmas with extra universally quantified variables, as `check_*` functions (DESIGN rule 2).

Each returns a bool and carries `@ensure(lambda result: result)`, so `crosshair check` searches
for arguments that make it False, and the Hypothesis properties call the same functions. This is
a folder of scripts, not a package: import it by path (see `tests/properties/strategies.py`).
"""

from __future__ import annotations

from icontract import ensure

from symcert.core.concrete import Env, aeval, beval
from symcert.core.state import Store, SymState, concretize
from symcert.core.symbolic import sym_aeval, sym_beval, sym_update
from symcert.core.terms import free_vars
from symcert.engine.explore import expand
from symcert.lang.structure import variables
from symcert.lang.syntax import AExpr, BExpr
from symcert.spec.expansion import expand_complete_at, expand_sound_at
from symcert.spec.switch import lemma


def _names(store: Store, *extra: frozenset[str]) -> frozenset[str]:
    out = frozenset(k for k, _ in store.bindings).union(*extra)
    return out.union(*(free_vars(t) for _, t in store.bindings))


@lemma("W-L2.1")
@ensure(lambda result: result)
def check_w_l2_1_compositionality(v: Env, store: Store, x: str, e: AExpr) -> bool:
    """`V∘(S[x := ⟦e⟧_S]) = (V∘S)[x := ⟦e⟧_{V∘S}]`, on every variable either side mentions."""
    names = _names(store, variables(e), frozenset({x}), frozenset(k for k, _ in v.bindings))
    before = concretize(v, store, names)
    return concretize(v, sym_update(store, x, e), names) == before.update(x, aeval(before, e))


@lemma("B-L1")
@ensure(lambda result: result)
def check_b_l1_substitution(v: Env, store: Store, e: AExpr, b: BExpr) -> bool:
    """`(V∘σ)(e) = V(eσ)` for an arithmetic and a boolean expression."""
    names = _names(store, variables(e), variables(b))
    composed = concretize(v, store, names)
    return (aeval(composed, e) == aeval(v, sym_aeval(store, e))
            and beval(composed, b) == beval(v, sym_beval(store, b)))


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
