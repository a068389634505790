# crosshair: off
"""The only module that imports z3: satisfiability of path conditions, three-valued.

`Sat` is SAT, UNSAT or UNKNOWN (WiSE's `Inductive sat`). The UNKNOWN policy, written once:
an UNKNOWN path condition is kept during exploration (M-S1: unknown counts as maybe), is never
reported as a bug (no model, so no replay) and makes a run that meets it undecided rather than
safe only when it stands behind a possible bug (W-T3.8: never a false YES, never a false NO).
Results are deterministic: a fixed random seed and a resource limit instead of wall-clock time.

Speed (issue 6). A query costs what its path condition added since the previous one, not its
length:

- **Incremental solving.** The z3 assertion stack mirrors one path condition, one scope per
  conjunct (`_stack[i]` is the node of length `i + 1`). To decide `φ`, the solver pops the scopes
  above the longest prefix that `φ` shares with the stack (node identity: path conditions are
  persistent cons-lists) and pushes the rest. Along a path (DFS) or between cousins (BFS) that
  is O(1) amortized pushes, and a shared prefix is never re-translated nor re-asserted.
- **Translation cache.** `translate` caches z3 terms by symbolic term (bounded, two generations).
- **Answer cache.** `check` caches answers by path condition (bounded, two generations).
- **Constraint independence.** When the caller passes a model of the parent path condition and
  the new conjunct shares no variable with it, the conjunct is decided alone (its answer cached by
  conjunct) and its model is merged into the parent's: `φ ∧ c` is SAT iff both are, UNSAT if `c`
  is.
- No z3 object ever leaves this module: answers are `Sat` and `Env` (plain data).
"""

from __future__ import annotations

import enum
import time
from dataclasses import dataclass, field
from typing import Generic, Hashable, TypeVar

import z3

from symcert.concrete import Env
from symcert.symbolic import PathCondition
from symcert.syntax import Add, AExpr, And, BExpr, Bool, Cmp, Int, Neg, Not, Or, Sub, Var
from symcert.terms import free_vars

DEFAULT_RLIMIT = 5_000_000
CACHE_SIZE = 1 << 16
"""Entries per generation of each cache: memory stays bounded on million-state runs."""

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Sat(enum.Enum):
    """A solver's answer."""

    SAT = "sat"
    UNSAT = "unsat"
    UNKNOWN = "unknown"


@dataclass
class SolverStats:
    """What the solver was asked and how long z3 took.

    `queries` counts the path conditions that went to z3 (`cache_hits` did not); `z3_seconds` is
    the time spent inside z3 on them (push, pop, assert, check, model); `translate_seconds` the
    time spent building z3 terms. `independent` counts queries decided by a conjunct alone.
    """

    queries: int = 0
    cache_hits: int = 0
    z3_seconds: float = 0.0
    unknown: int = 0
    translate_seconds: float = 0.0
    translations: int = 0
    translation_hits: int = 0
    pushes: int = 0
    pops: int = 0
    independent: int = 0
    independent_hits: int = 0
    max_stack: int = 0


class _Cache(Generic[K, V]):
    """A bounded map: two generations of at most `size` entries; a hit in the old one is
    promoted, and when the young one fills up the old one is dropped."""

    __slots__ = ("size", "young", "old")

    def __init__(self, size: int) -> None:
        self.size = size
        self.young: dict[K, V] = {}
        self.old: dict[K, V] = {}

    def get(self, key: K) -> V | None:
        value = self.young.get(key)
        if value is not None:
            return value
        value = self.old.get(key)
        if value is not None:
            self.put(key, value)
        return value

    def put(self, key: K, value: V) -> None:
        if len(self.young) >= self.size:
            self.old = self.young
            self.young = {}
        self.young[key] = value

    def __len__(self) -> int:
        return len(self.young) + len(self.old)

    def __contains__(self, key: object) -> bool:
        return key in self.young or key in self.old


