"""A differential campaign: random programs on which three engines must agree (seed 001, T-O1;
seed 004, M-P1/M-P2; in the spirit of Kapus & Cadar's testing of symbolic executors).

For each generated program `p` and random inputs `σ`:

- **main engine** (`run`, Fig. 6, with a solver, in ghost mode from `σ₁`): its configuration
  after the run (leaves, plus the frontier if the budget cut it) must be exhaustive and precise
  at every `σ` (T-D2, T-D3: over- and under-approximation); the leaf carrying the ghost must be
  the one `σ₁` takes; every leaf's solver model, run concretely, must end where the leaf says.
- **seed-004 interpreter** (`exec_symbolic`): the concrete twin's outcome at `σ` is the meaning
  of some result (M-P1, asked to the solver, the fresh variables being existential), and every
  result's model gives the outcome its concrete twin computes (M-P2).
- **concrete interpreters**: the small-step run (Fig. 2) and the natural-semantics twin agree
  on the final store and on failure, when no loop or call limit is hit.
- **bug verdicts**: when both symbolic engines are exhaustive, one reports a feasible failing
  path iff the other does.

Programs come from the one generator (`generate.py`; program `i` drawn from a generator seeded
by `(seed, i)` alone, `numbered`), with
loops bounded by construction (a counter no body assigns, compared with a constant below the
interpreter's loop limit), so both engines are exhaustive unless a shrinking step removes the
bound. A disagreement is reported with the program and input minimised by a greedy
delta-debugging shrinker over the AST (`shrink`), generic over the syntax (`syntax.children`).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field, replace
from typing import Callable, ContextManager, Iterator, cast

from symcert.checking import annotated, generate_threads, independence
from symcert.checking.agreement import compare
from symcert.checking.concurrency import THREAD_CHECKS, one_thread
from symcert.checking.disagreement import Disagreement
from symcert.checking.generate import Choices, RandomChoices, Shape, env, program
from symcert.checking.oracles import Counterexample, check_exhaustiveness, check_precision
from symcert.checking.transitions import Transition, concr, run_outputs
from symcert.core.concrete import Ending, Final, run_to_end
from symcert.core.concrete import Cells, Env
from symcert.core.state import PathCondition, SymState, initial, rules_of
from symcert.engine.alias import ALIAS, Alias, aliasing
from symcert.engine.merge import MERGE, Merging, merging, without_symbols
from symcert.engine.verdict import Budget, Kind, Verdict, check
from symcert.lang.parser import parse
from symcert.lang.procedures import show_program
from symcert.lang.structure import children, inputs, with_children
from symcert.lang.syntax import AExpr, ArrayVar, BExpr, Bool, Int, Node, Skip, Stmt, Update
from symcert.seed004.interp import (
    SymResult, concretize_result, exec_symbolic, input_of, over_approximation, under_approximation,
)
from symcert.seed004.natural import ENDINGS, Behaviour, Outcome, exec_concrete
from symcert.solver.deadline import ChildFailed, within
from symcert.solver.z3backend import Sat, Solver

NAMES = ("x", "y", "z")
ARRAYS = ("b", "c")
LOOP_LIMIT = 4
"""The seed-004 interpreter's loop limit: above every generated loop bound (at most 3)."""
MAX_STATES = 500
"""The main engine's budget per program."""
FUEL = 2000
"""Concrete steps per run: generated programs need far fewer; shrinking may unbound a loop."""


SHAPE = Shape(names=NAMES, literal=3, value=5, aexpr_depth=2, bexpr_depth=1, operand_depth=1,
              stmt_depth=7, leaves=8, loop_depth=2, loop_bound=LOOP_LIMIT - 1, procedures=2,
              arrays=ARRAYS)
"""The campaign's programs (generate.py): 1 to 8 leaf statements over `x, y, z` and the arrays
`b, c` (reads and writes at small indices, which often alias; input cells -2..2), literals in
[-3, 3], inputs in [-5, 5], loops nested at most two deep and bounded by construction below the
interpreter's loop limit, and up to two procedures `p(d, a)`, `q(d, a)` (recursive and mutually
recursive, their calls nested at most three deep by construction)."""


