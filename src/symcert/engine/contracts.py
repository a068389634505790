"""The contract transition T-S1 (seed 001: a summary of a procedure is an m-to-n transition that
over-approximates its calls; exhaustive, not precise, unless the contract is the strongest).

A call `y = f(ē)` to a procedure with a contract `requires P ensures Q`, reached in `⟨φ, S, p⟩`
with the arguments' terms `v̄`, steps without entering the body:
- `φ ∧ ¬P[x̄ := v̄]` fails at the call ("precondition of f does not hold": the concrete
  semantics checks `P` at every call, so on a concrete path this is a bug replayed as any);
- `φ ∧ P[x̄ := v̄] ∧ Q'` goes on after the call, where every global `f` may write (`writes`:
  variables, arrays and fields' maps its body and the procedures it calls assign, computed on
  the syntax) is bound to a fresh `g#k@f:L:C` and the result to a fresh `f()#k@L:C` (`L:C` the
  call's place, `symbols`), and `Q'` is `Q` read with the parameters at `v̄`, the globals
  havocked and `result` at the result's symbol;
- where an argument may divide by zero, `φ ∧ ¬ok` fails (X-A2).
Every successor adds one conjunct (W-L2.2); the store counts the havoc (`invariants.HAVOC`),
so the path is *abstract* and a failure on it is a bug only if a concrete run replays it.

The transition is exhaustive when the contract holds, which the same worklist checks once per
procedure (`roots`): the body runs from `⟨P, id, body⟩` with the parameters bound to fresh
`x#0` and the globals free, its recursive calls summarised by the same contract (so recursion
ends: partial correctness by induction on the depth of calls), and each return reaches
`assert Q` (`Ensures`). A failure there is undecided ("postcondition of f is not
established", `blame`), never a bug unless a run of the program replays it. A procedure whose
calls make objects is inlined (B-T4: the counter of new objects must stay a literal).
"""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Callable, Iterator

from symcert.core.concrete import Env, aeval, head
from symcert.core.frames import Frame, after, assign, enter, scope
from symcert.core.guards import assuming, may_fail
from symcert.core.state import TRUE_PC, Store, SymState, initial
from symcert.core.symbolic import sym_aeval, sym_beval, sym_guard
from symcert.core.terms import conj, free_vars, negate
from symcert.engine import symbols
from symcert.engine.invariants import HAVOC, INVARIANTS, Unproved
from symcert.lang.annotations import RESULT, written
from symcert.lang.procedures import arrays, statements, table_of
from symcert.lang.syntax import (
    ALLOC, AExpr, And, ArrayVar, Assert, Await, BExpr, Bool, Call, Cmp, Fail, Get, Int, Proc,
    Spawn, Stmt, Var, While,
)
from symcert.solver.z3backend import Sat, Solver

SUMMARIES: ContextVar[bool] = ContextVar("symcert_summaries", default=True)
"""Whether `run` uses T-S1 at calls of procedures with a contract (else it inlines them,
checking `requires` at each call as the concrete semantics does)."""

SUMMARY = "#summary"
"""The store's mark of a path through a summary (no program variable has a `#`)."""

RETURNED = "#result"
"""Where a verified body's return puts its value, read by `Ensures` as `result` (a program may
have a variable `result` of its own: the word is the returned value only in `ensures`)."""


@contextmanager
def summaries(on: bool) -> Iterator[None]:
    """Within: `run` summarises contracted calls (`on`) or inlines every call."""
    token = SUMMARIES.set(on)
    try:
        yield
    finally:
        SUMMARIES.reset(token)


def contracted(q: Proc) -> bool:
    """Whether `q` has a contract (a `requires`, an `ensures` or both)."""
    return q.requires is not None or q.ensures is not None


def callees(q: Proc) -> list[Proc]:
    """`q` and every procedure it may call, transitively, in the order found."""
    seen: dict[str, Proc] = {q.name: q}
    todo = [q]
    while todo:
        for s in statements(todo.pop().body):
            if isinstance(s, Call) and s.name not in seen:
                seen[s.name] = s.procs[s.name]
                todo.append(seen[s.name])
    return list(seen.values())


def writes(q: Proc) -> frozenset[str]:
    """The globals (variables, arrays, fields' maps, the counter of new objects) a call of `q`
    may write: what its body and the bodies of the procedures it calls assign, but locals."""
    out: set[str] = set()
    for r in callees(q):
        w = written(r.body)
        out |= (w.variables | w.arrays) - r.locals
    return frozenset(out)


