# crosshair: off
"""T-M1 obligations: the merge rule (`engine.merge.merge`) is an m-to-1 transition that is
precise (sound: every valuation of the merged state is one of a merged state's) and exhaustive
(complete: every valuation of either state is one of the merged state's, for some value of the
merge's fresh symbols), for every shape of the two stores' terms.

Two schematic states share the path condition `φ`, each adds one atom of its own (`u1 <= w1`,
`u2 <= w2`), and their stores bind `x` to terms of any two shapes (`A_SHAPES`; literals may be
equal, so the merge forks on whether the stores differ) and `y` alike or not. `merge` runs on
them; the store's concretization `V∘S` is compared on `x` and `y`:

- `T-M1/sound`: `⟦φm⟧_V ⇒ (⟦φa⟧_V ∧ V∘Sm = V∘Sa) ∨ (⟦φb⟧_V ∧ V∘Sm = V∘Sb)`;
- `T-M1/complete`: `⟦φa⟧_V ⇒ ∃ symbols. ⟦φm⟧_V ∧ V∘Sm = V∘Sa`, and the same for `b`.
"""

from __future__ import annotations

from symcert.verify import smtlib
from symcert.checking.obligations.common import A_SHAPES, B_SHAPES, PHI, Draft, Obligation, X, Y
from symcert.checking.obligations.common import collect, schematic_store
from symcert.verify.smtlib import Script, conj, disj
from symcert.core.state import Store, SymState
from symcert.core.terms import free_vars
from symcert.engine.merge import is_symbol, merge
from symcert.lang.syntax import AExpr, Skip, Var

SECOND = {"same": lambda i: Var(Y), "other": lambda i: Var(f"?o{i}")}
"""`y`'s binding in the second store: as in the first (the identity), or another term."""


def _agree(s: Script, a: Store, b: Store) -> str:
    """`V∘Sa = V∘Sb` on `x` and `y`."""
    return conj(smtlib.equal(s.aexpr(a(v)), s.aexpr(b(v))) for v in (X, Y))


def _exists(names: frozenset[str], body: str) -> str:
    bound = " ".join(f"({smtlib.symbol(n)} Int)" for n in sorted(names))
    return f"(exists ({bound}) {body})" if bound else body


def t_m1() -> list[Obligation]:
    """The soundness and completeness obligations of the merge rule, per pair of shapes."""
    out: list[Obligation] = []
    for sa, shape_a in A_SHAPES.items():
        for sb, shape_b in A_SHAPES.items():
            for sy, second in SECOND.items():
                def build(shape_a=shape_a, shape_b=shape_b, second=second) -> list[Draft]:
                    a_x: AExpr = shape_a(1)
                    b_x: AExpr = shape_b(2)
                    a = SymState(PHI.extend(B_SHAPES["atom"](1)),
                                 schematic_store((X, a_x)), Skip())
                    b = SymState(PHI.extend(B_SHAPES["atom"](2)),
                                 schematic_store((X, b_x), (Y, second(2))), Skip())
                    m = merge(a, b)
                    symbols = frozenset().union(*(free_vars(c) for c in m.pc.conjuncts()))
                    symbols = frozenset(v for v in symbols if is_symbol(v))
                    drafts = []
                    s = Script()
                    goal = disj([conj([s.conjunction(a.pc.conjuncts()), _agree(s, m.store, a.store)]),
                                 conj([s.conjunction(b.pc.conjuncts()), _agree(s, m.store, b.store)])])
                    drafts.append(Draft("T-M1", "sound", s, [s.conjunction(m.pc.conjuncts())],
                                        goal, m, (X, Y)))
                    for which, t in (("a", a), ("b", b)):
                        s = Script()
                        hypothesis = s.conjunction(t.pc.conjuncts())
                        body = conj([s.conjunction(m.pc.conjuncts()), _agree(s, m.store, t.store)])
                        for v in symbols:
                            s.sorts.pop(v, None)
                        drafts.append(Draft("T-M1", f"complete-{which}", s, [hypothesis],
                                            _exists(symbols, body), t, (X, Y)))
                    return drafts
                out += collect(f"{sa}+{sb}/{sy}", build)
    return out
