"""The verdict on a program: a bug, safe, or undecided and why (seed 000, Figs. 8–10).

`check(p, budget)` runs the bug finder `find_bugs` (Fig. 8) within a `Budget` and turns its
stream of status messages into a `Verdict`, by the policy of Fig. 10 made total:

- BUG only for a `BugFound` whose path condition has a model that replays concretely to the
  failing `fail`/`assert` (`bugfinder.witness`, W-T3.5): never a false alarm;
- SAFE only when the stream reached `Finished` (the exploration was exhaustive, W-T3.7; the
  stream prunes a state only when its path condition is UNSAT) and every `BugFound` was decided:
  never a false "safe" (W-T3.8);
- UNDECIDED otherwise, with the `Reason`: the state budget ran out, the solver answered UNKNOWN
  for a path condition leading to `fail` (UNKNOWN is never turned into a bug nor into safe), or,
  for a caller that interrupts the check (the CLI's `--timeout`), time or memory ran out.

A `Check` is one check under way: `run` gives its verdict, and `stopped(reason)` the verdict so
far when the caller interrupted `run` (bugs confirmed before the interruption still count).
"""

from __future__ import annotations

import enum
import time
from dataclasses import dataclass, field, replace
from typing import Protocol

from symcert.core.frames import MAX_CALL_DEPTH
from symcert.engine.bugfinder import Witness, find_bugs, witness
from symcert.engine.explore import Explorer, RunStats, Strategy, run
from symcert.core.concrete import Env, head
from symcert.core.state import SymState
from symcert.engine.contracts import blame, summarised
from symcert.engine.invariants import Unproved, abstract, confirm
from symcert.engine.merge import MERGE, Merging
from symcert.engine.shrink import shrink
from symcert.engine.status import Answer, BugFound, Finished
from symcert.lang.errors import EXIT_BUG, EXIT_OK, EXIT_UNDECIDED, plural
from symcert.lang.syntax import Stmt, While
from symcert.solver.z3backend import Solver, solver_for
from symcert.spec.bugs import has_bug_sound
from symcert.spec.switch import CONTRACTS, icontract


@dataclass(frozen=True, slots=True)
class Budget:
    """What one check may spend. There is no loop limit: `run` unrolls a loop as long as its
    path stays feasible, so the state budget bounds loops too. Wall-clock time is the caller's
    to bound (the CLI's `--timeout`); `Check.stopped` turns it into a verdict.

    :param max_states: how many symbolic states may be explored (0 explores none).
    :param strategy: the search order: BFS (the paper's; finds every reachable bug) or DFS.
    :param all_bugs: keep exploring after the first bug; each failing statement is reported once.
    :param max_call_depth: how deep calls may nest on a path (seed 003 §3: recursion is
        unbounded in the semantics); a deeper path is cut, and the check is then not exhaustive.
    :param shrink: report the smallest input found that replays to the bug (`engine.shrink`),
        not the solver's first model.
    """

    max_states: int = 100_000
    strategy: Strategy = Strategy.BFS
    all_bugs: bool = False
    max_call_depth: int = MAX_CALL_DEPTH
    shrink: bool = True

    def __post_init__(self) -> None:
        if self.max_states < 0:
            raise ValueError(f"max_states must be >= 0, not {self.max_states}")


class Kind(enum.Enum):
    """The three answers; each maps to an exit code of the CLI (`Verdict.exit_code`)."""

    BUG = "bug"
    SAFE = "safe"
    UNDECIDED = "undecided"


class Cause(enum.Enum):
    """What left a check undecided."""

    STATES = "states"
    """The state budget (`Budget.max_states`) ran out."""
    SOLVER = "solver"
    """The solver answered UNKNOWN for a path condition leading to `fail`."""
    TIME = "time"
    """The caller's time budget ran out."""
    MEMORY = "memory"
    """Memory ran out."""
    CALL_DEPTH = "call depth"
    """A path's calls nested deeper than `Budget.max_call_depth`: it was cut."""
    INVARIANT = "invariant"
    """A check failed on a path through the invariant transition (T-I1) and no concrete run
    replays it: the invariant is not preserved, or too weak for what follows the loop."""
    CONTRACT = "contract"
    """A check failed on a path through the contract transition (T-S1) or in the verification
    of a contracted body, and no concrete run replays it: a postcondition is not established,
    or the contracts are too weak for what follows a call."""