OBJECT_SHAPE = replace(SHAPE, objects=True, arrays=())
"""`SHAPE` with objects instead of arrays (seed 003 §4, `campaign --objects`): references
`r, s, t` of class `Node(val, next)`, input heaps of the objects @1..@3 whose references often
alias."""
OBJECT_SOLVER_REFERENCES = frozenset({"r", "s", "t", ".next"})
"""The references of every program of `OBJECT_SHAPE` (the solver's input range, seed 003 §4)."""


def shape_of(checks: tuple[str, ...], objects: bool) -> Shape:
    """The programs the checks run on: concurrent ones for the checks of threads."""
    if set(checks) & set(THREAD_CHECKS):
        return generate_threads.THREAD_SHAPE
    return OBJECT_SHAPE if objects else SHAPE


def random_input(c: Choices, p: Stmt, shape: Shape = SHAPE) -> Env:
    """A valuation of `p`'s inputs, values in [-5, 5] (with objects, a heap: `generate.heap`)."""
    return env(c, shape, sorted(inputs(p)))


def numbered(seed: int, index: int, shape: Shape = SHAPE,
             inputs_per_program: int = 3) -> tuple[Stmt, list[Env]]:
    """Program `index` of the campaign of `seed` and its inputs, drawn from a generator seeded
    by `(seed, index)` alone: any process makes any program (distributed/campaign.py)."""
    choices = RandomChoices(random.Random(f"{seed}:{index}"))
    p = (generate_threads.program if shape.threads else program)(choices, shape)
    return p, [random_input(choices, p, shape) for _ in range(inputs_per_program)]


_memo: dict[tuple[str, Stmt, Env, int], object] = {}


def _once(kind: str, p: Stmt, sigma: Env, solver: Solver, compute: Callable[[], object]) -> object:
    """`compute()`, remembered for the current program only: the checks of one program share
    the main engine's run and the interpreter's results instead of recomputing them."""
    key = (kind, p, sigma, id(solver))
    if key not in _memo:
        if len(_memo) >= 4:
            _memo.clear()
        _memo[key] = compute()
    return _memo[key]


def _leaves(p: Stmt, ghost: Env, solver: Solver) -> tuple[tuple[SymState, ...], bool]:
    """The main engine's configuration after the run from `⟨true, id, p⟩` with ghost ρ = ghost,
    and whether the run ended (exhaustive)."""
    start = replace(initial(p), ghost=ghost)  # with no new object yet (seed 003 §4)
    return cast(tuple[tuple[SymState, ...], bool],
                _once(f"run {ALIAS.get().value} {MERGE.get().value}", p, ghost, solver,
                      lambda: run_outputs((start,), MAX_STATES, solver)))


def _results(p: Stmt, ghost: Env, solver: Solver) -> tuple[SymResult, ...]:
    """The seed-004 interpreter's results for `p`, in ghost mode from `ghost`."""
    return cast(tuple[SymResult, ...], _once(
        "interp", p, ghost, solver, lambda: exec_symbolic(p, LOOP_LIMIT, solver, ghost=ghost)))


def check_main(p: Stmt, sigmas: list[Env], solver: Solver) -> Disagreement | None:
    """The main engine against the concrete interpreter (T-D2, T-D3, ghosts, models)."""
    config, ended = _leaves(p, sigmas[0], solver)
    t = Transition("run", lambda inputs_: config)
    start = (initial(p),)
    for sigma in sigmas:
        for kind, check in (("main engine not exhaustive (T-D2)", check_exhaustiveness),
                            ("main engine not precise (T-D3)", check_precision)):
            found = check(t, start, sigma, FUEL, config)
            if isinstance(found, Counterexample):
                return Disagreement(kind, p, sigma, str(found))
    expected = run_to_end(sigmas[0], p, FUEL)
    if expected is not None and expected.ending is Ending.BLOCKED:
        expected = None  # X-U1: no path takes an input an `assume` blocks, no leaf carries it
    carriers = [s for s in config if s.ghost is not None]
    if expected is not None and len(carriers) == 1 and rules_of(carriers[0]) == 0:
        if concr(carriers[0], sigmas[0], FUEL) != frozenset({expected}):
            return Disagreement("ghost leaf does not concretize to the concrete run (M-I1)",
                                p, sigmas[0], f"expected {expected}")
    elif expected is not None and len(carriers) != 1 and (ended or MERGE.get() is Merging.OFF):
        # A cut merging run's frontier may hold a successor beside the merged state that
        # absorbed it (transitions.run_outputs): both carry the ghost, both are sound.
        return Disagreement("ghost carried by the wrong number of states", p, sigmas[0],
                            f"{len(carriers)} states carry the ghost")
    for s in config:
        if s.model is None or rules_of(s) != 0:
            continue
        meaning = concr(s, s.model, FUEL)
        if meaning is not None and meaning != frozenset({run_to_end(without_symbols(s.model), p,
                                                                    FUEL)}):
            return Disagreement("a leaf's model does not reach the leaf (under-approximation)",
                                p, s.model, f"leaf means {set(meaning)}")
    return None


