"""Exhaustiveness and precision as test oracles (seed 001, T-D2, T-D3, T-O1).

For a transition `(I, O)` and a concrete initial store `σ`:

- exhaustive at `σ` (T-D2): every `σ' ∈ concr(i, σ)`, `i ∈ I`, is in `concr(o, σ)` for some `o ∈ O`;
- precise at `σ` (T-D3): every `σ' ∈ concr(o, σ)`, `o ∈ O`, is in `concr(i, σ)` for some `i ∈ I`.

`check_exhaustiveness` / `check_precision` decide one `σ` and return a `Counterexample` or None;
`is_probably_exhaustive` / `is_probably_precise` try random stores (the seed's functions of the
same names). A run that exhausts its step budget proves nothing and is skipped, so the answer is
a counterexample only when every concretization involved was computed.
"""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass
from typing import Any, Callable

from symcert.checking.generate import RandomChoices, Shape, inputs_of
from symcert.checking.transitions import DEFAULT_FUEL, Transition, meanings, show
from symcert.core import heap
from symcert.core.concrete import Env, Final
from symcert.core.state import SymState, initial
from symcert.lang.procedures import arrays, references
from symcert.lang.structure import inputs
from symcert.lang.syntax import Stmt, is_field
from symcert.spec.switch import lemma


class Undecided(enum.Enum):
    """A check that could not decide: some concrete run exceeded its step budget."""

    FUEL = "fuel"


@dataclass(frozen=True, slots=True)
class Counterexample:
    """A concrete initial store on which a transition is not exhaustive (a final state is
    *missed* by every output) or not precise (an output has a *spurious* final state).

    `names` are the program's inputs and `kinds` its arrays and references (seed 003 §4-5), so
    that the input and the final state print with their arrays' cells and their heap, an
    all-0 array and an all-nil field included (an `Env` holds no binding for them)."""

    prop: str
    input: Env
    final: Final
    state: Any
    names: frozenset[str] = frozenset()
    kinds: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset())

    def __str__(self) -> str:
        store = shown(self.input, self.names, *self.kinds, what="inputs")
        final = shown(self.final.env, self.names, *self.kinds)
        if self.prop == "exhaustive":
            return (f"input {store}: the concrete run ends in {final} ({self.final.how()}), "
                    "which no output state represents")
        return (f"input {store}: output {show(self.state)} represents {final} "
                f"({self.final.how()}), which the concrete run never reaches")


def shown(env: Env, names: frozenset[str], arrays_: frozenset[str],
          references_: frozenset[str], what: str = "variables") -> str:
    """A store as a counterexample prints it, its bindings and `names`: `{x = 1, a[0] = 2}`,
    an all-0 array as `a[*] = 0`; with objects (seed 003 §4), the variables, then the heap
    they reach (`heap.graph`): `{p = @3} heap {@3 {next = nil}}`, `heap {}` when no object
    is reachable."""
    every = names | {k for k, _ in env.bindings}
    if any(is_field(x) for x in every) or references_:
        values, objects = heap.graph(env, every, references_)
        scalars, graph = heap.show(values, objects)
        return f"{{{scalars}}} heap {{{graph}}}"
    cells = env.labelled(sorted(every), arrays_)
    return "{" + ", ".join(f"{x} = {v}" for x, v in cells) + "}" if cells else \
        f"{{all {what} 0}}"


@dataclass(frozen=True, slots=True)
class Trials:
    """An oracle tried on several stores: the first counterexample, or how many stores were
    decided (tried minus those whose runs exceeded the step budget)."""

    counterexample: Counterexample | None
    tried: int
    decided: int


def _before_after(t: Transition, inputs_: tuple[SymState, ...], sigma: Env, fuel: int,
                  outputs: tuple[Any, ...] | None) -> tuple[list[Any], list[Any]] | None:
    """The meanings from `σ` of the inputs and of the outputs, None if an input's is unknown."""
    before = meanings(inputs_, sigma, fuel)
    if any(m is None for _, m in before):
        return None
    return before, meanings(t(inputs_) if outputs is None else outputs, sigma, fuel, t.meaning)


def _kinds(inputs_: tuple[SymState, ...]) -> tuple[frozenset[str],
                                                  tuple[frozenset[str], frozenset[str]]]:
    """The inputs of the states' programs, and their arrays and references (`Counterexample`)."""
    progs = [s.prog for s in inputs_]
    return (frozenset().union(*map(inputs, progs)),
            (frozenset().union(*map(arrays, progs)), frozenset().union(*map(references, progs))))


