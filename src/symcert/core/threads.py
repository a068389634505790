"""Threads (seed 003 §5): configurations of threads and their concrete steps.

A configuration is a set of threads over shared globals (arrays and fields' maps included): a
thread is a program and a stack of closures (frames.py), so its parameters and `var` locals
are its own. Thread 0 runs the main statement; `spawn` adds thread k = the number of threads so
far, whose bottom frame runs the procedure; its future is the integer k (a future variable
that holds no thread is 0). The bottom frame's return assigns the value to the global
`result_name(k)` (`$k`, a name no program variable has) through seed 003 §3's return rule, so
`get` reads it: seed 003 §5's `dest`, the process's own future.

One step of a thread is one step of the existing semantics (Fig. 2 and seed 003 §3's rules:
`core.concrete`), lifted to the configuration (B-X1); `spawn` starts a new stack (B-X2); `get`
waits for its thread's end and reads its result (B-X3); `await b then S end` runs when `b` holds,
test and body in one step. A thread is *blocked* at an `await` whose condition is false, at a
`get` of an unfinished thread, and at an `assume` whose condition is false. A configuration is
stuck when a thread's next statement is `fail` (the whole program fails); it is a *deadlock*
(B-X4, a bug) when some thread is unfinished and every unfinished thread is blocked, but not when
one of them is blocked by an `assume` (X-U1: that run has no final state).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Generic, Iterator, Mapping, Sequence

from symcert.core.concrete import Env, State, aeval, beval, head, step
from symcert.core.frames import Frame, L, assign, enter, scope
from symcert.lang.procedures import statements, table_of
from symcert.lang.syntax import (
    Assume, Await, Call, Fail, Get, Seq, Skip, Spawn, Stmt,
)


def result_name(k: int) -> str:
    """The global that the return of thread `k` assigns (its future's value)."""
    return f"${k}"


def program_globals(env: Env) -> Env:
    """The globals of a configuration as the program names them: `env` without the futures'
    values (`result_name`), which a program reads only through `get`."""
    return Env(tuple((x, v) for x, v in env.bindings if not x.startswith("$")))


def is_threaded(p: Stmt) -> bool:
    """Whether the program whose main statement is `p` has a `spawn`, `get` or `await`: its
    semantics is then that of configurations."""
    return any(isinstance(s, (Spawn, Get, Await)) for root in [p, *(q.body for q in
               table_of(p).values())] for s in statements(root))


def gets_futures(p: Stmt) -> bool:
    """Whether every `get` of the program of `p` reads one of its futures, as the parser's
    static rules ensure: a future then always holds a thread's number (0 before its spawn)."""
    return all(s.future in futures(p) for root in [p, *(q.body for q in table_of(p).values())]
               for s in statements(root) if isinstance(s, Get))


def futures(p: Stmt) -> frozenset[str]:
    """The future variables of the program of `p` (the targets of its spawns): each starts as 0,
    not as an input."""
    return frozenset(s.target for root in [p, *(q.body for q in table_of(p).values())]
                     for s in statements(root) if isinstance(s, Spawn) and s.target is not None)


@dataclass(frozen=True, slots=True)
class Thread(Generic[L]):
    """A thread: its program and its stack of closures (None: no procedure running)."""

    prog: Stmt
    frame: Frame[L] | None = None

    @property
    def finished(self) -> bool:
        """Whether the thread has ended: nothing left to run in no procedure."""
        return isinstance(self.prog, Skip) and self.frame is None


def replace_head(p: Stmt, new: Stmt) -> Stmt:
    """`p` with its next statement (`head`) replaced by `new`."""
    if not isinstance(p, Seq):
        return new
    return Seq(replace_head(p.first, new), p.second, p.pos)


def settle(p: Stmt) -> Stmt:
    """`p` without the finished statements at its head (the rule `skip; q → q` taken at once: a
    thread's step that ends a statement also moves on to the next, which touches no store)."""
    if not isinstance(p, Seq):
        return p
    first = settle(p.first)
    if isinstance(first, Skip):
        return settle(p.second)
    return p if first is p.first else Seq(first, p.second, p.pos)


def spawned(s: Spawn, k: int, values: list[Any], zero: Any,
            make: Callable[[Mapping[str, Any]], L]) -> Thread[L]:
    """Thread `k` that `s` starts (seed 003 §5's spawn rule, B-X2): a new stack whose one frame
    runs the procedure with its parameters bound to `values`; it returns into `$k`."""
    call = Call(s.name, s.args, result_name(k), s.pos, False, s.procs)
    frame = enter(call, values, zero, make, None, Skip())
    return Thread(settle(frame.proc.body), frame)


def stuck_at(threads: Sequence[Thread[Any]]) -> Fail | None:
    """The `fail` some thread is about to run (the configuration is stuck), if any."""
    for t in threads:
        first = head(t.prog)
        if isinstance(first, Fail):
            return first
    return None


@dataclass(frozen=True, slots=True)
class Threads:
    """The threads of a symbolic configuration `⟨Threads, σ, φ⟩` (seed 003 §5; `SymState.config`
    holds it beside `σ` and `φ`) and the schedule that reached it (not compared): the thread of
    each step, which the concrete replay runs."""

    threads: tuple[Thread[Any], ...]
    schedule: tuple[int, ...] = field(default=(), compare=False)
    sleep: frozenset[int] = field(default=frozenset(), compare=False)
    """The threads whose next step the partial-order reduction does not take here (their
    interleavings are explored elsewhere: engine/por.py's sleep sets)."""


@dataclass(frozen=True, slots=True)
class Config:
    """A concrete configuration: the shared globals and the threads (0 runs the main
    statement); `steps` counts the steps taken."""

    env: Env
    threads: tuple[Thread[Env], ...]
    steps: int = field(default=0, compare=False)


def initial_config(env: Env, p: Stmt) -> Config:
    """The configuration that runs `p` from the input `env`, every future variable 0."""
    for f in futures(p):
        env = env.update(f, 0)
    return Config(env, (Thread(settle(p)),))


def step_thread(c: Config, i: int) -> Config | None:
    """The step of thread `i` (B-X1 to B-X3), or None when it cannot step: finished, blocked,
    or the configuration is stuck."""
    if stuck_at(c.threads) is not None or c.threads[i].finished:
        return None
    result = _thread_step(c.env, c.threads, c.threads[i])
    if result is None:
        return None
    env, t, new = result
    t = Thread(settle(t.prog), t.frame)
    threads = c.threads[:i] + (t,) + c.threads[i + 1:] + ((new,) if new is not None else ())
    return Config(env, threads, c.steps + 1)


def _thread_step(env: Env, threads: tuple[Thread[Env], ...],
                 t: Thread[Env]) -> tuple[Env, Thread[Env], Thread[Env] | None] | None:
    """A thread's step: the new globals, the thread, and the thread it spawned if any."""
    first = head(t.prog)
    ctx = scope(t.frame, env)
    try:
        match first:
            case Spawn(args=args, target=target):
                new = spawned(first, len(threads), [aeval(ctx, a) for a in args], 0, Env.of)
                frame = t.frame
                if target is not None:
                    frame, env = assign(frame, env, target, len(threads))
                return env, Thread(replace_head(t.prog, Skip()), frame), new
            case Get(x, f):
                k = ctx(f)
                if not 0 < k < len(threads):  # B-X3: a get of a non-future fails
                    failed = Fail(first.pos, first)
                    return env, Thread(replace_head(t.prog, failed), t.frame), None
                if not threads[k].finished:
                    return None  # blocked until thread k ends
                frame, env = assign(t.frame, env, x, env(result_name(k)))
                return env, Thread(replace_head(t.prog, Skip()), frame), None
            case Await(b, body):
                if not beval(ctx, b):
                    return None  # blocked until b holds
                done = atomically(env, t.frame, body)
                if done is None:
                    return None
                return done[0], Thread(replace_head(t.prog, done[2]), done[1]), None
    except ZeroDivisionError:  # X-A2 in a spawn's arguments or an await's condition
        return env, Thread(replace_head(t.prog, Fail(first.pos, first, by_zero=True)),
                           t.frame), None
    nxt = step(State(env, t.prog, frame=t.frame))
    return None if nxt is None else (nxt.env, Thread(nxt.prog, nxt.frame), None)


def atomically(env: Env, frame: Frame[Env] | None,
               body: Stmt) -> tuple[Env, Frame[Env] | None, Stmt] | None:
    """An `await`'s body run to its end in one step (it has no loop nor call): the globals, the
    frame and `skip`, or the `fail` where it fails (the rest of the body is not kept: it never
    runs); None where an `assume` in it blocks."""
    while not isinstance(body, Skip) and not isinstance(head(body), Fail):
        nxt = step(State(env, body, frame=frame))
        if nxt is None:
            return None
        env, frame, body = nxt.env, nxt.frame, nxt.prog
    return env, frame, body if isinstance(body, Skip) else head(body)


def enabled(c: Config) -> list[int]:
    """The threads that can step."""
    return [i for i in range(len(c.threads)) if step_thread(c, i) is not None]


def deadlocked(c: Config) -> Fail | None:
    """B-X4: the deadlock `fail` of a configuration where some thread is unfinished, none can
    step and none is blocked by an `assume` (then the run is blocked, X-U1), else None."""
    waiting = [t for t in c.threads if not t.finished]
    if not waiting or stuck_at(c.threads) is not None or enabled(c):
        return None
    if any(isinstance(head(t.prog), Assume) for t in waiting):
        return None
    return deadlock_fail(c.threads)


def deadlock_fail(threads: Sequence[Thread[Any]]) -> Fail:
    """B-X4's `fail` of a deadlock among `threads`: at the first unfinished thread's statement,
    naming each unfinished thread and the statement it waits at."""
    blocked = tuple((i, head(t.prog)) for i, t in enumerate(threads) if not t.finished)
    first = blocked[0][1]
    return Fail(first.pos, first, deadlock=True, blocked=blocked)


class ScheduleError(ValueError):
    """A schedule names a thread that cannot step at that point."""


def run_schedule(c: Config, schedule: Sequence[int],
                 max_steps: int) -> Iterator[tuple[int | None, Config]]:
    """The concrete run of `schedule` (thread numbers, one a step), then of the default
    schedule (the lowest thread that can step), at most `max_steps` steps: each step's thread
    and configuration, the start first (thread None).

    :raises ScheduleError: where the schedule names a thread that cannot step.
    """
    yield None, c
    for n in range(max_steps):
        if n < len(schedule):
            i = schedule[n]
            nxt = step_thread(c, i) if 0 <= i < len(c.threads) else None
            if nxt is None:
                raise ScheduleError(f"step {n + 1} of the schedule: thread {i} cannot step "
                                    f"(threads that can: {enabled(c) or 'none'})")
        else:
            ready = enabled(c)
            if not ready:
                return
            i, nxt = ready[0], step_thread(c, ready[0])
            assert nxt is not None
        c = nxt
        yield i, c
