# crosshair: off
"""Obligations about objects (seed 003 §4): the field rules of `expand`, sound and complete.

A field `f` is the map `.f` (syntax.py), so `x.f = v` is the assignment of `Update(.f, x, v)`
and `z = y.f` reads `Select(.f, y)`; each may fail on nil. `expand` runs each rule on a
schematic store binding `x`, `y`, `v` and the map `.f` to terms of every shape the engine tells
apart (references that are one term, two terms, a new object's literal; a map that is the input
or holds an earlier write), and:

- B-H1, `field-write` (soundness of the write rule): on the successor that does not fail, the
  engine's read of `y.f` is the seed's symbolic heap update, the conditional
  `σ[x.f = v](y.f) = if σ(y) = σ(x) then σ(v) else σ(y.f)`;
- B-H1, `field-write-nil` and `field-read-nil` (completeness: no valuation is lost): the
  successor that writes or reads holds exactly where `σ(x) != nil`, the one stuck at `fail`
  (null dereference) exactly where `σ(x) = nil`;
- B-H1, `field-read`: the read's value is SMT-LIB's `select` of the map at the reference;
- B-H2, `fresh-read` (no dereference of a fresh object, Prop. 2): a read of a new object's field
  (made by `new`, perhaps written since, through itself or through any reference) does not
  depend on the input map: the engine's read over two different input maps is equal.
"""

from __future__ import annotations

import itertools
from dataclasses import replace

from symcert.checking.obligations.common import PHI, Draft, Obligation, collect, schematic_store
from symcert.verify.smtlib import Script, equal
from symcert.core.concrete import is_stuck
from symcert.core.state import SymState
from symcert.core.symbolic import sym_aeval
from symcert.core.terms import array_term
from symcert.engine.explore import expand
from symcert.lang.syntax import (
    AExpr, ArrayExpr, ArrayVar, Assign, Int, New, Select, Skip, Stmt, Update, Var,
)

F = ".f"
MAP = ArrayVar(F)

REFERENCES: dict[str, tuple[AExpr, AExpr]] = {
    "same": (Var("?h1"), Var("?h1")),
    "two": (Var("?h1"), Var("?h2")),
    "earlier": (Var("?h1"), Var("?h5")),
    "new": (Int(-1), Var("?h2")),
    "new-same": (Int(-1), Int(-1)),
    "new-two": (Int(-1), Int(-2)),
}
"""What the store binds `x` (written) and `y` (read) to: one term, two terms, the object of the
map's earlier write, a new object's literal against a term, itself, another new object."""

MAPS: dict[str, ArrayExpr | None] = {
    "input": None,
    "update-term": Update(MAP, Var("?h5"), Var("?v5")),
    "update-new": Update(MAP, Int(-2), Int(0)),
}
"""What the store binds the map `.f` to: nothing (the input map), an earlier write at a term,
a new object's fields set to 0."""


def _store(refs: str, held: str):  # type: ignore[no-untyped-def]
    x, y = REFERENCES[refs]
    bound = MAPS[held]
    return schematic_store(("x", x), ("y", y), ("v", Var("?v")),
                           *(((F, bound),) if bound is not None else ()))  # type: ignore[arg-type]


def _split(state: SymState) -> tuple[SymState, SymState]:
    """The successors of a field rule: the one that steps, the one stuck at `fail`."""
    out = expand(state)
    ok = [t for t in out if not is_stuck(t.prog)]
    bad = [t for t in out if is_stuck(t.prog)]
    assert len(ok) == 1 and len(bad) == 1, out
    return ok[0], bad[0]


def _nil_exact(s: Script, ok: SymState, bad: SymState, ref: AExpr, rule: str,
               state: SymState) -> Draft:
    """`ok`'s new conjunct holds iff `ref != nil`, `bad`'s iff `ref = nil`."""
    assert ok.pc.last is not None and bad.pc.last is not None
    at_nil = equal(s.aexpr(ref), "0")
    goal = (f"(and (= {s.bexpr(ok.pc.last)} (not {at_nil})) "
            f"(= {s.bexpr(bad.pc.last)} {at_nil}))")
    return Draft("B-H1", rule, s, [], goal, state)


