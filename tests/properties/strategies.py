"""Bounded Hypothesis strategies for IMP: expressions, statements, programs, stores, states.

Each strategy runs the one generator (`symcert.checking.generate`) on choices drawn as
`st.integers(lo, hi)`, so Hypothesis shrinks the choice sequence towards 0, that is towards
simpler programs. Everything is small on purpose (three variables, constants in [-4, 4], at
most six leaf statements), so that concrete runs of a few steps already take both branches of
most conditions. `checks()` loads `contracts/check_lemmas.py` (or another file of that folder,
a script folder rather than a package) by path.
"""

from __future__ import annotations

import importlib.util
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from types import ModuleType
from typing import Callable, TypeVar

from hypothesis import strategies as st

from symcert.checking import generate
from symcert.core.concrete import Env
from symcert.core.state import Store, SymState
from symcert.lang.syntax import AExpr, BExpr, Stmt

T = TypeVar("T")
ROOT = Path(__file__).resolve().parents[2]

SHAPE = generate.Shape(names=("x", "y", "z"), literal=4, value=6, aexpr_depth=3, bexpr_depth=2,
                       operand_depth=3, stmt_depth=3, leaves=6, loop_depth=3, conjuncts=2)
"""The suites' programs: three variables, literals in [-4, 4], values in [-6, 6], up to six
leaf statements three levels deep, any loop condition (loops need not terminate)."""


@dataclass(frozen=True)
class Draws:
    """`generate.Choices` from Hypothesis: each choice one `st.integers(lo, hi)` draw."""

    draw: st.DrawFn

    def integer(self, lo: int, hi: int) -> int:
        return self.draw(st.integers(lo, hi))


PROCEDURAL = replace(SHAPE, procedures=2, aexpr_depth=2, operand_depth=1, bexpr_depth=1)
"""As SHAPE, with up to two procedures `p(d, a)`, `q(d, a)` (recursive, mutually recursive,
called with a depth in [0, 2]): the programs of B-T3, B-C3, B-P1 and B-P2."""

ARRAYS = replace(SHAPE, arrays=("b", "c"), aexpr_depth=2, operand_depth=2, bexpr_depth=1,
                 loop_bound=3)
"""As SHAPE, with the arrays `b`, `c` (seed 003 §5: reads and writes at small indices, which
often alias) and loops bounded by construction: the programs of B-A1 and B-H3."""

PLAIN = replace(SHAPE, divisions=False)
"""As SHAPE, without `/` and `%`: for formulas that stand for path conditions, whose divisions a
reachable state's earlier conjuncts would guard (X-A2)."""


def generated(make: Callable[[generate.Choices, generate.Shape], T],
              shape: generate.Shape = SHAPE) -> st.SearchStrategy[T]:
    """The strategy running `make(choices, shape)` on Hypothesis's choices."""

    @st.composite
    def strategy(draw: st.DrawFn) -> T:
        return make(Draws(draw), shape)

    return strategy()


names: st.SearchStrategy[str] = generated(generate.name)
aexprs: st.SearchStrategy[AExpr] = generated(generate.aexpr)
bexprs: st.SearchStrategy[BExpr] = generated(generate.bexpr)
plain_aexprs: st.SearchStrategy[AExpr] = generated(generate.aexpr, PLAIN)
plain_bexprs: st.SearchStrategy[BExpr] = generated(generate.bexpr, PLAIN)
programs: st.SearchStrategy[Stmt] = generated(generate.program)
procedural_programs: st.SearchStrategy[Stmt] = generated(generate.program, PROCEDURAL)
envs: st.SearchStrategy[Env] = generated(generate.env)
sym_states: st.SearchStrategy[SymState] = generated(generate.sym_state)
array_programs: st.SearchStrategy[Stmt] = generated(generate.program, ARRAYS)
array_envs: st.SearchStrategy[Env] = generated(generate.env, ARRAYS)
array_aexprs: st.SearchStrategy[AExpr] = generated(generate.aexpr, ARRAYS)
array_bexprs: st.SearchStrategy[BExpr] = generated(generate.bexpr, ARRAYS)
array_stores: st.SearchStrategy[Store] = generated(generate.store, ARRAYS)


def stores() -> st.SearchStrategy[Store]:
    """A store binding a few variables to small terms."""
    return generated(generate.store)


def states_satisfied_by() -> st.SearchStrategy[tuple[SymState, Env]]:
    """A symbolic state and a valuation `V0` with `V0 ⊨ φ` (each conjunct flipped to hold)."""
    return generated(generate.state_satisfied_by)


def checks(file: str = "check_lemmas.py") -> ModuleType:
    """A file of `contracts/` (`check_lemmas.py` unless named), imported by path."""
    name = "symcert_contract_" + file.removesuffix(".py")
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, ROOT / "contracts" / file)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]
