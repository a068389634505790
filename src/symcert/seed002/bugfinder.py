"""The bug finder on a language defined by rewrite rules (seed 002 §6.3, with §5's simulations).

A *bug* is a concrete configuration that is stuck (no rule of `L` applies) with a construct
marked `bug` on top of its `k` cell: `fail`, or an `assert` that has no rule for `false`, as in
§6.3. Symbolic execution explores `L^sym` from `⟨γˢ, true⟩` (breadth-first by default, with a
worklist); at each symbolic configuration `⟨γˢ, φ⟩` whose `k` starts with a `bug` construct it
asks whether some instance is stuck. The matchers are unique (Cor. 1), so an instance `ϑ(γˢ)`
steps along `α` iff `α^sym`'s left-hand side matches `γˢ` with `ρˢ` and `ϑ ⊨ ρˢ(b_α)` (Lemmas 2
and 3); the instances that are stuck are the models of

    φ ∧ ⋀ { ¬ρˢ(b_α) | α^sym matches γˢ }        (none when an unconditional rule matches).

A model `ϑ` of that formula gives the input; the *concrete* rules of `L`, run from the input
along the same rule labels `β` (Cor. 3, weak precision), must reach a stuck configuration with
the `bug` construct on top, or the bug is not reported (`ReplayMismatch`: an engine error).

Verdicts, as `symcert run`'s (`engine.verdict`): BUG for a replayed bug; SAFE only when every
path ended within the budget and every stuck-instance formula was UNSAT; UNDECIDED otherwise
(the state budget ran out, or the solver answered UNKNOWN on such a formula: UNKNOWN never
becomes a verdict; `unsat` counts UNKNOWN as satisfiable, so no path is dropped, Remark 1).
"""

from __future__ import annotations

import os
import time
from collections import deque
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from symcert.core.concrete import Env, Value
from symcert.core.state import PathCondition, witness_input
from symcert.core.terms import TERMS
from symcert.engine.explore import Strategy
from symcert.engine.verdict import (
    Cause, Kind, Observer, Quiet, Reason, solver_unknown, well_formed,
)
from symcert.lang.errors import EXIT_BUG, EXIT_OK, EXIT_UNDECIDED, LimitError, SymcertError
from symcert.lang.parser import parse as parse_imp
from symcert.lang.syntax import Bool
from symcert.seed002.definition import Definition, DefinitionError
from symcert.seed002.derive import derive
from symcert.seed002.notation import show
from symcert.seed002.rewrite import Config, Context, Engine, initial, program_ids
from symcert.seed002.semfile import find_language, load, parse_program
from symcert.seed002.symbolic import Trail, labels_of, sym_initial
from symcert.seed002.terms import App, subterms
from symcert.solver.z3backend import Sat, Solver, solver_for

__all__ = ["Language", "LangBudget", "LangBug", "LangCheck", "LangVerdict", "ReplayMismatch",
           "check", "input_range", "replay", "stuck_condition"]


@dataclass(frozen=True)
class Language:
    """A language `L`, its derived `L^sym` (§4.3) and what counts as a bug in it."""

    concrete: Definition
    symbolic: Definition

    @staticmethod
    def of(d: Definition) -> Language:
        """`L` and `derive(L)`.

        :raises DefinitionError: when no production is marked `bug` (nothing could be found).
        """
        if not d.bug_labels:
            raise DefinitionError(d.filename, 1, 1, "no production is marked `bug`: a bug is a "
                                  "configuration stuck with a `bug` construct on top of `k` "
                                  "(mark `fail` or `assert`, as in the shipped imp.sem)", "")
        return Language(d, derive(d))

    @staticmethod
    def load(name: str | os.PathLike[str]) -> Language:
        """The language of a `.sem` file, or a shipped one by name (`imp`, `gcl`)."""
        return Language.of(load(find_language(os.fspath(name))))

    @cached_property
    def engine(self) -> Engine:
        """The rewrite engine of `L`'s rules, compiled once."""
        return Engine(self.concrete)

    @cached_property
    def symbolic_engine(self) -> Engine:
        """The rewrite engine of `L^sym`'s rules, compiled once, without a solver (a check
        gives it one: `Engine.with_solver`)."""
        return Engine(self.symbolic)

    def parse(self, text: str, filename: str = "<input>",
              max_size: int | None = None) -> Any:
        """A program of the language; `max_size` bounds its number of nodes (a LimitError).

        :raises ParseError: at the line and column of a syntax error.
        """
        term = parse_program(self.concrete, text, filename)
        if max_size is not None:
            for size, _ in enumerate(subterms(term), 1):
                if size > max_size:
                    raise LimitError(filename, 1, 1, f"the program has more than {max_size:,} "
                                     "nodes; raise the limit with --max-program-size N", "")
        return term


