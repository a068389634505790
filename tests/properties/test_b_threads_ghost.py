"""Ghost mode over every interleaving (engine/ghost_threads.py: seed 004's M-P3 and M-P4 for the
global step B-X1 to B-X4, `--por off`) on generated concurrent programs
(checking/generate_threads.py), from a generated input: every schedule's configuration is the
concretization of its ghost state, and every concrete step has its ghost successor; no solver."""

from __future__ import annotations

import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from symcert.checking import generate, generate_threads
from symcert.engine.ghost_threads import check_ghost_schedules
from symcert.lang.structure import inputs

sys.path.insert(0, str(Path(__file__).resolve().parent))
from strategies import generated  # noqa: E402

SHAPE = generate_threads.THREAD_SHAPE
"""The campaign's concurrent programs: two workers, two statements per part at most."""
DEPTH, PAIRS = 40, 400
"""Schedules of at most 40 steps, 400 pairs of a configuration and its ghost state at most."""


@st.composite
def programs_and_inputs(draw: st.DrawFn) -> tuple:
    p = draw(generated(generate_threads.program, SHAPE))
    sigma = draw(generated(lambda c, shape: generate.env(c, shape, sorted(inputs(p))), SHAPE))
    return p, sigma


@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
@given(programs_and_inputs())
def test_every_schedule_is_the_concretization_of_its_ghost_state(case):
    p, sigma = case
    found = check_ghost_schedules(p, sigma, DEPTH, PAIRS)
    assert found.miss is None
    assert found.pairs >= 1 and (found.complete or found.depth >= 3)
