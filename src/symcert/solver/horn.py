# crosshair: off
# (it drives z3's Spacer; its answers are checked by verify.inductive and by concrete replay)
"""Loop invariants inferred by a CHC solver (T-I2: proposed here, checked elsewhere).

An integer IMP program becomes constrained Horn clauses in the large-block style: one
uninterpreted predicate `P_k` per loop head over all the program's variables (sorted by name),
and each loop-free segment between two cut points (the entry, a loop head, the end of a loop
body, a failure) one clause whose body is the segment's transition formula in SSA form. The
formula is built by the expression fold (core.algebra): `core.guards.GUARDS` gives each
expression's term and its definedness over SSA names, `solver.z3terms.Z3` turns both into z3.
The query `Err` is reached by a failing `assert`, a `fail`, a division by zero in any
expression a statement evaluates (X-A2), or a written loop invariant false at its loop's head
(checked there as every semantics checks it: the clauses are the concrete runs, so a loop with
a written invariant still gets its predicate, and its proposal is ignored by the check). An `if` joins its branches by a disjunction when
neither contains a loop, else through a join predicate `J_m` (clauses stay Horn).

z3's Spacer then answers: *safe*, with an interpretation of each `P_k`, translated back into an
IMP formula over the program's variables (`Safe`); *unsafe*, with a ground derivation whose
first fact fixes the state at the first cut point, from which z3 solves the entry segment for a
concrete input (`Unsafe`: a claim the caller replays, never a verdict); or *unknown*.

Loops are identified by their pre-order index among the `While` nodes of the program (`loops`),
with the node's source position beside it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Mapping, Union

import z3

from symcert.core.algebra import fold_a, fold_b
from symcert.core.concrete import Env
from symcert.core.guards import GUARDS
from symcert.core.terms import negate
from symcert.lang import annotations
from symcert.lang.structure import levels, variables
from symcert.lang.syntax import (
    Add, AExpr, And, ArrayVar, Assert, Assign, Assume, Await, BExpr, Bool, Call, Cmp, Div, Fail, If,
    Get, Int, Mod, Mul, Neg, New, Nil, Not, Or, Pos, Quant, Return, Select, Seq, Skip, Spawn, Stmt,
    Sub, Var, While, is_field, spine,
)
from symcert.solver.interrupts import Z3_CALLS
from symcert.solver.z3terms import Z3, Z3Terms, cells

DEFAULT_TIMEOUT_MS = 10_000
DEFAULT_RLIMIT = 50_000_000


@dataclass(frozen=True)
class LoopInvariant:
    """The invariant proposed for loop number `index` (pre-order, `loops`) at `pos`."""

    index: int
    pos: Pos | None
    invariant: BExpr


@dataclass(frozen=True)
class Safe:
    """Spacer found an interpretation of every loop predicate: a candidate invariant map."""

    invariants: tuple[LoopInvariant, ...]
    seconds: float


@dataclass(frozen=True)
class Unsafe:
    """Spacer derived `Err`; `input` is the concrete input it suggests (to be replayed)."""

    input: Env
    seconds: float


@dataclass(frozen=True)
class Unknown:
    """No answer: an unsupported construct, a budget spent, or an untranslatable invariant."""

    reason: str
    seconds: float = 0.0


Answer = Union[Safe, Unsafe, Unknown]

_UNSUPPORTED = {Call: "procedure calls", Return: "return", New: "objects", Nil: "objects",
                Spawn: "threads", Get: "threads", Await: "threads", Quant: "quantifiers"}


def loops(p: Stmt) -> list[While]:
    """The `While` nodes of `p` in pre-order (`annotations.loops`): the index of a loop in this
    list is its key in `Safe.invariants`."""
    return list(annotations.loops(p))


def unsupported(p: Stmt) -> str | None:
    """Why `p` is outside the integer fragment the encoding handles, or None."""
    for level in levels(p):
        for node in level:
            what = _UNSUPPORTED.get(type(node))
            if what is None and isinstance(node, ArrayVar) and is_field(node.name):
                what = "objects"
            if what is not None:
                return f"{what} are not supported by the CHC encoding"
    return None


def _arrays(p: Stmt) -> frozenset[str]:
    """The names `p` uses as arrays."""
    return frozenset(node.name for level in levels(p) for node in level
                     if isinstance(node, ArrayVar))


@dataclass
class _Ctx:
    """A point inside a segment: the predicate it started from (None at the entry), the facts
    of the path so far, and each variable's current SSA name."""

    head: tuple[str, tuple[str, ...]] | None
    facts: list[Any]
    names: dict[str, str]