def summarisable(q: Proc) -> bool:
    """Whether T-S1 applies to calls of `q`: it has a contract, its calls make no object, and
    it and its callees run no statement of threads (`spawn`, `get`, `await`: their steps
    interleave with other threads', which one summary step would hide, and the body's
    verification runs outside a configuration)."""
    return contracted(q) and ALLOC not in writes(q) and not any(
        isinstance(s, (Spawn, Get, Await)) for r in callees(q) for s in statements(r.body))


def applies(p: Stmt) -> bool:
    """Whether T-S1 steps a state with program `p` (unless switched off by `SUMMARIES`)."""
    call = head(p)
    return (isinstance(call, Call) and SUMMARIES.get()
            and summarisable(call.procs[call.name]))


def expand_call(state: SymState) -> list[SymState]:
    """The successors of `state` under T-S1 (`applies(state.prog)` holds).

    :param state: a state whose next statement is a call of a procedure with a contract.
    :return: the summarised call, the failing precondition, and the failing arguments where
        one may divide by zero.
    """
    call = head(state.prog)
    assert isinstance(call, Call)
    proc = call.procs[call.name]
    phi, store, frame, depth = state.pc, state.store, state.frame, state.depth + 1
    ctx = scope(frame, store)
    values = [sym_aeval(ctx, a) for a in call.args]
    ok: BExpr | None = None
    for a in call.args:
        if may_fail(a):
            ok = sym_guard(ctx, a) if ok is None else conj(ok, sym_guard(ctx, a))
    pre = _holds(proc.requires, scope(enter(call, values, Int(0), Store.of, frame, call), store))
    count = store(HAVOC)
    k = (count.value if isinstance(count, Int) else 0) + 1
    havocked = store.update(HAVOC, Int(k)).update(SUMMARY, Int(1))
    names = arrays(state.prog)
    for g in sorted(writes(proc)):
        fresh = symbols.havocked(g, k, call.pos, call.name)
        havocked = havocked.update(g, ArrayVar(fresh) if g in names else Var(fresh))
    value = Var(symbols.havocked(f"{call.name}()", k, call.pos))  # no program name has `(`
    inner = scope(enter(call, values, Int(0), Store.of, frame, call), havocked)
    post = _holds(proc.ensures, lambda x: value if x == RESULT else inner(x))
    out_frame, out_store = frame, havocked
    if call.target is not None:
        out_frame, out_store = assign(frame, havocked, call.target, value)
    out = [SymState(phi.extend(_ok(ok, conj(pre, post))), out_store, after(state.prog), depth,
                    frame=out_frame),
           SymState(phi.extend(_ok(ok, negate(pre))), store, Fail(call.pos, call), depth,
                    frame=frame)]
    if ok is not None:
        out.append(SymState(phi.extend(negate(ok)), store, Fail(call.pos, call, by_zero=True),
                            depth, frame=frame))
    return out


def _holds(clause: BExpr | None, ctx: Callable[[str], AExpr]) -> BExpr:
    """`⟦clause⟧_ctx`, `true` for a missing clause."""
    return Bool(True) if clause is None else sym_beval(ctx, clause)


def _ok(ok: BExpr | None, c: BExpr) -> BExpr:
    return c if ok is None else assuming(ok, c)


@dataclass(frozen=True, slots=True)
class Ensures(Assert):
    """`assert Q` where a verified body returns: `Q` with the parameters at their values at the
    call (`x#0`) and `result` at the returned value; `proc` names the procedure, `clause` is
    `Q` as written."""

    proc: str = ""
    clause: str = ""


def reached(p: Stmt) -> set[str]:
    """The procedures the main statement of `p` may call, transitively."""
    table = table_of(p)
    called: set[str] = set()
    for s in statements(p):
        if isinstance(s, Call):
            called |= {q.name for q in callees(table[s.name])}
    return called


def verified(p: Stmt) -> list[Proc]:
    """The procedures with a contract whose bodies must be verified for `p`: those the main
    statement may call, transitively, whose calls T-S1 summarises (in the table's order)."""
    called = reached(p)
    return [q for q in table_of(p).values() if q.name in called and summarisable(q)]


def unreached(p: Stmt) -> tuple[str, ...]:
    """The procedures with a contract that no call reaches: a verdict on `p` rests on no
    verification of their bodies, so a report names them (the contracts are not checked)."""
    called = reached(p)
    return tuple(q.name for q in table_of(p).values() if contracted(q) and q.name not in called)


