"""The symbolic rules of threads (seed 003 §5) over a configuration `⟨Threads, σ, φ⟩`.

`expand_config(state, local)` is the step `run` takes on a configuration (`SymState.config`),
inside the one worklist: for each unfinished thread,
- B-X1: a thread's local step is `local` (Fig. 7's `expand`, seed 003 §3's rules) on the view
  `⟨φ, σ, (τ, S)⟩` of that thread, lifted to the configuration;
- B-X2: `spawn p(e...)` starts a new stack whose frame runs `p` with the arguments' terms;
- B-X3: `v = get f` reads the future's result `$k` once thread k has ended, and fails where `f`
  holds no thread;
- `await b then S end`: `φ ∧ b` and the body run to its end in the same step, its branches'
  conditions and `b` conjoined into the one conjunct the step adds (W-L2.2's shape);
and B-X4: one more successor, `φ ∧ ⋀ blocked_i`, stuck at a deadlock `fail` when every
unfinished thread may be blocked (`blocked_i`: `¬b` at `await b`, true at `get` of an unfinished
thread), none at an `assume` (X-U1). A failure in any thread makes the configuration stuck.

Each successor records its thread in the schedule, which a witness replays on the concrete
configurations (`core.threads.run_schedule`). Which threads step is the partial-order
reduction's choice (por.py, B-X5), every unfinished one under `--por off`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable

from symcert.core.concrete import Env, head, is_stuck
from symcert.core.frames import Frame, assign, scope
from symcert.core.guards import assuming, may_fail
from symcert.core.state import TRUE_PC, PathCondition, Store, SymState
from symcert.core.symbolic import sym_aeval, sym_beval, sym_guard
from symcert.core.terms import conj, negate
from symcert.core.threads import (
    Config, ScheduleError, Thread, Threads, deadlock_fail, deadlocked, initial_config,
    replace_head, result_name, run_schedule, settle, spawned, stuck_at,
)
from symcert.engine import por
from symcert.lang.syntax import (
    AExpr, Assume, Await, BExpr, Bool, Fail, Get, Int, Skip, Spawn, Stmt,
)

Step = Callable[[SymState], list[SymState]]
"""A thread's local step (`explore.expand` or the aliasing strategy's)."""

TRUE, FALSE = Bool(True), Bool(False)


def expand_config(state: SymState, local: Step) -> list[SymState]:
    """The successors of a configuration: the steps of the threads the reduction chooses
    (every unfinished thread with `--por off`; B-X1 to B-X3, B-X5), then the deadlock (B-X4)
    where one is possible.

    :param state: a state whose `config` holds the threads.
    :param local: a thread's step on its view (`expand`).
    """
    config = state.config
    assert config is not None
    if is_stuck(state.prog):
        return []
    waiting = [i for i, t in enumerate(config.threads) if not t.finished]
    reduce = por.POR.get()
    chosen = waiting
    known: dict[int, list[SymState]] = {}
    if reduce:
        for i in por.singletons(state):
            known[i] = thread_moves(state, i, local)
            if not any(is_stuck(m.prog) for m in known[i]):
                chosen = [i]
                break
        chosen = [i for i in chosen if i not in config.sleep]
    out: list[SymState] = []
    done: list[int] = []
    steps = {i: por.step(config.threads[i], state.store) for i in waiting} if reduce else {}
    for i in chosen:
        moves = known[i] if i in known else thread_moves(state, i, local)
        if reduce:
            sleep = frozenset(j for j in config.sleep | set(done)
                              if por.independent(steps[j], steps[i], state.pc))
            moves = [replace(m, config=replace(m.config, sleep=sleep))  # type: ignore[type-var]
                     for m in moves]
        out += moves
        done.append(i)
    return out + _deadlock(state, [blocked_when(state, i) for i in waiting])


def blocked_when(state: SymState, i: int) -> BExpr:
    """When thread `i` cannot step: under `¬b` at `await b` (and its guard), always at a `get`
    of an unfinished thread, never elsewhere."""
    config = state.config
    assert config is not None
    t = config.threads[i]
    first = head(t.prog)
    ctx = scope(t.frame, state.store)
    if isinstance(first, Await):
        stop = negate(sym_beval(ctx, first.cond))
        return assuming(sym_guard(ctx, first.cond), stop) if may_fail(first.cond) else stop
    if isinstance(first, Get):
        k = ctx(first.future)
        valid = isinstance(k, Int) and 0 < k.value < len(config.threads)
        return TRUE if valid and not config.threads[k.value].finished else FALSE  # type: ignore[union-attr]
    return FALSE


def thread_moves(state: SymState, i: int, local: Step) -> list[SymState]:
    """The successors where thread `i` steps (none where it is blocked)."""
    config = state.config
    assert config is not None
    t = config.threads[i]
    first = head(t.prog)
    ctx = scope(t.frame, state.store)
    phi, store = state.pc, state.store
    lift = _Lift(state, i)
    match first:
        case Spawn(args=args, target=target):  # B-X2
            out = []
            if any(map(may_fail, args)):
                ok = _guards(ctx, args)
                out.append(lift(phi.extend(negate(ok)), store, _failed(t, first), t.frame))
                phi = phi.extend(ok)
            k = len(config.threads)
            new = spawned(first, k, [sym_aeval(ctx, a) for a in args], Int(0), Store.of)
            frame = t.frame
            if target is not None:
                frame, store = assign(frame, store, target, Int(k))
            return [lift(phi, store, replace_head(t.prog, Skip()), frame, new)] + out
        case Get(x, f):  # B-X3
            k = ctx(f)
            assert isinstance(k, Int), "a future holds a thread's number, a literal"
            if not 0 < k.value < len(config.threads):
                return [lift(phi, store, replace_head(t.prog, Fail(first.pos, first)), t.frame)]
            if not config.threads[k.value].finished:
                return []
            frame, store = assign(t.frame, store, x, store(result_name(k.value)))
            return [lift(phi, store, replace_head(t.prog, Skip()), frame)]
        case Await(b, body):
            return _await(state, i, b, body, local)
    view = SymState(phi, store, t.prog, state.depth, state.model, frame=t.frame)
    return [lift(c.pc, c.store, c.prog, c.frame) for c in local(view)]


def _await(state: SymState, i: int, b: BExpr, body: Stmt, local: Step) -> list[SymState]:
    """`await b then S end`: `φ ∧ b` with `S` run to its end, each of its paths one successor
    whose one new conjunct is `b` and the path's conditions (blocked under `¬b`)."""
    assert state.config is not None
    t = state.config.threads[i]
    first = head(t.prog)
    ctx = scope(t.frame, state.store)
    lift = _Lift(state, i)
    cond = sym_beval(ctx, b)
    out: list[SymState] = []
    go = cond
    if may_fail(b):
        ok = sym_guard(ctx, b)
        out.append(lift(state.pc.extend(negate(ok)), state.store, _failed(t, first), t.frame))
        go = assuming(ok, cond)
    todo = [SymState(TRUE_PC, state.store, body, frame=t.frame)]
    while todo:  # no loop nor call in `S`: this ends
        s = todo.pop()
        if isinstance(s.prog, Skip) or is_stuck(s.prog):
            c = go
            for more in s.pc.conjuncts():
                c = conj(c, more)
            rest = Skip() if isinstance(s.prog, Skip) else head(s.prog)
            out.append(lift(state.pc.extend(c), s.store, replace_head(t.prog, rest), s.frame))
        else:
            todo.extend(reversed(local(s)))
    return out


