# crosshair: off
# (it drives z3's Spacer; its answers are checked by verify.summaries and the engine's T-S1)
"""Procedure summaries inferred by a CHC solver (T-I2 for calls: proposed here, checked in
`verify.summaries`).

A program with procedures (recursive ones included) becomes constrained Horn clauses in the
style of `solver.horn`, with two predicates per procedure `f` the main statement may call:

- `Call_f(x̄, r̄, w̄)`: the values of `f`'s parameters and of the globals it (or a procedure it
  calls) reads, `r̄`, or writes, `w̄`, at some call of `f`: each call site is a clause whose head
  is `Call_f` of its arguments;
- `Sum_f(x̄, r̄, w̄, w̄', result)`: a call from those values may return `result` with the written
  globals at `w̄'`; each `return e` of `f`'s body (and its end, which returns 0) is a clause
  from `Call_f` at the body's entry, through the body's path in SSA form, to `Sum_f`.

A call site is a cut point: the path before it, the arguments' definedness and `Sum_f` of the
arguments and fresh values give a predicate `R_m` over the scope's variables after the call
(so a branch with a call joins the other through `solver.horn`'s join predicate, and clause
bodies hold no disjunction of predicates). In a body, `x@0` and `w@0` are the values at entry
of a parameter the body assigns and of a written global: they never change, so the return
clause can state `Sum_f` of them. Loops, in the main statement and in bodies, are
`solver.horn`'s loop predicates over their scope's variables; failures (`assert`, `fail`, a
division by zero, a written invariant, `requires` or `ensures` that does not hold where every
semantics checks it: at the loop's head, the call, each return) derive its query `Err`.

Spacer's answer: *safe*, with an interpretation of every `Call_f` and `Sum_f`, read back as the
contract `requires Call_f ensures Sum_f` in IMP, and of every loop predicate, read back as the
loop's invariant (`Summaries`; one that speaks of a value at entry, `x@0`, has no IMP form:
Unknown): a proposal, valid as a set of
contracts (each body establishes its `ensures` from its `requires`, calls summarised; every call
site establishes the callee's `requires`) because the clauses say exactly that, but checked
anyway; *unsafe* (`Failing`: a derivation of `Err`, left to exploration to find and replay);
or `Unknown`. A summary that relates a written global's value after the call to its value
before is not expressible in `ensures` (which sees the globals after the call only): Unknown.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Union

import z3

from symcert.lang import annotations
from symcert.lang.procedures import called, statements, table_of
from symcert.core.algebra import fold_a
from symcert.core.guards import GUARDS
from symcert.lang.syntax import (
    AExpr, ArrayVar, Await, BExpr, Bool, Call, Get, Int, New, Nil, Proc, Quant, Return, Spawn,
    Stmt, Var, While, is_field,
)
from symcert.lang.structure import levels, variables
from symcert.solver.horn import (
    DEFAULT_RLIMIT, DEFAULT_TIMEOUT_MS, LoopInvariant, Unknown, _Ctx, _Encoder, _to_imp,
    _Untranslatable, spacer,
)
from symcert.solver.interrupts import Z3_CALLS

RESULT = annotations.RESULT
_UNSUPPORTED = {New: "objects", Nil: "objects", Spawn: "threads", Get: "threads",
                Await: "threads", Quant: "quantifiers"}


@dataclass(frozen=True)
class Summary:
    """The contract proposed for procedure `name`."""

    name: str
    requires: BExpr
    ensures: BExpr


@dataclass(frozen=True)
class Summaries:
    """Spacer found an interpretation of every predicate: a contract per procedure called, and
    an invariant per loop (numbered by `loops`)."""

    contracts: tuple[Summary, ...]
    seconds: float
    invariants: tuple[LoopInvariant, ...] = ()


@dataclass(frozen=True)
class Failing:
    """Spacer derived `Err`: some call path may fail (exploration looks for it and replays it)."""

    seconds: float


Answer = Union[Summaries, Failing, Unknown]


def unsupported(p: Stmt) -> str | None:
    """Why the program whose main statement is `p` is outside the summaries' encoding (no
    procedure called, objects or threads, a local that hides a global its procedure's callee
    uses: the encoding passes a callee the caller's variable of the global's name), or None."""
    roots = [p, *(q.body for q in table_of(p).values())]
    for root in roots:
        for level in levels(root):
            for node in level:
                what = _UNSUPPORTED.get(type(node))
                if what is None and isinstance(node, ArrayVar) and is_field(node.name):
                    what = "objects"
                if what is not None:
                    return f"{what} are not supported by the summaries' encoding"
    procs = called(p)
    if not procs:
        return "no procedure is called"
    if any(RESULT in (*q.params, *q.locals) or RESULT in _signatures(procs)[q.name].writes
           or RESULT in _signatures(procs)[q.name].reads for q in procs):
        return f"a variable named {RESULT!r} (the encoding's name of a returned value)"
    sigs = _signatures(procs)
    for q in procs:
        for s in statements(q.body):
            hidden = q.locals & set(sigs[s.name].reads + sigs[s.name].writes) \
                if isinstance(s, Call) else set()
            if hidden:
                return (f"a local of {q.name} hides the global {', '.join(sorted(hidden))} "
                        f"that {s.name} uses")
    return None


def loops(p: Stmt) -> list[While]:
    """The loops of the main statement `p`, then of each procedure it may call (`called`),
    each in pre-order: a loop's index in this list is its key in `Summaries.invariants`."""
    return [w for root in [p, *(q.body for q in called(p))] for w in annotations.loops(root)]