def entry(q: Proc) -> SymState:
    """The state a body verification starts from: `⟨P, id, body⟩`, the parameters bound to
    fresh `x#0`, the other locals to 0, the globals free, and the return to `Ensures`."""
    params = Store.of({x: Var(f"{x}#0") for x in q.params})
    check = Ensures(_holds(q.ensures, lambda x: Var(RETURNED) if x == RESULT else params(x)),
                    q.pos,
                    proc=q.name, clause=str(q.ensures))
    bound = dict.fromkeys(q.locals, Int(0))
    bound.update({x: Var(f"{x}#0") for x in q.params})
    frame: Frame[Store] = Frame(q, Store.of(bound), RETURNED, check, None, 1)
    start = Store.of({HAVOC: Int(0)})  # abstract from the start: a failure must replay
    pre = _holds(q.requires, scope(frame, start))
    if "." in q.name and q.params[:1] == ("this",):  # a method (B-O1): its receiver an object
        pre = And(Cmp(">", Var("this#0"), Int(0)), pre)
    return SymState(TRUE_PC.extend(pre), start, q.body, 0, frame=frame)


def roots(p: Stmt) -> list[SymState]:
    """The worklist `run` starts from for `p`: its initial state and, with T-S1 on, the entry
    of each body to verify."""
    start = initial(p)
    if not (SUMMARIES.get() and INVARIANTS.get()):
        return [start]
    return [start] + [entry(q) for q in verified(p)]


def summarised(p: Stmt) -> tuple[str, ...]:
    """The procedures whose calls T-S1 summarises in `p` (none when switched off)."""
    return tuple(q.name for q in verified(p)) if SUMMARIES.get() else ()


def blame(s: SymState, found: Unproved, solver: Solver) -> tuple[bool, str]:
    """Why a failure on an abstract path that no run replays is not a bug: whether a contract
    is at fault (else an invariant), and the sentence for a user."""
    failing = head(s.prog)
    assert isinstance(failing, Fail)
    in_body = _verifying(s)
    if isinstance(failing.origin, While) and failing.origin.entered:
        return False, found.message()
    if in_body is None and s.store(SUMMARY) == Var(SUMMARY):
        return False, found.message()
    answer, model = solver.check(s.pc)
    model = model if answer is Sat.SAT and model is not None else Env.of({})
    symbols = sorted(set().union(*(free_vars(c) for c in s.pc.conjuncts())))
    at = f" at {failing.pos.line}:{failing.pos.column}" if failing.pos else ""
    if in_body is not None:
        entry_values = _shown(model, [x for x in symbols if x.endswith("#0") or "#" not in x])
        if isinstance(failing.origin, Ensures):
            out = _shown(model, [RETURNED] if s.store(RETURNED) != Var(RETURNED) else [],
                         s.store)
            return True, (f"postcondition of {in_body} is not established: from the values at "
                          f"entry {entry_values} (allowed by its precondition) a return leads "
                          f"to {out}, where `{failing.origin.clause}` does not hold (maybe "
                          "unreachable from the program's inputs)")
        return True, (f"in the body of {in_body}, from the values at entry {entry_values} "
                      f"(allowed by its precondition), {failing.what()}{at}, and no run of the "
                      "program replays it")
    shown = _shown(model, [x for x in symbols if "#" in x])
    what = (f"the precondition of {failing.origin.name} holds{at}"
            if isinstance(failing.origin, Call) else f"no {failing.what()}{at}")
    return True, (f"the contracts are too weak to show that {what}: it fails where calls are "
                  f"summarised with {shown} (allowed by the contracts), and no concrete run "
                  "replays it")


def _verifying(s: SymState) -> str | None:
    """The procedure whose body verification `s` belongs to, if any."""
    failing = head(s.prog)
    if isinstance(failing, Fail) and isinstance(failing.origin, Ensures):
        return failing.origin.proc
    f = s.frame
    while f is not None and f.below is not None:
        f = f.below
    return f.proc.name if f is not None and f.target == RETURNED else None


def _shown(model: Env, names: list[str], store: Store | None = None) -> str:
    """`{x = v, ...}`: each integer name's value in `model`, or of its term in `store`; a
    parameter's value at entry (`x#0`) shown as `x`, the returned value as `result`, and a
    summarised call's value and havocked globals in words (`symbols.readable`)."""
    shown = symbols.readable_names(names)
    values = [(shown.get(x, x).removesuffix(" (at entry)").replace(RETURNED, RESULT),
               model(x) if store is None else _value(model, store(x))) for x in names]
    return "{" + ", ".join(f"{x} = {v}" for x, v in values if isinstance(v, (int, str))) + "}"


def _value(model: Env, t: AExpr) -> int | str:
    try:
        return aeval(model, t)
    except ZeroDivisionError:  # a term no path reaches
        return "?"
