# crosshair: off
# (z3 inside analysed code makes CrossHair fall back to concrete values; the plugin stubs Solver)
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
- **Translation cache.** `translate` caches z3 terms by symbolic term (bounded, two generations),
  and the expression fold's memo of subterms (by node identity) is kept between translations.
- **Answer cache.** `check` caches answers by path condition (bounded, two generations).
- **Constraint independence.** When the caller passes a model of the parent path condition and
  the new conjunct shares no variable with it, the conjunct is decided alone (its answer cached by
  conjunct) and its model is merged into the parent's: `φ ∧ c` is SAT iff both are, UNSAT if `c`
  is.
- **Bounds.** A last conjunct that bounds one variable `x` (`x + k op c`, possibly negated),
  when every other conjunct mentioning `x` also just bounds it, is decided without z3: the
  bounds of each path-condition node are kept (cached, built from the parent's), the interval
  of `x` is intersected, and the parent's model with `x` moved into the interval is the model.
  Loop counters against an input (`k < n` at iteration k) never reach z3, so the cost per state
  does not grow with the path.
- Models are read through z3's C API (the Python wrappers cost more than small queries).
- No z3 object ever leaves this module: answers are `Sat` and `Env` (plain data).

Start-up (issue 18). z3 is imported, and the two z3 solvers made, at the first query that needs
them, not with this module: that was 0.04 s of the 0.16 s `symcert run skip.imp` took
(docs/bench.md, "Start-up"). The empty path condition is SAT with the empty model without
asking z3, so a program that never branches on an input never loads it.
"""

from __future__ import annotations

import enum
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, TypeVar

from symcert.core.algebra import fold
from symcert.core.concrete import Cells, Env, Value, beval
from symcert.core.state import PathCondition
from symcert.core.terms import COMPARE, free_vars
from symcert.lang.syntax import AExpr, BExpr
from symcert.solver.caches import Cache as _Cache
from symcert.solver.interrupts import Z3_CALLS
from symcert.solver.intervals import NO_BOUNDS, Bounds, interval_of
from symcert.spec.switch import CONTRACTS, icontract, lemma

if TYPE_CHECKING:
    import z3
else:
    class _Z3:
        """Stands for the z3 module until its first use: the first attribute read imports z3
        and puts the module in this one's place, so later reads cost nothing extra."""

        def __getattr__(self, name: str) -> Any:
            global z3
            import z3 as module

            z3 = module
            return getattr(module, name)

    z3 = _Z3()

DEFAULT_RLIMIT = 5_000_000
UNDECIDED_RLIMIT = 1000
"""Below this resource limit z3 cannot decide even two bounds: the solver then stands for an
undecided one and decides nothing without z3."""
CACHE_SIZE = 1 << 16
"""Entries per generation of each cache: memory stays bounded on million-state runs."""

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
    intervals: int = 0


@lemma("M-S1")
def unsat_spares_parent_model(pc: PathCondition, parent_model: Env | None,
                              result: tuple[Sat, Env | None]) -> bool:
    """M-S1 spot-checked where the fast paths decide: an UNSAT answer must not be refuted by
    the caller's model of `pc.parent` satisfying the new conjunct too (that would be a solution);
    a SAT answer carries a model of the new conjunct."""
    answer, model = result
    last = pc.last
    if last is None:
        return True
    if answer is Sat.UNSAT:
        return parent_model is None or not beval(parent_model, last)
    return answer is not Sat.SAT or (model is not None and beval(model, last))


@dataclass
class Solver:
    """Decides path conditions with z3, incrementally, caching translations and answers.

    :param rlimit: z3's resource limit per query (deterministic, unlike a timeout).
    :param cache_size: entries per generation of each cache.
    :param independence: decide a conjunct independent of the rest of the path alone (and
        use the parent's model for the bounds below).
    :param bounds: decide single-variable bounds without z3; by default on, except under a
        resource limit below `UNDECIDED_RLIMIT`, which callers use to stand for a solver that
        decides nothing (the UNKNOWN policy's tests): then every query goes to z3.
    """

    rlimit: int = DEFAULT_RLIMIT
    stats: SolverStats = field(default_factory=SolverStats)
    cache_size: int = CACHE_SIZE
    independence: bool = True
    bounds: bool | None = None

    def __post_init__(self) -> None:
        if self.bounds is None:
            self.bounds = self.rlimit >= UNDECIDED_RLIMIT
        self._z3: z3.Solver | None = None  # made at the first query that needs z3 (`_solvers`)
        self._alone_z3: z3.Solver | None = None
        self._terms: _Cache[object, z3.ExprRef] = _Cache(self.cache_size)
        self._memo: dict[int, z3.ExprRef] = {}
        self._roots: list[AExpr | BExpr] = []
        self._answers: _Cache[PathCondition, tuple[Sat, Env | None]] = _Cache(self.cache_size)
        self._alone: _Cache[BExpr, tuple[Sat, Env | None]] = _Cache(self.cache_size)
        self._vars: dict[int, frozenset[str]] = {}  # free_vars' memo, its roots in _var_roots
        self._var_roots: list[BExpr] = []
        self._pc_vars: _Cache[PathCondition, frozenset[str]] = _Cache(self.cache_size)
        self._bounds: _Cache[PathCondition, Bounds] = _Cache(self.cache_size)
        # The path condition mirrored by the z3 assertion stack: `_stack[i]` has length i + 1.
        self._stack: list[PathCondition] = []

    def _solvers(self) -> tuple[z3.Solver, z3.Solver]:
        """The z3 solver that mirrors the path condition and the one that decides a conjunct
        alone, made on first use (the caller holds Z3_CALLS)."""
        if self._z3 is None or self._alone_z3 is None:
            self._z3, self._alone_z3 = self._new_z3(), self._new_z3()
        return self._z3, self._alone_z3

    def _new_z3(self) -> z3.Solver:
        s = z3.Solver()
        s.set("random_seed", 0)
        s.set("rlimit", self.rlimit)
        return s

    # --- public interface ----------------------------------------------------------------

    @icontract.ensure(unsat_spares_parent_model, "M-S1 sound maybe_sat", enabled=CONTRACTS)
    def check(self, pc: PathCondition,
              parent_model: Env | None = None) -> tuple[Sat, Env | None]:
        """Decide `pc`; on SAT also return a model over its free variables (missing ones 0).

        :param pc: the path condition.
        :param parent_model: optionally, a valuation known to satisfy `pc.parent` (all of `pc`
            but its last conjunct); it lets an independent last conjunct be decided alone.
        """
        with Z3_CALLS:  # no interruption between two z3 calls (interrupts.py)
            return self._check(pc, parent_model)

    def _check(self, pc: PathCondition, parent_model: Env | None) -> tuple[Sat, Env | None]:
        cached = self._answers.get(pc)
        if cached is not None:
            self.stats.cache_hits += 1
            return cached
        answer: tuple[Sat, Env | None] | None = None
        if pc.length == 0:  # `true`: the empty model satisfies it, as z3 would answer
            answer = Sat.SAT, Env.of({})
        elif self.independence and parent_model is not None and pc.parent is not None \
                and pc.last is not None:
            if self.bounds:
                answer = self._check_interval(pc, parent_model)
            if answer is None:
                answer = self._check_independent(pc, parent_model)
        if answer is None:
            answer = self._check_stack(pc)
        self._answers.put(pc, answer)
        return answer

    def translate(self, t: AExpr | BExpr) -> z3.ExprRef:
        """The z3 term for a symbolic term (cached)."""
        with Z3_CALLS:
            return self._translate_cached(t)

    def _translate_cached(self, t: AExpr | BExpr) -> z3.ExprRef:
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
        """The free variables of a conjunct, each shared node's computed once (the memo is kept
        between calls with its roots alive, like `_translate`'s)."""
        if id(t) not in self._vars:
            if max(len(self._vars), len(self._var_roots)) >= self.cache_size:
                self._vars, self._var_roots = {}, []
            self._var_roots.append(t)
        return free_vars(t, self._vars)

    def pc_vars(self, pc: PathCondition) -> frozenset[str]:
        """The free variables of a path condition (cached by node, built from the nearest
        cached ancestor: O(1) amortized along a path, without touching the z3 stack)."""
        def add(acc: frozenset[str], c: BExpr) -> frozenset[str]:
            new = self.free_vars(c)
            return acc if new <= acc else acc | new

        return _along(pc, self._pc_vars, frozenset(), add)

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
        s = self._solvers()[0]
        if len(stack) > keep:
            start = time.perf_counter()
            s.pop(len(stack) - keep)
            self.stats.z3_seconds += time.perf_counter() - start
            self.stats.pops += len(stack) - keep
            del stack[keep:]
        for node in reversed(todo):
            assert node.last is not None
            term = self.translate(node.last)
            start = time.perf_counter()
            s.push()
            s.add(term)
            self.stats.z3_seconds += time.perf_counter() - start
            self.stats.pushes += 1
            stack.append(node)
        if len(stack) > self.stats.max_stack:
            self.stats.max_stack = len(stack)

    def _check_stack(self, pc: PathCondition) -> tuple[Sat, Env | None]:
        self._sync(pc)
        self.stats.queries += 1
        start = time.perf_counter()
        try:
            return self._decide(self._solvers()[0])
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
        if not mine.isdisjoint(self.pc_vars(parent)):
            return None
        self.stats.independent += 1
        alone = self._alone.get(c)
        if alone is None:
            self.stats.queries += 1
            s = self._solvers()[1]
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

    # --- bounds: single-variable conjuncts decided without z3 -----------------------------

    def pc_bounds(self, pc: PathCondition) -> Bounds:
        """The interval each variable of `pc` is confined to by its single-variable conjuncts,
        and which variables also occur elsewhere (cached by node, like `pc_vars`)."""
        return _along(pc, self._bounds, NO_BOUNDS,
                      lambda acc, c: acc.add(c, self.free_vars(c)))

    def _check_interval(self, pc: PathCondition,
                        parent_model: Env) -> tuple[Sat, Env | None] | None:
        """Decide `pc` when its last conjunct bounds one variable `x` that every other conjunct
        mentioning it also only bounds: `x`'s constraints are then an interval, independent of
        the rest, which `parent_model` satisfies. Empty interval: UNSAT; else SAT with the
        parent's model, `x` moved into the interval. None when the conjunct is not of that
        kind."""
        c = pc.last
        assert c is not None and pc.parent is not None
        bound = interval_of(c)
        if bound is None:
            return None
        x, lo, hi = bound
        parent = self.pc_bounds(pc.parent)
        if x in parent.mixed:
            return None
        plo, phi = parent.box.get(x, (None, None))
        lo = plo if lo is None else lo if plo is None else max(lo, plo)
        hi = phi if hi is None else hi if phi is None else min(hi, phi)
        self.stats.intervals += 1
        if lo is not None and hi is not None and lo > hi:
            return Sat.UNSAT, None
        v = parent_model(x)
        if lo is not None and v < lo:
            v = lo
        if hi is not None and v > hi:
            v = hi
        return Sat.SAT, parent_model.update(x, v)

    # --- translation ---------------------------------------------------------------------

    def _translate(self, t: AExpr | BExpr) -> z3.ExprRef:
        # Subterms are shared across the terms of a run (store terms, conjuncts), so the fold's
        # memo is kept between calls: `_roots` keeps every root translated with it alive, hence
        # every id in it names the node it was stored for. Both are dropped together.
        if len(self._memo) >= self.cache_size:
            self._memo, self._roots = {}, []
        self._roots.append(t)
        return fold(Z3, None, t, self._memo)  # type: ignore[no-any-return]


class Z3Terms:
    """The algebra of z3 terms (the expression fold, algebra.py): a variable is the z3 integer
    constant of its name, an array the z3 array `Int → Int` of its name in the initial state,
    read by `Select`, written by `Store` (so `V(e) = V(e') ⇒ V(a[e]) = V(a[e'])`: B-A1)."""

    def integer(self, ctx: None, value: int) -> z3.ArithRef:
        return z3.IntVal(value)

    def var(self, ctx: None, name: str) -> z3.ArithRef:
        return z3.Int(name)

    def neg(self, a: z3.ArithRef) -> z3.ArithRef:
        return -a

    def add(self, a: z3.ArithRef, b: z3.ArithRef) -> z3.ArithRef:
        return a + b

    def sub(self, a: z3.ArithRef, b: z3.ArithRef) -> z3.ArithRef:
        return a - b

    def mul(self, a: z3.ArithRef, b: z3.ArithRef) -> z3.ArithRef:
        return a * b

    def div(self, a: z3.ArithRef, b: z3.ArithRef) -> z3.ArithRef:
        """Python's floor division (X-A1): z3's `/` on integers is SMT-LIB's `div`, Euclidean
        (the remainder is never negative), which is the floor for `b > 0` only; for `b < 0`,
        `a // b == (-a) // (-b)`. At `b == 0` the term is z3's unconstrained `div`, never read:
        the guard excludes it (X-A2)."""
        return z3.If(b >= 0, a / b, (-a) / (-b))

    def mod(self, a: z3.ArithRef, b: z3.ArithRef) -> z3.ArithRef:
        """Python's `%`, with the sign of `b` (X-A1): `a % b == -((-a) % (-b))` for `b < 0`."""
        return z3.If(b >= 0, a % b, -((-a) % (-b)))

    def array(self, ctx: None, name: str) -> z3.ArrayRef:
        return z3.Array(name, z3.IntSort(), z3.IntSort())
    select = staticmethod(lambda a, i: z3.Select(a, i))
    update = staticmethod(lambda a, i, v: z3.Store(a, i, v))

    def cmp(self, op: str, a: z3.ArithRef, b: z3.ArithRef) -> z3.BoolRef:
        return COMPARE[op](a, b)  # type: ignore[no-any-return]

    def boolean(self, ctx: None, value: bool) -> z3.BoolRef:
        return z3.BoolVal(value)

    def not_(self, a: z3.BoolRef) -> z3.BoolRef:
        return z3.Not(a)

    def and_(self, a: z3.BoolRef, b: Callable[[], z3.BoolRef]) -> z3.BoolRef:
        return z3.And(a, b())

    def or_(self, a: z3.BoolRef, b: Callable[[], z3.BoolRef]) -> z3.BoolRef:
        return z3.Or(a, b())


Z3 = Z3Terms()


def _along(pc: PathCondition, cache: _Cache[PathCondition, V], empty: V,
           add: Callable[[V, BExpr], V]) -> V:
    """A fact about `pc` folded conjunct by conjunct (`add`) from the nearest ancestor whose fact
    `cache` holds, caching it at each node on the way: O(1) amortised along a path."""
    todo: list[PathCondition] = []
    node: PathCondition | None = pc
    found: V | None = None
    while node is not None and node.last is not None:
        found = cache.get(node)
        if found is not None:
            break
        todo.append(node)
        node = node.parent
    acc = found if found is not None else empty
    for node in reversed(todo):
        assert node.last is not None
        acc = add(acc, node.last)
        cache.put(node, acc)
    return acc


def _model_env(model: z3.ModelRef) -> Env:
    """The integer and array constants of a z3 model as an environment (absent ones read 0, as
    z3's model completion would give). Read through z3's C API (the Python wrappers cost more
    than small queries: issue 6), but for arrays; the model owns the handles."""
    ctx, m, z3core = model.ctx.ref(), model.model, z3.z3core
    values: dict[str, Value] = {}
    for i in range(z3core.Z3_model_get_num_consts(ctx, m)):
        d = z3core.Z3_model_get_const_decl(ctx, m, i)
        v = z3core.Z3_model_get_const_interp(ctx, m, d)
        kind, name = (z3core.Z3_get_sort_kind(ctx, z3core.Z3_get_sort(ctx, v)),
                      z3core.Z3_get_symbol_string(ctx, z3core.Z3_get_decl_name(ctx, d)))
        if z3core.Z3_get_ast_kind(ctx, v) == z3.Z3_NUMERAL_AST and kind == z3.Z3_INT_SORT:
            values[name] = int(z3core.Z3_get_numeral_string(ctx, v))
        elif kind == z3.Z3_ARRAY_SORT:
            values[name] = _cells(model[z3.FuncDeclRef(d, model.ctx)])
    return Env.of(values)


def _cells(value: z3.ExprRef | z3.FuncInterp) -> Cells:
    """A model's array (seed 003 §5): stores over `K(Int, d)`, any `d`, or entries and else."""
    if isinstance(value, z3.FuncInterp):
        return Cells.of({k.as_long(): v.as_long() for k, v in reversed(value.as_list()[:-1])},
                        value.else_value().as_long())
    cells: dict[int, int] = {}
    while z3.is_store(value):  # the outermost store of a cell wins
        value, index, stored = value.children()
        cells.setdefault(index.as_long(), stored.as_long())
    assert z3.is_K(value), f"an array model of an unexpected shape: {value}"
    return Cells.of(cells, value.arg(0).as_long())
