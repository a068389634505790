"""G-D3 (satisfaction, seed 002 §4.4) and G-P4 (strong precision, Lemma 4) by enumeration over a
box of valuations (`checking.enumeration`): no solver in the checker, the concrete semantics
of L the oracle; planted wrong satisfaction and a derivation without its `unsat` condition are
caught. The programs are the generated IMP and GCL programs of test_g_simulation.py."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from test_g_simulation import (
    IMP, SEM, SOLVER, _if_config, _lang, _planted, _symbolic_walk, _theta, linear_programs_without_arrays,
    programs,
)
from symcert.checking.enumeration import box_condition, satisfaction_agrees, strongly_precise
from symcert.core.concrete import Env
from symcert.core.state import PathCondition
from symcert.lang.syntax import Cmp, Int, Var
from symcert.seed002 import simulation
from symcert.seed002.rewrite import Config
from symcert.seed002.simulation import Semantics, valuate
from symcert.seed002.symbolic import sym_initial
from symcert.spec.definedness import defined

NAMES = ("x", "y")
BOUND = 3
picks = st.lists(st.integers(0, 3), min_size=10, max_size=10)
long_picks = st.lists(st.integers(0, 3), min_size=60, max_size=60)


@settings(max_examples=25)
@given(programs, picks, st.fixed_dictionaries({x: st.integers(-BOUND, BOUND) for x in NAMES}),
       st.integers(0, 10))
def test_satisfaction_agrees_with_its_definition_on_a_box(named: tuple[str, str],
                                                          choices: list[int],
                                                          values: dict[str, int],
                                                          other: int) -> None:
    """G-D3: for γ the valuation of a configuration of a symbolic path (or of another one of the
    path), every ϑ of [-3, 3]² satisfies the decided condition iff ϑ ⊨ φ and ϑ(γˢ) = γ."""
    name, text = named
    program = _lang(name).parse(text)
    sem = SEM[name]
    theta = _theta(program, values)
    walk = _symbolic_walk(name, program, choices)
    for cfg, _ in walk:
        for source in (cfg, walk[other % len(walk)][0]):
            gamma = defined(lambda source=source: valuate(sem, source, theta))
            assert gamma is None or satisfaction_agrees(sem, gamma, cfg, NAMES, BOUND)


def _boxed_walk(sem: Semantics, program: Any, choices: list[int]) -> list[Config]:
    """A path of L^sym from `⟨γˢ₀, -3 <= x, y <= 3⟩`, chosen by `choices`."""
    cfg = sym_initial(sem.symbolic.d, program)
    cfg = Config(cfg.cells[:sem.cells] + (box_condition(NAMES, BOUND),))
    out = [cfg]
    for c in choices:
        steps = sem.symbolic.step(cfg)
        if not steps:
            break
        cfg = steps[c % len(steps)].target
        out.append(cfg)
    return out


@settings(max_examples=50)
@given(linear_programs_without_arrays, long_picks)
def test_strong_precision_on_a_box(named: tuple[str, str], choices: list[int]) -> None:
    """G-P4: on linear programs whose symbolic values are bounded to [-3, 3] by the initial path
    condition (z3's `unsat` is then complete, and a satisfiable φ' has a model in the box),
    every step of L^sym along a path has a valuation of the box that takes it concretely."""
    name, text = named
    program = _lang(name).parse(text)
    sem = SEM[name]
    for cfg in _boxed_walk(sem, program, choices):
        assert strongly_precise(sem, cfg, NAMES, BOUND)


def test_satisfaction_without_its_equations_is_caught(monkeypatch: Any) -> None:
    """G-D3 planted wrong: a decided condition that is φ alone holds at valuations that do not
    value γˢ to γ."""
    sem = SEM["imp"]
    gamma_s = _if_config(IMP.symbolic, Cmp(">", Var("y"), Int(3)), PathCondition.of())
    gamma = valuate(sem, gamma_s, Env.of({"y": 2}))
    assert satisfaction_agrees(sem, gamma, gamma_s, ("y",), BOUND)
    monkeypatch.setattr(simulation, "instance_condition", lambda sem, g, g_s: g_s.cells[sem.cells])
    assert not satisfaction_agrees(sem, gamma, gamma_s, ("y",), BOUND)


def test_a_derivation_without_its_unsat_condition_is_caught() -> None:
    """G-P4 planted wrong: [if-false] without `¬unsat(ψ ∧ b)` steps from `y > 2` on `if y > 1`
    to the unsatisfiable `y > 2 ∧ ¬(y > 1)`: no valuation of the box takes it; the derived
    [if-false] does not step there."""
    dropped = _planted(IMP.symbolic, "if-false", cond=None)
    phi = box_condition(("y",), BOUND).extend(Cmp(">", Var("y"), Int(2)))
    cond = Cmp(">", Var("y"), Int(1))
    wrong = Semantics.of(IMP.concrete, dropped, SOLVER)
    assert not strongly_precise(wrong, _if_config(dropped, cond, phi), ("y",), BOUND)
    assert strongly_precise(SEM["imp"], _if_config(IMP.symbolic, cond, phi), ("y",), BOUND)