@dataclass(frozen=True, slots=True)
class LangBug:
    """A confirmed bug: the input (a model `ϑ` of `condition` on the program's identifiers and
    the arrays the formula reads, a field's map `.f` included, an array's cells those the
    formula reads, others 0: `core.state.witness_input`), the rule labels `β` of the path,
    the symbolic configuration where it was found, and the concrete stuck configuration that
    the replay along `β` reached, its `failing` construct on top of `k`."""

    inputs: tuple[tuple[str, Value], ...]
    labels: tuple[str, ...]
    condition: PathCondition
    symbolic: Config
    final: Config
    failing: App

    def input(self, name: str) -> Value:
        """The input value of `name` (0 when the model leaves it free)."""
        return dict(self.inputs).get(name, 0)

    @property
    def env(self) -> Env:
        """The input as an environment."""
        return Env.of(dict(self.inputs))

    def describe(self, d: Definition) -> str:
        """`stuck at `fail` after rule [assert-false]`."""
        last = f" after rule [{self.labels[-1]}]" if self.labels else ""
        return f"stuck at `{show(d, self.failing)}`{last}"


@dataclass(frozen=True, slots=True)
class LangBudget:
    """What one check may spend: symbolic configurations expanded, the search order, and
    whether to go on after the first bug (each computation `k` stuck after a rule reported
    once: the same assertion in every turn of a loop is one bug)."""

    max_states: int = 100_000
    strategy: Strategy = Strategy.BFS
    all_bugs: bool = False


@dataclass(frozen=True)
class LangVerdict:
    """The answer on one program, as `engine.verdict.Verdict`'s: kind, exhaustiveness, the
    confirmed bugs, the reason when undecided, and what the check spent."""

    kind: Kind
    exhaustive: bool
    states: int
    seconds: float
    bugs: tuple[LangBug, ...] = ()
    reason: Reason | None = None
    solver_queries: int = 0
    solver_seconds: float = 0.0

    def __post_init__(self) -> None:
        well_formed(self.kind, self.bugs, self.reason, self.exhaustive)

    @property
    def exit_code(self) -> int:
        """0 safe, 1 bug, 3 undecided."""
        return {Kind.SAFE: EXIT_OK, Kind.BUG: EXIT_BUG, Kind.UNDECIDED: EXIT_UNDECIDED}[self.kind]


class ReplayMismatch(AssertionError):
    """The concrete replay of a model did not reach the stuck configuration: an engine bug."""


def stuck_condition(lang: Language, engine: Engine, cfg: Config) -> PathCondition | None:
    """The formula whose models `ϑ` make `ϑ(γˢ)` stuck: `φ ∧ ⋀ ¬ρˢ(b_α)` over the rules whose
    left-hand side matches `γˢ` (module docstring); None when no instance is stuck (an
    unconditional rule matches, or two conditions are complementary)."""
    k = cfg.cells[engine.k]
    cnd = len(lang.concrete.cells)
    phi = cfg.cells[cnd]
    if k is None:
        return None
    conditions: list[Any] = []
    cells = cfg.cells[:cnd]
    for rule in engine.candidates(k):
        rho = engine.matches(rule, cells)
        if rho is None:
            continue
        if rule.cond is None:
            return None
        b = engine.build(rule.rhs[cnd].args[1], rho, Context(engine.solver, engine.models))
        if isinstance(b, Bool):
            if b.value:
                return None
            continue
        conditions.append(b)
    for i, c in enumerate(conditions):
        negated = TERMS.not_(c)
        if any(negated == other for other in conditions[i + 1:]):
            return None
    for c in conditions:
        phi = phi.extend(TERMS.not_(c))
    return phi


def replay(lang: Language, program: Any, inputs: dict[str, Value],
           labels: tuple[str, ...]) -> Config | None:
    """Run `L`'s concrete rules from the input along `β = labels` (one transition per label:
    a rule has at most one matcher, Cor. 1); None when a label's rule does not apply."""
    engine = lang.engine
    cfg = initial(lang.concrete, program, inputs)
    for label in labels:
        nxt = next((t.target for t in engine.step(cfg) if t.label == label), None)
        if nxt is None:
            return None
        cfg = nxt
    return cfg