@dataclass
class Solver:
    """Decides path conditions with z3, incrementally, caching translations and answers.

    :param rlimit: z3's resource limit per query (deterministic, unlike a timeout).
    :param cache_size: entries per generation of each cache.
    :param independence: decide a conjunct independent of the rest of the path alone.
    """

    rlimit: int = DEFAULT_RLIMIT
    stats: SolverStats = field(default_factory=SolverStats)
    cache_size: int = CACHE_SIZE
    independence: bool = True

    def __post_init__(self) -> None:
        self._z3 = self._new_z3()
        self._alone_z3 = self._new_z3()
        self._terms: _Cache[object, z3.ExprRef] = _Cache(self.cache_size)
        self._answers: _Cache[PathCondition, tuple[Sat, Env | None]] = _Cache(self.cache_size)
        self._alone: _Cache[BExpr, tuple[Sat, Env | None]] = _Cache(self.cache_size)
        self._vars: _Cache[BExpr, frozenset[str]] = _Cache(self.cache_size)
        # The path condition mirrored by the z3 assertion stack: `_stack[i]` has length i + 1,
        # `_stack_vars[i]` the free variables of its conjuncts.
        self._stack: list[PathCondition] = []
        self._stack_vars: list[frozenset[str]] = []

    def _new_z3(self) -> z3.Solver:
        s = z3.Solver()
        s.set("random_seed", 0)
        s.set("rlimit", self.rlimit)
        return s

    # --- public interface ----------------------------------------------------------------

    def check(self, pc: PathCondition,
              parent_model: Env | None = None) -> tuple[Sat, Env | None]:
        """Decide `pc`; on SAT also return a model over its free variables (missing ones 0).

        :param pc: the path condition.
        :param parent_model: optionally, a valuation known to satisfy `pc.parent` (all of `pc`
            but its last conjunct); it lets an independent last conjunct be decided alone.
        """
        cached = self._answers.get(pc)
        if cached is not None:
            self.stats.cache_hits += 1
            return cached
        answer: tuple[Sat, Env | None] | None = None
        if self.independence and parent_model is not None and pc.parent is not None \
                and pc.last is not None:
            answer = self._check_independent(pc, parent_model)
        if answer is None:
            answer = self._check_stack(pc)
        self._answers.put(pc, answer)
        return answer

    def translate(self, t: AExpr | BExpr) -> z3.ExprRef:
        """The z3 term for a symbolic term (cached)."""
        cached = self._terms.get(t)
        if cached is not None:
            self.stats.translation_hits += 1
            return cached
        start = time.perf_counter()
        result = self._translate(t)
        self.stats.translate_seconds += time.perf_counter() - start
        self.stats.translations += 1
        self._terms.put(t, result)
        return result

    def free_vars(self, t: BExpr) -> frozenset[str]:
        """The free variables of a conjunct (cached)."""
        found = self._vars.get(t)
        if found is None:
            found = free_vars(t)
            self._vars.put(t, found)
        return found

    @property
    def depth(self) -> int:
        """How many conjuncts the z3 assertion stack holds now."""
        return len(self._stack)

    # --- incremental stack ---------------------------------------------------------------

    def _sync(self, pc: PathCondition) -> None:
        """Make the z3 assertion stack hold exactly the conjuncts of `pc`."""
        stack = self._stack
        todo: list[PathCondition] = []
        node: PathCondition | None = pc
        while node is not None and node.length > 0:
            i = node.length - 1
            if i < len(stack) and stack[i] is node:
                break
            todo.append(node)
            node = node.parent
        keep = node.length if node is not None else 0
        s = self._z3
        if len(stack) > keep:
            start = time.perf_counter()
            s.pop(len(stack) - keep)
            self.stats.z3_seconds += time.perf_counter() - start
            self.stats.pops += len(stack) - keep
            del stack[keep:]
            del self._stack_vars[keep:]
        for node in reversed(todo):
            assert node.last is not None
            term = self.translate(node.last)
            start = time.perf_counter()
            s.push()
            s.add(term)
            self.stats.z3_seconds += time.perf_counter() - start
            self.stats.pushes += 1
            before = self._stack_vars[-1] if self._stack_vars else frozenset()
            new = self.free_vars(node.last)
            self._stack_vars.append(before if new <= before else before | new)
            stack.append(node)
        if len(stack) > self.stats.max_stack:
            self.stats.max_stack = len(stack)

    def _check_stack(self, pc: PathCondition) -> tuple[Sat, Env | None]:
        self._sync(pc)
        self.stats.queries += 1
        start = time.perf_counter()
        try:
            return self._decide(self._z3)
        finally:
            self.stats.z3_seconds += time.perf_counter() - start

    def _decide(self, s: z3.Solver) -> tuple[Sat, Env | None]:
        result = s.check()
        if result == z3.sat:
            return Sat.SAT, _model_env(s.model())
        if result == z3.unsat:
            return Sat.UNSAT, None
        self.stats.unknown += 1
        return Sat.UNKNOWN, None

    # --- constraint independence ---------------------------------------------------------

    def _check_independent(self, pc: PathCondition,
                           parent_model: Env) -> tuple[Sat, Env | None] | None:
        """Decide `pc` from its last conjunct alone when that shares no variable with the rest;
        None when it does (or when the rest is not known)."""
        c = pc.last
        parent = pc.parent
        assert c is not None and parent is not None
        mine = self.free_vars(c)
        self._sync(parent)
        theirs = self._stack_vars[-1] if self._stack_vars else frozenset()
        if not mine.isdisjoint(theirs):
            return None
        self.stats.independent += 1
        alone = self._alone.get(c)
        if alone is None:
            self.stats.queries += 1
            s = self._alone_z3
            term = self.translate(c)
            start = time.perf_counter()
            s.push()
            try:
                s.add(term)
                alone = self._decide(s)
            finally:
                s.pop()
                self.stats.z3_seconds += time.perf_counter() - start
            self._alone.put(c, alone)
        else:
            self.stats.independent_hits += 1
        answer, model = alone
        if answer is not Sat.SAT:
            return answer, None
        assert model is not None
        # `c` mentions none of the parent's variables, so overriding them keeps the parent's
        # conjuncts true; every variable of `c` takes the value of c's own model.
        values = parent_model.as_dict()
        for x in mine:
            values[x] = model(x)
        return Sat.SAT, Env.of(values)

    # --- translation ---------------------------------------------------------------------

    def _translate(self, t: AExpr | BExpr) -> z3.ExprRef:
        tr = self.translate
        match t:
            case Int(v):
                return z3.IntVal(v)
            case Var(x):
                return z3.Int(x)
            case Neg(a):
                return -tr(a)
            case Add(a, b):
                return tr(a) + tr(b)
            case Sub(a, b):
                return tr(a) - tr(b)
            case Bool(v):
                return z3.BoolVal(v)
            case Not(a):
                return z3.Not(tr(a))
            case And(a, b):
                return z3.And(tr(a), tr(b))
            case Or(a, b):
                return z3.Or(tr(a), tr(b))
            case Cmp(op, a, b):
                x, y = tr(a), tr(b)
                return {"==": x == y, "!=": x != y, "<": x < y, "<=": x <= y,
                        ">": x > y, ">=": x >= y}[op]
        raise TypeError(f"not a term: {t!r}")


def _model_env(model: z3.ModelRef) -> Env:
    """The integer constants of a z3 model as an environment (absent ones read 0, as z3's
    model completion would give)."""
    values: dict[str, int] = {}
    for d in model.decls():
        if d.arity() == 0:
            v = model.get_interp(d)
            if z3.is_int_value(v):
                values[d.name()] = v.as_long()
    return Env.of(values)