@dataclass
class _Encoder:
    """Builds the clauses of one program."""

    names: tuple[str, ...]
    loop_ids: dict[int, int]
    arrays: frozenset[str] = frozenset()
    rules: list[tuple[Any, list[Any], tuple[str, tuple[str, ...]] | None]] = field(
        default_factory=list)
    preds: dict[str, Any] = field(default_factory=dict)
    fresh: int = 0

    def sort(self, x: str) -> Any:
        """The sort of variable `x`: an array `Int → Int` or an integer."""
        return z3.ArraySort(z3.IntSort(), z3.IntSort()) if x in self.arrays else z3.IntSort()

    def const(self, x: str, name: str) -> Any:
        """The z3 constant `name` (an SSA name of variable `x`), of `x`'s sort."""
        return z3.Const(name, self.sort(x))

    def pred(self, name: str) -> Any:
        if name not in self.preds:
            sorts = [] if name == "Err" else [self.sort(x) for x in self.names]
            self.preds[name] = z3.Function(name, *sorts, z3.BoolSort())
        return self.preds[name]

    def app(self, name: str, args: tuple[str, ...]) -> Any:
        return self.pred(name)(*(self.const(x, a) for x, a in zip(self.names, args)))

    def body(self, ctx: _Ctx) -> list[Any]:
        return ([] if ctx.head is None else [self.app(*ctx.head)]) + ctx.facts

    def emit(self, target: tuple[str, tuple[str, ...]] | None, ctx: _Ctx, *extra: Any) -> None:
        """The clause `ctx ∧ extra → target` (`Err` for None)."""
        head = self.pred("Err")() if target is None else self.app(*target)
        self.rules.append((head, self.body(ctx) + list(extra), ctx.head))

    def new_names(self) -> tuple[str, ...]:
        self.fresh += 1
        return tuple(f"{x}!{self.fresh}" for x in self.names)

    def guarded(self, ctx: _Ctx, e: AExpr | BExpr, formula: bool,
                bound: Mapping[str, AExpr] | None = None) -> tuple[Any, Any]:
        """`e`'s z3 term and definedness in `ctx` (the names of `bound` read as its terms
        over SSA names: a contract's parameters); the definitions of the quotients it names
        join `ctx`'s facts (they constrain fresh names only, so they hold on every path)."""
        subst = (lambda x: (bound or {}).get(x) or Var(ctx.names.get(x, x)))
        t, ok = (fold_b if formula else fold_a)(GUARDS, subst, e)  # type: ignore[operator]
        algebra = _Quotients(self)
        term = fold_b(algebra, None, t) if formula else fold_a(algebra, None, t)
        ctx.facts.extend(algebra.definitions)
        return term, fold_b(Z3, None, ok)

    def test(self, ctx: _Ctx, b: BExpr) -> tuple[Any, Any]:
        """`b` in `ctx`, after emitting the clause of its division by zero."""
        f, ok = self.guarded(ctx, b, True)
        if not z3.is_true(ok):
            self.emit(None, ctx, z3.Not(ok))
        return f, ok

    def run(self, s: Stmt, ctx: _Ctx | None) -> _Ctx | None:
        for t in spine(s):
            if ctx is None:
                return None
            ctx = self.step(t, ctx)
        return ctx

    def step(self, s: Stmt, ctx: _Ctx) -> _Ctx | None:
        match s:
            case Skip():
                return ctx
            case Seq():
                return self.run(s, ctx)
            case Fail():
                self.emit(None, ctx)
                return None
            case Assign(x, e):
                t, ok = self.guarded(ctx, e, False)  # type: ignore[arg-type]
                if not z3.is_true(ok):
                    self.emit(None, ctx, z3.Not(ok))
                self.fresh += 1
                new = f"{x}!{self.fresh}"
                return _Ctx(ctx.head, ctx.facts + [ok, self.const(x, new) == t],
                            {**ctx.names, x: new})
            case Assert(b):
                f, ok = self.test(ctx, b)
                self.emit(None, ctx, ok, z3.Not(f))
                return _Ctx(ctx.head, ctx.facts + [ok, f], ctx.names)
            case Assume(b):
                f, ok = self.test(ctx, b)
                return _Ctx(ctx.head, ctx.facts + [ok, f], ctx.names)
            case If(b, p1, p2):
                f, ok = self.test(ctx, b)
                left = self.run(p1, _Ctx(ctx.head, ctx.facts + [ok, f], ctx.names))
                right = self.run(p2, _Ctx(ctx.head, ctx.facts + [ok, z3.Not(f)], ctx.names))
                return self.join(left, right, len(ctx.facts))
            case While(b, body):
                name = f"P{self.loop_ids[id(s)]}"
                self.emit((name, tuple(ctx.names.get(x, x) for x in self.names)), ctx)
                at = self.new_names()
                head = _Ctx((name, at), [], dict(zip(self.names, at)))
                if s.invariants:  # checked at every evaluation of the head, as written
                    inv, _ = self.test(head, s.invariant())
                    self.emit(None, head, z3.Not(inv))
                f, ok = self.test(head, b)
                end = self.run(body, _Ctx(head.head, [ok, f], head.names))
                if end is not None:
                    self.emit((name, tuple(end.names[x] for x in self.names)), end)
                return _Ctx(head.head, [ok, z3.Not(f)], head.names)
        raise TypeError(f"not a supported statement: {s!r}")

    def join(self, left: _Ctx | None, right: _Ctx | None, shared: int) -> _Ctx | None:
        """The point after an `if`: a disjunction of the branches' own facts when both come
        from the same predicate, else a join predicate."""
        if left is None or right is None:
            return left or right
        if left.head == right.head:
            names, eqs_l, eqs_r = dict(left.names), [], []
            for x in self.names:
                if left.names[x] != right.names[x]:
                    self.fresh += 1
                    names[x] = f"{x}!{self.fresh}"
                    eqs_l.append(self.const(x, names[x]) == self.const(x, left.names[x]))
                    eqs_r.append(self.const(x, names[x]) == self.const(x, right.names[x]))
            either = z3.Or(z3.And(left.facts[shared:] + eqs_l),
                           z3.And(right.facts[shared:] + eqs_r))
            return _Ctx(left.head, left.facts[:shared] + [either], names)
        name = f"J{len([p for p in self.preds if p.startswith('J')])}"
        self.pred(name)
        for side in (left, right):
            self.emit((name, tuple(side.names[x] for x in self.names)), side)
        at = self.new_names()
        return _Ctx((name, at), [], dict(zip(self.names, at)))


