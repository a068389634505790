"""One step: W-T3.1 correct expansion, W-L2.2, W-L2.3, W-L2.5, W-F9 (seed 000 Sect. 2-3)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from strategies import checks, envs, programs, states_satisfied_by, sym_states
from symcert.core.concrete import State, beval, head, is_stuck, step
from symcert.core.state import initial, satisfies
from symcert.engine.explore import expand
from symcert.lang.syntax import Assume, Skip
from symcert.spec.definedness import defined
from symcert.spec.expansion import expand_complete, expand_sound


@given(sym_states)
def test_expand_is_the_step_relation(state):
    """W-T3.1: every successor is one `→sym` step (one step deeper, the path condition kept or
    split in two), one per applicable rule, none repeated; W-L2.3/W-L2.5 below tie them to the
    concrete semantics."""
    result = expand(state)
    assert expand_sound(state, result)
    assert expand_complete(state, result)


@given(programs, st.lists(st.integers(0, 1), max_size=12), envs)
def test_path_conditions_grow_monotonically(p, choices, v):
    """W-L2.2: along any `→*sym` path the path condition keeps its prefix, so `φ' ⊨ φ`."""
    path = [initial(p)]
    for c in choices:
        succ = expand(path[-1])
        if not succ:
            break
        path.append(succ[c % len(succ)])
    for i, a in enumerate(path):
        for b in path[i:]:
            assert b.pc.extends(a.pc)
            assert not satisfies(v, b.pc) or satisfies(v, a.pc)


@given(sym_states, envs)
def test_one_step_soundness(state, v):
    """W-L2.3: a successor whose path condition V satisfies is a concrete step of `V∘S`."""
    assert checks().check_w_l2_3_one_step_soundness(state, v)


@given(states_satisfied_by())
def test_one_step_completeness(state_v):
    """W-L2.5: the concrete step from a corresponding state corresponds to some successor."""
    state, v0 = state_v
    assert checks().check_w_l2_5_one_step_completeness(state, v0)


@given(programs, envs)
def test_stuck_means_fail(p, v):
    """W-F9, W-D2.5/2.6: stuck (no rule applies, not `skip`, not blocked by an `assume`, X-U1)
    iff the next statement is `fail`; an `assume` blocks exactly when its condition is false."""
    blocked = isinstance(head(p), Assume)
    assert is_stuck(p) == (p != Skip() and not blocked and step(State(v, p)) is None)
    if blocked:
        cond = defined(lambda: beval(v, head(p).cond))
        assert (step(State(v, p)) is None) == (cond is False)
