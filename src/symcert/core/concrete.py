"""Concrete small-step semantics of IMP, `⟨V, p⟩ → ⟨V', p'⟩` (seed 000, Fig. 2).

`V : Vars → ℤ` is total: a variable never assigned and not given as input reads 0; an array
variable denotes a map ℤ → ℤ (`Cells`, seed 003 §5) whose unset cells read 0.
`step` is the (deterministic) relation as a function: it returns None exactly when no rule
applies, which happens for `skip` in the main statement (finished), for a program whose next
statement is `fail` (stuck, W-D2.6 and W-F9) and for an `assume` whose condition is false
(blocked, X-U1). A statement whose expression divides by zero steps to `fail` (seed 002 Fig. 4's
side condition, X-A2): `/` and `%` raise ZeroDivisionError, which `_step` catches.

Bounded quantifiers (X-Q1) are evaluated one value of their range at a time, and each value costs
one step of a run's budget (`trace`): a step is the statement's rule, `State.steps` counts rules
(as the symbolic depth does), and a run of `max_steps` stops before a statement whose
quantifiers need more values than the steps left (`Metered`, `OutOfSteps`).

Objects (seed 003 §4): a reference is an integer, nil 0, an input object positive, the k-th new
object of a run `-k`; field `f` is the global map `.f` (`FieldMap` when read), so a heap is a
set of arrays. Reading or writing a field of nil raises `NilDereference`, caught as a division
by zero is: the statement steps to `fail`.

Procedures (seed 003 §3) add a stack of frames (frames.py): a call pushes the callee's frame
with the caller's continuation, `return e` (or the end of the body, returning 0) pops it.
"""

from __future__ import annotations

import enum
import operator
from dataclasses import dataclass, field, replace
from typing import Callable, Container, Iterable, Iterator, Mapping

from symcert.core import intmap
from symcert.core.algebra import bound, fold_a, fold_b
from symcert.core.frames import Frame, after, assign, enter, leave, scope
from symcert.core.terms import COMPARE
from symcert.lang.syntax import (
    ALLOC, AExpr, Assert, Assign, Assume, BExpr, Call, Fail, If, New, Pos, Return, Seq, Skip,
    Stmt, While, allocation, is_field,
)


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class Cells:
    """A concrete array (seed 003 §5): a map from all integers to integers, `default` at every
    cell but those listed. A concrete run's arrays have the default 0; a solver's model may
    choose another, which a witness never keeps (`core.state.witness_input`).

    The listed cells are a persistent AVL tree (`intmap`) holding no cell equal to `default`:
    reading or writing one cell visits or copies O(log n) nodes of an array of n listed cells
    and shares the rest with the array it came from. Equality and hash are those of the map
    (`cells`, `default`), whatever the tree's shape."""

    tree: intmap.Tree = None
    default: int = 0

    @staticmethod
    def of(values: Mapping[int, int], default: int = 0) -> Cells:
        """The array with these cells; cells equal to `default` are dropped (equal maps are
        equal values)."""
        return Cells(intmap.of_sorted(tuple(sorted((i, v) for i, v in values.items()
                                                   if v != default))), default)

    @property
    def cells(self) -> tuple[tuple[int, int], ...]:
        """The listed cells `(i, v)`, by increasing index (O(n): for reports, not steps)."""
        return tuple(intmap.items(self.tree))

    def __eq__(self, other: object) -> bool:  # a field's map equals the same cells (FieldMap)
        if not isinstance(other, Cells) or self.default != other.default:
            return False
        return self.tree is other.tree or self.cells == other.cells

    def __hash__(self) -> int:
        return hash((self.cells, self.default))

    def __repr__(self) -> str:
        return f"{type(self).__name__}.of({dict(self.cells)!r}, {self.default!r})"

    def __call__(self, index: int) -> int:
        return intmap.lookup(self.tree, index, self.default)

    def is_constant(self) -> bool:
        """Whether every cell holds `default` (no cell is listed)."""
        return self.tree is None

    def set(self, index: int, value: int) -> Cells:
        """The array with cell `index` set to `value` (an array of the same class)."""
        if value != self.default:
            return type(self)(intmap.insert(self.tree, index, value), self.default)
        if intmap.lookup(self.tree, index, value) == value:  # unlisted already
            return self
        return type(self)(intmap.remove(self.tree, index), self.default)

    def labelled(self, name: str) -> list[tuple[str, int]]:
        """The cells as `(name[i], v)`, and `(name[*], d)` for the default `d` when it is not 0
        or no cell is listed."""
        out = [(f"{name}[{i}]", v) for i, v in self.cells]
        return out + ([(f"{name}[*]", self.default)] if self.default or not out else [])


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class FieldMap(Cells):
    """The map of a field (seed 003 §4) as an expression reads it: its cell 0, nil's, is no
    value (`Values.select`, `Values.update`)."""


