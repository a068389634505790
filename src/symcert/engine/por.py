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
than the cells, so sound); `spawn` reads and writes the count of threads `#threads`; `v = get f`
writes `v`; a call reads the globals of its callee's `requires` (checked at the call). These
sets are checked without being read by the independence oracle (checking/independence.py):
each claim they lead to is judged on the concrete configurations.

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
from typing import Callable, Iterator

from symcert.core.concrete import head
from symcert.core.entailment import answers
from symcert.core.frames import Frame, scope
from symcert.core.state import PathCondition, Store, SymState, fact_literals
from symcert.core.symbolic import sym_aeval
from symcert.core.threads import Thread, result_name
from symcert.lang.procedures import statements
from symcert.lang.syntax import (
    ALLOC,
    AExpr, ArrayVar, Assert, Assign, Assume, Await, Call, Cmp, Get, If, Int, New, Node,
    Procedures, Return, Select, Skip, Spawn, Stmt, Update, Var, While,
)
from symcert.lang.structure import children, variables
from symcert.solver.z3backend import Sat, Solver

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

Cell = tuple[str, AExpr]
"""One cell of an array or of a field's map: its name and its index (a term over the inputs,
or a literal of the program text)."""
Location = str | Cell
"""What a step reads or writes: a global as a whole (an array or map: every cell), or a cell."""
Footprint = tuple[frozenset[Location], frozenset[Location]]
"""The locations a step reads, and those it writes."""


def independent(a: Footprint, b: Footprint, pc: PathCondition | None = None) -> bool:
    """Neither step writes a location the other reads or writes; two cells of one array are
    one location unless `pc` entails that their indices differ (`differ`)."""
    return not (_meets(a[1], b[0] | b[1], pc) or _meets(b[1], a[0], pc))


def _meets(xs: frozenset[Location], ys: frozenset[Location], pc: PathCondition | None) -> bool:
    whole = {x for x in xs if isinstance(x, str)}
    other = {y for y in ys if isinstance(y, str)}
    if whole & other or any(not isinstance(y, str) and y[0] in whole for y in ys) or any(
            not isinstance(x, str) and x[0] in other for x in xs):
        return True
    if any(not isinstance(x, str) and not isinstance(y, str) and x[0] == y[0]
           and not differ(pc, x[1], y[1]) for x in xs for y in ys):
        return True
    results = {n for n in whole | other if n.startswith("$") and n != ANY_RESULT}
    return bool(results) and (ANY_RESULT in whole and bool(results & other)
                              or ANY_RESULT in other and bool(results & whole))


_differ: dict[tuple[PathCondition | None, AExpr, AExpr], bool] = {}
_solvers: list[Solver] = []


def differ(pc: PathCondition | None, i: AExpr, j: AExpr) -> bool:
    """Whether `pc` entails `i != j` (two cells of one array are different): two literals that
    differ, a literal of `pc` that says so (`core.entailment`), else the solver's UNSAT for
    `pc ∧ i == j` (remembered); never when `pc` is None or the solver does not know."""
    if isinstance(i, Int) and isinstance(j, Int):
        return i.value != j.value
    if i == j or pc is None:
        return False
    if answers(fact_literals(pc)).get((i, j)) is False:
        return True
    key = (pc, i, j)
    if key not in _differ:
        if len(_differ) > 10_000:
            _differ.clear()
        if not _solvers:
            _solvers.append(Solver())
        _differ[key] = _solvers[0].check(pc.extend(Cmp("==", i, j)))[0] is Sat.UNSAT
    return _differ[key]


def step(t: Thread[Store], store: Store) -> Footprint:
    """What thread t's next step reads and writes of the globals (`store` gives a future's
    thread and the terms of the indices of the cells it reads and writes)."""
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
    ctx = scope(t.frame, store)
    match first:
        case Assign(x, Update(ArrayVar(a), i, e)) if a == x:
            return (_reads(i, ctx, local) | _reads(e, ctx, local),
                    frozenset({(x, sym_aeval(ctx, i))}) - local)  # type: ignore[arg-type]
        case Assign(x, e) if not isinstance(e, Update):
            return _reads(e, ctx, local), frozenset({x}) - local
        case If(b) | Assert(b) | Assume(b):
            return _reads(b, ctx, local), frozenset()
    reads, writes = _simple(first)
    return reads - local, writes - local


def _reads(e: Node, ctx: Callable[[str], AExpr] | None, local: frozenset[str]
           ) -> frozenset[Location]:
    """The locations an expression reads: its globals, and for each `a[i]` the cell at the
    value of `i` in `ctx` (None: only at a literal `i`, else the whole array)."""
    out: set[Location] = set()
    todo = [e]
    while todo:
        n = todo.pop()
        if isinstance(n, Select) and isinstance(n.array, ArrayVar):
            index = (sym_aeval(ctx, n.index) if ctx is not None  # type: ignore[arg-type]
                     else n.index if isinstance(n.index, Int) else None)
            out.add(n.array.name if index is None else (n.array.name, index))
            todo.append(n.index)
        elif isinstance(n, (Var, ArrayVar)):
            out.add(n.name)
        else:
            todo.extend(children(n))
    return frozenset(out) - local


def _target(frame: Frame[Store]) -> frozenset[str]:
    """The global a return assigns: its call's target unless a local of the caller's frame."""
    below = frame.below
    if frame.target is None or (below is not None and frame.target in below.proc.locals):
        return frozenset()
    return frozenset({frame.target})


def _simple(s: Stmt) -> Footprint:
    """What one statement reads and writes, locals included (no callee's body); a cell at a
    literal index is a cell, at any other index the whole array."""
    match s:
        case Assign(x, Update(ArrayVar(a), Int() as i, e)) if a == x:
            return _reads(e, None, frozenset()), frozenset({(x, i)})
        case Assign(x, e) if not isinstance(e, Update):
            return _reads(e, None, frozenset()), frozenset({x})
        case Assign(x, e):
            return variables(e), frozenset({x})
        case New(x, _, maps, at=at):
            touched = frozenset({x, ALLOC, *maps})
            return touched | (variables(at) if at is not None else frozenset()), touched
        case Spawn(_, args, target):
            reads = frozenset({THREADS}).union(*map(variables, args))
            return reads, frozenset({THREADS} | ({target} if target else set()))
        case Get(target, f):  # B-X3: reads the future and its thread's result, writes target
            return frozenset({f, ANY_RESULT}), frozenset({target})
        case Call(name, args, target, procs=procs):  # the callee's `requires` is checked at
            pre = procs[name].requires  # the call; its target is written when it returns
            checked = variables(pre) - procs[name].locals if pre is not None else frozenset()
            return (checked.union(*map(variables, args)),
                    frozenset({target} if target is not None else set()))
        case Await(b, body):
            parts = [_simple(x) for x in statements(body)]
            return (variables(b).union(*(r for r, _ in parts)),
                    frozenset().union(*(w for _, w in parts)))
        case While(b, invariants=clauses):
            return variables(b).union(*map(variables, clauses)), frozenset()
        case If(b) | Assume(b) | Assert(b):
            return _reads(b, None, frozenset()), frozenset()
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
            reads.update(r - local)
            writes.update(w - local)
            if isinstance(s, Spawn):  # the thread it starts returns into its result
                writes.add(ANY_RESULT)
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
        if all(independent(mine, future(config.threads[j]), state.pc)
               for j in waiting if j != i):
            yield i