@dataclass(frozen=True, slots=True)
class Reason:
    """Why a check is undecided: the cause, and a sentence for a user."""

    cause: Cause
    message: str

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True, slots=True)
class Stats:
    """What a check spent.

    :param states: the symbolic states explored.
    :param frontier: the states still waiting when the check stopped (0 when exhaustive).
    :param pruned: the successors dropped because their path condition is UNSAT.
    :param unknown: the path conditions the solver could not decide (those states were kept).
    :param seconds: the wall-clock time of the exploration.
    :param solver_queries: the path conditions that went to the solver.
    :param solver_seconds: the time spent in the solver.
    """

    states: int = 0
    frontier: int = 0
    pruned: int = 0
    unknown: int = 0
    seconds: float = 0.0
    solver_queries: int = 0
    solver_seconds: float = 0.0


def well_formed(kind: Kind, bugs: tuple[object, ...], reason: Reason | None,
                exhaustive: bool) -> None:
    """A verdict's invariants (what a user may rely on): BUG carries a confirmed bug and only
    it, UNDECIDED a reason and only it, SAFE an exhaustive exploration.

    :raises ValueError: naming the broken one.
    """
    if (kind is Kind.BUG) != bool(bugs):
        raise ValueError("a BUG verdict needs a confirmed bug, and only it has one")
    if (kind is Kind.UNDECIDED) != (reason is not None):
        raise ValueError("an UNDECIDED verdict needs a reason, and only it has one")
    if kind is Kind.SAFE and not exhaustive:
        raise ValueError("a SAFE verdict needs an exhaustive exploration")


@dataclass(frozen=True, slots=True)
class Bound:
    """The bounded claim of an undecided breadth-first check (T-B1): no assertion fails on any
    path of at most `steps` steps (every state that deep was explored, each failing one
    decided UNSAT), and what the exploration spent its states on (`consumers`: a loop by its
    position, the calls of a procedure by its name, with their states, most first)."""

    steps: int
    consumers: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True, slots=True)
class Attempt:
    """One method a check tried and how it ended, for an undecided verdict to name
    (docs/inference.md): the `method` (`METHODS`), its `outcome` in a word or two, and what it
    spent (`detail`)."""

    method: str
    outcome: str
    detail: str = ""

    def __str__(self) -> str:
        spent = f" ({self.detail})" if self.detail else ""
        return f"{METHODS.get(self.method, self.method)}{spent}: {self.outcome}"


METHODS = {
    "exploration": "exploration",
    "probe": "the probe's exploration",
    "sampling": "sampled concrete runs",
    "replay": "the replay of candidate inputs",
    "spacer": "z3's Spacer",
    "guesses": "invariants guessed from concrete runs",
    "contract guesses": "contracts guessed from concrete calls",
    "annotated": "exploration with the proposed annotations",
    "unrolled": "exploration from the entry with loops unrolled and calls inlined",
}
"""The methods an `Attempt` names, as a report says them."""


def explored(method: str, verdict: Verdict) -> Attempt:
    """How an exploration (`method`: `exploration`, `probe`, ...) that gave `verdict` ended."""
    reason = verdict.reason
    outcome = ("bug" if verdict.kind is Kind.BUG else "exhaustive, no failure"
               if verdict.kind is Kind.SAFE else OUTCOMES[reason.cause] if reason else "?")
    return Attempt(method, outcome, plural(verdict.stats.states, "state"))


OUTCOMES = {
    Cause.STATES: "state budget ran out", Cause.SOLVER: "solver answered unknown",
    Cause.TIME: "stopped: time ran out", Cause.MEMORY: "stopped: memory ran out",
    Cause.CALL_DEPTH: "call depth budget cut paths",
    Cause.INVARIANT: "a failure through an invariant did not replay",
    Cause.CONTRACT: "a failure through a contract did not replay",
}