class NilDereference(ZeroDivisionError):
    """A field of nil read or written (seed 003 §4): undefined, like a division by zero, and
    caught where that is (the statement steps to `fail`)."""


NO_CELLS = Cells()
"""The array whose every cell is 0: an array variable never written nor given as input."""

Value = int | Cells
"""What an environment binds: an integer, or an array for an array variable."""


def _is_zero(v: Value) -> bool:
    """Whether `v` is 0 or `NO_CELLS` (a field's map of 0s too), without listing its cells."""
    return v.default == 0 and v.is_constant() if isinstance(v, Cells) else v == 0


@dataclass(frozen=True, slots=True)
class Env:
    """A concrete environment `V`: a finite map of variables, every other variable being 0 (an
    array variable: `NO_CELLS`)."""

    bindings: tuple[tuple[str, Value], ...] = ()

    @staticmethod
    def of(values: Mapping[str, Value]) -> Env:
        """Build an environment; bindings to 0 and to `NO_CELLS` (a field's map of 0s too) are
        dropped so equal maps are equal values."""
        return Env(tuple(sorted((k, v) for k, v in values.items() if not _is_zero(v))))

    def __call__(self, name: str) -> Value:
        for k, v in self.bindings:
            if k == name:
                return v
        return 0

    def update(self, name: str, value: Value) -> Env:
        """`V[name := value]`."""
        values = dict(self.bindings)
        values[name] = value
        return Env.of(values)

    def as_dict(self) -> dict[str, Value]:
        """The non-zero bindings as a dict."""
        return dict(self.bindings)

    def labelled(self, names: Iterable[str] | None = None,
                 arrays: Container[str] = ()) -> list[tuple[str, int]]:
        """The values of `names` (default: the bindings) as `(x, v)`, an array's as its cells
        `(a[i], v)` (`Cells.labelled`); a name of `arrays` unbound here is an array of 0s."""
        chosen = [k for k, _ in self.bindings] if names is None else names
        out: list[tuple[str, int]] = []
        for k in chosen:
            v = self(k)
            if k in arrays and not isinstance(v, Cells):
                v = NO_CELLS
            out += v.labelled(k) if isinstance(v, Cells) else [(k, v)]
        return out

    def __str__(self) -> str:
        return "{" + ", ".join(f"{k} = {v}" for k, v in self.labelled()) + "}"

    def show(self, what: str = "variables") -> str:
        """`str(self)`, or `{all <what> 0}` for the empty environment."""
        return str(self) if self.bindings else f"{{all {what} 0}}"


@dataclass(frozen=True, slots=True)
class State:
    """A concrete state `σ = ⟨V, p⟩`, and in a procedure the stack of frames `Σ` (seed 003 §3)
    whose top frame runs `p`."""

    env: Env
    prog: Stmt
    steps: int = field(default=0, compare=False)
    frame: Frame[Env] | None = None


class Values:
    """The data algebra `D` of seed 000 Fig. 2: integers and booleans; variables read in `V`.
    `and`/`or` short-circuit: the right operand is evaluated only when the left does not
    decide. (Operations that are already functions of the right signature are bound as
    static methods: one Python frame less per node.)"""

    var = staticmethod(operator.call)  # `env(name)`, so subclasses of Env (obligations.V0) count
    neg = staticmethod(operator.neg)
    add = staticmethod(operator.add)
    sub = staticmethod(operator.sub)
    mul = staticmethod(operator.mul)
    div = staticmethod(operator.floordiv)  # raises ZeroDivisionError: `step` makes it `fail`
    mod = staticmethod(operator.mod)

    def integer(self, env: Env, value: int) -> int:
        return value

    def array(self, env: Env, name: str) -> Cells:
        value = env(name)
        cells = value if isinstance(value, Cells) else NO_CELLS
        return FieldMap(cells.tree, cells.default) if is_field(name) else cells

    def select(self, array: Cells, index: int) -> int:
        if index == 0 and type(array) is FieldMap:
            raise NilDereference
        return array(index)

    def update(self, array: Cells, index: int, value: int) -> Cells:
        if type(array) is not FieldMap:
            return array.set(index, value)
        if index == 0:
            raise NilDereference
        return array.set(index, value)  # still a field's map: nil has no cell in it

    def cmp(self, op: str, a: int, b: int) -> bool:
        return COMPARE[op](a, b)

    def boolean(self, env: Env, value: bool) -> bool:
        return value

    def not_(self, a: bool) -> bool:
        return not a

    def and_(self, a: bool, b: Callable[[], bool]) -> bool:
        return a and b()

    def or_(self, a: bool, b: Callable[[], bool]) -> bool:
        return a or b()

    bind = staticmethod(bound)

    def quantifier(self, universal: bool, name: str, lo: int, hi: int,
                   body: Callable[[int], bool]) -> bool:
        """X-Q1: the body at `lo`, `lo + 1`, ..., `hi` in turn, up to the first value that
        decides (`false` for `forall`, `true` for `exists`); an empty range decides nothing."""
        for k in range(lo, hi + 1):
            if body(k) is not universal:
                return not universal
        return universal


