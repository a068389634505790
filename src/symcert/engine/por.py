"""Partial-order reduction for configurations of threads (B-X5): persistent sets and sleep
sets (Godefroid, "Partial-Order Methods for the Verification of Concurrent Systems", LNCS
1032, 1996: Thm. 4.3, reachable deadlocks kept by persistent sets, and Thm. 6.12 with sleep
sets added), with independence
read off what each step reads and writes.

Transitions are a thread's next steps: in a configuration, thread i's transition is its next
statement run in its frame (a symbolic step with one or more outcomes). Two transitions are
*independent* when neither writes a global the other reads or writes (`independent`): then,
for every valuation of the inputs, they commute and neither enables nor disables the other (a
blocked thread waits on globals it reads: an `await`'s condition, a `get`'s `$k`). Locals are
per thread, so only globals count; an array or a field's map counts as one variable (coarser
than the cells, so sound); `spawn` reads and writes the count of threads `#threads`.

At a configuration, the threads to step are
- a *persistent* singleton `{t}` (`singletons`) where thread t's next step is enabled for every
  valuation (not an `await`, `get` or `assume`), cannot fail (a failure stops every thread, so
  it would hide the others' failures: engine/threads.py checks its successors), and is
  independent of every step any other thread may take from now on (`future`: its remaining
  program, its frames' continuations and every procedure they may call or spawn); no step of
  the others can then depend on t's before t runs, and a failure of another thread after t
  is the same failing statement as before it;
- otherwise every unfinished thread.
A *sleep set* (`Threads.sleep`) is kept on top: after exploring thread a, a sibling path that
first takes an independent b carries a asleep and does not take it until a dependent step
(a · b and b · a reach the same configuration).

Every terminal configuration (ended, stuck at a `fail`, or with every thread blocked) reachable
in the full exploration is reached in the reduced one, for every valuation: the choices depend
only on the program text and literals of futures, never on a valuation. The deadlock successor
is computed at every explored configuration whatever its sleep set. `--por off` (`reducing`)
explores every interleaving: the reference the reduction is tested against.
"""

from __future__ import annotations

import contextlib
from contextvars import ContextVar
from typing import Iterator

from symcert.core.concrete import head
from symcert.core.frames import Frame
from symcert.core.state import Store, SymState
from symcert.core.threads import Thread, result_name
from symcert.lang.procedures import Procedures, statements
from symcert.lang.structure import variables
from symcert.lang.syntax import (
    ALLOC, Assign, Assume, Await, Call, Get, If, Int, New, Return, Skip, Spawn, Stmt, While,
)

POR: ContextVar[bool] = ContextVar("symcert_por", default=True)
"""Whether runs reduce interleavings (B-X5); set it with `reducing`."""


@contextlib.contextmanager
def reducing(on: bool) -> Iterator[None]:
    """Runs started inside the block reduce interleavings (`on`) or explore them all."""
    token = POR.set(on)
    try:
        yield
    finally:
        POR.reset(token)


THREADS = "#threads"
"""The pseudo-global that `spawn` reads and writes (the number of the next thread)."""
ANY_RESULT = "$*"
"""Any thread's result, which a future `get` may read."""

Footprint = tuple[frozenset[str], frozenset[str]]
"""The globals a step reads, and those it writes."""


def independent(a: Footprint, b: Footprint) -> bool:
    """Neither step writes a global the other reads or writes."""
    return not (_meets(a[1], b[0] | b[1]) or _meets(b[1], a[0]))


def _meets(xs: frozenset[str], ys: frozenset[str]) -> bool:
    if xs & ys:
        return True
    results = {n for n in xs | ys if n.startswith("$") and n != ANY_RESULT}
    return bool(results) and (ANY_RESULT in xs and bool(results & ys)
                              or ANY_RESULT in ys and bool(results & xs))