def check_exhaustiveness(t: Transition, inputs_: tuple[SymState, ...], sigma: Env,
                         fuel: int = DEFAULT_FUEL, outputs: tuple[Any, ...] | None = None,
                         ) -> Counterexample | Undecided | None:
    """Whether `t` is exhaustive at `σ`: None if it is, a counterexample if not, `Undecided` if a
    concretization exceeded `fuel`.

    :param t: the transition.
    :param inputs_: its input states `I`.
    :param sigma: the concrete initial store.
    :param outputs: `t(inputs_)` if already computed.
    """
    both = _before_after(t, inputs_, sigma, fuel, outputs)
    if both is None:
        return Undecided.FUEL
    before, after = both
    reached = frozenset().union(*(m for _, m in after if m is not None))
    undecided = any(m is None for _, m in after)
    for i, m in before:
        for final in m or ():
            if final not in reached:
                if undecided:
                    return Undecided.FUEL
                return Counterexample("exhaustive", sigma, final, i, *_kinds(inputs_))
    return None


def check_precision(t: Transition, inputs_: tuple[SymState, ...], sigma: Env,
                    fuel: int = DEFAULT_FUEL, outputs: tuple[Any, ...] | None = None,
                    ) -> Counterexample | Undecided | None:
    """Whether `t` is precise at `σ`: None if it is, a counterexample if not, `Undecided` if a
    concretization exceeded `fuel`.

    :param t: the transition.
    :param inputs_: its input states `I`.
    :param sigma: the concrete initial store.
    :param outputs: `t(inputs_)` if already computed.
    """
    both = _before_after(t, inputs_, sigma, fuel, outputs)
    if both is None:
        return Undecided.FUEL
    before, after = both
    reached = frozenset().union(*(m for _, m in before if m is not None))
    undecided = False
    for o, m in after:
        if m is None:
            undecided = True
            continue
        for final in m:
            if final not in reached:
                return Counterexample("precise", sigma, final, o, *_kinds(inputs_))
    return Undecided.FUEL if undecided else None


@lemma("T-D2", "T-O1")
def exhaustive_at(t: Transition, inputs_: tuple[SymState, ...], sigma: Env) -> bool:
    """No final state from `σ` is lost: `σ' ∈ concr(i, σ) ⇒ ∃o ∈ O. σ' ∈ concr(o, σ)` (T-D2 at
    one `σ`; a run beyond the step budget counts as no evidence against it)."""
    return not isinstance(check_exhaustiveness(t, inputs_, sigma), Counterexample)


@lemma("T-D3", "T-O1")
def precise_at(t: Transition, inputs_: tuple[SymState, ...], sigma: Env) -> bool:
    """No final state from `σ` is invented: `σ' ∈ concr(o, σ) ⇒ ∃i ∈ I. σ' ∈ concr(i, σ)` (T-D3
    at one `σ`)."""
    return not isinstance(check_precision(t, inputs_, sigma), Counterexample)


def random_input(names: frozenset[str], rng: random.Random, arrays: frozenset[str] = frozenset(),
                 references: frozenset[str] = frozenset()) -> Env:
    """A random store for `names`: integers in [-100, 100] (the seed's range), or in [-10, 10]
    half of the time, so that small guards and loop bounds are hit too; the arrays' cells and
    the input heap (`references`, fields' maps) as the campaign draws them (seed 003 §4-5:
    `generate.inputs_of`, a valid heap)."""
    bound = rng.choice((10, 100))
    return Env.of(inputs_of(RandomChoices(rng), Shape(value=bound), sorted(names), arrays,
                            references))


def _probably(check: Callable[..., Counterexample | Undecided | None], t: Transition, p: Stmt,
              runs: int, seed: int, fuel: int) -> Trials:
    rng = random.Random(seed)
    names, kinds = inputs(p), (arrays(p), references(p))
    start = (initial(p),)
    outputs = t(start)
    decided = 0
    for _ in range(runs):
        sigma = random_input(names, rng, *kinds)
        result = check(t, start, sigma, fuel, outputs)
        if isinstance(result, Counterexample):
            return Trials(result, runs, decided + 1)
        if result is None:
            decided += 1
    return Trials(None, runs, decided)


def is_probably_exhaustive(t: Transition, p: Stmt, runs: int = 10, seed: int = 0,
                           fuel: int = DEFAULT_FUEL) -> Trials:
    """Test T-D2 for `t` from `⟨true, id, p⟩` on `runs` random inputs (T-O1).

    :param t: the transition.
    :param p: the program counter of the input state.
    :param runs: how many random stores to try.
    :param seed: the random seed (same seed, same stores).
    """
    return _probably(check_exhaustiveness, t, p, runs, seed, fuel)


def is_probably_precise(t: Transition, p: Stmt, runs: int = 10, seed: int = 0,
                        fuel: int = DEFAULT_FUEL) -> Trials:
    """Test T-D3 for `t` from `⟨true, id, p⟩` on `runs` random inputs (T-O1).

    :param t: the transition.
    :param p: the program counter of the input state.
    :param runs: how many random stores to try.
    :param seed: the random seed.
    """
    return _probably(check_precision, t, p, runs, seed, fuel)