@dataclass(frozen=True)
class _Sig:
    """A procedure's predicates' arguments: parameters, globals read only, globals written."""

    proc: Proc
    reads: tuple[str, ...]
    writes: tuple[str, ...]


def _signatures(procs: list[Proc]) -> dict[str, _Sig]:
    """Each procedure's globals, read or written by it or by a procedure it calls."""
    used: dict[str, set[str]] = {q.name: variables(q.body) - q.locals for q in procs}
    wrote: dict[str, set[str]] = {}
    for q in procs:
        w = annotations.written(q.body)
        wrote[q.name] = set(w.variables | w.arrays) - q.locals
    changed = True
    while changed:  # through the calls, to a fixed point
        changed = False
        for q in procs:
            for s in statements(q.body):
                if isinstance(s, Call):
                    before = (len(used[q.name]), len(wrote[q.name]))
                    used[q.name] |= used[s.name] - q.locals
                    wrote[q.name] |= wrote[s.name] - q.locals
                    changed |= before != (len(used[q.name]), len(wrote[q.name]))
    return {q.name: _Sig(q, tuple(sorted(used[q.name] - wrote[q.name])),
                         tuple(sorted(wrote[q.name]))) for q in procs}


@dataclass
class _Scope(_Encoder):
    """The clauses of one scope (the main statement or a body), sharing the program's rules and
    predicates with the other scopes."""

    sigs: dict[str, _Sig] = field(default_factory=dict)
    entry: _Sig | None = None
    """In a body: its procedure's signature."""

    def call_pred(self, sig: _Sig) -> Any:
        """`Call_f` over the parameters, the globals read and the globals written."""
        sorts = [self.sort(x) for x in (*sig.proc.params, *sig.reads, *sig.writes)]
        return self.preds.setdefault(f"Call_{sig.proc.name}",
                                     z3.Function(f"Call_{sig.proc.name}", *sorts, z3.BoolSort()))

    def sum_pred(self, sig: _Sig) -> Any:
        """`Sum_f` over those, the written globals after the call and `result`."""
        sorts = [self.sort(x) for x in (*sig.proc.params, *sig.reads, *sig.writes, *sig.writes)]
        return self.preds.setdefault(f"Sum_{sig.proc.name}",
                                     z3.Function(f"Sum_{sig.proc.name}", *sorts, z3.IntSort(),
                                                 z3.BoolSort()))

    def ssa(self, ctx: _Ctx, e: AExpr) -> AExpr:
        """The term of `e` over `ctx`'s SSA names (its definedness is checked apart)."""
        return fold_a(GUARDS, lambda x: Var(ctx.names.get(x, x)), e)[0]

    def step(self, s: Stmt, ctx: _Ctx) -> _Ctx | None:
        if isinstance(s, Return):
            self.give(ctx, s)
            return None
        if isinstance(s, Call):
            return self.call(s, ctx)
        return super().step(s, ctx)

    def give(self, ctx: _Ctx, s: Return | None) -> None:
        """The clause of a return (None: the end of the body, which returns 0)."""
        assert self.entry is not None
        sig = self.entry
        value, ok = (z3.IntVal(0), z3.BoolVal(True)) if s is None else \
            self.guarded(ctx, s.expr, False)
        if not z3.is_true(ok):
            self.emit(None, ctx, z3.Not(ok))
        q = sig.proc
        if q.ensures is not None:  # checked at each return, as written
            at_call = {x: Var(ctx.names[f"{x}@0"] if f"{x}@0" in self.names else ctx.names[x])
                       for x in q.params}
            returned = Int(0) if s is None else self.ssa(ctx, s.expr)
            post, _ = self.guarded(ctx, q.ensures, True, {**at_call, RESULT: returned})
            self.emit(None, ctx, ok, z3.Not(post))
        entry = (*(f"{x}@0" if f"{x}@0" in self.names else x for x in q.params), *sig.reads,
                 *(f"{w}@0" for w in sig.writes), *sig.writes)
        head = self.sum_pred(sig)(*(self.const(x, ctx.names[x]) for x in entry), value)
        self.rules.append((head, self.body(ctx) + [ok], ctx.head))

    def call(self, s: Call, ctx: _Ctx) -> _Ctx:
        """A call site: the clause to `Call_f`, then a cut at `R_m` after the call."""
        sig = self.sigs[s.name]
        values, oks = [], []
        for a in s.args:
            t, ok = self.guarded(ctx, a, False)
            values.append(t)
            oks.append(ok)
        ok = z3.And(oks) if oks else z3.BoolVal(True)
        if not z3.is_true(z3.simplify(ok)):
            self.emit(None, ctx, z3.Not(ok))
        if sig.proc.requires is not None:  # checked at each call, as written
            args = {x: self.ssa(ctx, a) for x, a in zip(sig.proc.params, s.args)}
            pre, _ = self.guarded(ctx, sig.proc.requires, True, args)
            self.emit(None, ctx, ok, z3.Not(pre))
        shared = [self.const(x, ctx.names[x]) for x in (*sig.reads, *sig.writes)]
        self.rules.append((self.call_pred(sig)(*values, *shared), self.body(ctx) + [ok],
                           ctx.head))
        self.fresh += 1
        names = dict(ctx.names)
        for w in sig.writes:
            names[w] = f"{w}!{self.fresh}"
        value = z3.Int(f"{RESULT}!{self.fresh}")
        if s.target is not None:
            names[s.target] = f"{RESULT}!{self.fresh}"
        after = self.sum_pred(sig)(*values, *shared, *(self.const(w, names[w]) for w in
                                                       sig.writes), value)
        cut = f"R{sum(1 for name in self.preds if name.startswith('R'))}"
        self.pred(cut)
        self.emit((cut, tuple(names[x] for x in self.names)),
                  _Ctx(ctx.head, ctx.facts + [ok, after], names))
        at = self.new_names()
        return _Ctx((cut, at), [], dict(zip(self.names, at)))