class _Quotients(Z3Terms):
    """z3's algebra with each division by a non-constant named: Spacer rejects `div` and `mod`
    by a term, so `a / b` is a fresh `q` with `b*q <= a < b*q + b` for `b > 0` and
    `b*q >= a > b*q + b` for `b < 0` (floor division, X-A1), and `a % b` is `a - b*q`. At
    `b == 0`, `q` is free: the guard already sends that case to `Err`."""

    def __init__(self, encoder: _Encoder) -> None:
        self.encoder = encoder
        self.definitions: list[Any] = []

    def div(self, a: Any, b: Any) -> Any:
        if z3.is_int_value(b):
            return super().div(a, b)
        self.encoder.fresh += 1
        q = z3.Int(f"q!{self.encoder.fresh}")
        self.definitions.append(z3.And(
            z3.Implies(b > 0, z3.And(b * q <= a, a < b * q + b)),
            z3.Implies(b < 0, z3.And(b * q >= a, a > b * q + b))))
        return q

    def mod(self, a: Any, b: Any) -> Any:
        if z3.is_int_value(b):
            return super().mod(a, b)
        return a - b * self.div(a, b)


def infer(p: Stmt, *, timeout_ms: int = DEFAULT_TIMEOUT_MS, rlimit: int = DEFAULT_RLIMIT,
          seed: int = 0) -> Answer:
    """Ask Spacer for an inductive invariant of every loop of `p` that proves its asserts and
    divisions (T-I2); the answer is a proposal, to be checked (`verify.inductive`) or
    replayed.

    :param timeout_ms: Spacer's wall-clock budget (the run holds `Z3_CALLS`, so a command's
        own deadline waits for it: give inference a share of that budget).
    :param rlimit: Spacer's resource limit (deterministic).
    :param seed: Spacer's random seed.
    """
    start = time.perf_counter()
    why = unsupported(p)
    if why is not None:
        return Unknown(why)
    with Z3_CALLS:
        return _infer(p, timeout_ms, rlimit, seed, start)


