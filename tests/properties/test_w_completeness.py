"""Completeness: W-T2.3 / W-L2.6 with W-L3.1's BFS index bound; DFS breaks W-L3.1."""

from __future__ import annotations

from itertools import islice

from hypothesis import given
from hypothesis import strategies as st

from strategies import envs, programs
from symcert.core.concrete import Env, State, step
from symcert.core.state import initial
from symcert.engine.explore import Strategy, expand, run, run_n
from symcert.lang.parser import parse
from symcert.spec.expansion import bfs_complete, bfs_successor_bound, corresponds

K = 5


@given(programs, envs)
def test_bfs_reaches_every_concrete_state_within_bound(p, v0):
    """W-T2.3, W-L2.6: each concrete state within K steps of `⟨V0, p⟩` corresponds to a state
    of the breadth-first stream, found no later than W-L3.1's bound `i + |queue| + 2` after
    the state its predecessor corresponds to."""
    result = run_n([initial(p)], 3 ** (K + 1) // 2 + 1)  # up to 3 successors a step (X-A2)
    assert bfs_complete(p, v0, K, result, expand)


@given(programs, st.integers(1, 120))
def test_bfs_successor_bound(p, n):
    """W-L3.1, W-T3.4: in breadth-first order, a direct successor of the state at index `i`
    appears at index at most `i + |queue| + 2`."""
    assert bfs_successor_bound([initial(p)], True, False, run_n([initial(p)], n), expand)


# The kept counterexample: depth-first search dives into the loop forever and never yields
# the loop's exit, the successor of index 0 that W-L3.1 requires by index 2.
DFS_COUNTEREXAMPLE = "while 0 < x do x = x - 1 od; y = 1"


def test_dfs_violates_successor_bound():
    """W-L3.1 fails for depth-first search (counterexample kept): the exit of a loop, a direct
    successor of the initial state, never appears, though `x = 0` reaches it in one step."""
    p = parse(DFS_COUNTEREXAMPLE)
    l = [initial(p)]
    dfs = run_n(l, 150, Strategy.DFS)
    bfs = run_n(l, 150, Strategy.BFS)
    assert not bfs_successor_bound(l, True, False, dfs, expand)
    assert bfs_successor_bound(l, True, False, bfs, expand)
    v0 = Env()
    after_exit = step(State(v0, p))
    assert after_exit is not None
    assert not any(s is not None and corresponds(after_exit, v0, s) for s in dfs)
    assert any(s is not None and corresponds(after_exit, v0, s) for s in bfs[:3])


@given(programs, st.integers(0, 60), st.sampled_from(list(Strategy)))
def test_run_matches_run_n(p, n, strategy):
    """`run` and its eager twin `run_n` agree on every prefix (WiSE's `run_run_n`)."""
    assert list(islice(run([initial(p)], strategy), n)) == run_n([initial(p)], n, strategy)