VALUES = Values()


class OutOfSteps(Exception):
    """A statement whose quantifiers need more values than the steps a run has left (X-Q1):
    the run stops with its budget, before the statement."""


class Metered(Values):
    """`Values` whose quantifiers spend one unit of `fuel` per value of their range evaluated
    (X-Q1, one step per value), raising `OutOfSteps` when it runs out."""

    def __init__(self, fuel: int) -> None:
        self.fuel = fuel

    def quantifier(self, universal: bool, name: str, lo: int, hi: int,
                   body: Callable[[int], bool]) -> bool:
        for k in range(lo, hi + 1):
            self.fuel -= 1
            if self.fuel < 0:
                raise OutOfSteps
            if body(k) is not universal:
                return not universal
        return universal


def aeval(env: Env, e: AExpr) -> int:
    """`⟦e⟧_V` for an arithmetic expression or symbolic term."""
    return fold_a(VALUES, env, e)


def beval(env: Env, b: BExpr) -> bool:
    """`⟦b⟧_V` for a boolean expression or path-condition conjunct."""
    return fold_b(VALUES, env, b)


def step(state: State, fuel: int | None = None) -> State | None:
    """One step `σ → σ'` of Fig. 2, or None when no rule applies (finished or stuck).

    :param fuel: the most quantifier values the step may evaluate (None: no bound).
    :raises OutOfSteps: when its quantifiers need more than `fuel` values.
    """
    return metered(state, VALUES if fuel is None else Metered(fuel))


def metered(state: State, values: Values) -> State | None:
    """`step`, the statement's conditions judged in the algebra `values` (`Metered`)."""
    result = _step(state.env, state.frame, state.prog, values)
    if result is None:
        return None
    return State(result[0], result[2], state.steps + 1, result[1])


Next = tuple[Env, "Frame[Env] | None", Stmt]
"""The globals, the stack and the program after a step."""


def _step(env: Env, frame: Frame[Env] | None, p: Stmt, values: Values) -> Next | None:
    try:
        return _rule(env, frame, p, values)
    except ZeroDivisionError:  # X-A2: `/` or `%` by zero steps to `fail`
        return env, frame, Fail(p.pos, p, by_zero=True)


def _rule(env: Env, frame: Frame[Env] | None, p: Stmt, values: Values) -> Next | None:
    """The rule of Fig. 2 for `p`; the conditions that may hold quantifiers (invariants,
    `assert`, `assume`, `requires`) are judged in `values`."""
    ctx = scope(frame, env)
    match p:
        case Skip():  # in a procedure: the end of its body returns 0
            return None if frame is None else _return(env, frame, 0)
        case Fail():
            return None
        case Assign(x, e):
            frame, env = assign(frame, env, x, aeval(ctx, e))
            return env, frame, Skip()
        case New():  # seed 003 §4: the next new object, its fields 0 / nil
            last = env(ALLOC)
            for a in allocation(p, last if isinstance(last, int) else 0):
                frame, env = assign(frame, env, a.name, aeval(scope(frame, env), a.expr))
            return env, frame, Skip()
        case If(b, p1, p2):
            return env, frame, (p1 if beval(ctx, b) else p2)
        case While(b, body, invariants=clauses):  # an invariant is checked at the head
            if clauses and not fold_b(values, ctx, p.invariant()):
                return env, frame, Fail(p.pos, p)
            again = p if p.entered or not clauses else replace(p, entered=True)
            return env, frame, (Seq(body, again) if beval(ctx, b) else Skip())
        case Assert(b):
            return env, frame, (Skip() if fold_b(values, ctx, b) else Fail(p.pos, p))
        case Assume(b):
            return (env, frame, Skip()) if fold_b(values, ctx, b) else None  # blocked (X-U1)
        case Seq(Skip(), q):
            return env, frame, q
        case Seq(p1, q):
            first = head(p1)
            if isinstance(first, (Call, Return)):
                return _procedure_rule(env, frame, p, first, values)
            inner = _step(env, frame, p1, values)
            if inner is None:
                return None
            return inner[0], inner[1], Seq(inner[2], q)
        case Call() | Return():
            return _procedure_rule(env, frame, p, p, values)
    raise TypeError(f"not a statement: {p!r}")