def _final_of(outcome: Outcome) -> Final | None:
    """The small-step `Final` matching an interpreter outcome, None for a loop or call limit."""
    ending = ENDINGS.get(outcome.behaviour)
    return None if ending is None else Final(outcome.env, ending)


def check_interp(p: Stmt, sigmas: list[Env], solver: Solver) -> Disagreement | None:
    """The seed-004 interpreter against its concrete twin, in ghost mode from each input (M-P3,
    M-P4) and from a model of each result (M-P2), and the twin against the small-step run."""
    results: tuple[SymResult, ...] = ()
    for sigma in sigmas:
        outcome = exec_concrete(p, sigma, LOOP_LIMIT)
        small = run_to_end(sigma, p, FUEL)
        twin = _final_of(outcome)
        if twin is not None and small is not None and (twin.env, twin.ending) != (
                small.env, small.ending):
            return Disagreement("concrete interpreters disagree (M-C1)", p, sigma,
                                f"natural semantics {outcome}, small-step {small}")
        results = _results(p, sigma, solver)
        for kind, holds in (("interpreter misses the ghost's outcome (M-P3)", over_approximation),
                            ("interpreter result not reached by its ghost (M-P4)",
                             under_approximation)):
            if not holds(p, LOOP_LIMIT, sigma, None, results):
                return Disagreement(kind, p, sigma, f"concrete outcome {outcome}")
    declared = inputs(p)
    for r in results:
        answer, model = solver.check(r.pc)
        if answer is not Sat.SAT or model is None:
            continue
        sigma = input_of(model, declared)
        if concretize_result(r, model) != exec_concrete(p, sigma, LOOP_LIMIT):
            return Disagreement("interpreter result is not reached concretely (M-P2)", p, sigma,
                                f"result {r} means {concretize_result(r, model)}")
    return None


def check_verdicts(p: Stmt, sigmas: list[Env], solver: Solver) -> Disagreement | None:
    """Bug verdicts: a feasible failing leaf in the main engine iff a FAIL result in seed 004."""
    config, exhaustive = _leaves(p, sigmas[0], solver)
    results = _results(p, sigmas[0], solver)
    if not exhaustive or any(r.behaviour in (Behaviour.LOOP_LIMIT, Behaviour.CALL_LIMIT)
                             for r in results):
        return None
    main_bug = _feasible_bug([s.pc for s in config if rules_of(s) == 0
                              and not isinstance(s.prog, Skip)], solver)
    interp_bug = _feasible_bug([r.pc for r in results if r.behaviour is Behaviour.FAIL], solver)
    if main_bug is None or interp_bug is None or main_bug == interp_bug:
        return None
    return Disagreement("bug verdicts disagree", p, sigmas[0],
                        f"main engine: {'bug' if main_bug else 'no bug'}, "
                        f"seed-004 interpreter: {'bug' if interp_bug else 'no bug'}")


def _feasible_bug(pcs: list[PathCondition], solver: Solver) -> bool | None:
    """Whether some path condition is SAT; None if not decided."""
    answers = [solver.check(pc)[0] for pc in pcs]
    if Sat.SAT in answers:
        return True
    return None if Sat.UNKNOWN in answers else False