def _guards(ctx: Callable[[str], AExpr], exprs: tuple[AExpr, ...]) -> BExpr:
    ok = TRUE
    for e in exprs:
        ok = conj(ok, sym_guard(ctx, e))  # type: ignore[arg-type]
    return ok


def _failed(t: Thread[Store], first: Stmt) -> Stmt:
    """Thread `t`'s program with its next statement failed by a division by zero (X-A2)."""
    return replace_head(t.prog, Fail(first.pos, first, by_zero=True))


class _Lift:
    """A step of thread `i` of `state` made a step of the configuration (B-X1): the thread's new
    program (settled) and frame, the globals, the path condition and the spawned thread."""

    def __init__(self, state: SymState, i: int) -> None:
        self.state, self.i = state, i

    def __call__(self, pc: PathCondition, store: Store, prog: Stmt, frame: Frame[Store] | None,
                 new: Thread[Store] | None = None) -> SymState:
        config = self.state.config
        assert config is not None
        threads = list(config.threads)
        threads[self.i] = Thread(settle(prog), frame)
        if new is not None:
            threads.append(new)
        return configuration(pc, store, tuple(threads), config.schedule + (self.i,),
                             self.state.depth + 1)


def configuration(pc: PathCondition, store: Store, threads: tuple[Thread[Store], ...],
                  schedule: tuple[int, ...], depth: int) -> SymState:
    """The state of a configuration: `prog` and `frame` are thread 0's, or `prog` the `fail`
    some thread is about to run (the whole configuration is stuck then)."""
    failing = stuck_at(threads)
    main = threads[0]
    return SymState(pc, store, failing if failing is not None else main.prog, depth,
                    frame=main.frame, config=Threads(threads, schedule))


def _deadlock(state: SymState, blocked: list[BExpr]) -> list[SymState]:
    """B-X4: the configuration stuck at a deadlock under `φ ∧ ⋀ blocked`, when no thread is
    surely enabled and none waits at an `assume`."""
    config = state.config
    assert config is not None
    waiting = [t for t in config.threads if not t.finished]
    if (not waiting or any(b == FALSE for b in blocked)
            or any(isinstance(head(t.prog), Assume) for t in waiting)):
        return []
    cond = TRUE
    for b in blocked:
        cond = conj(cond, b)  # type: ignore[assignment]
    pc = state.pc if cond == TRUE else state.pc.extend(cond)
    return [SymState(pc, state.store, deadlock_fail(config.threads), state.depth + 1,
                     frame=state.frame, config=config)]


def replay_schedule(p: Stmt, state: SymState,
                    input_env: Env) -> tuple[Config | None, tuple[tuple[int, Stmt], ...]]:
    """The concrete configuration that `state`'s schedule reaches from `input_env` (a witness of
    a bug is an input and a schedule), and the interleaving it ran: each step's thread and the
    statement it ran. The configuration is None where the schedule names a thread that cannot
    step (the replay disagrees)."""
    assert state.config is not None
    schedule = state.config.schedule
    steps: list[tuple[int, Stmt]] = []
    last = initial_config(input_env, p)
    try:
        for i, c in run_schedule(last, schedule, len(schedule)):
            if i is not None:
                steps.append((i, head(last.threads[i].prog)))
            last = c
    except ScheduleError:
        return None, tuple(steps)
    return last, tuple(steps)


def same_failure(final: Config | None, state: SymState) -> bool:
    """Whether a replayed configuration fails as the stuck symbolic `state` does: the same
    `fail` (position included), or a deadlock for a deadlock."""
    failing = state.prog
    if final is None or not isinstance(failing, Fail):
        return False
    if failing.deadlock:
        return deadlocked(final) is not None
    reached = stuck_at(final.threads)
    return reached == failing and reached is not None and reached.pos == failing.pos

