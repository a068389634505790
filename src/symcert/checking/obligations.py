# crosshair: off
# (it generates and discharges proof obligations with z3 and cvc5: a checker, not the engine)
"""Proof obligations generated from the engine's own code, discharged by z3 and cvc5 (issue 5).

Each obligation runs the project's functions (`explore.expand`, `explore._feasible`,
`concrete.step`, `symbolic.sym_aeval`/`sym_beval`/`sym_update`/`concretize`,
`interp.existentially_quantify`/`maybe_sat`) on a *schematic*
state: integer and boolean literals hold `SymInt`/`SymBool` values that stand for arbitrary ones,
expressions and statements are placeholders (`?e1`, `?P1`), the path condition is the unknown
boolean `?phi`. When the code branches on a schematic value, generation forks and records the
branch taken, so the code's every path yields its own obligation; the results are translated to
SMT-LIB (`symcert.checking.smtlib`) and an obligation is VALID when its negation is UNSAT, for both
provers. The case analysis that turns the obligations into the lemmas is in docs/proofs.md.

`python -m symcert.checking.obligations` replays every obligation and compares with proofs/record.json
(`--write` records anew and regenerates the table in docs/proofs.md).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
import itertools
from typing import Any, Callable, Iterable

from symcert.checking import provers, smtlib
from symcert.core.algebra import fold, is_formula
from symcert.core.concrete import VALUES, Env, State, aeval, beval, step
from symcert.engine.explore import RunStats, _feasible, expand
from symcert.seed004.interp import existentially_quantify, maybe_sat
from symcert.checking.smtlib import SMT_TEXT, Script, SymBool, SymInt, conj, disj, equal, implies, paths, sbool, sint
from symcert.solver.z3backend import Sat
from symcert.core.state import ID, PathCondition, Store, SymState, concretize
from symcert.core.symbolic import sym_aeval, sym_beval, sym_update
from symcert.lang.structure import variables
from symcert.lang.syntax import (
    CMP_OPS,
    Add,
    AExpr,
    And,
    Assert,
    Assign,
    BExpr,
    Bool,
    Cmp,
    Fail,
    If,
    Int,
    Neg,
    Node,
    Not,
    Or,
    Seq,
    Skip,
    Stmt,
    Sub,
    Var,
    While,
    show_stmt,
)
from symcert.core.terms import TERMS, free_vars

# --- obligations ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Obligation:
    """One proof obligation: its SMT-LIB script and what to print when a prover refutes it.

    `premises` is the script of its hypotheses alone (VALID there: they contradict each other,
    and the obligation holds vacuously). `state` is the schematic symbolic state it starts from
    and `names` the program variables it compares; `successor` the symbolic successor it is
    about, `value` the symbolic value of an expression it is about.
    """

    name: str
    lemma: str
    rule: str
    text: str
    premises: str
    state: SymState | None = None
    names: tuple[str, ...] = ()
    successor: SymState | None = None
    value: AExpr | BExpr | None = None


X, Y = "x", "y"
"""The program variables of a schematic state: `x`, the one the rule assigns or reads, and `y`,
standing for every other variable."""

A_SHAPES: dict[str, Callable[[int], AExpr]] = {
    "int": lambda i: Int(sint(f"?k{i}")),  # type: ignore[arg-type]
    "add-int": lambda i: Add(Var(f"?t{i}"), Int(sint(f"?k{i}"))),  # type: ignore[arg-type]
    "neg": lambda i: Neg(Var(f"?t{i}")),
    "term": lambda i: Var(f"?t{i}"),
}
"""One arithmetic term per shape the smart constructors of terms.py tell apart (a literal, a sum
ending in a literal, a negation, anything else); `?t`, `?k` stand for an arbitrary term, value."""

B_SHAPES: dict[str, Callable[[int], BExpr]] = {
    "bool": lambda i: Bool(sbool(f"?b{i}")),  # type: ignore[arg-type]
    "not": lambda i: Not(Cmp("<=", Var(f"u{i}"), Var(f"w{i}"))),
    "atom": lambda i: Cmp("<=", Var(f"u{i}"), Var(f"w{i}")),
}
"""One formula per shape `negate`, `conj`, `disj` tell apart (a literal, a negation, anything
else); each is its own symbolic value under the identity store."""

PHI = PathCondition.of(Bool(sbool("?phi")))  # type: ignore[arg-type]
"""The schematic path condition `φ`: one unknown conjunct."""


def _placeholder(name: str) -> Stmt:
    """A statement standing for an arbitrary one (`?P1 = 0`): a rule only carries it along."""
    return Assign(f"?{name}", Int(0))


P1, P2, Q, BODY = (_placeholder(n) for n in ("P1", "P2", "Q", "BODY"))

RULES: dict[type, tuple[str, ...]] = {
    Skip: ("skip",),
    Fail: ("fail",),
    Assign: ("assign",),
    If: ("if-then", "if-else"),
    While: ("while-enter", "while-exit"),
    Assert: ("assert-pass", "assert-fail"),
    Seq: ("seq-skip", "seq"),
}
"""The rules of Figs. 2-3 by statement class; `skip` and `fail` name the absence of a step."""

EXPR_CASES: tuple[str, ...] = tuple(
    ["Int", "Var", "Bool", "Neg", "Add", "Sub", "Not", "And", "Or"] + [f"Cmp{op}" for op in CMP_OPS])
"""The cases of the induction on expressions: a base case per leaf, a step per constructor."""


def rule_of(p: Stmt, p2: Stmt) -> str:
    """The rule by which a step goes from program `p` to program `p2`."""
    match p:
        case Assign():
            return "assign"
        case If(_, then_, _):
            return "if-then" if p2 == then_ else "if-else"
        case While():
            return "while-enter" if isinstance(p2, Seq) else "while-exit"
        case Assert():
            return "assert-pass" if isinstance(p2, Skip) else "assert-fail"
        case Seq(Skip(), _):
            return "seq-skip"
        case Seq(p1, _) if isinstance(p2, Seq):
            return "seq/" + rule_of(p1, p2.first)
    return type(p).__name__.lower()


class _Inputs(Env):
    """`V0` as an environment: every input `n` holds the schematic integer `n` (its SMT constant),
    so no input is silently 0."""

    def __call__(self, name: str) -> int:
        return sint(name)  # type: ignore[return-value]


V0 = _Inputs()


def _env_equal(s: Script, a: Env, b: Env, names: Iterable[str]) -> str:
    """The SMT formula `a(n) = b(n)` for every name."""
    return conj(equal(s.int_value(a(n)), s.int_value(b(n))) for n in names)


@dataclass
class _Draft:
    """An obligation before its path's branch conditions are added to the hypotheses."""

    lemma: str
    rule: str
    script: Script
    hypotheses: list[str]
    goal: str
    state: SymState | None = None
    names: tuple[str, ...] = ()
    successor: SymState | None = None
    value: AExpr | BExpr | None = None