def _procedure_rule(env: Env, frame: Frame[Env] | None, p: Stmt, first: Call | Return,
                    values: Values) -> Next:
    """Seed 003's procedure call and return, which take the whole program `p` whose next
    statement is `first`: a call saves its continuation, a `return` drops it. Its arguments
    dividing by zero make the whole program `fail` (X-A2), as does a call whose arguments break
    the callee's `requires`."""
    ctx = scope(frame, env)
    try:
        args = [aeval(ctx, a) for a in (first.args if isinstance(first, Call) else (first.expr,))]
    except ZeroDivisionError:
        return env, frame, Fail(first.pos, first, by_zero=True)
    if isinstance(first, Return):
        return _return(env, frame, args[0])
    inner = enter(first, args, 0, Env.of, frame, after(p))
    pre = inner.proc.requires  # a contract's precondition is checked at the call (T-S1)
    if pre is not None and not fold_b(values, scope(inner, env), pre):
        return env, frame, Fail(first.pos, first)
    return env, inner, inner.proc.body


def _return(env: Env, frame: Frame[Env] | None, value: int) -> Next:
    """Seed 003's procedure return, with the value for the caller's target."""
    assert frame is not None  # `return` outside a procedure is a syntax error
    below, env, caller = leave(frame, env, value)
    return env, below, caller


def head(p: Stmt) -> Stmt:
    """The statement to execute next: the leftmost one of a sequence."""
    while isinstance(p, Seq):
        p = p.first
    return p


def is_stuck(p: Stmt) -> bool:
    """Whether a state with program `p` is an error state: its next statement is `fail` (Fig. 9)."""
    return isinstance(head(p), Fail)


def trace(state: State, max_steps: int) -> Iterator[State]:
    """The concrete run from `state`, the start included, within a budget of `max_steps`
    steps: one per statement and one per value of a quantifier's range (X-Q1). It stops before
    a statement whose quantifiers need more values than the budget has left (the lemmas'
    checks count statements only: `replays.lockstep`)."""
    yield state
    left = max_steps
    while left > 0:
        try:
            nxt, cost = costed(state, left)
        except OutOfSteps:
            return
        if nxt is None:
            return
        left, state = left - cost, nxt
        yield state


def costed(state: State, budget: int) -> tuple[State | None, int]:
    """`step(state)` and what it costs of a run's budget: 1, and 1 per quantifier value.

    :raises OutOfSteps: when the step costs more than `budget`.
    """
    meter = Metered(budget - 1)
    return metered(state, meter), budget - meter.fuel


def run_concrete(state: State, max_steps: int) -> State:
    """The state a concrete run reaches after at most `max_steps` statements (a quantifier's
    values unbounded: the lemmas' checks, in lockstep with a symbolic path)."""
    for _ in range(max_steps):
        nxt = step(state)
        if nxt is None:
            break
        state = nxt
    return state


# --- how a run ends (the final states of seed 001's concretization, T-D1) ------------------


class Ending(enum.Enum):
    """How a terminated concrete run ended: finished, stuck at `fail`, or blocked by an
    `assume` whose condition is false (X-U1: no final state of the program, no bug)."""

    NORMAL = "normal"
    FAIL = "fail"
    BLOCKED = "blocked"


@dataclass(frozen=True, slots=True)
class Final:
    """A concrete final state: the store and how the run ended (`where`: the failing statement)."""

    env: Env
    ending: Ending
    where: Pos | None = field(default=None, compare=False)

    def __str__(self) -> str:
        return f"{self.env.show()} ({self.how()})"

    def how(self) -> str:
        """How the run ended: `terminated normally`, `stuck at `fail` at 3:5`, ..."""
        if self.ending is Ending.NORMAL:
            return "terminated normally"
        at = f" at {self.where.line}:{self.where.column}" if self.where else ""
        if self.ending is Ending.BLOCKED:
            return f"blocked by `assume`{at}"
        return f"stuck at `fail`{at}"


def final_of(state: State) -> Final:
    """The `Final` of a terminated concrete state: finished, stuck, or blocked (its next
    statement an `assume` that does not step)."""
    first = head(state.prog)
    if isinstance(first, Fail):
        return Final(state.env, Ending.FAIL, first.pos)
    if isinstance(first, Assume):
        return Final(state.env, Ending.BLOCKED, first.pos)
    return Final(state.env, Ending.NORMAL)


def run_to_end(env: Env, p: Stmt, fuel: int, frame: Frame[Env] | None = None) -> Final | None:
    """The final state of the concrete run of `p` from `env` (and the stack `frame`); None if
    `fuel` steps do not end it."""
    last = None
    for last in trace(State(env, p, frame=frame), fuel):
        pass
    assert last is not None
    try:
        if step(last, fuel) is not None:
            return None
    except OutOfSteps:  # its quantifiers need more values than the budget (X-Q1)
        return None
    return final_of(last)