def b_h1_fields() -> list[Obligation]:
    """B-H1 for the field write and read rules, per shape of the references and of the map."""
    out: list[Obligation] = []
    for refs, held in itertools.product(REFERENCES, MAPS):
        def write(refs: str = refs, held: str = held) -> list[Draft]:
            store = _store(refs, held)
            p = Assign(F, Update(MAP, Var("x"), Var("v")))
            state = SymState(PHI, store, p)
            ok, bad = _split(state)
            s = Script()
            assert ok.pc.last is not None
            read = sym_aeval(ok.store, Select(MAP, Var("y")))
            before = s.aexpr(array_term(F, store(F)))  # type: ignore[arg-type]
            x, y, v = (s.aexpr(store(n)) for n in ("x", "y", "v"))
            seed = f"(ite (= {y} {x}) {v} (select {before} {y}))"
            return [Draft("B-H1", "field-write", s, [s.bexpr(ok.pc.last)],
                          equal(s.aexpr(read), seed), state, (), ok, read),
                    _nil_exact(Script(), ok, bad, store("x"), "field-write-nil", state)]
        out += collect(f"{refs}+{held}", write)
    for refs, held in itertools.product(("two", "new"), MAPS):
        def read(refs: str = refs, held: str = held) -> list[Draft]:
            store = _store(refs, held)
            state = SymState(PHI, store, Assign("z", Select(MAP, Var("y"))))
            ok, bad = _split(state)
            s = Script()
            assert ok.pc.last is not None
            before = s.aexpr(array_term(F, store(F)))  # type: ignore[arg-type]
            value = ok.store("z")
            return [Draft("B-H1", "field-read", s, [s.bexpr(ok.pc.last)],
                          equal(s.aexpr(value), f"(select {before} {s.aexpr(store('y'))})"),
                          state, (), ok, value),
                    _nil_exact(Script(), ok, bad, store("y"), "field-read-nil", state)]
        out += collect(f"{refs}+{held}", read)
    return out


FRESH: dict[str, tuple[Stmt, ...]] = {
    "made": (New("y", "C", (F,)),),
    "made+term": (New("y", "C", (F,)), Assign(F, Update(MAP, Var("w"), Var("v")))),
    "made+written": (New("y", "C", (F,)), Assign(F, Update(MAP, Var("y"), Var("v")))),
    "made-two+term": (New("y", "C", (F,)), New("u", "C", (F,)),
                      Assign(F, Update(MAP, Var("w"), Var("v")))),
}
"""What runs before the read `z = y.f`: `y = new C` (class `C(f)`), then a write through an
input reference `w` that may be any object, through `y` itself, or another new object."""


def b_h2_fresh() -> list[Obligation]:
    """B-H2 for a read of a new object's field, per `FRESH`: `expand` runs the statements, then
    `z = y.f`, from a store whose map `.f` is the input `.f`, and again from one where it is
    another input `?g`; the two values of `z` are equal (the read never reaches the input)."""
    out: list[Obligation] = []
    for shape, before in FRESH.items():
        def fresh(before: tuple[Stmt, ...] = before) -> list[Draft]:
            values = []
            for base in (MAP, ArrayVar("?g")):
                state = SymState(PHI, schematic_store(("w", Var("?h5")), ("v", Var("?v5")),
                                                      (F, base)), Skip())  # type: ignore[arg-type]
                for p in (*before, Assign("z", Select(MAP, Var("y")))):
                    (state,) = [t for t in expand(replace(state, prog=p))
                                if not is_stuck(t.prog)]
                values.append(state.store("z"))
            s = Script()
            return [Draft("B-H2", "fresh-read", s, [],
                          equal(s.aexpr(values[0]), s.aexpr(values[1])), state, (), state,
                          values[0])]
        out += collect(shape, fresh)
    return out