def _collect(variant: str, build: Callable[[], list[_Draft]]) -> list[Obligation]:
    """The obligations of every path of `build`, named `lemma/rule/variant#path`."""
    out: list[Obligation] = []
    for bits, facts, constants, drafts in paths(build):
        for d in drafts:  # type: ignore[attr-defined]
            for name, sort in sorted(constants):
                d.script.declare(name, sort)
            name = f"{d.lemma}/{d.rule}/{variant}" + (f"#{bits}" if bits else "")
            text = d.script.text([*facts, *d.hypotheses], d.goal)
            premises = d.script.text([*facts, *d.hypotheses], "false")
            out.append(Obligation(name, d.lemma, d.rule, text, premises, d.state, d.names,
                                  d.successor, d.value))
    return out


def _store(*bindings: tuple[str, AExpr]) -> Store:
    return Store(tuple(sorted(bindings)))


S_X = _store((X, Var("?sx")))
"""A store binding `x` to an arbitrary term `?sx` (and every other variable to itself)."""


# --- B-L1 substitution (and W-L2.1 on expressions): induction on the expression ---------------


def b_l1() -> list[Obligation]:
    """`⟦⟦e⟧_S⟧_{V0} = ⟦e⟧_{V0∘S}`: a base case per leaf, a step per constructor and per shape
    of the sub-expressions' symbolic values, the induction hypothesis as an assumption."""
    out: list[Obligation] = []

    def leaf_int() -> list[_Draft]:
        s, e = Script(), Int(sint("?k"))  # type: ignore[arg-type]
        value = sym_aeval(ID, e)
        return [_Draft("B-L1", "Int", s, [], equal(s.aexpr(value), s.int_value(aeval(Env(), e))),
                       _evaluating(ID, e), (), None, value)]

    def leaf_bool() -> list[_Draft]:
        s, e = Script(), Bool(sbool("?b"))  # type: ignore[arg-type]
        value = sym_beval(ID, e)
        return [_Draft("B-L1", "Bool", s, [], equal(s.bexpr(value), s.bool_value(beval(Env(), e))),
                       _evaluating(ID, e), (), None, value)]

    def leaf_var(store: Store) -> Callable[[], list[_Draft]]:
        def build() -> list[_Draft]:
            s, e = Script(), Var(X)
            vc = concretize(V0, store, frozenset({X}))
            value = sym_aeval(store, e)
            return [_Draft("B-L1", "Var", s, [], equal(s.aexpr(value), s.int_value(aeval(vc, e))),
                           _evaluating(store, e), (X,), None, value)]
        return build

    out += _collect("literal", leaf_int) + _collect("literal", leaf_bool)
    out += _collect("bound", leaf_var(S_X)) + _collect("unbound", leaf_var(ID))

    def arith(ctor: Callable[..., Node], shapes: tuple[str, ...]) -> Callable[[], list[_Draft]]:
        def build() -> list[_Draft]:
            s = Script()
            slots = [f"?e{i + 1}" for i in range(len(shapes))]
            store = _store(*((slot, A_SHAPES[sh](i + 1)) for i, (slot, sh)
                             in enumerate(zip(slots, shapes))))
            ih = [sint(f"ih{i + 1}") for i in range(len(shapes))]
            vc = Env(tuple(zip(slots, ih)))  # type: ignore[arg-type]
            hyps = [equal(s.int_value(h), s.aexpr(store(slot))) for h, slot in zip(ih, slots)]
            e = ctor(*(Var(slot) for slot in slots))
            if is_formula(e):
                value: AExpr | BExpr = sym_beval(store, e)
                goal = equal(s.bexpr(value), s.bool_value(beval(vc, e)))
            else:
                value = sym_aeval(store, e)  # type: ignore[arg-type]
                goal = equal(s.aexpr(value), s.int_value(aeval(vc, e)))  # type: ignore[arg-type]
            return [_Draft("B-L1", _case(e), s, hyps, goal, _evaluating(store, e),  # type: ignore[arg-type]
                           tuple(slots), None, value)]
        return build

    def logic(ctor: Callable[..., Node], shapes: tuple[str, ...]) -> Callable[[], list[_Draft]]:
        def build() -> list[_Draft]:
            s = Script()
            subs = [B_SHAPES[sh](i + 1) for i, sh in enumerate(shapes)]
            ih = [sbool(f"ih{i + 1}") for i in range(len(shapes))]
            hyps = [equal(s.bool_value(h), s.bexpr(sym_beval(ID, b))) for h, b in zip(ih, subs)]
            e = ctor(*subs)
            literal = ctor(*(Bool(h) for h in ih))  # the concrete side sees values only
            value = sym_beval(ID, e)  # type: ignore[arg-type]
            goal = equal(s.bexpr(value), s.bool_value(beval(Env(), literal)))  # type: ignore[arg-type]
            return [_Draft("B-L1", _case(e), s, hyps, goal, _evaluating(ID, e),  # type: ignore[arg-type]
                           tuple(sorted(variables(e))), None, value)]
        return build

    for sh in A_SHAPES:
        out += _collect(sh, arith(Neg, (sh,)))
        for sh2 in A_SHAPES:
            for ctor in (Add, Sub, *(_cmp(op) for op in CMP_OPS)):
                out += _collect(f"{sh}+{sh2}", arith(ctor, (sh, sh2)))
    for sh in B_SHAPES:
        out += _collect(sh, logic(Not, (sh,)))
        for sh2 in B_SHAPES:
            for ctor in (And, Or):
                out += _collect(f"{sh}+{sh2}", logic(ctor, (sh, sh2)))
    return out


