"""W-L2.1 compositionality, B-L1 substitution, W-D2.2 concretization (seed 000 Sect. 2), X-A2
guard exactness."""

from __future__ import annotations

import z3
from hypothesis import given
from hypothesis import strategies as st

from strategies import aexprs, bexprs, checks, envs, names, stores
from symcert.core.state import concretize
from symcert.core.terms import free_vars
from symcert.solver.z3backend import Solver
from symcert.spec.concretization import concretize_pointwise


@given(envs, stores(), names, aexprs)
def test_compositionality(v, store, x, e):
    """W-L2.1: `V∘(S[x := ⟦e⟧_S]) = (V∘S)[x := ⟦e⟧_{V∘S}]` (the contracts/ check)."""
    assert checks().check_w_l2_1_compositionality(v, store, x, e)


@given(envs, stores(), aexprs, bexprs)
def test_substitution(v, store, e, b):
    """B-L1: `(V∘σ)(e) = V(eσ)` for arithmetic and boolean expressions (the contracts/ check)."""
    assert checks().check_b_l1_substitution(v, store, e, b)


@given(envs, stores(), aexprs, bexprs)
def test_guard_exact(v, store, e, b):
    """X-A2: the guard of an expression holds exactly where its concrete value is defined (the
    contracts/ check; the proof obligations `X-A2/` prove it operation by operation)."""
    assert checks().check_x_a2_guard_exact(v, store, e, b)


@given(envs, stores(), st.frozensets(names))
def test_concretize_pointwise(v, store, wanted):
    """W-D2.2: `(V∘S)(x) = ⟦S(x)⟧_V` for every requested variable, and no other is bound."""
    result = concretize(v, store, wanted)
    assert concretize_pointwise(v, store, wanted, result)
    # A second formulation of `⟦S(x)⟧_V`: z3's arithmetic on the translated term.
    solver = Solver()
    for x in wanted:
        term = solver.translate(store(x))
        inputs = [(z3.Int(y), z3.IntVal(v(y))) for y in sorted(free_vars(store(x)))]
        assert result(x) == z3.simplify(z3.substitute(term, *inputs)).as_long()
