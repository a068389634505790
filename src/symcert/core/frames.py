"""The stack of closures of seed 003 §3, shared by the concrete and the symbolic semantics.

A state inside a procedure has, besides the global store (`V` or `σ`) and the running program,
a `Frame`: the procedure's local store `τ` (an `Env` of values or a `Store` of terms) and the
closures below it. Expressions are read in `τ ∪ σ` (`scope`): a procedure's locals
(procedures.py) in `τ`, every other variable in the globals. The stack is a linked list on the
heap, so a recursion of any depth costs no Python recursion: a concrete run is bounded by its
steps only, the symbolic engine by `MAX_CALL_DEPTH` as a budget (a path that goes deeper is
cut and the verdict says so, never a RecursionError). The seed-004 interpreter keeps its own
bound, `CALL_LIMIT` (seed004/natural.py), a behaviour next to LoopLimit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Generic, Mapping, Protocol, TypeVar

from symcert.lang.syntax import Call, Proc, Seq, Skip, Stmt

MAX_CALL_DEPTH = 10_000
"""The deepest stack of calls a run may build (`--max-call-depth`): past it the run is cut."""


class LocalStore(Protocol):
    """What a frame's `τ` offers: `Env` (values) and `Store` (terms) both do."""

    def __call__(self, name: str) -> Any: ...

    def update(self, name: str, value: Any) -> Any: ...


L = TypeVar("L", bound=LocalStore)


@dataclass(frozen=True, slots=True, eq=False)
class Frame(Generic[L]):
    """The running procedure's closure `(τ, S)` over the closures below it (seed 003 §3):
    `proc` runs with the local store `locals`; when it returns, its value goes to `target` (none
    for a call statement) and the caller goes on with `caller`, its continuation, in the frame
    `below` (None: the main statement, `⊥`). Equality walks the stack iteratively; the hash is
    the height (no name or value: contracts/README.md)."""

    proc: Proc
    locals: L
    target: str | None
    caller: Stmt
    below: Frame[L] | None
    height: int

    def __hash__(self) -> int:
        return self.height

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Frame):
            return NotImplemented
        a: Frame[L] | None = self
        b: Frame[L] | None = other
        while a is not None and b is not None and a is not b:
            if (a.height != b.height or a.proc.name != b.proc.name or a.target != b.target
                    or a.locals != b.locals or a.caller != b.caller):
                return False
            a, b = a.below, b.below
        return a is b

    def __str__(self) -> str:
        return f"{self.proc.name} {self.locals} (depth {self.height})"


@dataclass(frozen=True, slots=True)
class Scope(Generic[L]):
    """`τ ∪ σ`: the running procedure's locals over the globals, as one context to read in."""

    frame: Frame[L]
    globals: Callable[[str], Any]

    def __call__(self, name: str) -> Any:
        if name in self.frame.proc.locals:
            return self.frame.locals(name)
        return self.globals(name)


def scope(frame: Frame[L] | None, globals_: Callable[[str], Any]) -> Callable[[str], Any]:
    """Where a statement reads its variables: the globals in the main statement, `τ ∪ σ` in a
    procedure."""
    return globals_ if frame is None else Scope(frame, globals_)


G = TypeVar("G", bound=LocalStore)


def assign(frame: Frame[L] | None, globals_: G, x: str, value: Any) -> tuple[Frame[L] | None, G]:
    """`x = value` in the running procedure: into `τ` if `x` is one of its locals (seed 003's
    local assignment), into the globals otherwise."""
    if frame is not None and x in frame.proc.locals:
        return Frame(frame.proc, frame.locals.update(x, value), frame.target, frame.caller,
                     frame.below, frame.height), globals_
    return frame, globals_.update(x, value)


def enter(call: Call, values: list[Any], zero: Any, make: Callable[[Mapping[str, Any]], L],
          frame: Frame[L] | None, caller: Stmt) -> Frame[L]:
    """The frame of `call` (seed 003's procedure call): the callee's parameters bound to the
    arguments' `values`, its other locals to `zero`; the caller goes on with `caller`."""
    proc = call.procs[call.name]
    bound = dict.fromkeys(proc.locals, zero)
    bound.update(zip(proc.params, values))
    return Frame(proc, make(bound), call.target, caller, frame,
                 1 if frame is None else frame.height + 1)


def leave(frame: Frame[L], globals_: G, value: Any) -> tuple[Frame[L] | None, G, Stmt]:
    """Seed 003's procedure return: the caller's frame and globals with the value assigned to
    the call's target, and the caller's continuation."""
    below, out = frame.below, globals_
    if frame.target is not None:
        below, out = assign(below, globals_, frame.target, value)
    return below, out, frame.caller


def after(p: Stmt) -> Stmt:
    """The program `p` without its next statement (`head`): what runs after it."""
    if not isinstance(p, Seq):
        return Skip()
    rest = after(p.first)
    return p.second if isinstance(rest, Skip) else Seq(rest, p.second, p.pos)
