# crosshair: off
"""Obligations per rule of Fig. 3 / Fig. 7: W-L2.3 one-step soundness, W-L2.5 one-step
completeness, W-L2.2 monotone path conditions."""

from __future__ import annotations

from typing import Callable

from symcert.checking.obligations.common import (
    A_SHAPES,
    B_SHAPES,
    Obligation,
    PHI,
    S_X,
    V0,
    Draft,
    collect,
    env_equal,
    frames_equal,
    schematic_store,
    rule_of,
    snum,
)
from symcert.checking.obligations.common import BODY
from symcert.checking.obligations.common import P1
from symcert.checking.obligations.common import P2
from symcert.checking.obligations.common import Q
from symcert.checking.obligations.common import X
from symcert.checking.obligations.common import Y
from symcert.checking.obligations.expressions import SHAPES_WITH_SELF
from symcert.verify.smtlib import Script, conj, disj, implies, sbool
from symcert.core.concrete import State, head, step
from symcert.core.frames import Frame
from symcert.core.state import ID, Store, SymState, concretize, concretize_frames
from symcert.engine.explore import expand
from symcert.lang.syntax import (
    AExpr,
    And,
    Assert,
    Assign,
    Assume,
    BExpr,
    Bool,
    Cmp,
    Div,
    Fail,
    If,
    Int,
    Mod,
    New,
    Not,
    Or,
    Seq,
    Skip,
    Stmt,
    Var,
    While,
)
from symcert.lang.structure import variables
from symcert.spec.definedness import defined


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
        out.append((f"assume/{sh}", Assume(b), S_X, names))
    out.append(("seq-skip", Seq(Skip(), Q), S_X, (X, Y)))
    out.append(("new", New(X, "C", (".f",)), S_X, (X, Y)))  # seed 003 §4
    out.append(("new-field", New(".f", "C", (".f",), at=Var(X)), S_X, (X, Y)))  # `x.f = new C`
    atom = B_SHAPES["atom"](1)
    firsts: list[tuple[str, Stmt, Store, tuple[str, ...]]] = [
        ("assign", Assign(X, Var("?e")), schematic_store((X, Var("?sx")), ("?e", Var("?t1"))),
         (X, Y, "?e")),
        ("if", If(atom, P1, P2), S_X, (X, Y, "u1", "w1")),
        ("while", While(atom, BODY), S_X, (X, Y, "u1", "w1")),
        ("assert", Assert(atom), S_X, (X, Y, "u1", "w1")),
        ("assume", Assume(atom), S_X, (X, Y, "u1", "w1")),
        ("seq-skip", Seq(Skip(), P1), S_X, (X, Y)),
        ("fail", Fail(), S_X, (X, Y)),
    ]
    for variant, first, store, names in firsts:
        out.append((f"seq/{variant}", Seq(first, Q), store, names))
    return out + dividing_variants()


E1, E2, E3 = Var("?e1"), Var("?e2"), Var("?e3")


def _dividing_store(divisor: str) -> Store:
    """`x ↦ ?sx`, the operands `?e1 ↦ ?t1`, `?e3 ↦ ?t3` and `?e2` bound to a term of a shape."""
    return schematic_store((X, Var("?sx")), ("?e1", Var("?t1")), ("?e2", A_SHAPES[divisor](2)),
                           ("?e3", Var("?t3")))


ASSIGNED: dict[str, AExpr] = {
    "div": Div(E1, E2),
    "mod": Mod(E1, E2),
    "div-literal": Div(E1, Int(snum("?k9"))),  # type: ignore[arg-type]
    "nested-divisor": Div(E1, Mod(E2, E3)),
    "nested-dividend": Mod(Div(E1, E2), E3),
}
"""Assigned expressions that may divide by zero: at the top (a divisor `?e2` of each shape, or a
literal of the program, which `may_fail` tests), nested in the divisor or in the dividend."""

LEFT = Cmp("<=", E1, E3)
"""A left operand of `and`/`or` that may go either way and divides by nothing."""

TESTED: dict[str, BExpr] = {
    "cmp-div": Cmp("<", Div(E1, E2), E3),
    "and-right": And(LEFT, Cmp("==", Mod(E1, E2), Int(0))),
    "or-right": Or(LEFT, Cmp("==", Mod(E1, E2), Int(0))),
    "and-literal": And(Bool(sbool("?b1")), Cmp("<", Div(E1, E2), E3)),  # type: ignore[arg-type]
    "or-not-left": Or(Not(Cmp("<", Div(E1, E2), E3)), LEFT),
}
"""Tests that may divide by zero: in a comparison, in the right operand of `and`/`or` (reached
only where the left one does not decide, a literal one included), in the left one."""


