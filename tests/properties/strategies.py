"""Bounded Hypothesis strategies for IMP: expressions, statements, programs, stores, states.

Everything is small on purpose (three variables, constants in [-4, 4], a few leaves), so that
concrete runs of a few steps already take both branches of most conditions. `checks()` loads
`contracts/check_lemmas.py`, a script folder rather than a package, by path.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from hypothesis import strategies as st

from symcert.concrete import Env, beval
from symcert.symbolic import PathCondition, Store, SymState
from symcert.syntax import (
    CMP_OPS, Add, AExpr, And, Assert, Assign, BExpr, Bool, Cmp, Fail, If, Int, Neg, Not, Or, Seq,
    Skip, Stmt, Sub, Var, While,
)
from symcert.terms import negate

NAMES = ("x", "y", "z")
ROOT = Path(__file__).resolve().parents[2]

names = st.sampled_from(NAMES)
small_ints = st.integers(-4, 4)

aexprs: st.SearchStrategy[AExpr] = st.recursive(
    st.one_of(st.builds(Int, small_ints), st.builds(Var, names)),
    lambda c: st.one_of(st.builds(Neg, c), st.builds(Add, c, c), st.builds(Sub, c, c)),
    max_leaves=5,
)

bexprs: st.SearchStrategy[BExpr] = st.recursive(
    st.one_of(st.builds(Bool, st.booleans()),
              st.builds(Cmp, st.sampled_from(CMP_OPS), aexprs, aexprs)),
    lambda c: st.one_of(st.builds(Not, c), st.builds(And, c, c), st.builds(Or, c, c)),
    max_leaves=3,
)

simple_stmts: st.SearchStrategy[Stmt] = st.one_of(
    st.builds(Assign, names, aexprs),
    st.builds(Assign, names, aexprs),
    st.builds(Assert, bexprs),
    st.just(Skip()),
    st.just(Fail()),
)

stmts: st.SearchStrategy[Stmt] = st.recursive(
    simple_stmts,
    lambda c: st.one_of(st.builds(Seq, c, c), st.builds(Seq, c, c),
                        st.builds(If, bexprs, c, c), st.builds(While, bexprs, c)),
    max_leaves=6,
)

programs = stmts

envs: st.SearchStrategy[Env] = st.dictionaries(names, st.integers(-6, 6)).map(Env.of)


@st.composite
def stores(draw: st.DrawFn) -> Store:
    """A store binding a few variables to small terms."""
    s = Store()
    for x, t in draw(st.lists(st.tuples(names, aexprs), max_size=3)):
        s = s.update(x, t)
    return s


path_conditions = st.lists(bexprs, max_size=2).map(lambda cs: PathCondition.of(*cs))

sym_states = st.builds(SymState, path_conditions, stores(), stmts)


@st.composite
def states_satisfied_by(draw: st.DrawFn) -> tuple[SymState, Env]:
    """A symbolic state and a valuation `V0` with `V0 ⊨ φ` (each conjunct flipped to hold)."""
    v = draw(envs)
    conjuncts = [c if beval(v, c) else negate(c) for c in draw(st.lists(bexprs, max_size=2))]
    return SymState(PathCondition.of(*conjuncts), draw(stores()), draw(stmts)), v


def checks() -> ModuleType:
    """`contracts/check_lemmas.py`, imported by path."""
    name = "symcert_contract_checks"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, ROOT / "contracts" / "check_lemmas.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]
