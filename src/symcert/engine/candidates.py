"""Candidate inputs replayed on the concrete semantics (Fig. 2): a bug found without a symbolic
path is a bug only by its concrete run (W-T3.5's replay, with no path to replay along).

Some phases of a check propose an input that may make the program fail without exploring a
path to the failure: a sampled concrete run (`verify.guesses.sample`), the counterexample of
the CHC solver (`solver.horn.Unsafe`), or the model of a failure on a path through the
invariant transition (T-I1: a havoc stands for more runs than there are). Such an input is a
`Candidate`. `replay` runs the program on it with the concrete interpreter
(`core.concrete.trace`, its loops accelerated by checked jumps: `acceleration.run`, T-A1)
within a step budget and a wall-clock limit: if the run ends stuck at a
`fail` (a failed assertion, a division by zero, a field of nil, an invariant or a precondition
that does not hold: every bug ending `run` reports), the candidate is a confirmed bug, a
`Witness` whose state is the concrete run's failing one and whose path condition is `true`
(none was computed: `found_by` says so); otherwise it is `Discarded`, and why. Nothing else
turns a candidate into a bug: a run that ends normally, is blocked by an `assume`, or outlives
the budget leaves the check as it was.

`shrink_replayed` makes a replayed witness's input smaller by concrete runs alone (input values
set to 0 a chunk at a time, then each halved towards 0, kept when the run still fails at the
same statement), within a budget of steps and seconds.
"""

from __future__ import annotations

import enum
import time
from dataclasses import dataclass, field

from symcert.core.concrete import Cells, Ending, Env, State, Value, final_of
from symcert.core.replays import ended
from symcert.core.state import ID, TRUE_PC, SymState
from symcert.engine.acceleration import run as accelerated
from symcert.engine.bugfinder import Witness
from symcert.lang.structure import inputs
from symcert.lang.syntax import Fail, Stmt

CHECK_EVERY = 4_096
"""Steps between two looks at the clock during a replay."""


class Source(enum.Enum):
    """Where a candidate input comes from (a witness's `found_by`)."""

    SAMPLING = "sampling"
    """A sampled concrete run (`verify.guesses.sample`)."""
    CHC = "chc"
    """The CHC solver's counterexample (`solver.horn.Unsafe`)."""
    ABSTRACTION = "abstraction"
    """A model of a failure on a path through the invariant transition (T-I1)."""

    def what(self) -> str:
        """The candidate's origin as a report says it."""
        return {Source.SAMPLING: "a sampled concrete run",
                Source.CHC: "the CHC solver's counterexample",
                Source.ABSTRACTION: "a failure on a path through a loop invariant"}[self]


@dataclass(frozen=True, slots=True)
class Candidate:
    """An input that may make the program fail, and where it comes from."""

    input: Env
    source: Source

    @staticmethod
    def of(p: Stmt, env: Env, source: Source) -> Candidate:
        """The candidate `env` restricted to the inputs of `p` (`structure.inputs`: the others
        are written before any read, so the run is the same)."""
        read = inputs(p)
        return Candidate(Env(tuple((x, v) for x, v in env.bindings if x in read)), source)


@dataclass(frozen=True, slots=True)
class Discarded:
    """A candidate that did not replay to a failure: its run ended normally, was blocked by an
    `assume`, or did not end within `steps` steps (`exhausted`; `last` is where it stopped, from
    which a later replay may go on: the run is deterministic)."""

    candidate: Candidate
    steps: int
    ending: Ending | None
    last: State | None = field(default=None, compare=False, repr=False)
    jumped: int = 0
    """How many of the `steps` the run took in checked jumps (`acceleration.run`)."""

    @property
    def exhausted(self) -> bool:
        """Whether the budget ran out before the run ended."""
        return self.ending is None

    def why(self) -> str:
        """The sentence for an undecided reason."""
        c = self.candidate
        start = f"the input {shown(c.input)} from {c.source.what()}"
        if self.ending is None:
            return (f"{start} runs {self.steps:,} concrete steps without failing: its replay "
                    "exceeds the step budget")
        how = "ends normally" if self.ending is Ending.NORMAL else "is blocked by an `assume`"
        return f"{start} does not replay to a failure: its concrete run {how} after " \
               f"{self.steps:,} steps (discarded)"


SHOWN = 6
"""The input values an undecided reason lists before it says how many there are."""