def check_derived(p: Stmt, sigmas: list[Env], solver: Solver) -> Disagreement | None:
    """The IMP engine derived from the shipped `imp.sem` (seed 002) against the hand-written one
    at each input, and their verdicts at the first (agreement.py: pointwise, modulo the
    derived semantics' finer splitting), procedures, arrays and objects included."""
    for i, sigma in enumerate(sigmas):
        found = compare(p, sigma, FUEL, MAX_STATES if i == 0 else None)
        if not found.agree:
            return Disagreement("derived and hand-written engines disagree (W-T3.1)", p, sigma,
                                str(found.disagreement))
    return None


def _verdict(p: Stmt, solver: Solver) -> Verdict:
    """`check(p)` with every bug (each confirmed by its concrete replay) within `MAX_STATES`.
    The bugs' inputs are not shrunk: the strategies are compared on the statements that fail,
    and shrinking took 40 % of the merge check's time (the engine's tests check `shrink`)."""
    return check(p, Budget(max_states=MAX_STATES, all_bugs=True, shrink=False), solver)


def _failing(v: Verdict) -> frozenset[tuple[int, int]]:
    """The failing statements of `v`'s bugs, by line and column: `all_bugs` reports each once,
    with the failure found first (`assert 0 >= 1 / x` may fail or divide by zero)."""
    return frozenset((b.failing.pos.line, b.failing.pos.column) for b in v.bugs
                     if b.failing.pos is not None)


def check_alias(p: Stmt, sigmas: list[Env], solver: Solver) -> Disagreement | None:
    """The two aliasing strategies (engine/alias.py): the main engine under `--alias split`
    against the concrete interpreter (`check_main`: the seed-001 oracles T-D2 and T-D3, ghosts,
    models), then the verdicts of both, all bugs, each replayed concretely: a bug in one and
    SAFE in the other disagree, and where both are exhaustive they fail the same statements.
    The verdicts are taken on the program printed and parsed back, whose statements have
    positions (a generated program's have none, and `all_bugs` would report one bug)."""
    return _strategy("--alias split", "aliasing strategies disagree",
                     lambda: aliasing(Alias.SPLIT), p, sigmas, solver)


def check_merge(p: Stmt, sigmas: list[Env], solver: Solver) -> Disagreement | None:
    """State merging (engine/merge.py, T-M1) checked as `check_alias` checks the split: the
    merging engine against the concrete interpreter, then the verdicts with and without it.
    It merges wherever the rule applies (`Merging.ALL`), not only where QCE would."""
    return _strategy("--merge", "merged and unmerged exploration disagree",
                     lambda: merging(Merging.ALL), p, sigmas, solver)


def _strategy(flag: str, kind: str, within: Callable[[], ContextManager[None]], p: Stmt,
              sigmas: list[Env], solver: Solver) -> Disagreement | None:
    with within():
        found = check_main(p, sigmas, solver)
        if found is not None:
            return replace(found, kind=f"{flag}: {found.kind}")
    source = parse(show_program(p))
    with within():
        other = _verdict(source, solver)
    plain = _verdict(source, solver)
    kinds = {plain.kind, other.kind}
    if kinds == {Kind.BUG, Kind.SAFE} or (plain.exhaustive and other.exhaustive and (
            plain.kind is not other.kind or _failing(plain) != _failing(other))):
        return Disagreement(kind, p, sigmas[0], f"without {flag}: {plain.kind.name} "
                            f"{_shown(plain)}, with it: {other.kind.name} {_shown(other)}")
    return None


def _shown(v: Verdict) -> list[str]:
    return sorted(f"{b.describe()} at {b.failing.pos}" for b in v.bugs)


Check = Callable[[Stmt, list[Env], Solver], Disagreement | None]
CHECKS: dict[str, Check] = {"main": check_main, "verdicts": one_thread(check_verdicts),
                            "interp": one_thread(check_interp),
                            "derived": check_derived, "alias": check_alias, "merge": check_merge,
                            **THREAD_CHECKS,
                            **annotated.checks(Disagreement, SHAPE)}
"""The checks by name, in the order they run (`--checks` selects)."""
DEFAULT_CHECKS = ("main", "verdicts", "interp")
"""The checks run unless others are named: `derived` (seed 002's engine, slower) is asked for."""


