# crosshair: off
"""Obligations about the engine's use of the solver: M-S1 (the pruning decision) and M-Q1
(existential quantification of an overwritten value, seed 004)."""

from __future__ import annotations

from typing import Iterable

from symcert.verify import smtlib
from symcert.checking.obligations.common import (
    A_SHAPES,
    B_SHAPES,
    Obligation,
    PHI,
    Draft,
    collect,
    schematic_store,
)
from symcert.checking.obligations.common import X
from symcert.checking.obligations.expressions import SHAPES_WITH_SELF
from symcert.verify.smtlib import Script, conj, equal, implies, sbool, sint
from symcert.core.concrete import Env
from symcert.core.valuations import Valuations
from symcert.core.state import ID, PathCondition, Store, SymState
from symcert.core.symbolic import sym_aeval, sym_beval, sym_update
from symcert.core.terms import free_vars
from symcert.engine.explore import RunStats, _feasible
from symcert.lang.syntax import Add, And, Assert, Assign, BExpr, Cmp, Int, Seq, Skip, Var
from symcert.seed004.interp import existentially_quantify, maybe_sat
from symcert.solver.z3backend import Sat


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
                      ) -> list[Draft]:
                s = Script()
                parent = SymState(PHI, ID, Skip(), 0, parent_model)
                child = SymState(pc, ID, Skip(), 1)
                kept = _feasible(child, parent, _SchematicSolver(), RunStats(),  # type: ignore[arg-type]
                                 Valuations())
                unsat = f"(not {s.conjunction(pc.conjuncts())})"
                trusted = implies(s.declare("?solver_unsat", "Bool"), unsat)
                goal = "true" if kept is not None else unsat
                return [Draft("M-S1", "prune", s, [trusted], goal, child, ("u1", "w1"))]
            out += collect(f"{cname}/{mname}", build)
    return out


def m_s1_maybe_sat() -> list[Obligation]:
    """`interp.maybe_sat(C) = False ⇒ C has no solution` (seed 004): with no solver, and with
    one whose answer is a branch; the last conjunct a literal or an atom."""
    out: list[Obligation] = []
    for cname, pc in {"literal": PHI.extend(B_SHAPES["bool"](1)),
                      "atom": PHI.extend(B_SHAPES["atom"](1))}.items():
        for sname, solver in (("no-solver", None), ("solver", _SchematicSolver())):
            def build(pc: PathCondition = pc, solver: object = solver) -> list[Draft]:
                s = Script()
                unsat = f"(not {s.conjunction(pc.conjuncts())})"
                trusted = implies(s.declare("?solver_unsat", "Bool"), unsat)
                goal = "true" if maybe_sat(pc, solver) else unsat  # type: ignore[arg-type]
                return [Draft("M-S1", "maybe_sat", s, [trusted], goal,
                               SymState(pc, ID, Skip()), ("u1", "w1"))]
            out += collect(f"{cname}/{sname}", build)
    return out


# --- M-Q1 existential quantification of the overwritten value ---------------------------------


def m_q1() -> list[Obligation]:
    """Seed 004 executes `x = e` with a fresh `v` and the constraint `∃v. v = ⟦e⟧_S ∧ C[x := v]`;
    symcert substitutes instead (`sym_update`). The substitution is that quantifier eliminated:
    for a later guard `b`, `⟦b⟧_{S'} ⇔ ∃v. v = ⟦e⟧_S ∧ ⟦b⟧_{S[x := v]}`, with no new variable."""
    out: list[Obligation] = []
    guard = Cmp("<=", Var(X), Var("w"))
    for sh, shape in SHAPES_WITH_SELF.items():
        store = schematic_store((X, Var("?sx")), ("?e", shape(1)))

        def build(store: Store = store) -> list[Draft]:
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
            return [Draft("M-Q1", "substitution", s, [], goal,
                           SymState(PHI, store, Seq(Assign(X, Var("?e")), Assert(guard))),
                           (X, "?e", "w"))]
        out += collect(sh, build)
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
                      ) -> list[Draft]:
                s = Script()
                pc = PathCondition.of(*conjuncts)
                new_pc, new_exists = existentially_quantify(V, pc, frozenset({Z}), eliminate)
                before = _exists({V, Z}, s.conjunction(pc.conjuncts()))
                after = _exists(new_exists, s.conjunction(new_pc.conjuncts()))
                free = frozenset().union(*(free_vars(c) for c in new_pc.conjuncts()))
                old = frozenset().union(*(free_vars(c) for c in conjuncts))
                no_new = free - new_exists <= old - {V, Z} and new_exists <= {V, Z}
                goal = conj([equal(before, after), "true" if no_new else "false"])
                return [Draft("M-Q1", "quantify", s, [], goal)]
            out += collect(f"{cname}/{'eliminate' if eliminate else 'keep'}", build)
    return out
