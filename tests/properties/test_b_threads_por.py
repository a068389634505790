"""B-X5 and the global transition (B-X1 to B-X4) on generated concurrent programs
(checking/generate_threads.py): the campaign's checks `por` (the reduced exploration against the
full interleaving, `--por off`: the same failing statements and deadlocks, the same endings at
sampled inputs, every bug replayed) and `threads` (every concrete schedule's ending is a leaf's,
every leaf's model ends there under its schedule: seed 001's T-D2 and T-D3), run by Hypothesis;
and planted unsound reductions they catch."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import HealthCheck, example, given, settings

from symcert.checking import concurrency, generate_threads
from symcert.checking.generate import RandomChoices, env
from symcert.core.state import initial
from symcert.engine import por
from symcert.engine.explore import run
from symcert.lang.parser import parse
from symcert.lang.structure import inputs
from symcert.lang.syntax import Stmt
from symcert.solver.z3backend import Solver, solver_for

sys.path.insert(0, str(Path(__file__).resolve().parent))
from strategies import generated  # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "threads"
SMALL = replace(generate_threads.THREAD_SHAPE, leaves=1)
"""One statement per worker and per part of the main statement: explorations of a few dozen
states, so that both end within the budget below."""
LIMIT = 300
"""States per exploration here (the campaign's `concurrency.MAX_STATES` is larger)."""
WRITE_WRITE = """proc w0(k, t) begin x = 1 end
proc w1(k, t) begin x = 2 end
f0 = spawn w0(0, 0);
f1 = spawn w1(0, 0);
v = get f0;
v = get f1;
assert x == 2"""
"""The assertion fails only when `w1` writes `x` first."""


def agree(p: Stmt) -> bool:
    """Both checks of threads pass on `p` at an input drawn from a fixed seed."""
    import random

    sigmas = [env(RandomChoices(random.Random(0)), SMALL, sorted(inputs(p)))]
    solver = Solver()
    with mock.patch.object(concurrency, "MAX_STATES", LIMIT):
        return (concurrency.check_por(p, sigmas, solver) is None
                and concurrency.check_threads(p, sigmas, solver) is None)


@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
@given(generated(generate_threads.program, SMALL))
@example(parse(WRITE_WRITE))
def test_reduction_and_global_transition_agree_with_the_full_and_concrete_runs(p):
    assert agree(p)


@pytest.mark.parametrize("text, independent", [
    ((EXAMPLES / "counter_buggy.imp").read_text(), lambda a, b, pc=None: True),
    (WRITE_WRITE, lambda a, b, pc=None: not (a[1] & b[0] or b[1] & a[0])),
], ids=["every pair independent", "two writes of one variable independent"])
def test_the_property_catches_an_unsound_reduction(text, independent, monkeypatch):
    """With a wrong independence relation the checks above fail: the reduced run misses the
    lost update of the case study, and the write order of `WRITE_WRITE`."""
    p = parse(text)
    assert agree(p)
    monkeypatch.setattr(por, "independent", independent)
    assert not agree(p)


@pytest.mark.parametrize("reduce, states", [(True, 51), (False, 386)])
def test_the_reduction_explores_fewer_states_on_the_example(reduce, states):
    text = (EXAMPLES / "counter_buggy.imp").read_text()
    p = parse(text)
    with por.reducing(reduce):
        seen = sum(1 for _ in iter(run([initial(p)], solver=solver_for(p)).__next__, None))
    assert seen == states
