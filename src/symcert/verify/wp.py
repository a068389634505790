"""Weakest preconditions of annotated IMP (Dijkstra's calculus; Hoare logic with loop
invariants): the verification conditions that `symcert check-certificate` discharges, a
formulation independent of the symbolic engine (it runs backwards, by substitution, and never
explores a path).

A condition is a list of *goals* `H1 ∧ … ∧ Hn ⇒ G`, each named by what it checks; it holds
when every goal is valid. `wp(S, Q)` for the statements of the fragment, with `ok(e)` the
definedness of `e` (no division by zero, no field of nil: `core.guards.GUARDS`):

- `skip`: `Q`; `fail`: the goal `false`;
- `x = e`: `ok(e)`, and `ok(e) ⇒ Q[x := e]` (an array cell `a[i] = e` and a field `p.f = e` are
  the assignment of the whole map, `a := a[i ↦ e]`);
- `assert b`: `ok(b)`, `ok(b) ⇒ b`, and `ok(b) ∧ b ⇒ Q`; `assume b`: `ok(b)`, `ok(b) ∧ b ⇒ Q`;
- `if b then S1 else S2 fi`: `ok(b)`, `ok(b) ∧ b ⇒ wp(S1, Q)`, `ok(b) ∧ ¬b ⇒ wp(S2, Q)`;
- `while b invariant I do S od` (loop `k` in pre-order, `M` the names its body assigns):
  *entry* `I`; and for all values of `M` (each `x ∈ M` renamed to a fresh constant `x!k`,
  which a positive universal quantifier allows), with `σ = [M := M!k]`:
  *test* `Iσ ⇒ ok(b)σ`, *preservation* `Iσ ∧ bσ ⇒ wp(S, I)σ`, *exit* `Iσ ∧ ¬bσ ⇒ Qσ`.
  Names the body does not assign keep their values, so what is known of them before the loop
  is known after it.

Procedures, `return`, `var`, `new` and loops without an invariant are outside the fragment
(`OutsideFragment`, naming the construct and where it is).
"""

# crosshair: off
# (its results are formulas for the provers; tests/unit/test_wp.py checks them against the
# concrete semantics)

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Mapping

from symcert.core import terms
from symcert.core.algebra import fold_a, fold_b, is_formula
from symcert.core.guards import GUARDS, TRUE
from symcert.core.terms import TERMS
from symcert.lang.annotations import loops
from symcert.lang.syntax import (
    ArrayVar, Assert, Assign, Assume, Await, BExpr, Bool, Call, Fail, Get, If, New, Pos, Return,
    Seq, Skip, Spawn, Stmt, Var, While, array_write, spine,
)

MAX_GOALS = 20_000
"""More goals than this (each `if` copies the goals after it) is outside what the check does."""


@dataclass(frozen=True)
class Goal:
    """`hypotheses ⇒ goal`, named by what it checks and where."""

    name: str
    hypotheses: tuple[BExpr, ...]
    goal: BExpr


@dataclass(frozen=True)
class OutsideFragment(Exception):
    """A construct the calculus does not handle, and where it is."""

    construct: str
    pos: Pos | None

    def __str__(self) -> str:
        at = f" at {self.pos.line}:{self.pos.column}" if self.pos else ""
        return f"{self.construct}{at} is outside the wp fragment"


def vcs(p: Stmt, invariants: Mapping[int, BExpr]) -> list[Goal]:
    """The verification conditions of `p`: `wp(p, true)` as goals, the trivial ones dropped.

    :param invariants: loop index (pre-order, `annotations.loops`) → its invariant; a loop
        not named keeps the one written in the program.
    :raises OutsideFragment: on a construct the calculus does not handle.
    """
    index = {id(w): k for k, w in enumerate(loops(p))}
    goals = [g for g in _Calculus(index, invariants).wp(p, ()) if g.goal != TRUE]
    total = Counter(g.name for g in goals)
    seen: Counter[str] = Counter()
    out = []
    for g in goals:  # a condition copied by an `if` before it: numbered by path
        seen[g.name] += 1
        name = g.name if total[g.name] == 1 else f"{g.name} (path {seen[g.name]})"
        out.append(Goal(name, g.hypotheses, g.goal))
    return out


def assigned(body: Stmt) -> tuple[frozenset[str], frozenset[str]]:
    """The variables and the arrays (fields' maps included) that `body` assigns anywhere."""
    names: set[str] = set()
    arrays: set[str] = set()
    todo = [body]
    while todo:
        s = todo.pop()
        if isinstance(s, Seq):
            todo.extend(spine(s))
        elif isinstance(s, If):
            todo += [s.then_, s.else_]
        elif isinstance(s, While):
            todo.append(s.body)
        elif isinstance(s, Assign):
            (arrays if array_write(s) is not None else names).add(s.name)
    return frozenset(names), frozenset(arrays)


