"""State merging T-M1 (seed 001: an m-to-1 transition; Kuznetsov et al., "Efficient state
merging in symbolic execution", PLDI 2012), a strategy of the one worklist (`symcert run
--merge`).

Two states with the same program and the same frames, `⟨φ1, S1, p⟩` and `⟨φ2, S2, p⟩`, become
one, `⟨π ∧ (δ1 ∨ δ2), S, p⟩`: `π` is the longest common prefix of the two path conditions,
`δi` the rest of `φi` and, for each variable `x` with `S1(x) ≠ S2(x)`, the definition
`x#mk == Si(x)`; `S` binds such an `x` to the fresh symbol `x#mk` (`k` counts the merges of the
path, `MERGES` in the store) and agrees with both elsewhere. The fresh symbol names the
conditional term `if δ1 then S1(x) else S2(x)`: every algebra of the fold reads it as a
variable, and a valuation of the inputs that satisfies `δi` gives it exactly one value. So the
concrete states of the merged state are those of the two (exhaustive and precise, `define`
computes the valuation), a bug found in it is replayed from its model's input like any other
(`confirm`), and a safe verdict still needs the exploration to end.

When: `Frontier` is the worklist's frontier under `--merge`. A successor whose program and
frames equal those of a waiting state merges into it (`mergeable`): never a leaf (it has no
successor to save), never a path through a havoc (T-I1) or a state whose stores differ on an
array, a field's map or the new-object counter (which stays a literal, B-T4), and never where
a variable on which the stores differ is *hot*: read by a loop condition in the rest of the
program. That is the query-count estimate of Kuznetsov et al. (QCE) reduced to its sharpest
case: a symbolic loop bound multiplies the solver queries of every later iteration, so the
merge would cost more queries than the paths it saves. To let the paths of an `if` meet, the
frontier takes first, within a window of `WINDOW` steps of depth, the state with the most
program left (the one behind); across windows it is breadth-first, so no path waits forever.
"""

from __future__ import annotations

import enum
import heapq
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Iterator

from symcert.core.concrete import Env, State, Value, aeval, beval, is_stuck
from symcert.core.replays import REPLAY_VALUES, run_steps
from symcert.core.state import PathCondition, Store, SymState, frames, rules_of
from symcert.core.terms import conj, disj
from symcert.engine.invariants import HAVOC
from symcert.lang.structure import children, variables
from symcert.lang.syntax import (
    ALLOC, AExpr, And, ArrayVar, Assert, Assign, Assume, BExpr, Bool, Call, Cmp, Fail, If, Int,
    New, Or, Pos, Return, Seq, Skip, Stmt, Update, Var, While, is_field, spine,
)
from symcert.spec.switch import CONTRACTS, icontract, lemma


class Merging(enum.Enum):
    """Whether `run` merges states: not at all, where QCE allows (`--merge`), or wherever the
    rule applies (the checks' setting: it exercises the rule on more states)."""

    OFF = "off"
    QCE = "qce"
    ALL = "all"


MERGE: ContextVar[Merging] = ContextVar("symcert_merge", default=Merging.OFF)
"""Which merging `run` does (T-M1)."""

MERGES = "#merge"
"""The store's count of the merges on the path (no program variable has a `#`)."""

STATEMENTS = (Skip, Fail, Assign, Seq, If, While, Assert, Assume, Call, Return, New)

WINDOW = 64
"""Within this many steps of depth the frontier takes the state with the most program left."""


@contextmanager
def merging(how: Merging = Merging.QCE) -> Iterator[None]:
    """Within: `run` merges states at join points as `how` says (`--merge`: QCE)."""
    token = MERGE.set(how)
    try:
        yield
    finally:
        MERGE.reset(token)


def symbol(name: str, k: int, at: Pos | None = None) -> str:
    """The fresh symbol of the `k`-th merge of a path for variable `name`, made before the
    statement at `at` (`engine.symbols` reads it)."""
    return f"{name}#m{k}" + ("" if at is None else f"@{at.line}:{at.column}")


def is_symbol(name: str) -> bool:
    """Whether `name` is a merge's fresh symbol."""
    return "#m" in name


def count(s: SymState) -> int:
    """How many merges the path to `s` went through."""
    k = s.store(MERGES)
    return k.value if isinstance(k, Int) else 0


def merged(s: SymState) -> bool:
    """Whether the path to `s` went through a merge."""
    return count(s) > 0


def _common(a: PathCondition, b: PathCondition) -> PathCondition:
    """The longest common prefix of two path conditions (shared cells: identity)."""
    a, b = a.ancestor(b.length), b.ancestor(a.length)
    while a is not b and a.parent is not None and b.parent is not None:
        a, b = a.parent, b.parent
    return a


def _rest(pc: PathCondition, prefix: PathCondition) -> list[BExpr]:
    out: list[BExpr] = []
    while pc.length > prefix.length and pc.last is not None and pc.parent is not None:
        out.append(pc.last)
        pc = pc.parent
    return out[::-1]