def step(t: Thread[Store], store: Store) -> Footprint:
    """What thread t's next step reads and writes of the globals (`store` gives a future's
    thread)."""
    first = head(t.prog)
    local = t.frame.proc.locals if t.frame is not None else frozenset()
    if isinstance(t.prog, Skip) and t.frame is not None:  # the end of a body returns 0
        return frozenset(), _target(t.frame)
    if isinstance(first, Return):
        assert t.frame is not None
        return variables(first.expr) - local, _target(t.frame)
    if isinstance(first, Get):
        k = store(first.future) if first.future not in local else None
        result = result_name(k.value) if isinstance(k, Int) else ANY_RESULT
        return frozenset({first.future, result}) - local, frozenset({first.target}) - local
    reads, writes = _simple(first)
    return reads - local, writes - local


def _target(frame: Frame[Store]) -> frozenset[str]:
    """The global a return assigns: its call's target unless a local of the caller's frame."""
    below = frame.below
    if frame.target is None or (below is not None and frame.target in below.proc.locals):
        return frozenset()
    return frozenset({frame.target})


def _simple(s: Stmt) -> Footprint:
    """What one statement reads and writes, locals included (no callee's body)."""
    match s:
        case Assign(x, e):
            return variables(e), frozenset({x})
        case New(x, _, maps, at=at):
            touched = frozenset({x, ALLOC, *maps})
            return touched | (variables(at) if at is not None else frozenset()), touched
        case Spawn(_, args, target):
            reads = frozenset({THREADS}).union(*map(variables, args))
            return reads, frozenset({THREADS} | ({target} if target else set()))
        case Call(_, args, target):  # its target is written when the callee returns
            return (frozenset().union(*map(variables, args)),
                    frozenset({target} if target is not None else set()))
        case Await(b, body):
            parts = [_simple(x) for x in statements(body)]
            return (variables(b).union(*(r for r, _ in parts)),
                    frozenset().union(*(w for _, w in parts)))
        case While(b, invariants=clauses):
            return variables(b).union(*map(variables, clauses)), frozenset()
        case If(b) | Assume(b):
            return variables(b), frozenset()
    return variables(s), frozenset()


def future(t: Thread[Store]) -> Footprint:
    """Every global thread t may read or write from now on: its program, its frames'
    continuations and return targets, and the bodies of the procedures these may call or
    spawn (a `get` there may read any thread's result)."""
    reads: set[str] = set()
    writes: set[str] = set()
    callees: list[str] = []
    procs: Procedures | None = None

    def add(body: Stmt, local: frozenset[str]) -> None:
        nonlocal procs
        for s in statements(body):
            r, w = _simple(s)
            if isinstance(s, Get):
                r = frozenset({s.future, ANY_RESULT})
            reads.update(r - local)
            writes.update(w - local)
            if isinstance(s, (Call, Spawn)):
                callees.append(s.name)
                procs = s.procs

    frame, prog = t.frame, t.prog
    while True:
        add(prog, frame.proc.locals if frame is not None else frozenset())
        if frame is None:
            break
        writes.update(_target(frame))
        prog, frame = frame.caller, frame.below
    seen: set[str] = set()
    while callees:
        name = callees.pop()
        if procs is not None and name not in seen:
            seen.add(name)
            add(procs[name].body, procs[name].locals)
    return frozenset(reads), frozenset(writes)


def singletons(state: SymState) -> Iterator[int]:
    """The threads whose next step is enabled for every valuation (not an `await`, `get` or
    `assume`) and independent of every step the other unfinished threads may take from now
    on: each is a persistent set by itself, unless its step may fail (the caller checks
    that: a failing step stops every thread)."""
    config = state.config
    assert config is not None
    waiting = [i for i, t in enumerate(config.threads) if not t.finished]
    for i in waiting:
        t = config.threads[i]
        if isinstance(head(t.prog), (Await, Get, Assume)):
            continue
        mine = step(t, state.store)
        if all(independent(mine, future(config.threads[j])) for j in waiting if j != i):
            yield i
