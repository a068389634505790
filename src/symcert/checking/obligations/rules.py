# crosshair: off
"""Obligations per rule of Fig. 3 / Fig. 7: W-L2.3 one-step soundness, W-L2.5 one-step
completeness, W-L2.2 monotone path conditions."""

from __future__ import annotations

from symcert.checking.obligations.common import (
    B_SHAPES,
    Obligation,
    PHI,
    S_X,
    V0,
    Draft,
    collect,
    env_equal,
    schematic_store,
    rule_of,
)
from symcert.checking.obligations.common import BODY
from symcert.checking.obligations.common import P1
from symcert.checking.obligations.common import P2
from symcert.checking.obligations.common import Q
from symcert.checking.obligations.common import X
from symcert.checking.obligations.common import Y
from symcert.checking.obligations.expressions import SHAPES_WITH_SELF
from symcert.checking.smtlib import Script, conj, disj, implies
from symcert.core.concrete import State, step
from symcert.core.state import ID, Store, SymState, concretize
from symcert.engine.explore import expand
from symcert.lang.syntax import Assert, Assign, Fail, If, Seq, Skip, Stmt, Var, While


def statement_variants() -> list[tuple[str, Stmt, Store, tuple[str, ...]]]:
    """(variant, program, store, compared variables) for every statement form of Fig. 1.

    Guards take each shape of `B_SHAPES`, assigned expressions each shape of `SHAPES_WITH_SELF`
    (through `?e`, bound in the store to a term of that shape), and a sequence's first statement
    each other form, so that every rule of `expand` and `step` is exercised.
    """
    out: list[tuple[str, Stmt, Store, tuple[str, ...]]] = [
        ("skip", Skip(), S_X, (X, Y)),
        ("fail", Fail(), S_X, (X, Y)),
    ]
    for sh, shape in SHAPES_WITH_SELF.items():
        for bound, base in (("bound", S_X), ("unbound", ID)):
            store = Store(tuple(sorted(base.bindings + (("?e", shape(1)),))))
            out.append((f"assign/{sh}/{bound}", Assign(X, Var("?e")), store, (X, Y, "?e")))
    for sh, guard in B_SHAPES.items():
        b = guard(1)
        names = (X, Y) + (("u1", "w1") if sh != "bool" else ())
        out.append((f"if/{sh}", If(b, P1, P2), S_X, names))
        out.append((f"while/{sh}", While(b, BODY), S_X, names))
        out.append((f"assert/{sh}", Assert(b), S_X, names))
    out.append(("seq-skip", Seq(Skip(), Q), S_X, (X, Y)))
    atom = B_SHAPES["atom"](1)
    firsts: list[tuple[str, Stmt, Store, tuple[str, ...]]] = [
        ("assign", Assign(X, Var("?e")), schematic_store((X, Var("?sx")), ("?e", Var("?t1"))),
         (X, Y, "?e")),
        ("if", If(atom, P1, P2), S_X, (X, Y, "u1", "w1")),
        ("while", While(atom, BODY), S_X, (X, Y, "u1", "w1")),
        ("assert", Assert(atom), S_X, (X, Y, "u1", "w1")),
        ("seq-skip", Seq(Skip(), P1), S_X, (X, Y)),
        ("fail", Fail(), S_X, (X, Y)),
    ]
    for variant, first, store, names in firsts:
        out.append((f"seq/{variant}", Seq(first, Q), store, names))
    return out


def _no_step_rule(p: Stmt) -> str:
    return "seq/" + _no_step_rule(p.first) if isinstance(p, Seq) else type(p).__name__.lower()


def _steps(p: Stmt, store: Store, names: tuple[str, ...]) -> list[Draft]:
    """The soundness, completeness and monotonicity obligations of one schematic state."""
    state = SymState(PHI, store, p)
    successors = expand(state)
    sigma = State(concretize(V0, store, frozenset(names)), p)
    nxt = step(sigma)
    drafts: list[Draft] = []
    if not successors or nxt is None:
        # No step on one side: then neither may have one (skip, and fail which is stuck).
        goal = "true" if not successors and nxt is None else "false"
        for lemma in ("W-L2.3", "W-L2.5"):
            drafts.append(Draft(lemma, _no_step_rule(p), Script(), [], goal, state, names))
        return drafts

    def simulated(s: Script, t: SymState) -> str:
        """`σ' = ⟨V0∘S', p'⟩` for the concrete successor `σ'` and the symbolic one `t`."""
        assert nxt is not None
        same = "true" if nxt.prog == t.prog else "false"
        return conj([same, env_equal(s, nxt.env, concretize(V0, t.store, frozenset(names)),
                                      names)])

    for t in successors:
        s = Script()
        drafts.append(Draft("W-L2.3", rule_of(p, t.prog), s, [s.conjunction(t.pc.conjuncts())],
                             simulated(s, t), state, names, t))
        m = Script()
        drafts.append(Draft("W-L2.2", rule_of(p, t.prog), m, [],
                             implies(m.conjunction(t.pc.conjuncts()),
                                     m.conjunction(PHI.conjuncts())), state, names, t))
    s = Script()
    some = disj(conj([s.conjunction(t.pc.conjuncts()), simulated(s, t)]) for t in successors)
    drafts.append(Draft("W-L2.5", rule_of(p, nxt.prog), s, [s.conjunction(PHI.conjuncts())],
                         some, state, names))
    return drafts


def statements() -> list[Obligation]:
    """W-L2.3, W-L2.5 and W-L2.2 for every statement variant."""
    out: list[Obligation] = []
    for variant, p, store, names in statement_variants():
        out += collect(variant, lambda p=p, store=store, names=names: _steps(p, store, names))
    return out