def _conj(parts: list[BExpr]) -> BExpr:
    out: BExpr = Bool(True)
    for c in parts:
        out = conj(out, c)
    return out


def differing(a: Store, b: Store) -> list[str]:
    """The variables on which two stores differ (but the merge count)."""
    names = {k for k, _ in a.bindings} | {k for k, _ in b.bindings}
    return sorted(x for x in names - {MERGES} if a(x) != b(x))


def merge(a: SymState, b: SymState) -> SymState:
    """The T-M1 merge of two states with the same program and frames (module docstring):
    `⟨π ∧ (δa ∨ δb), S, p⟩`, as deep as the deeper of the two, with the model and the ghost
    of whichever carries one (`a`'s first), each extended with the fresh symbols' values.

    :param a: a state.
    :param b: a state with `b.prog == a.prog` and `b.frame == a.frame`.
    """
    k = max(count(a), count(b)) + 1
    prefix = _common(a.pc, b.pc)
    da, db = _rest(a.pc, prefix), _rest(b.pc, prefix)
    store = a.store.update(MERGES, Int(k))
    at = next((t.pos for t in spine(a.prog) if t.pos is not None), None)  # the next statement
    for x in differing(a.store, b.store):
        v = Var(symbol(x, k, at))
        da.append(Cmp("==", v, a.store(x)))
        db.append(Cmp("==", v, b.store(x)))
        store = store.update(x, v)
    pc = prefix.extend(disj(_conj(da), _conj(db)))
    model = _extended(a.model, pc) or _extended(b.model, pc)
    ghost = a.ghost if a.ghost is not None else b.ghost
    return SymState(pc, store, a.prog, max(a.depth, b.depth), model, _extended(ghost, pc),
                    a.frame)


def _extended(env: Env | None, pc: PathCondition) -> Env | None:
    """`env` with the values `define` gives the fresh symbols of `pc` (None if it cannot)."""
    return None if env is None else define(env, pc)


def define(env: Env, pc: PathCondition) -> Env | None:
    """The valuation `env` extended to the merges' fresh symbols of `pc` so that it satisfies
    `pc`, or None if no extension does: each definition `x#mk == t` met unbound in a disjunct
    that holds binds the symbol (the concrete meaning of a merged state, T-M1)."""
    bound = dict(env.bindings)
    for c in pc.conjuncts():
        if not _holds(c, bound):
            return None
    return Env.of(bound)


def _holds(c: BExpr, bound: dict[str, Value]) -> bool:
    """Whether `c` holds, binding the unbound fresh symbols its definitions name (undone where
    a disjunct fails)."""
    if isinstance(c, And):
        return _holds(c.left, bound) and _holds(c.right, bound)
    if isinstance(c, Or):
        saved = dict(bound)
        if _holds(c.left, bound):
            return True
        bound.clear()
        bound.update(saved)
        return _holds(c.right, bound)
    if (isinstance(c, Cmp) and c.op == "==" and isinstance(c.left, Var)
            and is_symbol(c.left.name) and c.left.name not in bound):
        try:
            bound[c.left.name] = aeval(Env.of(bound), c.right)
        except ZeroDivisionError:
            return False
        return True
    try:
        return beval(Env.of(bound), c)  # type: ignore[arg-type]
    except ZeroDivisionError:
        return False


def without_symbols(env: Env) -> Env:
    """`env` without the merges' fresh symbols (a concrete input or final state)."""
    return Env.of({x: v for x, v in env.bindings if not is_symbol(x)})


# --- when to merge ---------------------------------------------------------------------------


@dataclass
class Sizes:
    """The statements left in a program and the variables its loop conditions read, each
    computed once per node (kept alive with its node: an `id` is not reused meanwhile)."""

    sizes: dict[int, tuple[Stmt, int, frozenset[str]]] = field(default_factory=dict)

    def of(self, p: Stmt) -> tuple[int, frozenset[str]]:
        """How many nodes `p` has, and the variables read by its `while` conditions."""
        todo: list[tuple[Stmt, bool]] = [(p, False)]
        while todo:
            node, ready = todo.pop()
            if id(node) in self.sizes:
                continue
            subs = [c for c in children(node) if isinstance(c, STATEMENTS)]
            if not ready:
                todo.append((node, True))
                todo.extend((c, False) for c in subs if id(c) not in self.sizes)
                continue
            size = 1 + sum(self.sizes[id(c)][1] for c in subs)
            hot = frozenset().union(*(self.sizes[id(c)][2] for c in subs))
            if isinstance(node, While):
                hot |= variables(node.cond)
            self.sizes[id(node)] = (node, size, hot)
        _, size, hot = self.sizes[id(p)]
        return size, hot

    def left(self, s: SymState) -> tuple[int, frozenset[str]]:
        """The program left to `s` (its own and its callers' continuations) and its loops'
        variables."""
        size, hot = self.of(s.prog)
        for f in frames(s.frame):
            more, vars_ = self.of(f.caller)
            size, hot = size + more, hot | vars_
        return size, hot