def infer(p: Stmt, *, timeout_ms: int = DEFAULT_TIMEOUT_MS, rlimit: int = DEFAULT_RLIMIT,
          seed: int = 0) -> Answer:
    """Ask Spacer for a summary of every procedure the main statement `p` may call that,
    with invariants of the loops, proves the program's asserts and divisions (T-I2); the
    answer is a proposal, to be checked (`verify.summaries`).

    :param timeout_ms: Spacer's wall-clock budget (the run holds `Z3_CALLS`).
    :param rlimit: Spacer's resource limit (deterministic).
    :param seed: Spacer's random seed.
    """
    start = time.perf_counter()
    why = unsupported(p)
    if why is not None:
        return Unknown(why)
    with Z3_CALLS:
        try:
            return _infer(p, timeout_ms, rlimit, seed, start)
        except z3.Z3Exception as e:
            return Unknown(f"Spacer stopped: {e}", time.perf_counter() - start)
        except _Untranslatable as e:
            return Unknown(f"a summary not in IMP: {e}", time.perf_counter() - start)


def _infer(p: Stmt, timeout_ms: int, rlimit: int, seed: int, start: float) -> Answer:
    procs = called(p)
    sigs = _signatures(procs)
    arrays = frozenset(node.name for root in [p, *(q.body for q in procs)]
                       for level in levels(root) for node in level if isinstance(node, ArrayVar))
    whiles = loops(p)
    loop_ids = {id(w): i for i, w in enumerate(whiles)}
    rules: list[Any] = []
    preds: dict[str, Any] = {}
    main_names = variables(p).union(*(set(s.reads + s.writes) for s in sigs.values()))
    main = _Scope(tuple(sorted(main_names)), loop_ids, arrays, rules, preds, sigs=sigs)
    main.pred("Err")
    main.run(p, _Ctx(None, [], {x: x for x in main.names}))
    scopes = {id(w): main.names for w in annotations.loops(p)}
    for sig in sigs.values():
        names = _body(sig, sigs, loop_ids, arrays, rules, preds)
        scopes.update({id(w): names for w in annotations.loops(sig.proc.body)})
    fp, answer = spacer(main, timeout_ms, rlimit, seed)
    seconds = time.perf_counter() - start
    if answer == z3.unknown:
        return Unknown(f"Spacer: {fp.reason_unknown()}", seconds)
    if answer == z3.sat:
        return Failing(seconds)
    out = []
    for sig in sigs.values():
        q = sig.proc
        pre = _to_imp(fp.get_cover_delta(-1, preds[f"Call_{q.name}"]),
                      (*q.params, *sig.reads, *sig.writes))
        post = _to_imp(fp.get_cover_delta(-1, preds[f"Sum_{q.name}"]),
                       (*q.params, *sig.reads, *(f"{w}@in" for w in sig.writes), *sig.writes,
                        RESULT))
        before = sorted(x for x in variables(post) if x.endswith("@in"))
        if before:
            return Unknown(f"the summary of {q.name} relates {', '.join(before)} (a global "
                           "before the call) to its value after it", seconds)
        out.append(Summary(q.name, pre, post))
    invariants = []
    for i, w in enumerate(whiles):
        inv = _to_imp(fp.get_cover_delta(-1, preds[f"P{i}"]), scopes[id(w)]) \
            if f"P{i}" in preds else Bool(False)  # a loop no path reaches
        at_call = sorted(x for x in variables(inv) if x.endswith("@0"))
        if at_call:
            return Unknown(f"the invariant of loop {i} speaks of {', '.join(at_call)} (a value "
                           "at the call)", seconds)
        invariants.append(LoopInvariant(i, w.pos, inv))
    return Summaries(tuple(out), seconds, tuple(invariants))