def substitute(goals: tuple[Goal, ...], sigma: Mapping[str, object]) -> tuple[Goal, ...]:
    """Each goal with the names of `sigma` replaced by their terms (`Q[x := e]`)."""
    def subst(x: str) -> object:
        return sigma.get(x, Var(x))

    memo: dict[int, object] = {}
    return tuple(Goal(g.name, tuple(fold_b(TERMS, subst, h, memo) for h in g.hypotheses),
                      fold_b(TERMS, subst, g.goal, memo)) for g in goals)


def _assuming(hyps: tuple[BExpr, ...], goals: tuple[Goal, ...]) -> tuple[Goal, ...]:
    """`H ⇒ g` for each goal `g`."""
    kept = tuple(h for h in hyps if h != TRUE)
    return tuple(Goal(g.name, kept + g.hypotheses, g.goal) for g in goals)


def _where(s: Stmt) -> str:
    return f"{s.pos.line}:{s.pos.column}" if s.pos else "?"


def _guarded(e: object) -> tuple[object, BExpr]:
    """`(e, ok(e))` in the identity store."""
    if is_formula(e):  # type: ignore[arg-type]
        return fold_b(GUARDS, Var, e)  # type: ignore[arg-type]
    return fold_a(GUARDS, Var, e)  # type: ignore[arg-type]


@dataclass(frozen=True)
class _Calculus:
    index: Mapping[int, int]
    invariants: Mapping[int, BExpr]

    def wp(self, s: Stmt, post: tuple[Goal, ...]) -> tuple[Goal, ...]:
        """`wp(s, post)`; a sequence's spine from its end, in a loop."""
        for t in reversed(list(spine(s))):
            post = self._simple(t, post)
            if len(post) > MAX_GOALS:
                raise OutsideFragment(f"a program with more than {MAX_GOALS:,} goals", t.pos)
        return post

    def _simple(self, s: Stmt, post: tuple[Goal, ...]) -> tuple[Goal, ...]:
        here = _where(s)
        if isinstance(s, Skip):
            return post
        if isinstance(s, Seq):  # a sequence nested on the left of another
            return self.wp(s, post)
        if isinstance(s, Fail):
            return (Goal(f"no fail at {here}", (), Bool(False)),)
        if isinstance(s, Assign) and not s.local:
            value, ok = _guarded(s.expr)
            return (Goal(f"defined at {here}", (), ok),
                    *_assuming((ok,), substitute(post, {s.name: value})))
        if isinstance(s, (Assert, Assume)):
            cond, ok = _guarded(s.cond)
            checked = (_assuming((ok,), (Goal(f"assert at {here}", (), cond),))
                       if isinstance(s, Assert) else ())
            return (Goal(f"defined at {here}", (), ok), *checked, *_assuming((ok, cond), post))
        if isinstance(s, If):
            cond, ok = _guarded(s.cond)
            return (Goal(f"defined at {here}", (), ok),
                    *_assuming((ok, cond), self.wp(s.then_, post)),
                    *_assuming((ok, terms.negate(cond)), self.wp(s.else_, post)))  # type: ignore[arg-type]
        if isinstance(s, While):
            return self._loop(s, post)
        what = {Call: "a procedure call", Return: "`return`", New: "object creation (`new`)",
                Assign: "a `var` declaration", Spawn: "threads (`spawn`)", Get: "threads (`get`)",
                Await: "threads (`await`)"}.get(type(s), type(s).__name__)
        raise OutsideFragment(what, s.pos)

    def _loop(self, w: While, post: tuple[Goal, ...]) -> tuple[Goal, ...]:
        k = self.index[id(w)]
        inv = self.invariants.get(k, w.invariant() if w.invariants else None)
        if inv is None:
            raise OutsideFragment(f"a loop without an invariant (loop {k})", w.pos)
        here = _where(w)
        names, arrays = assigned(w.body)
        sigma: dict[str, object] = {x: Var(f"{x}!{k}") for x in names}
        sigma.update({a: ArrayVar(f"{a}!{k}") for a in arrays})
        holds, ok_inv = _guarded(inv)
        invariant = terms.conj(ok_inv, holds)  # type: ignore[arg-type]
        cond, ok = _guarded(w.cond)
        preserved = self.wp(w.body, (Goal(f"invariant of loop {k} at {here} preserved", (),
                                          invariant),))
        inside = (
            Goal(f"test of loop {k} at {here} defined", (), ok),
            *_assuming((ok, cond), preserved),  # type: ignore[arg-type]
            *_assuming((ok, terms.negate(cond)), post),  # type: ignore[arg-type]
        )
        return (Goal(f"invariant of loop {k} at {here} holds on entry", (), invariant),
                *substitute(_assuming((invariant,), inside), sigma))
