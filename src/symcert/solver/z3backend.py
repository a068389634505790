# crosshair: off
# (z3 inside analysed code makes CrossHair fall back to concrete values; the plugin stubs Solver)
"""The only module that imports z3: satisfiability of path conditions, three-valued.

`Sat` is SAT, UNSAT or UNKNOWN (WiSE's `Inductive sat`). The UNKNOWN policy, written once:
an UNKNOWN path condition is kept during exploration (M-S1: unknown counts as maybe), is never
reported as a bug (no model, so no replay) and makes a run that meets it undecided rather than
safe only when it stands behind a possible bug (W-T3.8: never a false YES, never a false NO).
Results are deterministic: a fixed random seed and a resource limit instead of wall-clock time.

Speed (the measurements are in docs/bench.md):

- **Assumption literals.** Each distinct conjunct `c` gets a literal `l`; `l ⇒ c` is asserted
  once and a linear path condition is decided by a check under its literals (bounded: at
  `cache_size` the solver starts anew). A path condition within `length / STACK_RATIO` pops and
  pushes of the assertion stack of a second solver, or of the previous query, and every
  nonlinear one (z3 instantiates the `div`/`mod` axioms of all it was given, assumed or not)
  are decided on that stack instead, which pops to the shared prefix and pushes the rest.
- **Caches.** z3 terms by symbolic term (the fold's memo kept between translations), answers by
  path condition; both bounded, two generations.
- **Constraint independence.** A last conjunct that shares no variable with the rest is decided
  alone (cached by conjunct) and its model merged into the parent's model.
- **Bounds.** A last conjunct that bounds one variable that every other conjunct mentioning it
  also just bounds is decided without z3: loop counters against an input never reach z3.
- **Divisions named, queries with a deadline.** Each `/`, `%` by a non-literal is a name with
  its definition (`z3terms.Purified`, X-A1); a query in nonlinear arithmetic runs in a forked
  child killed at `deadline` seconds (`deadline.within`): UNKNOWN then, never a wait of minutes.
- Models are read through z3's C API; no z3 object ever leaves this module. z3 is imported,
  and its solvers made, at the first query that needs them; `true` is SAT without z3.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from symcert.core.algebra import fold
from symcert.core.concrete import Env
from symcert.core.state import PathCondition
from symcert.core.terms import free_vars
from symcert.lang.procedures import classes_of, references
from symcert.lang.syntax import AExpr, BExpr, Stmt
from symcert.solver.answers import Sat, SolverStats, unsat_spares_parent_model
from symcert.solver.caches import Cache as _Cache
from symcert.solver.deadline import QUERY_SECONDS, within as within_seconds
from symcert.solver.paths import ARITHMETIC, NONLINEAR, along, within
from symcert.solver.z3terms import PURIFIED, definitions, model_env, ranges
from symcert.solver.interrupts import Z3_CALLS
from symcert.solver.intervals import NO_BOUNDS, Bounds, interval_of
from symcert.spec.switch import CONTRACTS, icontract

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
STACK_RATIO = 32
"""A push costs z3 about as much as naming 32-64 literals in a check (docs/bench.md, "The solver
under assumption literals"): a path condition that far from the stack takes it."""
LITERAL = "!c"
"""The prefix of the assumption literals' names (no IMP variable can be named so)."""
UNDECIDED_RLIMIT = 1000
"""Below this resource limit z3 cannot decide even two bounds: the solver then stands for an
undecided one and decides nothing without z3."""
CACHE_SIZE = 1 << 16
"""Entries per generation of each cache: memory stays bounded on million-state runs."""


def solver_for(p: Stmt, **options: Any) -> Solver:
    """A solver for the program whose main statement is `p`: its references range over nil and
    the input objects (seed 003 §4)."""
    return Solver(references=references(p), classes=classes_of(p), **options)


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
    :param references: the program's references (variables and fields' maps, seed 003 §4):
        an input reference is nil (0) or an input object (positive), never a new one
        (negative), so each conjunct sent to z3 comes with `x >= 0` for each reference `x` and
        `f[i] >= 0` for each cell `i` of an input field's map `f` it reads (B-T4).
    :param deadline: seconds of wall-clock time a query in nonlinear arithmetic may take: it
        runs in a forked child process killed at the deadline (`deadline.within`), and is then
        UNKNOWN (`stats.deadlines`); None decides every query in this process.
    """

    rlimit: int = DEFAULT_RLIMIT
    stats: SolverStats = field(default_factory=SolverStats)
    cache_size: int = CACHE_SIZE
    independence: bool = True
    bounds: bool | None = None
    references: frozenset[str] = frozenset()
    deadline: float | None = QUERY_SECONDS
    classes: int = 0  # objects carry their class: `0 <= .class[i] < classes` for `i > 0` (B-O4)

    def __post_init__(self) -> None:
        if self.bounds is None:
            self.bounds = self.rlimit >= UNDECIDED_RLIMIT
        self._z3: z3.Solver | None = None  # made at the first query that needs z3 (`_solvers`)
        self._alone_z3: z3.Solver | None = None
        self._stack_z3: z3.Solver | None = None
        self._terms: _Cache[object, z3.ExprRef] = _Cache(self.cache_size)
        self._memo: dict[int, z3.ExprRef] = {}
        self._roots: list[AExpr | BExpr] = []
        self._answers: _Cache[PathCondition, tuple[Sat, Env | None]] = _Cache(self.cache_size)
        self._alone: _Cache[BExpr, tuple[Sat, Env | None]] = _Cache(self.cache_size)
        self._vars: dict[int, frozenset[str]] = {}  # free_vars' memo, its roots in _var_roots
        self._var_roots: list[BExpr] = []
        self._pc_vars: _Cache[PathCondition, frozenset[str]] = _Cache(self.cache_size)
        self._bounds: _Cache[PathCondition, Bounds] = _Cache(self.cache_size)
        # The nonlinear path condition mirrored by `_stack_z3`: `_stack[i]` has length i + 1.
        self._stack: list[PathCondition] = []
        self._last: PathCondition | None = None  # the path condition last sent to z3
        self._pc_nonlinear: _Cache[PathCondition, bool] = _Cache(self.cache_size)
        self._pc_arithmetic: _Cache[PathCondition, bool] = _Cache(self.cache_size)
        # The literal of each conjunct asserted as `l ⇒ c`, by node id (its root in _lit_roots)
        # and by z3 term id (the literal and term kept alive in _lit_refs).
        self._lits: dict[int, Any] = {}
        self._lit_terms: dict[int, Any] = {}
        self._lit_roots: list[BExpr] = []
        self._lit_refs: list[tuple[z3.BoolRef, z3.BoolRef]] = []
        self._decls: dict[str, z3.FuncDeclRef] = {}  # each variable's z3 constant
        self._conjuncts: _Cache[BExpr, z3.BoolRef] = _Cache(self.cache_size)

    def fresh(self) -> Solver:
        """A solver with the same settings and no assertions that shares this one's
        translations (z3 terms, conjuncts with their definitions, free variables): for callers
        that need a clean assertion state often, as the oracle's one solver per input."""
        other = replace(self, stats=self.stats)
        other._terms, other._memo, other._roots = self._terms, self._memo, self._roots
        other._conjuncts, other._decls = self._conjuncts, self._decls
        other._vars, other._var_roots = self._vars, self._var_roots
        return other

    def _solvers(self) -> tuple[z3.Solver, z3.Solver, z3.Solver]:
        """The z3 solvers, made on first use (the caller holds Z3_CALLS): the one that decides
        linear path conditions under assumption literals, the one that decides a conjunct
        alone, and the one whose assertion stack mirrors a nonlinear path condition."""
        if self._z3 is None or self._alone_z3 is None or self._stack_z3 is None:
            self._z3, self._alone_z3, self._stack_z3 = \
                self._new_z3(), self._new_z3(), self._new_z3()
        return self._z3, self._alone_z3, self._stack_z3

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
        elif self.bounds and self.independence and parent_model is not None \
                and pc.parent is not None and pc.last is not None:
            answer = self._check_interval(pc, parent_model)
        if answer is None:
            answer = self._isolated(pc, parent_model, self.deadline) \
                if self.deadline is not None and self.pc_arithmetic(pc) \
                else self._check_z3(pc, parent_model)
        self._answers.put(pc, answer)
        return answer

    def _check_z3(self, pc: PathCondition, parent_model: Env | None) -> tuple[Sat, Env | None]:
        """Decide `pc` with z3: its last conjunct alone when independent of the rest, else on
        the assertion stack or under assumption literals."""
        answer: tuple[Sat, Env | None] | None = None
        if self.independence and parent_model is not None and pc.parent is not None \
                and pc.last is not None:
            answer = self._check_independent(pc, parent_model)
        if answer is None:
            near, self._last = self._near_stack(pc), pc
            answer = self._check_stack(pc) if near or self.pc_nonlinear(pc) \
                else self._check_assuming(pc)
        return answer

    def _isolated(self, pc: PathCondition, parent_model: Env | None,
                  seconds: float) -> tuple[Sat, Env | None]:
        """`_check_z3` in a forked child killed after `seconds` (`deadline.within`): UNKNOWN
        then. The conjuncts are translated here first, so the terms stay cached. When the child
        decided on the assertion stack, the same pushes are made here (z3 is deterministic: they
        took the child less than the deadline), so the next child starts from them."""
        for c in pc.conjuncts():
            self._conjunct(c)
        self.stats.isolated += 1
        start = time.perf_counter()
        outcome = within_seconds(seconds, lambda: (self._check_z3(pc, parent_model),
                                                   bool(self._stack) and self._stack[-1] is pc))
        self.stats.queries += 1
        self.stats.z3_seconds += time.perf_counter() - start
        if outcome is None:
            self.stats.unknown += 1
            self.stats.deadlines += 1
            return Sat.UNKNOWN, None
        answer, stacked = outcome
        if stacked:
            self._sync(pc)
            self._last = pc
        return answer

    def translate(self, t: AExpr | BExpr) -> z3.ExprRef:
        """The z3 term for a symbolic term (cached): each division by a non-literal is named
        (`z3terms.Purified`); a query conjoins the names' definitions (`_conjunct`)."""
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

        return along(pc, self._pc_vars, frozenset(), add)

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
        s = self._solvers()[2]
        if len(stack) > keep:
            start = time.perf_counter()
            s.pop(len(stack) - keep)
            self.stats.z3_seconds += time.perf_counter() - start
            self.stats.pops += len(stack) - keep
            del stack[keep:]
        for node in reversed(todo):
            assert node.last is not None
            term = self._conjunct(node.last)
            start = time.perf_counter()
            s.push()
            s.add(term)
            self.stats.z3_seconds += time.perf_counter() - start
            self.stats.pushes += 1
            stack.append(node)

    def _near_stack(self, pc: PathCondition) -> bool:
        """Whether `pc` is at most `pc.length / STACK_RATIO` pops and pushes away from the
        assertion stack or from the path condition asked before it (a path that goes on, as in
        depth-first order or a long loop): then the stack is cheaper than naming the literal of
        every conjunct, once synced."""
        budget = pc.length // STACK_RATIO
        top = self._stack[-1] if self._stack else None
        return budget > 0 and (within(pc, top, budget) or within(pc, self._last, budget))

    def pc_nonlinear(self, pc: PathCondition) -> bool:
        """Whether a conjunct of `pc` multiplies two non-constants, divides by a non-constant or
        reads an array (cached by node, like `pc_vars`)."""
        return along(pc, self._pc_nonlinear, False,
                      lambda acc, c: acc or fold(NONLINEAR, None, c)[1])

    def pc_arithmetic(self, pc: PathCondition) -> bool:
        """Whether a conjunct of `pc` is in nonlinear arithmetic (`paths.ARITHMETIC`; cached
        by node): such a query runs where it can be stopped (`deadline`)."""
        return along(pc, self._pc_arithmetic, False,
                     lambda acc, c: acc or fold(ARITHMETIC, None, c)[1])

    def _check_stack(self, pc: PathCondition) -> tuple[Sat, Env | None]:
        self._sync(pc)
        self.stats.queries += 1
        start = time.perf_counter()
        try:
            return self._decide(self._solvers()[2], [], self.pc_vars(pc))
        finally:
            self.stats.z3_seconds += time.perf_counter() - start

    # --- assumption literals ----------------------------------------------------------

    def _literals(self, pc: PathCondition) -> list[Any]:
        """The literals standing for the conjuncts of `pc` (z3 AST handles); a conjunct met for
        the first time gets a fresh literal `l` and `l ⇒ c` is asserted, once, on the solver
        (one literal per distinct z3 term)."""
        s = self._solvers()[0]
        if len(self._lit_roots) >= self.cache_size:  # bounded: a new solver, literals anew
            self._z3, self._lits, self._lit_terms = self._new_z3(), {}, {}
            self._lit_roots, self._lit_refs = [], []
            s = self._z3
        ctx = s.ctx.ref()
        lits: list[Any] = []
        node: PathCondition | None = pc
        while node is not None and node.last is not None:
            c = node.last
            lit = self._lits.get(id(c))
            if lit is None:
                term = self._conjunct(c)
                lit = self._lit_terms.get(term.get_id())
                if lit is None:
                    start = time.perf_counter()
                    ref = z3.Bool(f"{LITERAL}{len(self._lit_terms)}")
                    lit = ref.as_ast()
                    implies = z3.BoolRef(z3.z3core.Z3_mk_implies(ctx, lit, term.as_ast()), s.ctx)
                    z3.z3core.Z3_solver_assert(ctx, s.solver, implies.as_ast())
                    self.stats.z3_seconds += time.perf_counter() - start
                    self.stats.literals += 1
                    self._lit_terms[term.get_id()] = lit
                    self._lit_refs.append((ref, term))
                self._lits[id(c)] = lit
                self._lit_roots.append(c)
            lits.append(lit)
            node = node.parent
        return lits

    def _check_assuming(self, pc: PathCondition) -> tuple[Sat, Env | None]:
        lits = self._literals(pc)
        self.stats.queries += 1
        start = time.perf_counter()
        try:
            return self._decide(self._solvers()[0], lits, self.pc_vars(pc))
        finally:
            self.stats.z3_seconds += time.perf_counter() - start

    def _decide(self, s: z3.Solver, assumptions: list[Any],
                names: frozenset[str]) -> tuple[Sat, Env | None]:
        """`s.check(*assumptions)` through z3's C API (the wrapper casts every literal again)."""
        result = z3.z3core.Z3_solver_check_assumptions(
            s.ctx.ref(), s.solver, len(assumptions), (z3.Ast * len(assumptions))(*assumptions))
        if result == z3.Z3_L_TRUE:
            return Sat.SAT, model_env(s.model(), names, self._decls)
        if result == z3.Z3_L_FALSE:
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
            term = self._conjunct(c)
            start = time.perf_counter()
            s.push()
            try:
                s.add(term)
                alone = self._decide(s, [], mine)
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
        return along(pc, self._bounds, NO_BOUNDS,
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
        if x in parent.mixed or x in self.references:
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

    def _conjunct(self, c: BExpr) -> z3.BoolRef:
        """The z3 term of a conjunct, with the definitions of the divisions it names
        (`z3terms.Purified`) and the range of the input references it reads (cached)."""
        cached = self._conjuncts.get(c)
        if cached is None:
            cached = self._conjunct_of(c)
            self._conjuncts.put(c, cached)
        return cached

    def _conjunct_of(self, c: BExpr) -> z3.BoolRef:
        term = self.translate(c)
        read = self.free_vars(c) & self.references if self.references else frozenset()
        low = definitions(term) + ranges(self.translate, c, self.classes, self.references, read)
        return z3.And(term, *low) if low else term

    def _translate(self, t: AExpr | BExpr) -> z3.ExprRef:
        # Subterms are shared across the terms of a run (store terms, conjuncts), so the fold's
        # memo is kept between calls: `_roots` keeps every root translated with it alive, hence
        # every id in it names the node it was stored for. Both are dropped together.
        if len(self._memo) >= self.cache_size:
            self._memo, self._roots = {}, []
        self._roots.append(t)
        return fold(PURIFIED, None, t, self._memo)  # type: ignore[no-any-return]
