"""The partitioned breadth-first exploration (engine/partition.py) is `run`'s: W-L3.1, W-T3.3,
W-T3.4 carry over. On generated programs, in parts that step by rounds and are rebalanced
between rounds, it yields `run`'s states in `run`'s order as the verdict reads them (each
failing state whole, models aside; any other by its depth and class), and `check` finds the
same bugs with the same verdict, with every bug and stopping at the first; a state lost on
hand-off, at the first split or at a rebalancing, is caught."""

from __future__ import annotations

from dataclasses import replace
from itertools import islice

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

import symcert.engine.partition as partition
from strategies import programs
from symcert.core.state import SymState, initial
from symcert.engine.explore import run
from symcert.engine.partition import Here, partitioned, stand_in
from symcert.engine.verdict import Budget, Check
from symcert.lang.parser import parse
from symcert.lang.syntax import Stmt
from symcert.solver.z3backend import Solver

PREFIX = 50
BUDGETS = (Budget(max_states=40, all_bugs=True), Budget(max_states=40))
LOPSIDED = parse("if x > 0 then skip else "
                 "if y > 0 then y = 1 else y = 2 fi; if z > 0 then y = y + 1 else skip fi; "
                 "if w > 0 then skip else y = 0 fi; assert y != 3 fi")


def seen(s: SymState | None) -> object:
    """What the verdict reads of a stream element (a failing state whole, models aside)."""
    return None if s is None else (s.depth, replace(stand_in(s), model=None))


def same_exploration(p: Stmt, parts: int, local: int = 1, round_states: int = 2) -> bool:
    """Whether `parts` parts explore `p` as `run` does: the same prefix of the stream as the
    verdict reads it, and `check` the same verdict, bugs and states explored."""
    explorer = partitioned(parts, Here, local, round_states)
    alone = [seen(s) for s in islice(run([initial(p)], solver=Solver()), PREFIX)]
    split = [seen(s) for s in islice(explorer([initial(p)], solver=Solver()), PREFIX)]
    if alone != split:
        return False
    for budget in BUDGETS:
        one = Check(p, budget).run()
        many = Check(p, budget, explorer=explorer).run()
        if ((one.kind, one.exhaustive, one.stats.states, one.bound)
                != (many.kind, many.exhaustive, many.stats.states, many.bound)
                or [replace(b.bug, model=None) for b in one.bugs]
                != [replace(b.bug, model=None) for b in many.bugs]):
            return False
    return True


def partitioned_is_run(p: Stmt, parts: int, local: int, round_states: int) -> None:
    """W-L3.1, W-T3.3, W-T3.4 for the partitioned strategy: the same states in the same order,
    the same end, and the same bugs and verdict as `run`, for 2 to 4 parts, handed out at
    levels of 1 to 4 states, in rounds of 1 to 8 states a part."""
    assert same_exploration(p, parts, local, round_states)


sizes = (st.integers(2, 4), st.integers(1, 4), st.integers(1, 8))


@settings(max_examples=6, deadline=None)
@given(programs, *sizes)
def test_partitioned_exploration_is_runs(p, parts, local, round_states):
    """`partitioned_is_run` on generated programs."""
    partitioned_is_run(p, parts, local, round_states)


def test_a_lopsided_tree_is_rebalanced(monkeypatch):
    """On a tree whose first branch ends at once, the part that holds it is given states of
    the other part's frontier, and the exploration is still `run`'s."""
    moved: list[list[list[tuple[int, int, int]]]] = []
    real = Here.regroup

    def counting(self, handles, how):  # type: ignore[no-untyped-def]
        moved.append(how)
        return real(self, handles, how)

    monkeypatch.setattr(Here, "regroup", counting)
    assert same_exploration(LOPSIDED, 2)
    assert moved and all(len(how) == 2 for how in moved)


@pytest.mark.parametrize("where, local", [("split", 4), ("cut", 2)])
def test_a_state_lost_on_hand_off_is_caught(monkeypatch, where, local):
    """A first split, or a rebalancing, that drops the last state it hands over: the
    comparison fails on a lopsided program, and the property finds such a program itself."""
    real = getattr(partition, where)

    def lossy(*args):  # type: ignore[no-untyped-def]
        made = real(*args)
        if where == "cut":
            return replace(made, states=made.states[:-1])
        last = max((i for i, m in enumerate(made) if m.states), default=0)
        return made[:last] + [replace(made[last], states=made[last].states[:-1])] + made[last + 1:]

    assert same_exploration(LOPSIDED, 2, local)
    monkeypatch.setattr(partition, where, lossy)
    assert not same_exploration(LOPSIDED, 2, local)
    finding = settings(max_examples=20, deadline=None, database=None, derandomize=True,
                       phases=(Phase.generate,))(  # no shrinking: finding one is enough
        given(programs, *sizes)(partitioned_is_run))
    with pytest.raises(AssertionError):  # and the property finds such a program itself
        finding()