@dataclass
class LangCheck:
    """One check of `program` in `lang` under way (as `engine.verdict.Check`): `run` gives the
    verdict, `stopped(reason)` the verdict so far when the caller interrupted `run`."""

    lang: Language
    program: Any
    budget: LangBudget = LangBudget()
    solver: Solver = field(default_factory=Solver)
    start: float = field(default_factory=time.perf_counter)
    states: int = field(default=0, init=False)
    bugs: list[LangBug] = field(default_factory=list, init=False)
    unconfirmed: int = field(default=0, init=False)

    def run(self, observer: Observer = Quiet()) -> LangVerdict:
        """Explore `L^sym` until every path ended, the budget ran out or (unless `all_bugs`)
        a bug was confirmed."""
        dsym = self.lang.symbolic
        engine = self.lang.symbolic_engine.with_solver(self.solver)
        bug_labels = dsym.bug_labels
        todo: deque[tuple[Config, Trail | None]] = deque(
            [(sym_initial(dsym, self.program), None)])
        take = todo.pop if self.budget.strategy is Strategy.DFS else todo.popleft
        reported: set[tuple[str, str]] = set()  # shown `k` and last label
        observer.phase("exploring")
        while todo:
            if self.states >= self.budget.max_states:
                return self._verdict(False, Reason(
                    Cause.STATES, f"the state budget ({self.budget.max_states:,} states) ran out"))
            cfg, trail = take()
            self.states += 1
            k = cfg.cells[engine.k]
            if k is not None and isinstance(k.head, App) and k.head.label in bug_labels:
                found = self._stuck(engine, cfg, trail, observer)
                if found is not None:
                    key = (show(dsym, k), found.labels[-1] if found.labels else "")
                    if key not in reported:
                        reported.add(key)
                        observer.phase("reporting a bug")
                        observer.confirmed(found, self.states)
                        self.bugs.append(found)
                        if not self.budget.all_bugs:
                            return self._verdict(False, None)
                    observer.phase("exploring")
            for t in engine.step(cfg):
                todo.append((t.target, Trail(t.label, trail)))
            observer.explored(self.states, len(todo))
        return self._verdict(True, None)

    def _stuck(self, engine: Engine, cfg: Config, trail: Trail | None,
               observer: Observer) -> LangBug | None:
        """The confirmed bug at `cfg`, if an instance of it is stuck; an UNKNOWN answer counts
        as unconfirmed."""
        formula = stuck_condition(self.lang, engine, cfg)
        if formula is None:
            return None
        observer.phase("replaying a bug")
        answer, model = self.solver.check(formula)
        if answer is Sat.UNSAT:
            return None
        if answer is not Sat.SAT or model is None:
            self.unconfirmed += 1
            return None
        chosen = witness_input(model, formula)
        inputs = {**{x: chosen(x) for x in program_ids(self.program)}, **dict(chosen.bindings)}
        labels = labels_of(trail)
        final = replay(self.lang, self.program, inputs, labels)
        head = _head(self.lang.concrete, final)
        if final is None or head is None or head.label not in self.lang.concrete.bug_labels \
                or self.lang.engine.step(final):
            raise ReplayMismatch(f"input {inputs} along the {len(labels)} rules of the symbolic "
                                 f"path does not reach a stuck `{show(self.lang.symbolic, head)}`")
        return LangBug(tuple(sorted(inputs.items())), labels, formula, cfg, final, head)

    def stopped(self, reason: Reason) -> LangVerdict:
        """The verdict when the caller interrupted `run` for `reason` (time or memory)."""
        return self._verdict(False, reason)

    def _verdict(self, exhaustive: bool, stopped: Reason | None) -> LangVerdict:
        seconds = time.perf_counter() - self.start
        stats = self.solver.stats
        spent = dict(states=self.states, seconds=seconds, solver_queries=stats.queries,
                     solver_seconds=stats.z3_seconds)
        if self.bugs:
            return LangVerdict(Kind.BUG, exhaustive, bugs=tuple(self.bugs), **spent)
        if exhaustive and not self.unconfirmed:
            return LangVerdict(Kind.SAFE, True, **spent)
        reason = stopped if stopped is not None else solver_unknown(self.unconfirmed)
        return LangVerdict(Kind.UNDECIDED, exhaustive, reason=reason, **spent)


def _head(d: Definition, cfg: Config | None) -> App | None:
    """The constructor on top of `k`, if any."""
    if cfg is None:
        return None
    k = cfg.cells[d.cell_index["k"]]
    return k.head if k is not None and isinstance(k.head, App) else None


def input_range(text: str) -> Solver:
    """A solver for the program `text` whose input references range over nil and the input
    objects (seed 003 §4, B-T4), as `symcert run`'s (`solver_for`): a `.sem` file declares no
    kinds, so symcert's IMP says which names are references (`lang.objects`); none when `text`
    is not an IMP program (another language's)."""
    try:
        return solver_for(parse_imp(text))
    except SymcertError:
        return Solver()


def check(lang: Language, program: Any, budget: LangBudget = LangBudget(),
          solver: Solver | None = None) -> LangVerdict:
    """Find a bug in `program` with an input that triggers it, or prove it safe (module
    docstring), within `budget`.

    :param lang: the language (`Language.load("imp")`).
    :param program: a program term (`lang.parse(text)`).
    """
    return LangCheck(lang, program, budget, solver if solver is not None else Solver()).run()