def same_places(p: object, q: object) -> bool:
    """Whether two equal programs are the same statements of the source too: positions take no
    part in equality (`assert b` at two lines are equal), but the statement a merged path
    fails at must be the one each of its runs reaches. A `skip` (it never fails, and is the
    rest of a finished assignment as often as a written `else skip`) and a sequence (its
    statements carry the places) may come from anywhere."""
    todo = [(p, q)]
    while todo:
        x, y = todo.pop()
        if x is y:
            continue
        if not isinstance(x, (Seq, Skip)) and getattr(x, "pos", None) != getattr(y, "pos", None):
            return False
        todo.extend(zip(children(x), children(y)))  # type: ignore[arg-type]
    return True


def mergeable(a: SymState, b: SymState, hot: frozenset[str]) -> bool:
    """Whether the frontier merges `b` into the waiting `a` (same program and frames, and the
    same places in the source: `same_places`): not a leaf, no havoc on either path, stores
    that differ only on integer variables, none of them read by a loop condition left (`hot`:
    QCE, module docstring); never a configuration of threads (its other threads are not in
    `prog` and `frame`)."""
    if a.config is not None or b.config is not None:
        return False
    if rules_of(a) == 0 or a.store(HAVOC) != Var(HAVOC) or b.store(HAVOC) != Var(HAVOC):
        return False
    if not (same_places(a.prog, b.prog) and all(
            same_places(f.caller, g.caller) for f, g in zip(frames(a.frame), frames(b.frame)))):
        return False
    for x in differing(a.store, b.store):
        if x == ALLOC or is_field(x) or x in hot or _is_array(a.store(x)) \
                or _is_array(b.store(x)):
            return False
    return True


def _is_array(t: AExpr) -> bool:
    return isinstance(t, (ArrayVar, Update))


class Frontier:
    """The worklist's frontier under `--merge`: a priority queue (depth window, then most
    program left, then arrival) whose waiting states are found by program and frames, so a
    successor that meets one merges into it (`mergeable`)."""

    def __init__(self, eager: bool = False) -> None:
        self._eager = eager
        self._heap: list[tuple[int, int, int, list[SymState | None]]] = []
        self._waiting: dict[tuple[Stmt, object], list[SymState | None]] = {}
        self._sizes = Sizes()
        self._arrivals = 0
        self._unkeyed = 0
        self.merges = 0

    def __len__(self) -> int:
        return len(self._waiting) + self._unkeyed

    def append(self, s: SymState) -> None:
        """Add `s`, merged into a waiting state where the merge is allowed."""
        size, hot = self._sizes.left(s)
        key = (s.prog, s.frame)
        holder = self._waiting.get(key)
        if holder is not None:
            waiting = holder[0]
            assert waiting is not None
            if mergeable(waiting, s, frozenset() if self._eager else hot):
                holder[0] = merge(waiting, s)
                self.merges += 1
                return
        holder = [s]
        if key in self._waiting:
            self._unkeyed += 1
            holder.append(None)  # marks a state not reachable by its key
        else:
            self._waiting[key] = holder
        self._arrivals += 1
        heapq.heappush(self._heap, (s.depth // WINDOW, -size, self._arrivals, holder))

    def take(self) -> SymState:
        """The next state to expand."""
        _, _, _, holder = heapq.heappop(self._heap)
        s = holder[0]
        assert s is not None
        if len(holder) > 1:
            self._unkeyed -= 1
        else:
            del self._waiting[(s.prog, s.frame)]
        return s


# --- a bug on a merged path ------------------------------------------------------------------


@lemma("T-M1")
def replay_reaches_merged_bug(bug_state: SymState, input_env: Env, result: State | None) -> bool:
    """The concrete run from the witness input of a merged state's bug reaches, within the
    deepest merged path's steps, a stuck state with the bug's program, and the input extended
    to the merges' symbols satisfies the path condition (T-M1: precise); None claims nothing."""
    return result is None or (define(input_env, bug_state.pc) is not None
                              and result.steps <= bug_state.depth
                              and is_stuck(result.prog) and result.prog == bug_state.prog)


@icontract.ensure(replay_reaches_merged_bug, "T-M1 a merged state's bug replays",
                  enabled=CONTRACTS)
def replay_merged(p: Stmt, bug_state: SymState, input_env: Env) -> State | None:
    """Run `p` concretely from `input_env` until it is stuck, for at most as many steps as the
    merged state's depth (the deepest of the paths it merges); None when its quantifiers need
    more than `REPLAY_VALUES` values (X-Q1).

    :param p: the program.
    :param bug_state: a stuck state on a merged path.
    :param input_env: the concrete input taken from a model of its path condition.
    """
    # crosshair: off
    return run_steps(State(input_env, p), bug_state.depth, REPLAY_VALUES)