@dataclass(frozen=True)
class Verdict:
    """The answer on one program.

    :param kind: BUG, SAFE or UNDECIDED.
    :param exhaustive: whether every reachable state was explored.
    :param budget: the budget the check had.
    :param stats: what the check spent.
    :param bugs: the confirmed bugs, in the order found (one unless `budget.all_bugs`); each
        carries its input and the concrete run that reaches the failing statement.
    :param reason: why the check is undecided (None unless UNDECIDED).
    """

    kind: Kind
    exhaustive: bool
    budget: Budget
    stats: Stats
    bugs: tuple[Witness, ...] = ()
    reason: Reason | None = None
    bound: Bound | None = None
    summaries: tuple[str, ...] = ()
    """The procedures whose calls were summarised by their contracts (T-S1)."""
    tried: tuple[Attempt, ...] = ()
    """Each method the check tried, in order, and how it ended."""

    def __post_init__(self) -> None:
        well_formed(self.kind, self.bugs, self.reason, self.exhaustive)

    @property
    def witness(self) -> Witness | None:
        """The first confirmed bug, if any."""
        return self.bugs[0] if self.bugs else None

    @property
    def exit_code(self) -> int:
        """The CLI's exit code: 0 safe, 1 bug, 3 undecided."""
        return {Kind.SAFE: EXIT_OK, Kind.BUG: EXIT_BUG, Kind.UNDECIDED: EXIT_UNDECIDED}[self.kind]


def state_budget_ran_out(budget: Budget) -> Reason:
    """The reason of a check whose state budget ran out."""
    return Reason(Cause.STATES, f"the state budget ({budget.max_states:,} states) ran out")


def call_depth_ran_out(budget: Budget, paths: int) -> Reason:
    """The reason of a check that cut `paths` paths whose calls nested too deep."""
    return Reason(Cause.CALL_DEPTH, f"the call depth budget ({budget.max_call_depth:,} nested "
                  f"calls) cut {plural(paths, 'path')}: recursion deeper than that was not "
                  "explored")


def solver_unknown(count: int, solver: object = None) -> Reason:
    """The reason of an exhaustive check with `count` undecided path conditions to `fail`;
    with the `solver`'s queries stopped at their deadline (`Solver.deadline`), if any."""
    stats = getattr(solver, "stats", None)
    stopped = getattr(stats, "deadlines", 0)
    late = (f" (z3 ran past the per-query deadline of {getattr(solver, 'deadline', 0):g} s "
            f"on {stopped} quer{'y' if stopped == 1 else 'ies'}, stopped in a child process)"
            if stopped else "")
    return Reason(Cause.SOLVER,
                  f"the solver could not decide {plural(count, 'path condition')} leading to "
                  "`fail`"
                  + late)


class Observer(Protocol):
    """What a caller sees while a check runs. The CLI's observer shows progress, prints each bug
    when it is confirmed, and names the phase in which a deadline struck."""

    def phase(self, name: str) -> None:
        """The check now does `name`: "exploring", "replaying a bug" or "reporting a bug"."""

    def explored(self, states: int, frontier: int) -> None:
        """`states` states were explored; `frontier` wait."""

    def confirmed(self, found: Witness, states: int) -> None:
        """A bug was confirmed after `states` states; it counts once this returns."""


class Quiet:
    """The observer that sees nothing."""

    def phase(self, name: str) -> None:
        pass

    def explored(self, states: int, frontier: int) -> None:
        pass

    def confirmed(self, found: Witness, states: int) -> None:
        pass


def decide(budget: Budget, stats: Stats, bugs: tuple[Witness, ...], exhaustive: bool,
           stopped: Reason | None, unconfirmed: int, solver: object = None) -> Verdict:
    """The verdict policy: BUG for a confirmed bug; SAFE when exhaustive and every path to
    `fail` was decided (UNSAT); otherwise UNDECIDED, for the reason exploration `stopped` or,
    when it did not stop early, for the `unconfirmed` paths the solver could not decide.

    :param bugs: the bugs confirmed by replay.
    :param exhaustive: whether the stream finished.
    :param stopped: why the exploration stopped early, unless it stopped at a bug.
    :param unconfirmed: the paths to `fail` on which the solver answered UNKNOWN.
    :param solver: the solver, whose queries stopped at their deadline the reason names.
    """
    if bugs:  # exhaustive: no path left undecided beside the bugs
        return Verdict(Kind.BUG, exhaustive and not unconfirmed and stopped is None, budget,
                       stats, bugs)
    if exhaustive and not unconfirmed and stopped is None:
        return Verdict(Kind.SAFE, True, budget, stats)
    reason = stopped if stopped is not None else solver_unknown(unconfirmed, solver)
    return Verdict(Kind.UNDECIDED, exhaustive, budget, stats, reason=reason)


