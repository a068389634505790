"""G-L1 (Lemma 1) and G-U1 (Cor. 1) by enumeration (`checking.matching`): every valuation `ρ`
with `ρ(l) = γ` is tried, so the matchers are counted from Def. 2 rather than computed the
engine's way or the positional way of `seed002.simulation`; planted wrong matchers and a kept
constant are caught. The configurations are those of symbolic paths of the generated IMP and
GCL programs of test_g_simulation.py."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from test_g_simulation import (
    IMP, SEM, _if_config, _lang, _symbolic_walk, _theta, programs_without_arrays,
)
from symcert.checking.matching import lifts, matchers, unique_matcher
from symcert.core.concrete import Env
from symcert.core.state import PathCondition
from symcert.lang.syntax import Cmp, Int, Var
from symcert.seed002.simulation import matcher

valuations = st.fixed_dictionaries({x: st.integers(-5, 5) for x in ("x", "y")})


@settings(max_examples=10)
@given(programs_without_arrays, st.lists(st.integers(0, 3), min_size=12, max_size=12), valuations)
def test_enumerated_matchers_are_unique_and_lift(named: tuple[str, str], picks: list[int],
                                                 values: dict[str, int]) -> None:
    """G-U1: at each configuration of a symbolic path, every rule of L^sym has at most one
    matcher, the engine's; G-L1: the matchers of `ϑ(γˢ)` are the `ϑ∘ρˢ` of those of `γˢ`."""
    name, text = named
    program = _lang(name).parse(text)
    sem = SEM[name]
    dsym = sem.symbolic.d
    theta = _theta(program, values)
    for cfg, _ in _symbolic_walk(name, program, picks):
        cells = cfg.cells[:sem.cells]
        for rule in dsym.rules:
            assert unique_matcher(dsym, rule, cells, matcher(sem, rule, cfg)), rule.label
            assert lifts(dsym, rule, cells, theta), rule.label


def _if_true() -> Any:
    return next(r for r in IMP.symbolic.rules if r.label == "if-true")


def test_a_wrong_matcher_is_caught() -> None:
    """A matcher with `S1` and `S2` swapped, one with an extra binding, and none where one
    exists, each disagree with the enumeration (G-U1)."""
    sem = SEM["imp"]
    gamma_s = _if_config(IMP.symbolic, Cmp(">", Var("y"), Int(3)), PathCondition.of())
    cells = gamma_s.cells[:sem.cells]
    rho = matcher(sem, _if_true(), gamma_s)
    assert rho is not None and len(matchers(IMP.symbolic, _if_true(), cells)) == 1
    assert unique_matcher(IMP.symbolic, _if_true(), cells, rho)
    assert not unique_matcher(IMP.symbolic, _if_true(), cells, dict(rho, S1=rho["S2"],
                                                                      S2=rho["S1"]))
    assert not unique_matcher(IMP.symbolic, _if_true(), cells, {**rho, "extra": Int(0)})
    assert not unique_matcher(IMP.symbolic, _if_true(), cells, None)


def test_a_kept_constant_breaks_the_lifting() -> None:
    """[if-true] derived with `true` kept in its left-hand side (its concrete rule) has no
    matcher on `if y > 3 then ...` but one on its valuation at y = 5 (G-L1); at y = 2 neither
    matches, which Lemma 1 allows."""
    concrete = next(r for r in IMP.concrete.rules if r.label == "if-true")
    kept_rule = replace(concrete, lhs=concrete.lhs + (None,), rhs=concrete.rhs + (None,))
    gamma_s = _if_config(IMP.symbolic, Cmp(">", Var("y"), Int(3)), PathCondition.of())
    cells = gamma_s.cells[:SEM["imp"].cells]
    assert not lifts(IMP.symbolic, kept_rule, cells, Env.of({"y": 5}))
    assert lifts(IMP.symbolic, kept_rule, cells, Env.of({"y": 2}))
    assert lifts(IMP.symbolic, _if_true(), cells, Env.of({"y": 5}))