def dividing_variants() -> list[tuple[str, Stmt, Store, tuple[str, ...]]]:
    """The statement forms whose expression may divide by zero (X-A2): each has the successor
    stuck at `fail`, `φ ∧ ¬ok`, besides its others, which assume `ok`."""
    out: list[tuple[str, Stmt, Store, tuple[str, ...]]] = []
    for name, e in ASSIGNED.items():
        for sh in ("int", "term") if name in ("div", "mod") else ("term",):
            out.append((f"assign/{name}/{sh}", Assign(X, e), _dividing_store(sh), _reads(e)))
    for name, b in TESTED.items():
        forms = [("if", If(b, P1, P2))]
        if name in ("cmp-div", "and-right"):  # the same `_branch` as `if`: two tests suffice
            forms += [("while", While(b, BODY)), ("assert", Assert(b)), ("assume", Assume(b))]
        for form, p in forms:
            out.append((f"{form}/{name}", p, _dividing_store("term"), _reads(b)[1:]))
    first = Assign(X, Div(E1, E2))
    out.append(("seq/assign/div", Seq(first, Q), _dividing_store("term"), _reads(first.expr)))
    return out


def _reads(e: AExpr | BExpr) -> tuple[str, ...]:
    """The variables compared: `x`, the frame `y` and those `e` reads (each more doubles the
    paths: `Env.of` branches on whether a value is 0); a test compares all but `x`."""
    return (X, Y, *sorted(variables(e)))


def _no_step_rule(p: Stmt) -> str:
    """The rule name of a state with no concrete step: finished, stuck, or blocked (X-U1)."""
    if isinstance(p, Seq):
        return "seq/" + _no_step_rule(p.first)
    return "assume-blocked" if isinstance(p, Assume) else type(p).__name__.lower()


Naming = Callable[[Stmt, Stmt], str]
"""How a step from one program to another is named: `rule_of`, or in a procedure
`procedures.frame_rule`'s."""


def steps(p: Stmt, store: Store, names: tuple[str, ...], frame: Frame[Store] | None = None,
           rule_of: Naming = rule_of) -> list[Draft]:
    """The soundness, completeness and monotonicity obligations of one schematic state
    `⟨?phi, S, p⟩`, with the stack `frame` when it runs in a procedure (seed 003 §3): the
    concrete state is `⟨V0∘S, p⟩` with the stack `V0∘Σ` (`concretize_frames`), and a successor
    matches when its globals on `names`, its program and its stack (`frames_equal`) do."""
    state = SymState(PHI, store, p, frame=frame)
    successors = expand(state)
    sigma = State(concretize(V0, store, frozenset(names)), p,
                  frame=concretize_frames(V0, frame))
    nxt = step(sigma)
    drafts: list[Draft] = []
    if not successors:
        # No symbolic step: then no concrete one either (skip, and fail which is stuck).
        goal = "true" if nxt is None else "false"
        for lemma in ("W-L2.3", "W-L2.5"):
            drafts.append(Draft(lemma, _no_step_rule(p), Script(), [], goal, state, names))
        return drafts
    if nxt is None:
        # No concrete step (an `assume` that blocks, X-U1): sound iff no successor's path
        # condition holds at V0; complete with nothing to match.
        rule, s, m = _no_step_rule(p), Script(), Script()
        some = disj(s.conjunction(t.pc.conjuncts()) for t in successors)
        drafts.append(Draft("W-L2.3", rule, s, [], f"(not {some})", state, names))
        grows = conj([implies(m.conjunction(t.pc.conjuncts()), m.conjunction(PHI.conjuncts()))
                      for t in successors])
        drafts.append(Draft("W-L2.2", rule, m, [], grows, state, names))
        drafts.append(Draft("W-L2.5", rule, Script(), [], "true", state, names))
        return drafts

    def simulated(s: Script, t: SymState) -> str:
        """`σ' = ⟨V0∘S', p'⟩` for the concrete successor `σ'` and the symbolic one `t` (false
        where `V0∘S'` divides by zero)."""
        assert nxt is not None
        after = defined(lambda: (concretize(V0, t.store, frozenset(names)),
                                 concretize_frames(V0, t.frame)))
        if after is None:
            return "false"
        same = "true" if nxt.prog == t.prog else "false"
        return conj([same, env_equal(s, nxt.env, after[0], names),
                     frames_equal(s, nxt.frame, after[1])])

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
        out += collect(variant, lambda p=p, store=store, names=names: steps(p, store, names))
    return out
