"""Concrete small-step semantics of IMP, `⟨V, p⟩ → ⟨V', p'⟩` (seed 000, Fig. 2).

`V : Vars → ℤ` is total: a variable never assigned and not given as input reads 0.
`step` is the (deterministic) relation as a function: it returns None exactly when no rule
applies, which happens for `skip` (finished) and for a program whose next statement is `fail`
(stuck, W-D2.6 and W-F9).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator, Mapping

from symcert.syntax import (
    Add,
    AExpr,
    And,
    Assert,
    Assign,
    BExpr,
    Bool,
    Cmp,
    Fail,
    If,
    Int,
    Neg,
    Not,
    Or,
    Seq,
    Skip,
    Stmt,
    Sub,
    Var,
    While,
)
from symcert.terms import COMPARE


@dataclass(frozen=True, slots=True)
class Env:
    """A concrete environment `V`: a finite map of variables, every other variable being 0."""

    bindings: tuple[tuple[str, int], ...] = ()

    @staticmethod
    def of(values: Mapping[str, int]) -> Env:
        """Build an environment; bindings to 0 are dropped so equal maps are equal values."""
        return Env(tuple(sorted((k, v) for k, v in values.items() if v != 0)))

    def __call__(self, name: str) -> int:
        for k, v in self.bindings:
            if k == name:
                return v
        return 0

    def update(self, name: str, value: int) -> Env:
        """`V[name := value]`."""
        values = dict(self.bindings)
        values[name] = value
        return Env.of(values)

    def as_dict(self) -> dict[str, int]:
        """The non-zero bindings as a dict."""
        return dict(self.bindings)

    def __str__(self) -> str:
        return "{" + ", ".join(f"{k} = {v}" for k, v in self.bindings) + "}"


@dataclass(frozen=True, slots=True)
class State:
    """A concrete state `σ = ⟨V, p⟩`."""

    env: Env
    prog: Stmt
    steps: int = field(default=0, compare=False)


def aeval(env: Env, e: AExpr) -> int:
    """`⟦e⟧_V` for an arithmetic expression or symbolic term."""
    match e:
        case Int(v):
            return v
        case Var(x):
            return env(x)
    return _aeval(env, e, {})


def beval(env: Env, b: BExpr) -> bool:
    """`⟦b⟧_V` for a boolean expression or path-condition conjunct."""
    return _beval(env, b, {})


# A term may share subterms (syntax.py: `x = x + x` doubles the tree, not the DAG), so a shared
# node is evaluated once per call: `memo` maps `id(node)` to its value while the root, which
# keeps every node alive, is being evaluated.


def _aeval(env: Env, e: AExpr, memo: dict[int, int]) -> int:
    match e:
        case Int(v):
            return v
        case Var(x):
            return env(x)
    value = memo.get(id(e))
    if value is not None:
        return value
    match e:
        case Neg(a):
            value = -_aeval(env, a, memo)
        case Add(a, b):
            value = _aeval(env, a, memo) + _aeval(env, b, memo)
        case Sub(a, b):
            value = _aeval(env, a, memo) - _aeval(env, b, memo)
        case _:
            raise TypeError(f"not an arithmetic expression: {e!r}")
    memo[id(e)] = value
    return value


def _beval(env: Env, b: BExpr, memo: dict[int, int]) -> bool:
    match b:
        case Bool(v):
            return v
        case Cmp(op, l, r):
            return COMPARE[op](_aeval(env, l, memo), _aeval(env, r, memo))
        case Not(a):
            return not _beval(env, a, memo)
        case And(l, r):
            return _beval(env, l, memo) and _beval(env, r, memo)
        case Or(l, r):
            return _beval(env, l, memo) or _beval(env, r, memo)
    raise TypeError(f"not a boolean expression: {b!r}")


def step(state: State) -> State | None:
    """One step `σ → σ'` of Fig. 2, or None when no rule applies (finished or stuck)."""
    result = _step(state.env, state.prog)
    if result is None:
        return None
    return State(result[0], result[1], state.steps + 1)


def _step(env: Env, p: Stmt) -> tuple[Env, Stmt] | None:
    match p:
        case Skip() | Fail():
            return None
        case Assign(x, e):
            return env.update(x, aeval(env, e)), Skip()
        case If(b, p1, p2):
            return env, (p1 if beval(env, b) else p2)
        case While(b, body):
            return env, (Seq(body, p) if beval(env, b) else Skip())
        case Assert(b):
            return env, (Skip() if beval(env, b) else Fail(p.pos, p))
        case Seq(Skip(), q):
            return env, q
        case Seq(p1, q):
            inner = _step(env, p1)
            if inner is None:
                return None
            return inner[0], Seq(inner[1], q)
    raise TypeError(f"not a statement: {p!r}")


def head(p: Stmt) -> Stmt:
    """The statement to execute next: the leftmost one of a sequence."""
    while isinstance(p, Seq):
        p = p.first
    return p


def is_stuck(p: Stmt) -> bool:
    """Whether a state with program `p` is an error state: its next statement is `fail` (Fig. 9)."""
    return isinstance(head(p), Fail)


def trace(state: State, max_steps: int) -> Iterator[State]:
    """The concrete run from `state`, at most `max_steps` steps long, the start included."""
    yield state
    for _ in range(max_steps):
        nxt = step(state)
        if nxt is None:
            return
        state = nxt
        yield state


def run_concrete(state: State, max_steps: int) -> State:
    """The state a concrete run reaches after at most `max_steps` steps."""
    for state in trace(state, max_steps):
        pass
    return state
