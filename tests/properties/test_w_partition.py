"""The partitioned breadth-first exploration (engine/partition.py) is `run`'s: W-L3.1, W-T3.3,
W-T3.4 carry over. On generated programs it yields the same states in the same order (models
aside: each worker's solver picks its own) and `check` with every bug finds the same bugs with
the same verdict; a partition that loses a state on hand-off is caught."""

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
from symcert.engine.partition import partitioned
from symcert.engine.verdict import Budget, Check
from symcert.lang.parser import parse
from symcert.lang.syntax import Stmt
from symcert.solver.z3backend import Solver

PREFIX = 50
BUDGET = Budget(max_states=40, all_bugs=True)


def _plain(s: SymState | None) -> SymState | None:
    return None if s is None else replace(s, model=None)


def same_exploration(p: Stmt, parts: int) -> bool:
    """Whether `parts` partitions explore `p` as `run` does: the same prefix of the stream, and
    `check` with every bug the same verdict, bugs and states explored."""
    alone = [_plain(s) for s in islice(run([initial(p)], solver=Solver()), PREFIX)]
    split = [_plain(s) for s in islice(partitioned(parts)([initial(p)], solver=Solver()),
                                       PREFIX)]
    if alone != split:
        return False
    one = Check(p, BUDGET).run()
    many = Check(p, BUDGET, explorer=partitioned(parts)).run()
    return ((one.kind, one.exhaustive, one.stats.states, one.bound)
            == (many.kind, many.exhaustive, many.stats.states, many.bound)
            and [_plain(b.bug) for b in one.bugs] == [_plain(b.bug) for b in many.bugs])


def partitioned_is_run(p: Stmt, parts: int) -> None:
    """W-L3.1, W-T3.3, W-T3.4 for the partitioned strategy: the same states in the same order,
    the same end, and the same bugs and verdict as `run`, for 2 and 3 partitions."""
    assert same_exploration(p, parts)


@settings(max_examples=8, deadline=None)
@given(programs, st.integers(2, 3))
def test_partitioned_exploration_is_runs(p, parts):
    """`partitioned_is_run` on generated programs."""
    partitioned_is_run(p, parts)


def test_a_state_lost_on_hand_off_is_caught(monkeypatch):
    """A split that drops the last state of a level of two or more: the comparison fails on a
    program with a branch, and the property finds such a program itself."""
    real = partition.split

    def lossy(states, parts):  # type: ignore[no-untyped-def]
        cut = real(states, parts)
        if len(states) < 2:
            return cut
        return cut[:-1] + [replace(cut[-1], states=cut[-1].states[:-1])]

    p = parse("if x > 0 then y = 1 else y = 2 fi; if z > 0 then skip else skip fi; "
              "assert y == 1")
    assert same_exploration(p, 2)
    monkeypatch.setattr(partition, "split", lossy)
    assert not same_exploration(p, 2)
    finding = settings(max_examples=20, deadline=None, database=None, derandomize=True,
                       phases=(Phase.generate,))(  # no shrinking: finding one is enough
        given(programs, st.integers(2, 3))(partitioned_is_run))
    with pytest.raises(AssertionError):  # and the property finds such a program itself
        finding()