def check_program(p: Stmt, sigmas: list[Env], solver: Solver,
                  checks: tuple[str, ...] = DEFAULT_CHECKS) -> Disagreement | None:
    """The first disagreement the named checks find on `p` at `sigmas`, or None.

    An exception is a disagreement too: a violated lemma contract (when contracts are on) or a
    crash of an engine, named by its first line.
    """
    for check in (CHECKS[name] for name in checks):
        try:
            found = check(p, sigmas, solver)
        except Exception as err:  # an engine bug, whatever its form, is what we look for
            lines = [line for line in str(err).splitlines() if not line.startswith("File ")]
            first = lines[0] if lines else ""
            found = Disagreement(f"{type(err).__name__}: {first.split(':')[0]}", p, sigmas[0],
                                 "")
        if found is not None:
            return found
    return None


_SET_UP: set[tuple[str, ...]] = set()
"""The check sets whose one-time set-up this process has done (`check_within`)."""

OVER_BUDGET = "over the program budget"
"""What `check_within` gives for a program whose checks outlast their budget."""


def check_within(p: Stmt, sigmas: list[Env], solver: Solver, checks: tuple[str, ...],
                 seconds: float) -> Disagreement | None | str:
    """`check_program` in a forked child killed after `seconds`: `OVER_BUDGET` then. z3 may
    spend minutes in a single C call that neither its resource limit nor an interrupt stops
    (asserting nested `%` by symbolic divisors), so only a process bounds a program's time.
    The child works on a copy of the parent: the solver's caches do not carry over, so the
    one-time set-up of the checks (loading z3; deriving and compiling the shipped imp.sem for
    `derived`, 0.5 s) is done here first, once per process, not once per child."""
    if checks not in _SET_UP:
        solver.translate(Int(0))
        check_program(Skip(), [Env.of({})], solver, checks)
        _SET_UP.add(checks)

    def work() -> tuple[Disagreement | None, independence.Independence]:
        try:
            return check_program(p, sigmas, solver, checks), independence.take_counts()
        except BaseException as err:  # reported as a disagreement, with what went wrong
            return (Disagreement(f"{type(err).__name__} in the child", p, sigmas[0],
                                 str(err)[:200]), independence.take_counts())

    try:
        answered = within(seconds, work)
    except ChildFailed as err:  # an answer that would not pickle, or a child that died
        return Disagreement("the child failed", p, sigmas[0], str(err)[:200])
    if answered is not None:
        independence.counted(answered[1])  # the child's counts, as if counted here
    return OVER_BUDGET if answered is None else answered[0]


SIMPLEST: tuple[tuple[object, tuple[Node, ...]], ...] = (
    (Stmt, (Skip(),)), (AExpr, (Int(0), Int(1))), (BExpr, (Bool(True), Bool(False))),
    (Update, ()), (ArrayVar, ()))
"""Each syntactic sort with its simplest nodes, simplest first (an array write's update and
its array are made smaller inside only: `b = b` is no program)."""


def smaller(n: Node) -> Iterator[Node]:
    """Candidates one reduction smaller than `n`, biggest reductions first: the simplest nodes
    of its sort that come before it in `SIMPLEST`, its direct subterms of its own sort, and `n`
    with one direct subterm made smaller."""
    sort, simplest = next((sort, nodes) for sort, nodes in SIMPLEST if isinstance(n, sort))
    yield from simplest[:simplest.index(n)] if n in simplest else simplest
    kids = children(n)
    yield from (kid for kid in kids if isinstance(kid, sort))
    for i, kid in enumerate(kids):
        yield from (with_children(n, kids[:i] + (d,) + kids[i + 1:]) for d in smaller(kid))