def _infer(p: Stmt, timeout_ms: int, rlimit: int, seed: int, start: float) -> Answer:
    names = tuple(sorted(variables(p)))
    whiles = loops(p)
    enc = _Encoder(names, {id(w): i for i, w in enumerate(whiles)}, _arrays(p))
    enc.pred("Err")
    enc.run(p, _Ctx(None, [], {x: x for x in names}))
    try:
        fp, answer = spacer(enc, timeout_ms, rlimit, seed)
    except z3.Z3Exception as e:
        return Unknown(f"Spacer stopped: {e}", time.perf_counter() - start)
    seconds = time.perf_counter() - start
    if answer == z3.unknown:
        return Unknown(f"Spacer: {fp.reason_unknown()}", seconds)
    if answer == z3.unsat:
        out = []
        for i, w in enumerate(whiles):
            name = f"P{i}"
            if name not in enc.preds:  # a loop no path reaches
                out.append(LoopInvariant(i, w.pos, Bool(False)))
                continue
            try:
                inv = _to_imp(fp.get_cover_delta(-1, enc.preds[name]), names)
            except _Untranslatable as e:
                return Unknown(f"invariant of loop {i} not in IMP: {e}", seconds)
            out.append(LoopInvariant(i, w.pos, inv))
        return Safe(tuple(out), seconds)
    found = _input(fp.get_answer(), enc, names)
    if found is None:
        return Unknown("Spacer found a counterexample whose input z3 could not rebuild", seconds)
    return Unsafe(found, time.perf_counter() - start)


def spacer(enc: _Encoder, timeout_ms: int, rlimit: int, seed: int) -> tuple[Any, Any]:
    """Spacer on the clauses of `enc`: the fixedpoint and its answer to the query `Err`."""
    fp = z3.Fixedpoint()
    fp.set(engine="spacer")
    fp.set("spacer.random_seed", seed, "timeout", timeout_ms, "rlimit", rlimit,
           "spacer.global", True)  # global guidance: without it `i < 10**6; i += 1` times out
    for xform in ("xform.slice", "xform.inline_linear", "xform.inline_eager"):
        fp.set(xform, False)  # keep every predicate whole: its answer is read back by name
    fp.register_relation(*enc.preds.values())
    consts: dict[str, Any] = {}
    for head, body, _ in enc.rules:
        for e in [head, *body]:
            _collect(e, consts)
    if consts:
        fp.declare_var(*consts.values())
    for head, body, _ in enc.rules:
        fp.rule(head, body)
    return fp, fp.query(enc.preds["Err"]())


def _collect(e: Any, out: dict[str, Any]) -> None:
    if (z3.is_const(e) and e.decl().kind() == z3.Z3_OP_UNINTERPRETED
            and e.sort() in (z3.IntSort(), z3.ArraySort(z3.IntSort(), z3.IntSort()))):
        out[e.decl().name()] = e
        return
    for c in e.children():
        _collect(c, out)


def _input(proof: Any, enc: _Encoder, names: tuple[str, ...]) -> Env | None:
    """The input of Spacer's counterexample: the first ground fact of its derivation (a head
    of a clause from the entry), with the entry clause solved for the input that reaches it;
    for a failure before any loop, a clause from the entry to `Err` solved alone."""
    facts: list[Any] = []
    _first_facts(proof, facts)
    err = enc.preds["Err"]()
    for fact in facts + [err]:  # a failure before any loop: Spacer's first fact is its query
        for head, body, origin in enc.rules:
            if origin is not None or head.decl().name() != fact.decl().name():
                continue
            s = z3.Solver()
            s.set("random_seed", 0)
            s.set("rlimit", DEFAULT_RLIMIT)
            s.add(*body, *[a == b for a, b in zip(head.children(), fact.children())])
            if s.check() == z3.sat:
                m = s.model()
                try:
                    return Env.of({x: _value(m.eval(enc.const(x, x), model_completion=True))
                                   for x in names})
                except (AssertionError, z3.Z3Exception):  # an array model of another shape
                    return None
    return None


