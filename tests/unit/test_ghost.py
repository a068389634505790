"""Ghost interpretations travelling with the main engine's states (ghost.py, seed 004)."""

from __future__ import annotations

from dataclasses import replace
from itertools import islice
from pathlib import Path

import icontract
import pytest

from symcert.core.concrete import Env, State, trace
from symcert.core.state import initial
from symcert.engine.explore import Strategy, expand, run
from symcert.engine.ghost import (
    Interpretation,
    check_ghost_run,
    ghost_initial,
    ghost_interprets,
    ghost_over_approximates,
    ghost_run,
    ghost_under_approximates,
)
from symcert.lang.parser import parse
from symcert.lang.structure import variables
from symcert.lang.syntax import Var
from symcert.solver.z3backend import Solver

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
BRANCHY = parse("x = x + 1; if x > 3 then y = 1 else y = 2 fi; assert y == 1")
LOOP = parse("y = 0; while x > 0 do y = y + 2; x = x - 1 od; assert y != 4")
PROGRAMS = [BRANCHY, LOOP, parse((EXAMPLES / "gcd_buggy.imp").read_text()),
            parse((EXAMPLES / "min3.imp").read_text())]
INPUTS = [Env(), Env.of({"x": 2}), Env.of({"x": 5, "y": -3}), Env.of({"a": 6, "b": 4, "c": 1})]


@pytest.mark.parametrize("p", PROGRAMS, ids=range(len(PROGRAMS)))
@pytest.mark.parametrize("strategy", list(Strategy))
def test_ghosts_do_not_change_the_states(p: object, strategy: Strategy) -> None:
    """The stream with a ghost is the stream without one, state for state, depth for depth."""
    assert not isinstance(p, Env)
    plain = list(islice(run([initial(p)], strategy, Solver()), 120))
    for rho in INPUTS:
        ghosted = list(islice(run([ghost_initial(p, rho)], strategy, Solver()), 120))
        assert ghosted == plain
        assert [s.depth for s in ghosted if s] == [s.depth for s in plain if s]


def test_the_ghost_takes_the_concrete_branch() -> None:
    """After `x = x + 1; if x > 3`, input x = 5 follows the then-branch only; x = 1 the else."""
    for x, branch in ((5, 0), (1, 1)):
        s = ghost_initial(BRANCHY, Env.of({"x": x}))
        while len(children := expand(s)) == 1:
            s = children[0]
        assert [c.ghost is not None for c in children] == [branch == 0, branch == 1]


@pytest.mark.parametrize("p", PROGRAMS, ids=range(len(PROGRAMS)))
def test_ghost_states_are_the_concrete_trace(p: object) -> None:
    """BFS and DFS, with and without a solver: one ghost state per depth, concretizing to the
    concrete state of that step (M-P3, M-P4)."""
    assert not isinstance(p, Env)
    for rho in INPUTS:
        for strategy in Strategy:
            assert check_ghost_run(p, rho, 120, strategy) is None
        assert check_ghost_run(p, rho, 120, Strategy.BFS, Solver()) is None


def test_the_ghost_reaches_the_bug_the_input_triggers() -> None:
    """In LOOP, x = 2 makes y = 4: the ghost path ends in the failing assert, as concretely."""
    rho = Env.of({"x": 2})
    ghosts = [s for s in ghost_run(LOOP, rho, 400) if s.ghost is not None]
    final = list(trace(State(rho, LOOP), 100))[-1]
    assert ghosts[-1].prog == final.prog and str(final.prog) == "fail"
    assert len(ghosts) == len(list(trace(State(rho, LOOP), 100)))


def test_approximation_checks_can_fail() -> None:
    """A ghost state with a wrong store, a missing ghost state and a doubled one are reported."""
    rho = Env.of({"x": 5})
    names = variables(BRANCHY)
    states = ghost_run(BRANCHY, rho, 50)
    concrete = list(trace(State(rho, BRANCHY), 50))
    assert ghost_over_approximates(concrete, states, names) is None
    assert ghost_under_approximates(concrete, states, names) is None
    i = next(i for i, s in enumerate(states) if s.ghost is not None and s.store.bindings)
    bad = replace(states[i], store=states[i].store.update("x", Var("y")))
    wrong = states[:i] + [bad] + states[i + 1:]
    assert "concretizes" in (ghost_under_approximates(concrete, wrong, names) or "")
    assert "no matching" in (ghost_over_approximates(concrete, wrong, names) or "")
    lost = states[:i] + [replace(states[i], ghost=None)] + states[i + 1:]
    assert ghost_over_approximates(concrete, lost, names) is not None
    doubled = states + [replace(states[i], ghost=rho)]
    assert "two ghost states" in (ghost_under_approximates(concrete, doubled, names) or "")
    # The stream ended (50 > its length): the last concrete step, too, must have its ghost state.
    assert len(states) < 50 and ghost_over_approximates(concrete, states, names, True) is None
    last = max(j for j, s in enumerate(states) if s.ghost is not None)
    early = states[:last] + [replace(states[last], ghost=None)] + states[last + 1:]
    assert ghost_over_approximates(concrete, early, names) is None
    assert ghost_over_approximates(concrete, early, names, True) is not None


def test_ghost_state_invariant() -> None:
    """M-I1: a ghost state mentions only the inputs ρ interprets and ρ satisfies its condition."""
    names = variables(BRANCHY)
    s = ghost_initial(BRANCHY, Env.of({"x": 5}))
    while len(children := expand(s)) == 1:
        s = children[0]
    assert all(ghost_interprets(c, names) for c in children)
    off_path = replace(children[1], ghost=Env.of({"x": 5}))
    assert not ghost_interprets(off_path, names)
    assert not ghost_interprets(children[0], frozenset({"y"}))


def test_interpretations() -> None:
    """ρ is partial: zeros are bound, `extend` needs a fresh variable (M-F1), `⊑` compares."""
    rho = Interpretation.of({"x": 0})
    assert rho.dom() == frozenset({"x"}) and rho.as_env() == Env()
    rho2 = rho.extend("x#1", 3)
    assert rho2.extends(rho) and not rho.extends(rho2)
    assert not Interpretation.of({"x": 1}).extends(rho)
    assert rho2.eval(Var("x#1")) == 3
    with pytest.raises(KeyError):
        rho.eval(Var("y"))
    with pytest.raises(icontract.ViolationError, match="M-F1"):
        rho2.extend("x", 1)


def test_planted_engine_errors_are_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A ghost handed to both branches breaks M-I1 (contract) and M-P4 (checker); a wrong
    assignment rule fails the checker."""
    import symcert.engine.explore as explore
    import symcert.engine.ghost as ghost
    from symcert.lang.syntax import Add, Int

    rho = Env.of({"x": 2})
    assert check_ghost_run(LOOP, rho, 60) is None
    with monkeypatch.context() as m:
        m.setattr(explore, "_carry_ghost",
                  lambda parent, children: [replace(t, ghost=parent.ghost) for t in children])
        with pytest.raises(icontract.ViolationError, match="M-I1"):
            check_ghost_run(LOOP, rho, 60)
        m.setattr(ghost, "ghost_run", ghost.ghost_run.__wrapped__)  # the checker alone
        assert "two ghost states" in (check_ghost_run(LOOP, rho, 60) or "")
    real_update = explore.sym_update
    with monkeypatch.context() as m:
        m.setattr(explore, "sym_update", lambda store, x, e: real_update(store, x, Add(e, Int(1))))
        m.setattr(explore, "expand", explore.expand.__wrapped__)  # its contracts would object
        assert check_ghost_run(LOOP, rho, 60) is not None