def measure(states: int, progress: RunStats, solver: Solver, start: float) -> Stats:
    """The statistics of an exploration that began at `start` (`time.perf_counter`), with the
    queries of `solver` and of the workers' (`progress`); a solver that keeps no `stats` (a stub
    answering `check` only, as CrossHair's plugin has) counts 0."""
    asked = getattr(solver, "stats", None)
    return Stats(states, progress.frontier, progress.pruned, progress.unknown,
                 time.perf_counter() - start, (asked.queries if asked else 0) + progress.queries,
                 (asked.z3_seconds if asked else 0.0) + progress.solver_seconds)


@dataclass
class Check:
    """One check of `program` under way.

    :param program: the program.
    :param budget: what the check may spend.
    :param solver: prunes UNSAT states and gives the models of bugs (default: `solver_for`
        the program, whose references range over nil and the input objects).
    :param start: when the check began (`time.perf_counter()`), for `Stats.seconds`.
    """

    program: Stmt
    budget: Budget = Budget()
    solver: Solver = None  # type: ignore[assignment]
    start: float = field(default_factory=time.perf_counter)
    explorer: Explorer = run
    """`run`, or a strategy with its signature (`partition.partitioned`)."""
    progress: RunStats = field(default_factory=RunStats, init=False)
    states: int = field(default=0, init=False)
    bugs: list[Witness] = field(default_factory=list, init=False)
    unconfirmed: int = field(default=0, init=False)
    unproved: Reason | None = field(default=None, init=False)
    depth: int = field(default=0, init=False)
    """The depth of the last state explored (BFS explores them by depth)."""
    spent: dict[str, int] = field(default_factory=dict, init=False)
    """The states explored at the head of each loop and in each procedure."""
    abstracted: bool = field(default=False, init=False)
    """Whether a state on a path through the invariant transition was explored."""
    candidates: list[Env] = field(default_factory=list, init=False)
    """The inputs of failures on abstract paths whose replay did not fail there (`Unproved`):
    candidates for a longer replay (`engine.candidates`)."""

    def __post_init__(self) -> None:
        if self.solver is None:
            self.solver = solver_for(self.program)

    def run(self, observer: Observer = Quiet()) -> Verdict:
        """Explore until the stream finishes, the budget runs out or (unless `all_bugs`) a bug is
        confirmed; return the verdict."""
        reported: set[tuple[int, int]] = set()
        observer.phase("exploring")
        for status in find_bugs(self.program, self.budget.strategy, self.solver, self.progress,
                                self.budget.max_call_depth, self.explorer):
            if isinstance(status, Finished) and self.progress.too_deep:
                return self._verdict(exhaustive=False, stopped=call_depth_ran_out(
                    self.budget, self.progress.too_deep))
            if isinstance(status, Finished):
                return self._verdict(exhaustive=True, stopped=None)
            if self.states >= self.budget.max_states:
                return self._verdict(exhaustive=False, stopped=state_budget_ran_out(self.budget))
            self.states += 1
            self._count(status.state)
            if isinstance(status, BugFound):
                observer.phase("replaying a bug")
                found = self._confirm(status)
                if found is None:
                    self.unconfirmed += 1
                elif _where(found) not in reported:
                    reported.add(_where(found))
                    observer.phase("reporting a bug")
                    observer.confirmed(found, self.states)
                    self.bugs.append(found)
                    if not self.budget.all_bugs:
                        return self._verdict(exhaustive=False, stopped=None)
                observer.phase("exploring")
            observer.explored(self.states, self.progress.frontier)
        raise AssertionError("find_bugs is an infinite stream")

    def _count(self, s: SymState) -> None:
        """Count `s` for the bounded claim (T-B1)."""
        self.depth = s.depth
        self.abstracted = self.abstracted or abstract(s)
        first = head(s.prog)
        if isinstance(first, While) and first.pos is not None:
            where = f"the loop at {first.pos.line}:{first.pos.column}"
            self.spent[where] = self.spent.get(where, 0) + 1
        elif s.frame is not None:
            where = f"calls of {s.frame.proc.name}"
            self.spent[where] = self.spent.get(where, 0) + 1

    def _bound(self, verdict: Verdict) -> Verdict:
        """`verdict` with the bounded claim where it holds: an undecided BFS check that stopped
        for its state or time budget, with nothing cut, undecided or abstracted on the way."""
        reason = verdict.reason
        if (reason is None or reason.cause not in (Cause.STATES, Cause.TIME)
                or self.budget.strategy is not Strategy.BFS or self.unconfirmed
                or self.progress.too_deep or self.abstracted or self.depth < 1
                or MERGE.get() is not Merging.OFF):  # merging explores out of depth order
            return verdict
        top = sorted(self.spent.items(), key=lambda kv: (-kv[1], kv[0]))[:3]
        return replace(verdict, bound=Bound(self.depth - 1, tuple(top)))

    def _confirm(self, bug: BugFound) -> Witness | None:
        """`witness` for a concrete path; on an abstract one (T-I1) a replayed run, or the
        invariant's fault recorded in `unproved` (None either way when not a bug)."""
        if not abstract(bug.state):
            found = witness(self.program, bug, self.solver)
            return (shrink(found, self.solver, program=self.program)
                    if found and self.budget.shrink else found)
        found = confirm(self.program, bug.state, self.solver)
        if isinstance(found, Unproved):
            self.unproved = weightier(self.unproved, blamed(bug.state, found, self.solver))
            self.candidates.append(found.input)
            return None
        if found is None:
            self.unconfirmed += 1
            return None
        return Witness(replace(bug.state, prog=found[1].prog), found[0], found[1],
                       self.program)

    def stopped(self, reason: Reason) -> Verdict:
        """The verdict when the caller interrupted `run` for `reason` (time or memory)."""
        return self._verdict(exhaustive=False, stopped=reason)

    def _verdict(self, exhaustive: bool, stopped: Reason | None) -> Verdict:
        stats = measure(self.states, self.progress, self.solver, self.start)
        stopped = self.unproved if stopped is None and not self.bugs else stopped
        verdict = replace(self._bound(decide(self.budget, stats, tuple(self.bugs), exhaustive,
                                             stopped, self.unconfirmed, self.solver)),
                          summaries=summarised(self.program))
        return replace(verdict, tried=(explored("exploration", verdict),))