def _value(v: Any) -> Any:
    """An integer or an array (`Cells`) of a model."""
    return v.as_long() if z3.is_int_value(v) else cells(v)


def _first_facts(p: Any, out: list[Any]) -> None:
    """The conclusions of the hyper-resolution steps of `p` that use no derived fact."""
    if not z3.is_app(p):
        return
    steps = [c for c in p.children() if z3.is_app(c) and c.decl().name() in ("hyper-res", "mp")]
    if p.decl().name() == "hyper-res" and not steps:
        out.append(p.children()[-1])
    for c in steps:
        _first_facts(c, out)


class _Untranslatable(Exception):
    """A z3 term with no IMP counterpart."""


_OPPOSITE = {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!=", "!=": "=="}
_CMP = {z3.Z3_OP_LE: "<=", z3.Z3_OP_GE: ">=", z3.Z3_OP_LT: "<", z3.Z3_OP_GT: ">",
        z3.Z3_OP_EQ: "=="}


def _to_imp(e: Any, names: tuple[str, ...]) -> BExpr:
    """A z3 formula over the predicate's arguments (`Var(i)` is `names[i]`) as an IMP formula."""
    k = e.decl().kind() if z3.is_app(e) else None
    args = e.children() if z3.is_app(e) else []
    if z3.is_true(e) or z3.is_false(e):
        return Bool(z3.is_true(e))
    if k == z3.Z3_OP_NOT:  # `not a <= b` reads `a > b`
        inner = _to_imp(args[0], names)
        if isinstance(inner, Cmp):
            return Cmp(_OPPOSITE[inner.op], inner.left, inner.right)
        return negate(inner)
    if k in (z3.Z3_OP_AND, z3.Z3_OP_OR):
        parts = [_to_imp(a, names) for a in args]
        out = parts[0]
        for q in parts[1:]:
            out = And(out, q) if k == z3.Z3_OP_AND else Or(out, q)
        return out
    if k == z3.Z3_OP_IMPLIES:
        return Or(Not(_to_imp(args[0], names)), _to_imp(args[1], names))
    if k == z3.Z3_OP_EQ and z3.is_bool(args[0]):
        a, b = (_to_imp(x, names) for x in args)
        return Or(And(a, b), And(Not(a), Not(b)))
    if k == z3.Z3_OP_DISTINCT and len(args) == 2:
        return Cmp("!=", _term(args[0], names), _term(args[1], names))
    if k in _CMP:
        return Cmp(_CMP[k], _term(args[0], names), _term(args[1], names))
    raise _Untranslatable(str(e))


def _term(e: Any, names: tuple[str, ...]) -> AExpr:
    if z3.is_var(e) and e.sort() == z3.IntSort():
        return Var(names[z3.get_var_index(e)])
    if z3.is_select(e) and z3.is_var(e.arg(0)):  # a cell of an array argument: `a[i]`
        return Select(ArrayVar(names[z3.get_var_index(e.arg(0))]), _term(e.arg(1), names))
    if z3.is_int_value(e):
        return Int(e.as_long())
    k = e.decl().kind() if z3.is_app(e) else None
    if k not in (z3.Z3_OP_UMINUS, z3.Z3_OP_ADD, z3.Z3_OP_MUL, z3.Z3_OP_SUB, z3.Z3_OP_IDIV,
                 z3.Z3_OP_MOD):
        raise _Untranslatable(str(e))
    args = [_term(a, names) for a in e.children()]
    if k == z3.Z3_OP_UMINUS:
        return Neg(args[0])
    if k in (z3.Z3_OP_ADD, z3.Z3_OP_MUL) and args:
        out = args[0]
        for q in args[1:]:
            out = Add(out, q) if k == z3.Z3_OP_ADD else Mul(out, q)
        return out
    if k == z3.Z3_OP_SUB:
        out = args[0]
        for q in args[1:]:
            out = Sub(out, q)
        return out
    positive = len(args) == 2 and isinstance(args[1], Int) and args[1].value > 0
    if k in (z3.Z3_OP_IDIV, z3.Z3_OP_MOD) and positive:  # Euclidean = floor for a divisor > 0
        return Div(*args) if k == z3.Z3_OP_IDIV else Mod(*args)
    raise _Untranslatable(str(e))
