"""Traces of concrete runs: what each step of Fig. 2 did, read off successive configurations.

A trace is no second interpreter: `Tracer.follow(σ, σ')` compares two configurations that
`core.concrete.step` produced, `σ → σ'`, and says what happened between them: the statement
that ran (the `head` of `σ`), the branch it took (which of its continuations `σ'` runs), the
variables, array cells and fields whose values differ, and calls and returns (the height of the
stack of frames, seed 003 §3), with the call sites of the frames still running. So a trace is
what the concrete semantics really did, and a witness's trace is its replay (W-T3.5).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator

from symcert.core import intmap
from symcert.core.concrete import Cells, Env, State, beval, head, trace
from symcert.core.frames import Frame, scope
from symcert.core.heap import show_ref
from symcert.engine.acceleration import run as accelerated
from symcert.lang.syntax import (
    ALLOC, Assert, Assign, Assume, Call, Fail, If, New, Pos, Return, Seq, Skip, Stmt, While,
    is_field,
)


@dataclass(frozen=True, slots=True)
class Site:
    """A running procedure and where it was called from (the call statement's position)."""

    proc: str
    call: Pos | None


@dataclass(frozen=True, slots=True)
class Change:
    """A variable, array cell (`a[3]`) or field (`@1.next`) and its new value; a reference is
    shown as `nil`, `@k` or `new#k` (core.heap)."""

    name: str
    value: int | str


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a concrete run that ran a statement (the administrative `skip; p → p` steps
    are left out).

    :param number: the step's number in the run (1 for the first step).
    :param pos: where the statement is.
    :param kind: `assign`, `new`, `if`, `while`, `assert`, `assume`, `call`, `return`.
    :param statement: the statement, a test as its keyword and condition only.
    :param branch: for a test, whether its condition held (None when it divided by zero).
    :param changes: what the step wrote; for a call, the callee's parameters.
    :param stack: the procedures running after the step, innermost first.
    :param depth: how many calls were running when the statement ran (0: the main statement).
    :param failed: whether the step ended at a `fail` (a failed assertion or a division by zero).
    :param failure: what fails there, for a failed step: the `fail`'s own words (`Fail.what`:
        an assertion, a division by zero, a precondition, an invariant, ...).
    """

    number: int
    pos: Pos | None
    kind: str
    statement: str
    branch: bool | None
    changes: tuple[Change, ...]
    stack: tuple[Site, ...]
    depth: int = 0
    failed: bool = False
    failure: str = ""


def header(s: Stmt) -> str:
    """A statement as a trace shows it: a test as `if c`, `while c`; others in full."""
    if isinstance(s, If):
        return f"if {s.cond}"
    if isinstance(s, While):
        return f"while {s.cond}"
    return str(s)


_KINDS: dict[type, str] = {Assign: "assign", New: "new", If: "if", While: "while",
                           Assert: "assert", Assume: "assume", Call: "call", Return: "return",
                           Skip: "return"}


@dataclass
class Tracer:
    """Follows a concrete run step by step, keeping the call sites of the frames it pushed.

    :param references: the program's reference variables and fields' maps (how values show).
    :param changes: compute what each step wrote (off: only the call stack is followed).
    """

    references: frozenset[str] = frozenset()
    changes: bool = True
    stack: tuple[Site, ...] = field(default=(), init=False)

    def follow(self, before: State, after: State) -> Step | None:
        """What the step `before → after` did, or None for an administrative step."""
        s = head(before.prog)
        height = _height(before.frame)
        below = _height(after.frame)
        if below > height:
            assert after.frame is not None
            self.stack = (Site(after.frame.proc.name, s.pos), *self.stack)
        elif below < height:
            self.stack = self.stack[height - below:]
        if isinstance(s, Seq) or (isinstance(s, Skip) and below == height):
            return None  # `skip; p → p`
        reached = head(after.prog)
        failed = isinstance(reached, Fail) and not isinstance(s, Fail)
        written = self._written(before, after, height, below) if self.changes else ()
        if after.steps - before.steps > 1:  # a checked jump over iterations (acceleration.py)
            return Step(after.steps, s.pos, "while", f"{header(s)}: "
                        f"{after.steps - before.steps:,} steps in one checked jump", True,
                        written, self.stack, height, False)
        return Step(after.steps, s.pos, _KINDS.get(type(s), "statement"),
                    "end of " + before.frame.proc.name if isinstance(s, Skip) and before.frame
                    else header(s), _branch(before, after, s), written, self.stack, height,
                    failed, reached.what() if failed else "")  # type: ignore[union-attr]

    def _written(self, before: State, after: State, height: int, below: int) -> tuple[Change, ...]:
        """What the step wrote: the callee's parameters for a call; otherwise the globals and
        the running frame's locals (the caller's, after a return) whose values differ, or the
        variable an assignment wrote with the value it had."""
        if below > height:
            assert after.frame is not None
            params = after.frame.proc.params
            return tuple(Change(x, self._shown(x, after.frame.locals(x))) for x in params)
        out = self._diff(before.env, after.env)
        old = before.frame if below == height else before.frame and before.frame.below
        if old is not None and after.frame is not None:
            out += self._diff(old.locals, after.frame.locals)
        s = head(before.prog)
        if (not out and isinstance(s, Assign) and not is_field(s.name)
                and not isinstance(head(after.prog), Fail)):
            value = scope(after.frame, after.env)(s.name)
            if isinstance(value, int):
                out = (Change(s.name, self._shown(s.name, value)),)
        return out

    def _diff(self, old: Env, new: Env) -> tuple[Change, ...]:
        if old is new:
            return ()
        names = sorted({k for k, _ in old.bindings} | {k for k, _ in new.bindings})
        out: list[Change] = []
        for x in names:
            a, b = old(x), new(x)
            if x == ALLOC:
                continue
            if isinstance(a, Cells) or isinstance(b, Cells):
                out += self._cells(x, _cells(a), _cells(b))
            elif a != b:
                out.append(Change(x, self._shown(x, b)))
        return tuple(out)

    def _cells(self, x: str, a: Cells, b: Cells) -> list[Change]:
        """The cells whose values differ; of two arrays with the same default, found from the
        tree nodes they do not share (`intmap.changed`: O(log² n) a write, not O(n))."""
        out = []
        if a.default == b.default:
            indices = intmap.changed(a.tree, b.tree)
        else:
            indices = sorted({i for i, _ in a.cells} | {i for i, _ in b.cells})
        for i in indices:
            if a(i) != b(i):
                name = f"{show_ref(i)}.{x[1:]}" if is_field(x) else f"{x}[{i}]"
                out.append(Change(name, self._shown(x, b(i))))
        return out

    def _shown(self, x: str, v: object) -> int | str:
        if isinstance(v, int) and x in self.references:
            return show_ref(v)
        return v if isinstance(v, int) else str(v)


def _height(frame: Frame[Env] | None) -> int:
    return 0 if frame is None else frame.height


def _cells(v: object) -> Cells:
    return v if isinstance(v, Cells) else Cells()


def _at(p: Stmt, depth: int) -> Stmt:
    for _ in range(depth):
        if not isinstance(p, Seq):
            break
        p = p.first
    return p


def _depth(p: Stmt) -> int:
    n = 0
    while isinstance(p, Seq):
        p, n = p.first, n + 1
    return n


def taken(before: Stmt, after: Stmt) -> bool | None:
    """Which way the test at the head of program `before` went, read off the program `after`
    it stepped to, concretely or symbolically (the rules put the branch where the test was):
    the `then` or `else` statement of an `if`, the body or the exit of a `while`, `skip` or
    `fail` of an `assert`. None when no branch was taken (the condition divided by zero, a
    loop's invariant failed) or when it cannot be told (an `if` whose two branches are one
    statement)."""
    s = head(before)
    if not isinstance(s, (If, While, Assert, Assume)):
        return None
    nxt = _at(after, _depth(before))
    if isinstance(nxt, Fail) and (nxt.by_zero or not isinstance(s, Assert)):
        return None
    if isinstance(s, If):
        return None if s.then_ is s.else_ else nxt is s.then_
    if isinstance(s, While):
        return isinstance(nxt, Seq)
    return not isinstance(nxt, Fail)


def _branch(before: State, after: State, s: Stmt) -> bool | None:
    """Which way a test went (`taken`); for an `if` whose branches are one statement, the
    value of its condition."""
    way = taken(before.prog, after.prog)
    if way is None and isinstance(s, If) and s.then_ is s.else_ \
            and not isinstance(head(after.prog), Fail):
        return beval(scope(before.frame, before.env), s.cond)
    return way


def _run(program: Stmt, start: Env, steps: int, jumps: bool) -> Iterator[State]:
    """The concrete run of `program` from `start`, at most `steps` steps; with `jumps`, its
    loops accelerated as the replay of a bug found so was (`acceleration.run`: the same states,
    some iterations skipped)."""
    if not jumps:
        yield from trace(State(start, program), steps)
        return
    for state in accelerated(State(start, program), steps, horizon=steps):
        yield state
        if state.steps >= steps:
            return


def walk(program: Stmt, start: Env, steps: int, references: frozenset[str] = frozenset(),
         jumps: bool = False) -> Iterator[Step]:
    """The trace of the concrete run of `program` from `start`, at most `steps` steps (with
    `jumps`, a checked jump is one step of the trace)."""
    tracer = Tracer(references)
    before = None
    for state in _run(program, start, steps, jumps):
        if before is not None:
            done = tracer.follow(before, state)
            if done is not None:
                yield done
        before = state


def call_stack(program: Stmt, start: Env, steps: int, jumps: bool = False) -> tuple[Site, ...]:
    """The procedures running after `steps` steps of the concrete run from `start` (with
    `jumps`, accelerated), innermost first, each with its call site."""
    tracer = Tracer(changes=False)
    before = None
    for state in _run(program, start, steps, jumps):
        if before is not None:
            tracer.follow(before, state)
        before = state
    return tracer.stack


def where(stack: tuple[Site, ...]) -> str:
    """`in pop, called from 13:5, in push, called from 20:1`, or "" in the main statement."""
    return ", ".join(f"in {s.proc}, called from {s.call.line}:{s.call.column}" if s.call
                     else f"in {s.proc}" for s in stack)