def shown(env: Env) -> str:
    """`env` as a reason shows it: `{x = 1, a[3] = -2}`, or its first values and their count."""
    values = env.labelled()
    if len(values) <= SHOWN:
        return env.show("inputs")
    return "{" + ", ".join(f"{x} = {v}" for x, v in values[:SHOWN - 2]) + \
        f", … ({len(values)} values)}}"


def replay(p: Stmt, candidate: Candidate, steps: int, until: float | None = None,
           resume: Discarded | None = None) -> Witness | Discarded:
    """The concrete run of `p` from the candidate's input: a witness if it ends stuck at a
    `fail`, else why not.

    :param steps: the most steps the run may take one at a time (from `resume`, if given);
        the jumps of accelerated loops come on top.
    :param until: a `time.perf_counter()` by which the replay stops (None: steps only).
    :param resume: an earlier replay of the same candidate that ran out of steps, to go on
        from where it stopped.
    """
    last = State(candidate.input, p) if resume is None or resume.last is None else resume.last
    jumped = 0 if resume is None else resume.jumped
    for now in accelerated(last, steps):
        jumped += now.steps - last.steps if now.steps - last.steps > 1 else 0
        last = now
        if until is not None and last.steps % CHECK_EVERY == 0 and time.perf_counter() > until:
            break
    if not ended(last, steps):
        return Discarded(candidate, last.steps, None, last, jumped)
    end = final_of(last)
    if end.ending is not Ending.FAIL:
        return Discarded(candidate, last.steps, end.ending, jumped=jumped)
    return Witness(SymState(TRUE_PC, ID, last.prog, last.steps), candidate.input, last, p,
                   found_by=candidate.source.value, jumped=jumped)


SHRINK_STEPS = 2_000_000
"""The concrete steps all the tries of `shrink_replayed` may take together."""

SHRINK_SECONDS = 1.0
"""The wall-clock seconds `shrink_replayed` may take."""


def shrink_replayed(found: Witness, steps: int = SHRINK_STEPS,
                    seconds: float = SHRINK_SECONDS) -> Witness:
    """`found` (a witness of `replay`) with a smaller input whose run still fails at the same
    statement, found by concrete runs alone: input values set to 0 a chunk at a time, halving
    the chunks (Zeller's ddmin, complements only), then each value left halved towards 0 while
    the run still fails there; `found` itself when nothing smaller replays within `steps`
    steps and `seconds`."""
    p = found.program
    assert p is not None and found.found_by is not None
    source = Source(found.found_by)
    began, spent, best = time.perf_counter(), 0, found

    def tried(env: Env) -> Witness | None:
        nonlocal spent
        got = replay(p, Candidate(env, source), 2 * best.final.steps + 1)
        spent += got.final.steps if isinstance(got, Witness) else got.steps
        return got if isinstance(got, Witness) and _same(got.failing, best.failing) else None

    def spent_up() -> bool:
        return spent + best.final.steps > steps or time.perf_counter() - began > seconds

    keys = _keys(found.input)
    chunk = max(len(keys) // 2, 1)
    while keys and not spent_up():
        i = 0
        while i < len(keys) and not spent_up():
            env = best.input
            for key in keys[i:i + chunk]:
                env = _set(env, key, 0)
            smaller = tried(env)
            if smaller is None:
                i += chunk
            else:
                best, keys = smaller, keys[:i] + keys[i + chunk:]
        if chunk == 1:
            break
        chunk //= 2
    for key in keys:
        value = _get(best.input, key)
        while abs(value) > 1 and not spent_up():
            half = value // 2 if value > 0 else -(-value // 2)
            smaller = tried(_set(best.input, key, half))
            if smaller is None:
                break
            best, value = smaller, half
    return best


def _same(a: Fail, b: Fail) -> bool:
    return a.pos == b.pos and a.by_zero == b.by_zero


Key = tuple[str, int | None]
"""An input value: a variable (index None) or an array's cell."""


def _keys(env: Env) -> list[Key]:
    out: list[Key] = []
    for x, v in env.bindings:
        out += [(x, i) for i, _ in v.cells] if isinstance(v, Cells) else [(x, None)]
    return out


def _get(env: Env, key: Key) -> int:
    v: Value = env(key[0])
    if key[1] is None:
        return v if isinstance(v, int) else 0
    return v(key[1]) if isinstance(v, Cells) else 0


def _set(env: Env, key: Key, value: int) -> Env:
    x, i = key
    if i is None:
        return env.update(x, value)
    old = env(x)
    return env.update(x, (old if isinstance(old, Cells) else Cells()).set(i, value))