def _evaluating(store: Store, e: AExpr | BExpr) -> SymState:
    """A state whose next step evaluates `e` (`?r = e`, or `assert e`), to print it as IMP."""
    prog = Assert(e) if is_formula(e) else Assign("?r", e)
    return SymState(PHI, store, prog)  # type: ignore[arg-type]


def _cmp(op: str) -> Callable[[AExpr, AExpr], Cmp]:
    return lambda a, b: Cmp(op, a, b)


def _case(e: Node) -> str:
    return f"Cmp{e.op}" if isinstance(e, Cmp) else type(e).__name__


# --- G-M1 data morphism: valuation commutes with each operation of the symbolic algebra -------


def g_m1() -> list[Obligation]:
    """`V0(f^sym(t1, t2)) = f^D(V0(t1), V0(t2))` for each operation `f` of `terms.TERMS` (the
    smart constructors, which fold constants) and each shape of its arguments: the left side is
    the SMT text of the term `f^sym` builds, the right one `f` applied by `smtlib.SMT_TEXT` to
    the texts of the arguments (both are read by the provers as `V0` reads them)."""
    out: list[Obligation] = []

    def operation(name: str, shapes: dict[str, Callable[[int], Any]], arity: int,
                  apply: Callable[[Any, list[Any]], Any]) -> None:
        for combo in itertools.product(shapes, repeat=arity):
            def build(combo: tuple[str, ...] = combo) -> list[_Draft]:
                s = Script()
                args = [shapes[sh](i + 1) for i, sh in enumerate(combo)]
                text = s.aexpr if shapes is A_SHAPES and name not in BOOL_RESULT else s.bexpr
                value = apply(TERMS, args)
                goal = equal(text(value), apply(SMT_TEXT, [s.aexpr(a) if shapes is A_SHAPES
                                                          else s.bexpr(a) for a in args]))
                return [_Draft("G-M1", name, s, [], goal, None,
                               tuple(sorted(frozenset().union(*map(variables, args)))), None,
                               value)]
            out.extend(_collect("+".join(combo), build))

    operation("neg", A_SHAPES, 1, lambda alg, a: alg.neg(a[0]))
    operation("add", A_SHAPES, 2, lambda alg, a: alg.add(a[0], a[1]))
    operation("sub", A_SHAPES, 2, lambda alg, a: alg.sub(a[0], a[1]))
    for op in CMP_OPS:
        operation(f"cmp{op}", A_SHAPES, 2, lambda alg, a, op=op: alg.cmp(op, a[0], a[1]))
    operation("not", B_SHAPES, 1, lambda alg, a: alg.not_(a[0]))
    operation("and", B_SHAPES, 2, lambda alg, a: alg.and_(a[0], lambda: a[1]))
    operation("or", B_SHAPES, 2, lambda alg, a: alg.or_(a[0], lambda: a[1]))
    return out


BOOL_RESULT = frozenset(f"cmp{op}" for op in CMP_OPS)
"""The operations of arithmetic arguments whose result is a formula."""


# --- W-L2.1 compositionality of the store update ----------------------------------------------

SHAPES_WITH_SELF: dict[str, Callable[[int], AExpr]] = {**A_SHAPES, "self": lambda i: Var(X)}
"""The arithmetic shapes, plus `x` itself (the update that gives back the identity binding)."""