def _smaller_inputs(sigma: Env) -> Iterator[Env]:
    for x, v in sigma.bindings:
        yield sigma.update(x, 0)
        if isinstance(v, Cells):  # an array: one cell fewer
            yield from (sigma.update(x, Cells.of(dict(v.cells[:i] + v.cells[i + 1:])))
                        for i in range(len(v.cells)))
        elif abs(v) > 1:
            yield sigma.update(x, v // 2 if v > 0 else -((-v) // 2))


def shrink(found: Disagreement, solver: Solver, seconds: float = 10.0,
           checks: tuple[str, ...] = DEFAULT_CHECKS) -> Disagreement:
    """Greedily minimise a disagreement's program and input while a disagreement of the same
    kind remains (delta debugging over the AST, one reduction at a time).

    :param seconds: the time budget; the smallest disagreement found so far is returned.
    """
    current = found
    deadline = time.perf_counter() + seconds
    progress = True
    while progress:
        progress = False
        candidates = [(cast(Stmt, q), current.input) for q in smaller(current.program)] + [
            (current.program, s) for s in _smaller_inputs(current.input)]
        for q, sigma in candidates:
            if time.perf_counter() > deadline:
                return current
            again = check_program(q, [Env.of({x: sigma(x) for x in inputs(q)})], solver, checks)
            if again is not None and again.kind == current.kind:
                current = again
                progress = True
                break
    return current


@dataclass(frozen=True)
class Report:
    """The campaign's result: how many programs were checked in how many seconds, and the
    disagreements: how many programs showed each kind, and the first of each kind as found and
    minimised (`shrink_seconds` in all were spent shrinking, not counted in `seconds`), and the
    independence oracle's counts (`oracle`, checking/independence.py)."""

    programs: int
    seconds: float
    counts: dict[str, int]
    found: dict[str, Disagreement]
    minimised: dict[str, Disagreement]
    shrink_seconds: float = 0.0
    over_budget: int = 0
    oracle: independence.Independence = field(default_factory=independence.Independence)

    @property
    def rate(self) -> float:
        """Programs checked per second."""
        return self.programs / self.seconds if self.seconds > 0 else 0.0

    @property
    def disagreement(self) -> Disagreement | None:
        """The first disagreement, minimised, or None."""
        return next(iter(self.minimised.values()), None)

    @property
    def original(self) -> Disagreement | None:
        """The first disagreement as found."""
        return next(iter(self.found.values()), None)


def campaign(programs: int | None, seed: int, seconds: float | None,
             checks: tuple[str, ...] = DEFAULT_CHECKS, keep_going: bool = False,
             inputs_per_program: int = 3, program_seconds: float | None = None,
             objects: bool = False) -> Report:
    """Check random programs until `programs` are done or `seconds` have passed.

    :param programs: how many programs at most (None: no limit).
    :param seed: the random seed: same seed, same programs.
    :param seconds: the time budget (None: no limit).
    :param checks: which checks of `CHECKS` to run.
    :param keep_going: go on after a disagreement (counting each kind, shrinking the first).
    :param inputs_per_program: random inputs per program.
    :param program_seconds: each program's checks run in a child process killed after this
        many seconds (`check_within`); such a program is counted in `over_budget`, not checked.
    :param objects: generate programs with objects (`OBJECT_SHAPE`).
    """
    shape = shape_of(checks, objects)
    oracle, _ = independence.Independence(), independence.take_counts()
    solver = Solver(references=OBJECT_SOLVER_REFERENCES if objects else frozenset())
    counts: dict[str, int] = {}
    found: dict[str, Disagreement] = {}
    minimised: dict[str, Disagreement] = {}
    shrinking = 0.0
    start = time.perf_counter()
    done = over = 0
    while (programs is None or done < programs) and (
            seconds is None or time.perf_counter() - start - shrinking < seconds):
        p, sigmas = numbered(seed, done, shape, inputs_per_program)
        outcome = (check_program(p, sigmas, solver, checks) if program_seconds is None
                   else check_within(p, sigmas, solver, checks, program_seconds))
        done += 1
        oracle.add(independence.take_counts())
        if isinstance(outcome, str):  # OVER_BUDGET
            over += 1
            continue
        disagreement = outcome
        if disagreement is None:
            continue
        counts[disagreement.kind] = counts.get(disagreement.kind, 0) + 1
        if disagreement.kind not in found:
            before = time.perf_counter()
            found[disagreement.kind] = disagreement
            minimised[disagreement.kind] = shrink(disagreement, solver, checks=checks)
            independence.take_counts()  # the shrinker's runs are not counted
            shrinking += time.perf_counter() - before
        if not keep_going:
            break
    return Report(done, time.perf_counter() - start - shrinking, counts, found, minimised,
                  shrinking, over, oracle)