def blamed(s: SymState, found: Unproved, solver: Solver) -> Reason:
    """The reason of an undecided check at a failure on an abstract path that no run replays:
    an invariant's fault (T-I1) or a contract's (T-S1)."""
    contract, message = blame(s, found, solver)
    return Reason(Cause.CONTRACT if contract else Cause.INVARIANT, message)


def weightier(old: Reason | None, new: Reason) -> Reason:
    """The reason to report of two failures no run replays: the first, unless only the new one
    is about an annotation itself (an invariant not preserved, a body that does not meet its
    contract), of which the other, a check too weak downstream, may be a consequence."""
    if old is None or (not _about_annotation(old) and _about_annotation(new)):
        return new
    return old


def _about_annotation(r: Reason) -> bool:
    return r.message.startswith(("postcondition of", "in the body of", "invariant `"))


def _where(found: Witness) -> tuple[int, int]:
    """The line and column of the failing statement ((0, 0) if it has no position)."""
    pos = found.failing.pos
    return (pos.line, pos.column) if pos else (0, 0)


def check(program: Stmt, budget: Budget = Budget(), solver: Solver | None = None) -> Verdict:
    """Find a bug in `program` with an input that triggers it, or prove it safe, within `budget`.

    :param program: the program (from `parse` or `parse_file`).
    :param budget: the state budget, the search order, and whether to look for every bug.
    :param solver: the solver (a default z3 one if None).
    :return: BUG with replayed witnesses, SAFE after an exhaustive exploration, or UNDECIDED
        with the reason.
    """
    return Check(program, budget, solver if solver is not None else solver_for(program)).run()


@icontract.require(lambda max_states: max_states >= 0, enabled=CONTRACTS)
@icontract.ensure(has_bug_sound, "W-T3.8 T-soundness (never a false YES)", enabled=CONTRACTS)
def has_bug(p: Stmt, max_states: int, solver: Solver | None = None) -> Answer:
    """T-sound bug detection (Fig. 10): YES only for a replayed bug, NO only when exhaustive;
    the kind of `check`'s verdict.

    :param p: the program.
    :param max_states: how many states may be explored; when they run out the answer is UNKNOWN.
    :param solver: the solver (a default z3 one if None).
    """
    kind = check(p, Budget(max_states), solver).kind
    return {Kind.BUG: Answer.YES, Kind.SAFE: Answer.NO, Kind.UNDECIDED: Answer.UNKNOWN}[kind]