def _body(sig: _Sig, sigs: dict[str, _Sig], loop_ids: dict[int, int], arrays: frozenset[str],
          rules: list[Any], preds: dict[str, Any]) -> tuple[str, ...]:
    """The clauses of `sig`'s procedure's body, from `Call_f` at its entry to `Sum_f`; its
    scope's variables (a loop predicate's arguments)."""
    q = sig.proc
    assigned = annotations.written(q.body).variables
    entry = {x: f"{x}@0" for x in (*(x for x in q.params if x in assigned), *sig.writes)}
    names = tuple(sorted(q.locals | set(sig.reads) | set(sig.writes) | set(entry.values())))
    scope = _Scope(names, loop_ids, arrays | {f"{a}@0" for a in arrays}, rules, preds,
                   sigs=sigs)
    current = {x: x for x in names} | entry
    zeros = []
    for x in sorted(q.locals - set(q.params)):
        current[x] = f"{x}!0"
        zeros.append(scope.const(x, current[x]) == 0)
    at_entry = scope.call_pred(sig)(*(scope.const(x, current[x]) for x in
                                      (*q.params, *sig.reads, *sig.writes)))
    scope.entry = sig
    end = scope.run(q.body, _Ctx(None, [at_entry, *zeros], current))
    if end is not None:
        scope.give(end, None)
    return names
