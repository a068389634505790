"""A few W properties under Hypothesis's CrossHair backend (`make crosshair`, own process).

Under that backend icontract's checks are no-ops, so each test asserts explicitly.
"""

from __future__ import annotations

import pytest
from hypothesis import given

from strategies import aexprs, bexprs, checks, envs, names, stores, sym_states
from symcert.engine.explore import expand
from symcert.spec.expansion import expand_complete, expand_sound

pytestmark = pytest.mark.crosshair_backend


@given(envs, stores(), names, aexprs)
def test_compositionality_crosshair(v, store, x, e):
    """W-L2.1 under the CrossHair backend."""
    assert checks().check_w_l2_1_compositionality(v, store, x, e)


@given(envs, stores(), aexprs, bexprs)
def test_substitution_crosshair(v, store, e, b):
    """B-L1 under the CrossHair backend."""
    assert checks().check_b_l1_substitution(v, store, e, b)


@given(sym_states)
def test_expand_crosshair(state):
    """W-T3.1 under the CrossHair backend."""
    result = expand(state)
    assert expand_sound(state, result) and expand_complete(state, result)


@given(sym_states, envs)
def test_one_step_soundness_crosshair(state, v):
    """W-L2.3 under the CrossHair backend."""
    assert checks().check_w_l2_3_one_step_soundness(state, v)