def w_l2_1() -> list[Obligation]:
    """`V0∘(S[x := ⟦e⟧_S]) = (V0∘S)[x := ⟦e⟧_{V0∘S}]` on `x`, on `?e` and on any other `y`,
    per shape of `⟦e⟧_S` and whether `S` binds `x`."""
    out: list[Obligation] = []
    names = (X, Y, "?e")

    def update(store: Store) -> Callable[[], list[_Draft]]:
        def build() -> list[_Draft]:
            s = Script()
            vc = concretize(V0, store, frozenset(names))
            after = concretize(V0, sym_update(store, X, Var("?e")), frozenset(names))
            expected = vc.update(X, aeval(vc, Var("?e")))
            return [_Draft("W-L2.1", "update", s, [], _env_equal(s, after, expected, names),
                           SymState(PHI, store, Assign(X, Var("?e"))), names)]
        return build

    for sh, shape in SHAPES_WITH_SELF.items():
        for bound, base in (("bound", S_X), ("unbound", ID)):
            store = Store(tuple(sorted(base.bindings + (("?e", shape(1)),))))
            out += _collect(f"{sh}/{bound}", update(store))
    return out


# --- W-L2.3 one-step soundness, W-L2.5 one-step completeness, W-L2.2 monotone path conditions --


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
        ("assign", Assign(X, Var("?e")), _store((X, Var("?sx")), ("?e", Var("?t1"))),
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


def _steps(p: Stmt, store: Store, names: tuple[str, ...]) -> list[_Draft]:
    """The soundness, completeness and monotonicity obligations of one schematic state."""
    state = SymState(PHI, store, p)
    successors = expand(state)
    sigma = State(concretize(V0, store, frozenset(names)), p)
    nxt = step(sigma)
    drafts: list[_Draft] = []
    if not successors or nxt is None:
        # No step on one side: then neither may have one (skip, and fail which is stuck).
        goal = "true" if not successors and nxt is None else "false"
        for lemma in ("W-L2.3", "W-L2.5"):
            drafts.append(_Draft(lemma, _no_step_rule(p), Script(), [], goal, state, names))
        return drafts

    def simulated(s: Script, t: SymState) -> str:
        """`σ' = ⟨V0∘S', p'⟩` for the concrete successor `σ'` and the symbolic one `t`."""
        assert nxt is not None
        same = "true" if nxt.prog == t.prog else "false"
        return conj([same, _env_equal(s, nxt.env, concretize(V0, t.store, frozenset(names)),
                                      names)])

    for t in successors:
        s = Script()
        drafts.append(_Draft("W-L2.3", rule_of(p, t.prog), s, [s.conjunction(t.pc.conjuncts())],
                             simulated(s, t), state, names, t))
        m = Script()
        drafts.append(_Draft("W-L2.2", rule_of(p, t.prog), m, [],
                             implies(m.conjunction(t.pc.conjuncts()),
                                     m.conjunction(PHI.conjuncts())), state, names, t))
    s = Script()
    some = disj(conj([s.conjunction(t.pc.conjuncts()), simulated(s, t)]) for t in successors)
    drafts.append(_Draft("W-L2.5", rule_of(p, nxt.prog), s, [s.conjunction(PHI.conjuncts())],
                         some, state, names))
    return drafts


def statements() -> list[Obligation]:
    """W-L2.3, W-L2.5 and W-L2.2 for every statement variant."""
    out: list[Obligation] = []
    for variant, p, store, names in statement_variants():
        out += _collect(variant, lambda p=p, store=store, names=names: _steps(p, store, names))
    return out


# --- M-S1 the pruning decision ----------------------------------------------------------------


class _SchematicSolver:
    """A solver whose answer (SAT, UNSAT or UNKNOWN) is a branch of the generation."""

    def check(self, pc: PathCondition, parent_model: Env | None = None) -> tuple[Sat, Env | None]:
        if sbool("?solver_unsat"):
            return Sat.UNSAT, None
        if sbool("?solver_unknown"):
            return Sat.UNKNOWN, None
        return Sat.SAT, Env()


def m_s1() -> list[Obligation]:
    """`explore._feasible` drops a successor only when its path condition is unsatisfiable:
    from a literal `false` conjunct, or from the solver's UNSAT (whose soundness is the one
    hypothesis: `?solver_unsat ⇒ ¬φ'`); UNKNOWN keeps it (unknown counts as maybe)."""
    out: list[Obligation] = []
    atom = B_SHAPES["atom"](1)
    model = Env((("u1", sint("?m_u1")), ("w1", sint("?m_w1"))))  # type: ignore[arg-type]
    children = {"same": PHI, "literal": PHI.extend(B_SHAPES["bool"](1)), "atom": PHI.extend(atom)}
    for cname, pc in children.items():
        for mname, parent_model in (("no-model", None), ("model", model)):
            def build(pc: PathCondition = pc, parent_model: Env | None = parent_model
                      ) -> list[_Draft]:
                s = Script()
                parent = SymState(PHI, ID, Skip(), 0, parent_model)
                child = SymState(pc, ID, Skip(), 1)
                kept = _feasible(child, parent, _SchematicSolver(), RunStats())  # type: ignore[arg-type]
                unsat = f"(not {s.conjunction(pc.conjuncts())})"
                trusted = implies(s.declare("?solver_unsat", "Bool"), unsat)
                goal = "true" if kept is not None else unsat
                return [_Draft("M-S1", "prune", s, [trusted], goal, child, ("u1", "w1"))]
            out += _collect(f"{cname}/{mname}", build)
    return out


def m_s1_maybe_sat() -> list[Obligation]:
    """`interp.maybe_sat(C) = False ⇒ C has no solution` (seed 004): with no solver, and with
    one whose answer is a branch; the last conjunct a literal or an atom."""
    out: list[Obligation] = []
    for cname, pc in {"literal": PHI.extend(B_SHAPES["bool"](1)),
                      "atom": PHI.extend(B_SHAPES["atom"](1))}.items():
        for sname, solver in (("no-solver", None), ("solver", _SchematicSolver())):
            def build(pc: PathCondition = pc, solver: object = solver) -> list[_Draft]:
                s = Script()
                unsat = f"(not {s.conjunction(pc.conjuncts())})"
                trusted = implies(s.declare("?solver_unsat", "Bool"), unsat)
                goal = "true" if maybe_sat(pc, solver) else unsat  # type: ignore[arg-type]
                return [_Draft("M-S1", "maybe_sat", s, [trusted], goal,
                               SymState(pc, ID, Skip()), ("u1", "w1"))]
            out += _collect(f"{cname}/{sname}", build)
    return out


# --- M-Q1 existential quantification of the overwritten value ---------------------------------


def m_q1() -> list[Obligation]:
    """Seed 004 executes `x = e` with a fresh `v` and the constraint `∃v. v = ⟦e⟧_S ∧ C[x := v]`;
    symcert substitutes instead (`sym_update`). The substitution is that quantifier eliminated:
    for a later guard `b`, `⟦b⟧_{S'} ⇔ ∃v. v = ⟦e⟧_S ∧ ⟦b⟧_{S[x := v]}`, with no new variable."""
    out: list[Obligation] = []
    guard = Cmp("<=", Var(X), Var("w"))
    for sh, shape in SHAPES_WITH_SELF.items():
        store = _store((X, Var("?sx")), ("?e", shape(1)))

        def build(store: Store = store) -> list[_Draft]:
            s = Script()
            after = sym_beval(sym_update(store, X, Var("?e")), guard)
            fresh = store.update(X, Var("?v"))
            body = And(Cmp("==", Var("?v"), sym_aeval(store, Var("?e"))), sym_beval(fresh, guard))
            after_text = s.bexpr(after)
            had_v = "?v" in s.sorts
            body_text = s.bexpr(body)
            if not had_v:
                del s.sorts["?v"]
            no_new = free_vars(after) <= free_vars(body) - {"?v"}
            goal = conj([equal(after_text, f"(exists ((|?v| Int)) {body_text})"),
                         "true" if no_new else "false"])
            return [_Draft("M-Q1", "substitution", s, [], goal,
                           SymState(PHI, store, Seq(Assign(X, Var("?e")), Assert(guard))),
                           (X, "?e", "w"))]
        out += _collect(sh, build)
    return out


V, Z = "x#1", "z#0"
"""The variable `existentially_quantify` binds, and one the constraint already binds."""


def _exists(names: Iterable[str], body: str) -> str:
    bound = " ".join(f"({smtlib.symbol(n)} Int)" for n in sorted(names))
    return f"(exists ({bound}) {body})" if bound else body


def m_q1_quantify() -> list[Obligation]:
    """`interp.existentially_quantify(v, C)` gives `∃exists'. C'` equivalent to
    `∃v. ∃exists. C`, with no new variable: with and without a definition `v == se` to
    eliminate (every shape of `se`), two definitions, one that mentions `v`, one reversed."""
    use = Cmp("<=", Var(V), Var("w"))
    use_literal = Cmp("<", Var(V), Int(sint("?k9")))  # type: ignore[arg-type]
    other = Cmp("<=", Var(Z), Var("w"))
    phi = B_SHAPES["bool"](0)
    cases: dict[str, tuple[BExpr, ...]] = {"absent": (phi, other),
                                           "recursive": (phi, Cmp("==", Var(V), Add(Var(V), Int(1))), use),
                                           "reversed": (Cmp("==", Var("w"), Var(V)), use)}
    for sh, shape in A_SHAPES.items():
        se = shape(1)
        cases[f"define/{sh}"] = (phi, use, Cmp("==", Var(V), se), use_literal, other)
        cases[f"define-twice/{sh}"] = (Cmp("==", Var(V), se), Cmp("==", Var(V), Var(Z)))
    out: list[Obligation] = []
    for cname, conjuncts in cases.items():
        for eliminate in (True, False):
            def build(conjuncts: tuple[BExpr, ...] = conjuncts, eliminate: bool = eliminate
                      ) -> list[_Draft]:
                s = Script()
                pc = PathCondition.of(*conjuncts)
                new_pc, new_exists = existentially_quantify(V, pc, frozenset({Z}), eliminate)
                before = _exists({V, Z}, s.conjunction(pc.conjuncts()))
                after = _exists(new_exists, s.conjunction(new_pc.conjuncts()))
                free = frozenset().union(*(free_vars(c) for c in new_pc.conjuncts()))
                old = frozenset().union(*(free_vars(c) for c in conjuncts))
                no_new = free - new_exists <= old - {V, Z} and new_exists <= {V, Z}
                goal = conj([equal(before, after), "true" if no_new else "false"])
                return [_Draft("M-Q1", "quantify", s, [], goal)]
            out += _collect(f"{cname}/{'eliminate' if eliminate else 'keep'}", build)
    return out


def generate() -> list[Obligation]:
    """Every proof obligation, in a stable order."""
    obs = b_l1() + g_m1() + w_l2_1() + statements() + m_s1() + m_s1_maybe_sat() + m_q1() + m_q1_quantify()
    names = [o.name for o in obs]
    if len(set(names)) != len(names):
        raise AssertionError("two obligations share a name")
    return obs


# --- coverage: every rule and every expression constructor has its obligations ----------------

RULE_LEMMAS = ("W-L2.3", "W-L2.5")
"""The lemmas every rule needs; W-L2.2 too for the rules that step."""


def missing(obs: Iterable[Obligation], vacuous: frozenset[str] = frozenset()) -> list[str]:
    """The (lemma, rule or case) pairs with no obligation, or only vacuous ones (named in
    `vacuous`); empty when coverage is complete."""
    have = {(o.lemma, o.rule.split("/")[0]) for o in obs if o.name not in vacuous}
    need = [(lemma, rule) for rules in RULES.values() for rule in rules
            for lemma in RULE_LEMMAS + (() if rule in ("skip", "fail") else ("W-L2.2",))]
    need += [("B-L1", case) for case in EXPR_CASES]
    need += [("G-M1", op) for op in ("neg", "add", "sub", "not", "and", "or", *BOOL_RESULT)]
    need += [("W-L2.1", "update"), ("M-S1", "prune"), ("M-S1", "maybe_sat"),
             ("M-Q1", "substitution"), ("M-Q1", "quantify")]
    return [f"{lemma} {rule}" for lemma, rule in need if (lemma, rule) not in have]


# --- counterexamples as IMP states ------------------------------------------------------------

Model = dict[str, int | bool]


class Instances:
    """The expression fold's algebra (algebra.py) that rebuilds an expression with each
    schematic literal replaced by its value under a prover's model."""

    def integer(self, model: Model, value: int | SymInt) -> AExpr:
        return Int(value.value(model) if isinstance(value, SymInt) else value)

    def var(self, model: Model, name: str) -> AExpr:
        return Var(name)

    def neg(self, a: AExpr) -> AExpr:
        return Neg(a)

    def add(self, a: AExpr, b: AExpr) -> AExpr:
        return Add(a, b)

    def sub(self, a: AExpr, b: AExpr) -> AExpr:
        return Sub(a, b)

    def cmp(self, op: str, a: AExpr, b: AExpr) -> BExpr:
        return Cmp(op, a, b)

    def boolean(self, model: Model, value: bool | SymBool) -> BExpr:
        return Bool(value.value(model) if isinstance(value, SymBool) else value)

    def not_(self, a: BExpr) -> BExpr:
        return Not(a)

    def and_(self, a: BExpr, b: Callable[[], BExpr]) -> BExpr:
        return And(a, b())

    def or_(self, a: BExpr, b: Callable[[], BExpr]) -> BExpr:
        return Or(a, b())


INSTANCES = Instances()


def instantiate(node: Node, model: Model) -> Node:
    """`node` with every schematic literal replaced by its value under `model`."""
    def go(n: Node) -> Node:
        match n:
            case Skip() | Fail():
                return n
            case Assert(a):
                return Assert(go(a))  # type: ignore[arg-type]
            case Seq(a, b) | While(a, b):
                return type(n)(go(a), go(b))  # type: ignore[call-arg]
            case Assign(x, e):
                return Assign(x, go(e))  # type: ignore[arg-type]
            case If(c, a, b):
                return If(go(c), go(a), go(b))  # type: ignore[arg-type]
        return fold(INSTANCES, model, n)  # type: ignore[arg-type]
    return go(node)


def _concrete_state(s: SymState, model: Model, names: tuple[str, ...]) -> tuple[State, bool]:
    """`⟨V0∘S, p⟩` under the model's inputs `V0`, and whether `V0 ⊨ φ`."""
    v0 = Env.of({k: v for k, v in model.items() if not isinstance(v, bool)})
    store = Store(tuple((k, instantiate(t, model)) for k, t in s.store.bindings))  # type: ignore[misc]
    prog = instantiate(s.prog, model)
    holds = all(beval(v0, instantiate(c, model)) for c in s.pc.conjuncts())  # type: ignore[arg-type]
    return State(concretize(v0, store, frozenset(names)), prog), holds  # type: ignore[arg-type]


def _show(state: State | None) -> str:
    if state is None:
        return "no step (finished or stuck)"
    return f"⟨{state.env}, {' '.join(show_stmt(state.prog).split())}⟩"


def counterexample(ob: Obligation, model: Model) -> str:
    """The refuting model of an obligation, printed as IMP states."""
    values = ", ".join(f"{k} = {v}" for k, v in sorted(model.items()))
    lines = [f"  model: {values}"]
    if ob.state is None:
        return "\n".join(lines)
    sigma, _ = _concrete_state(ob.state, model, ob.names)
    store = ", ".join(f"{k} ↦ {instantiate(t, model)}" for k, t in ob.state.store.bindings)
    lines.append(f"  symbolic store  S  = {{{store}}}")
    lines.append(f"  concrete state  σ  = {_show(sigma)}")
    lines.append(f"  concrete step   σ → {_show(step(sigma))}")
    if ob.successor is not None:
        succ, holds = _concrete_state(ob.successor, model, ob.names)
        pc = instantiate_pc(ob.successor.pc, model)
        lines.append(f"  symbolic successor with φ' = {pc} ({'true' if holds else 'false'} "
                     f"under the model) concretizes to {_show(succ)}")
    if ob.value is not None:
        v0 = Env.of({k: v for k, v in model.items() if not isinstance(v, bool)})
        term = instantiate(ob.value, model)
        result = fold(VALUES, v0, term)  # type: ignore[arg-type]
        lines.append(f"  symbolic value  {term}, which is {result} under the model")
    return "\n".join(lines)


def instantiate_pc(pc: PathCondition, model: Model) -> str:
    """A path condition with its schematic literals' values, as text."""
    return " and ".join(f"({instantiate(c, model)})" for c in pc.conjuncts()) or "true"


# --- replay, record, table --------------------------------------------------------------------


@dataclass(frozen=True)
class Prover:
    """A prover as the record names it: how to run it on a script, its version and its limit."""

    name: str
    run: Callable[[str, int], provers.ProverAnswer]
    version: Callable[[], str]
    limit: int
    limit_name: str


PROVERS = (
    Prover("z3", provers.prove_z3, provers.z3_version, 5_000_000, "rlimit"),
    Prover("cvc5", provers.prove_cvc5, provers.cvc5_version, 1_000_000, "rlimit-per"),
)

Entry = dict[str, object]


def replay(obs: list[Obligation], provers: Iterable[Prover] = PROVERS
           ) -> tuple[list[Entry], dict[str, dict[str, provers.ProverAnswer]]]:
    """Run every prover on every obligation: the record entries and the verdicts by name."""
    entries: list[Entry] = []
    verdicts: dict[str, dict[str, provers.ProverAnswer]] = {o.name: {} for o in obs}
    for prover in provers:
        version = prover.version()
        for o in obs:
            v = prover.run(o.text, prover.limit)
            verdicts[o.name][prover.name] = v
            entries.append({"obligation": o.name, "lemma": o.lemma, "rule": o.rule,
                            "prover": prover.name, "version": version,
                            "limit": f"{prover.limit_name} {prover.limit}",
                            "status": v.status, "time": round(v.seconds, 4)})
    entries.sort(key=lambda e: (str(e["obligation"]), str(e["prover"])))
    return entries, verdicts


def vacuous(obs: Iterable[Obligation], prover: Prover = PROVERS[0]) -> frozenset[str]:
    """The obligations whose hypotheses contradict each other (an infeasible successor or path):
    they hold, but prove nothing about their rule."""
    return frozenset(o.name for o in obs
                     if prover.run(o.premises, prover.limit).status == provers.VALID)


def problems(obs: list[Obligation], verdicts: dict[str, dict[str, provers.ProverAnswer]],
             recorded: list[Entry]) -> tuple[list[str], list[str]]:
    """(errors, undecided): disagreements, refuted obligations with their counterexamples and
    obligations VALID in the record but not now; obligations a prover left UNKNOWN."""
    errors: list[str] = []
    undecided: list[str] = []
    by_name = {o.name: o for o in obs}
    for name, answers in verdicts.items():
        statuses = {p: v.status for p, v in answers.items()}
        if provers.VALID in statuses.values() and provers.INVALID in statuses.values():
            errors.append(f"{name}: the provers disagree: {statuses}")
        refuted = [v for v in answers.values() if v.status == provers.INVALID]
        if refuted:
            errors.append(f"{name}: INVALID\n"
                          + counterexample(by_name[name], refuted[0].model or {}))
        elif any(v.status == provers.UNKNOWN for v in answers.values()):
            undecided.append(f"{name}: UNKNOWN ({statuses})")
    for e in recorded:
        answers = verdicts.get(str(e["obligation"]), {})
        now = answers.get(str(e["prover"]))
        if e["status"] == provers.VALID and now is not None and now.status != provers.VALID:
            errors.append(f"{e['obligation']}: VALID in the record for {e['prover']}, "
                          f"{now.status} now")
    return errors, undecided


def table(entries: list[Entry], vacuous: frozenset[str] = frozenset()) -> str:
    """The proof record as Markdown: per prover (like seed 004's Table 1), then per lemma."""
    lines = ["| prover | version | resource limit | obligations | valid | fastest (s) "
             "| slowest (s) | average (s) | total (s) |", "|---|---|---|---|---|---|---|---|---|"]
    for prover in sorted({str(e["prover"]) for e in entries}):
        mine = [e for e in entries if e["prover"] == prover]
        times = [float(e["time"]) for e in mine]  # type: ignore[arg-type]
        valid = sum(e["status"] == provers.VALID for e in mine)
        lines.append(f"| {prover} | {mine[0]['version']} | {mine[0]['limit']} | {len(mine)} "
                     f"| {valid} | {min(times):.4f} | {max(times):.4f} "
                     f"| {sum(times) / len(times):.4f} | {sum(times):.2f} |")
    lines += ["", "| lemma | obligations | rules or cases | valid (both provers) "
              "| vacuous (contradictory hypotheses) |", "|---|---|---|---|---|"]
    for lemma in sorted({str(e["lemma"]) for e in entries}):
        mine = [e for e in entries if e["lemma"] == lemma]
        names = {str(e["obligation"]) for e in mine}
        rules = sorted({str(e["rule"]) for e in mine})
        refuted = {str(e["obligation"]) for e in mine if e["status"] != provers.VALID}
        both = len(names - refuted)
        lines.append(f"| {lemma} | {len(names)} | {', '.join(rules)} | {both} "
                     f"| {len(names & vacuous)} |")
    return "\n".join(lines) + "\n"


def dump_record(entries: list[Entry], vacuous: frozenset[str] = frozenset()) -> str:
    """The proof record as JSON: the provers (version, resource limit), then one line per
    obligation with its lemma, rule, per prover [status, seconds], and `"vacuous": true` when
    its hypotheses contradict each other."""
    provers = {str(e["prover"]): {"version": e["version"], "limit": e["limit"]} for e in entries}
    rows: dict[str, dict[str, object]] = {}
    for e in entries:
        row = rows.setdefault(str(e["obligation"]), {"obligation": e["obligation"],
                                                     "lemma": e["lemma"], "rule": e["rule"]})
        row[str(e["prover"])] = [e["status"], e["time"]]
        if e["obligation"] in vacuous:
            row["vacuous"] = True
    lines = [json.dumps(r, ensure_ascii=False) for r in rows.values()]
    return ('{"provers": ' + json.dumps(provers, sort_keys=True) + ',\n "obligations": [\n  '
            + ",\n  ".join(lines) + "\n]}\n")


def load_record(text: str) -> list[Entry]:
    """The entries of a proof record written by `dump_record`."""
    data = json.loads(text)
    entries: list[Entry] = []
    for row in data["obligations"]:
        for prover, meta in data["provers"].items():
            if prover in row:
                status, seconds = row[prover]
                entries.append({"obligation": row["obligation"], "lemma": row["lemma"],
                                "rule": row["rule"], "prover": prover, **meta,
                                "status": status, "time": seconds})
    return entries


BEGIN = "<!-- BEGIN proof table: generated by `python -m symcert.checking.obligations --write` -->"
END = "<!-- END proof table -->"


def write_table(path: Path, entries: list[Entry], vacuous: frozenset[str]) -> None:
    """Replace the generated table between the markers of `path` (append it if they are absent)."""
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    block = f"{BEGIN}\n{table(entries, vacuous)}{END}"
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        text = head + block + rest.split(END, 1)[1]
    else:
        text = text + ("\n" if text else "") + block + "\n"
    path.write_text(text, encoding="utf-8")


def _keep_times(entries: list[Entry], recorded: list[Entry]) -> list[Entry]:
    """The new entries, with the recorded time where the status did not change: re-recording
    changes the record only where a proof did."""
    old = {(e["obligation"], e["prover"]): e for e in recorded}
    out: list[Entry] = []
    for e in entries:
        before = old.get((e["obligation"], e["prover"]))
        same = before is not None and before["status"] == e["status"] \
            and before["version"] == e["version"] and before["limit"] == e["limit"]
        out.append({**e, "time": before["time"]} if same and before else e)
    return out


def _slug(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_.#+" else "_" for c in name)


def main(argv: list[str] | None = None) -> int:
    """Replay every proof obligation with z3 and cvc5 and compare with the proof record."""
    parser = argparse.ArgumentParser(prog="python -m symcert.checking.obligations",
                                     description=main.__doc__)
    parser.add_argument("--record", type=Path, default=Path("proofs/record.json"),
                        help="the proof record (default proofs/record.json)")
    parser.add_argument("--docs", type=Path, default=Path("docs/proofs.md"),
                        help="the page whose table --write regenerates (default docs/proofs.md)")
    parser.add_argument("--write", action="store_true",
                        help="record this replay and regenerate the table")
    parser.add_argument("--only", default="", metavar="PREFIX",
                        help="replay only the obligations whose name starts with PREFIX")
    parser.add_argument("--dump", type=Path, metavar="DIR",
                        help="also write each obligation's SMT-LIB script to DIR")
    args = parser.parse_args(argv)
    from symcert.spec.switch import CONTRACTS
    if CONTRACTS:
        # Contracts would evaluate the lemma predicates on schematic values: generate without.
        env = {**os.environ, "SYMCERT_CONTRACTS": "0"}
        argv = sys.argv[1:] if argv is None else argv
        return subprocess.run([sys.executable, "-m", "symcert.checking.obligations", *argv],
                              env=env, check=False).returncode
    if args.write and args.only:
        parser.error("--write records every obligation: it cannot be combined with --only")
    everything = generate()
    obs = [o for o in everything if o.name.startswith(args.only)]
    if not obs:
        print(f"no obligation starts with {args.only!r}", file=sys.stderr)
        return 2
    if args.dump:
        args.dump.mkdir(parents=True, exist_ok=True)
        for o in obs:
            (args.dump / f"{_slug(o.name)}.smt2").write_text(o.text, encoding="utf-8")
    recorded: list[Entry] = []
    if args.record.exists():
        try:
            recorded = load_record(args.record.read_text(encoding="utf-8"))
        except (ValueError, KeyError, TypeError) as exc:
            print(f"{args.record}: not a proof record ({exc})", file=sys.stderr)
            return 65
    elif not args.write:
        print(f"no proof record at {args.record}: nothing to compare with (run from the "
              "repository root, or record with --write)", file=sys.stderr)
    entries, verdicts = replay(obs)
    errors, undecided = problems(obs, verdicts, recorded)
    empty = vacuous(obs)
    gaps = missing(everything, frozenset() if args.only else empty)
    errors += [f"no obligation (or only vacuous ones) for {gap}" for gap in gaps]
    stale = sorted({str(e["obligation"]) for e in recorded} - {o.name for o in everything})
    if args.write:
        entries = _keep_times(entries, recorded)
        args.record.parent.mkdir(parents=True, exist_ok=True)
        args.record.write_text(dump_record(entries, empty), encoding="utf-8")
        write_table(args.docs, entries, empty)
    print(table(entries, empty), end="")
    for line in undecided + errors:
        print(line)
    if stale and not args.only:
        print(f"{len(stale)} recorded obligations are no longer generated (the code changed "
              f"shape; re-record with --write), e.g. {stale[0]}")
    print(f"{len(obs)} obligations ({len(empty)} vacuous), {len(errors)} errors, "
          f"{len(undecided)} undecided")
    return 1 if errors else 3 if undecided else 0


if __name__ == "__main__":
    sys.exit(main())
