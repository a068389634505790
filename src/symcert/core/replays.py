"""A concrete run in lockstep with a symbolic path, its quantifiers' values bounded (X-Q1): the
replays that confirm a bug (W-T3.5, T-M1) count statements as the path's depth does, and a
quantifier's values apart, up to `REPLAY_VALUES`."""

from __future__ import annotations

from typing import Iterator

from symcert.core.concrete import Metered, OutOfSteps, State, metered, step

REPLAY_VALUES = 1_000_000
"""The values of quantifiers' ranges a bug's replay may evaluate (X-Q1): a replay that needs
more confirms nothing (the bug stays unconfirmed, the verdict undecided)."""


def run_steps(state: State, steps: int, values: int) -> State | None:
    """The state after at most `steps` steps from `state`, the steps a symbolic path counts
    (a replay in lockstep, W-T3.5), its quantifiers evaluating at most `values` values in all
    (X-Q1); None when they need more."""
    meter = Metered(values)
    try:
        for _ in range(steps):
            nxt = metered(state, meter)
            if nxt is None:
                break
            state = nxt
    except OutOfSteps:
        return None
    return state


def ended(state: State, fuel: int) -> bool:
    """Whether no rule applies to `state` (its run ended), judged within `fuel` quantifier
    values: a statement that needs more is not ended (its step is beyond the budget)."""
    try:
        return step(state, fuel) is None
    except OutOfSteps:
        return False


def lockstep(state: State, steps: int) -> Iterator[State]:
    """The concrete run from `state`, the start included, at most `steps` statements long,
    a quantifier's values unbounded: what the lemmas compare with a symbolic path's states."""
    yield state
    for _ in range(steps):
        nxt = step(state)
        if nxt is None:
            return
        state = nxt
        yield state
