"""Seed 002 §5 on generated programs of IMP (symcert's generator, printed and read by the
derived parser) and of the guarded commands (a small generator here): G-L1 matching lifts,
G-U1 unique matchers, G-L2/G-C2 forward simulation and coverage, G-L3/G-C3 backward simulation
and precision; the seed's counterexample to precision from forward simulation alone; and planted
wrong derivations, each caught by one of these predicates."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from icontract import ViolationError

from strategies import checks, generated
from symcert.checking import generate
from symcert.core.concrete import Cells, Env, Value
from symcert.core.state import PathCondition
from symcert.lang.procedures import show_program
from symcert.lang.syntax import Cmp, Int, Var
from symcert.seed002.bugfinder import Language
from symcert.seed002.definition import Definition
from symcert.seed002.rewrite import Config, program_ids
from symcert.seed002.simulation import (
    Semantics, backward_simulation, coverage, forward_simulation, holds, instance_condition,
    matcher, matcher_unique, matching_lifts, precision, satisfaction, strong_precision, valuate,
)
from symcert.seed002 import simulation
from symcert.seed002.symbolic import sym_initial
from symcert.seed002.terms import App, Id, MapValue, kseq
from symcert.solver.z3backend import Sat, Solver
from symcert.spec.definedness import defined

IMP = Language.load("imp")
GCL = Language.load("gcl")
SOLVER = Solver()
SEM = {"imp": Semantics.of(IMP.concrete, IMP.symbolic, SOLVER),
       "gcl": Semantics.of(GCL.concrete, GCL.symbolic, SOLVER)}
STEPS = 40

IMP_SHAPE = generate.Shape(names=("x", "y"), literal=3, value=5, aexpr_depth=2, bexpr_depth=1,
                           stmt_depth=2, leaves=4, loop_depth=1, procedures=1, call_depth=1,
                           arrays=("b",))
"""IMP programs with a procedure (seed 003 §3) and an array `b` (seed 003 §5)."""
imp_texts = generated(lambda c, s: show_program(generate.program(c, s)), IMP_SHAPE)
imp_texts_without_arrays = generated(lambda c, s: show_program(generate.program(c, s)),
                                     replace(IMP_SHAPE, arrays=()))

# --- a small generator of guarded-command programs ----------------------------------------

NAMES = ("x", "y")


def _aexp(depth: int) -> st.SearchStrategy[str]:
    leaf = st.one_of(st.integers(-3, 3).map(lambda n: f"({n})" if n < 0 else str(n)),
                     st.sampled_from(NAMES))
    if depth == 0:
        return leaf
    sub = _aexp(depth - 1)
    return st.one_of(leaf, st.tuples(sub, st.sampled_from("+-*"), sub).map(
        lambda t: f"({t[0]} {t[1]} {t[2]})"), sub.map(lambda a: f"(- {a})"))


def _bexp() -> st.SearchStrategy[str]:
    cmp = st.tuples(_aexp(1), st.sampled_from(["<", "<=", ">", ">=", "==", "!="]), _aexp(1)) \
        .map(lambda t: f"{t[0]} {t[1]} {t[2]}")
    return st.one_of(cmp, st.sampled_from(["true", "false"]), cmp.map(lambda b: f"not ({b})"),
                     st.tuples(cmp, st.sampled_from(["and", "or"]), cmp).map(
                         lambda t: f"({t[0]}) {t[1]} ({t[2]})"))


def _stmt(depth: int) -> st.SearchStrategy[str]:
    leaf = st.one_of(st.just("skip"), st.just("abort"),
                     st.tuples(st.sampled_from(NAMES), _aexp(2)).map(lambda t: f"{t[0]} := {t[1]}"),
                     _bexp().map(lambda b: f"assert {b}"))
    if depth == 0:
        return leaf
    sub = _stmt(depth - 1)
    guarded = st.lists(st.tuples(_bexp(), sub).map(lambda t: f"{t[0]} -> {t[1]}"),
                       min_size=1, max_size=3).map(" [] ".join)
    return st.one_of(leaf, st.tuples(sub, sub).map(lambda t: f"{t[0]}; {t[1]}"),
                     guarded.map(lambda g: f"if {g} fi"), guarded.map(lambda g: f"do {g} od"))


gcl_texts = _stmt(2)
programs = st.one_of(st.tuples(st.just("imp"), imp_texts), st.tuples(st.just("gcl"), gcl_texts))
programs_without_arrays = st.one_of(st.tuples(st.just("imp"), imp_texts_without_arrays),
                                    st.tuples(st.just("gcl"), gcl_texts))
"""For G-D3: `instance_condition` has no equation for an array's equality."""
def _linear(named: tuple[str, str]) -> tuple[str, str]:
    """The program with `*`, `/` and `%` made `+`: linear integer arithmetic, decided by z3."""
    return named[0], " + ".join(" + ".join(" + ".join(part.split(" % ")).split(" / "))
                                for part in named[1].split(" * "))


linear_programs = programs.map(_linear)
linear_programs_without_arrays = programs_without_arrays.map(_linear)
"""For the oracles by enumeration (checking.enumeration), which value no array."""
valuations = st.fixed_dictionaries({
    "x": st.integers(-5, 5), "y": st.integers(-5, 5),
    "b": st.dictionaries(st.sampled_from(generate.CELLS), st.integers(-5, 5)).map(Cells.of)})
choices = st.lists(st.integers(0, 3), min_size=STEPS, max_size=STEPS)


def _lang(name: str) -> Language:
    return IMP if name == "imp" else GCL


def _symbolic_walk(name: str, program: Any, picks: list[int]) -> list[tuple[Config, tuple[str, ...]]]:
    """The configurations (and labels so far) of one path of `L^sym`, chosen by `picks`."""
    sem = SEM[name]
    cfg, labels = sym_initial(_lang(name).symbolic, program), ()
    out = [(cfg, labels)]
    for c in picks:
        steps = sem.symbolic.step(cfg)
        if not steps:
            break
        t = steps[c % len(steps)]
        cfg, labels = t.target, labels + (t.label,)
        out.append((cfg, labels))
    return out


def _theta(program: Any, values: dict[str, Value]) -> Env:
    return Env.of({x: values.get(x, 0) for x in program_ids(program)})


@given(programs, choices, valuations)
@example(("imp", "x = 0 / x"), [0] * STEPS, {"x": 0, "y": 0})  # ϑ(0 / x) undefined at x = 0
def test_matching_lifts_and_matchers_are_unique(named, picks, values):
    """G-L1 (Lemma 1) and G-U1 (Cor. 1): on the configurations of a symbolic path, each rule of
    L^sym matches γˢ iff it matches ϑ(γˢ), with ρ = ϑ∘ρˢ, and its matcher is the forced one."""
    name, text = named
    program = _lang(name).parse(text)
    sem = SEM[name]
    theta = _theta(program, values)
    for cfg, _ in _symbolic_walk(name, program, picks[:STEPS // 2]):
        for rule in sem.symbolic.d.rules:
            assert matching_lifts(sem, rule, cfg, theta), rule.label
            assert matcher_unique(sem, rule, cfg, matcher(sem, rule, cfg)), rule.label


@given(programs, choices, valuations)
def test_forward_simulation_and_coverage(named, picks, values):
    """G-L2 (Lemma 2) at each configuration of a concrete run, and G-C2 (Cor. 2) along it:
    every concrete step has a symbolic step along the same rule whose condition ϑ satisfies."""
    name, text = named
    program = _lang(name).parse(text)
    sem = SEM[name]
    theta = _theta(program, values)
    assert coverage(sem, program, theta, picks)
    for cfg, _ in _symbolic_walk(name, program, picks):
        assert forward_simulation(sem, cfg, theta)


@given(programs, choices)
def test_backward_simulation_and_precision(named, picks):
    """G-L3 (Lemma 3) at each configuration of a symbolic path, and G-C3 (Cor. 3/4) for the
    path: a model of the last path condition runs concretely along the same rules to ϑ(γ'ˢ)."""
    name, text = named
    program = _lang(name).parse(text)
    sem = SEM[name]
    walk = _symbolic_walk(name, program, picks)
    for cfg, _ in walk:
        assert backward_simulation(sem, cfg, SOLVER)
    final, labels = walk[-1]
    assert precision(sem, program, labels, final, SOLVER)


@given(linear_programs, choices)
def test_strong_precision_on_linear_programs(named, picks):
    """G-P4 (Lemma 4, Cor. 4): on linear programs the solver decides every path condition, and
    each step of L^sym from a satisfiable configuration of a symbolic path has a satisfiable
    successor with a concrete instance along the same rule."""
    name, text = named
    program = _lang(name).parse(text)
    for cfg, _ in _symbolic_walk(name, program, picks):
        assert strong_precision(SEM[name], cfg, SOLVER)


@given(programs_without_arrays, choices, valuations, st.integers(0, STEPS))
def test_satisfaction_decided_agrees_with_its_definition(named, picks, values, other):
    """G-D3: for γ = ϑ(γˢ) (a witness when ϑ ⊨ φ) and for γ the valuation of another
    configuration of the path, a model of `instance_condition` is a ϑ' with ϑ'(γˢ) = γ and
    ϑ' ⊨ φ, and an UNSAT one means ϑ was no witness."""
    name, text = named
    program = _lang(name).parse(text)
    sem = SEM[name]
    theta = _theta(program, values)
    walk = _symbolic_walk(name, program, picks[:STEPS // 2])
    for cfg, _ in walk:  # ϑ(γ) is undefined where ϑ divides a datum by zero (X-A2)
        for gamma in (defined(lambda: valuate(sem, cfg, theta)),
                      defined(lambda: valuate(sem, walk[other % len(walk)][0], theta))):
            assert gamma is None or satisfaction(sem, gamma, cfg, theta, SOLVER)


# --- the seed's counterexample and planted wrong derivations --------------------------------


CND = len(IMP.concrete.cells)
"""The place of the path condition in a configuration of IMP^sym."""


def _if_config(d: Definition, cond: Any, phi: PathCondition) -> Config:
    """⟨⟨if cond then x = 1 else skip fi⟩k ⟨y ↦ y⟩env ⋯ ⟨φ⟩cnd⟩ (seed 002 §5's example; the
    other cells as a program starts)."""
    branch = App("_=_", (Id("x"), Int(1)))
    k = kseq([App("if_then_else_fi", (cond, branch, App("skip")))])
    rest = sym_initial(IMP.symbolic, App("skip")).cells[2:CND]
    return Config((k, MapValue((("x", Int(0)), ("y", Var("y")))), *rest, phi))


def test_forward_simulation_alone_does_not_give_precision():
    """Seed 002 §5: γ ⊨ ⟨γˢ, φ⟩ with ϑ(y) = 5 and ⟨γˢ, φ⟩ ⇒[if-false] ⟨γ'ˢ, φ'⟩ (φ' satisfiable),
    yet γ's only step is [if-true]: the converse of Lemma 2 is false. Lemma 3 still holds: a
    model of φ' gives another γ that takes [if-false]."""
    sem = SEM["imp"]
    gamma_s = _if_config(IMP.symbolic, Cmp(">", Var("y"), Int(3)),
                         PathCondition.of(Cmp(">", Var("y"), Int(0))))
    theta = Env.of({"y": 5})
    assert holds(theta, gamma_s.cells[CND])
    symbolic = {t.label: t.target for t in sem.symbolic.step(gamma_s)}
    assert set(symbolic) == {"if-true", "if-false"}
    phi2 = symbolic["if-false"].cells[CND]
    assert SOLVER.check(phi2)[0] is Sat.SAT and not holds(theta, phi2)
    concrete = sem.concrete.step(valuate(sem, gamma_s, theta))
    assert [t.label for t in concrete] == ["if-true"]  # no [if-false] step from γ
    assert forward_simulation(sem, gamma_s, theta) and backward_simulation(sem, gamma_s, SOLVER)


def _planted(d: Definition, label: str, **changes: Any) -> Definition:
    rules = tuple(replace(r, **changes) if r.label == label else r for r in d.rules)
    return replace(d, rules=rules)


def test_planted_wrong_derivations_are_caught():
    """A constant kept in a left-hand side breaks G-L1 and G-L2; forgetting `b` in the new path
    condition breaks G-L3; a matcher other than the forced one breaks G-U1."""
    concrete_if = next(r for r in IMP.concrete.rules if r.label == "if-true")
    kept = _planted(IMP.symbolic, "if-true", lhs=concrete_if.lhs + (None,), rhs=concrete_if.rhs
                    + (None,), cond=None)
    sem = Semantics.of(IMP.concrete, kept, SOLVER)
    gamma_s = _if_config(kept, Cmp(">", Var("y"), Int(3)), PathCondition.of())
    theta = Env.of({"y": 5})
    rule = next(r for r in kept.rules if r.label == "if-true")
    assert not matching_lifts(sem, rule, gamma_s, theta)
    assert not forward_simulation(sem, gamma_s, theta)

    good = next(r for r in IMP.symbolic.rules if r.label == "if-false")
    forgot = _planted(IMP.symbolic, "if-false", rhs=good.rhs[:CND] + (good.lhs[CND],))
    sem = Semantics.of(IMP.concrete, forgot, SOLVER)
    # φ' = φ = true: its model y = 0 takes [if-true] concretely, not the symbolic [if-false]
    assert not backward_simulation(sem, _if_config(forgot, Cmp(">", Var("y"), Int(-3)),
                                                   PathCondition.of()), SOLVER)

    sem = SEM["imp"]
    gamma_s = _if_config(IMP.symbolic, Cmp(">", Var("y"), Int(3)), PathCondition.of())
    rho = matcher(sem, good, gamma_s)
    assert rho is not None and matcher_unique(sem, good, gamma_s, rho)
    swapped = dict(rho, S1=rho["S2"], S2=rho["S1"])
    assert not matcher_unique(sem, good, gamma_s, swapped)
    assert not matcher_unique(sem, good, gamma_s, {**rho, "extra": Int(0)})


@given(st.integers(0, 40), st.integers(0, 7), st.integers(0, 7), st.integers(-3, 3), st.booleans(),
       st.integers(-4, 4))
def test_the_crosshair_checks_of_the_matcher_hold(construct, kind1, kind2, n, heated, x):
    """G-L1 and G-U1 as CrossHair checks them (contracts/check_seed002.py), on the small
    configurations of IMP^sym built from integers."""
    check = checks("check_seed002.py")
    assert check.check_g_l1_matching_lifts(construct, kind1, kind2, n, heated, x)
    assert check.check_g_u1_matcher_unique(construct, kind1, kind2, n, heated)


def test_the_crosshair_checks_of_the_matcher_can_fail(monkeypatch):
    """Planted wrong, each check is violated somewhere: a derivation that keeps `true` in
    [if-true] (G-L1), a matcher with `S1` and `S2` swapped (G-U1)."""
    check = checks("check_seed002.py")
    concrete_if = next(r for r in IMP.concrete.rules if r.label == "if-true")
    kept = _planted(IMP.symbolic, "if-true", lhs=concrete_if.lhs + (None,),
                    rhs=concrete_if.rhs + (None,), cond=None)
    if_ = next(i for i, p in enumerate(check.CONSTRUCTS) if p.label == "if_then_else_fi")
    with monkeypatch.context() as m:
        m.setattr(check, "SEM", Semantics.of(IMP.concrete, kept, None))
        with pytest.raises(ViolationError):
            check.check_g_l1_matching_lifts(if_, 1, 0, 3, False, 2)  # x <= 3 holds
        assert check.check_g_l1_matching_lifts(if_, 1, 0, 3, False, 5)

    def swapped(sem: Semantics, rule: Any, gamma: Config) -> dict[str, Any] | None:
        rho = matcher(sem, rule, gamma)
        return rho if rho is None or "S1" not in rho else dict(rho, S1=rho["S2"], S2=rho["S1"])

    monkeypatch.setattr(check, "matcher", swapped)
    with pytest.raises(ViolationError):
        check.check_g_u1_matcher_unique(if_, 0, 1, 0, False)  # skip and fail swapped
    assert check.check_g_u1_matcher_unique(if_, 0, 0, 0, False)  # skip and skip: the same


def test_instance_condition_and_planted_wrong_satisfaction(monkeypatch):
    """G-D3: γ ⊨ ⟨γˢ, φ⟩ is φ and an equation per datum; a condition that forgets the
    equations (φ alone) gives a model that is no witness, and `satisfaction` says so."""
    sem = SEM["imp"]
    gamma_s = _if_config(IMP.symbolic, Cmp(">", Var("y"), Int(3)), PathCondition.of())
    theta = Env.of({"y": 7})
    gamma = valuate(sem, gamma_s, theta)
    assert str(instance_condition(sem, gamma, gamma_s)) == "(y > 3) and (y == 7)"
    other = valuate(sem, _if_config(IMP.symbolic, Cmp("<", Var("y"), Int(3)), PathCondition.of()),
                    theta)  # `if false ...` at y = 7: no ϑ' makes `y > 3` false and y 7
    assert SOLVER.check(instance_condition(sem, other, gamma_s))[0] is Sat.UNSAT
    assert instance_condition(sem, Config((kseq([App("skip")]), gamma.cells[1])), gamma_s) is None
    assert satisfaction(sem, gamma, gamma_s, theta, SOLVER)
    assert satisfaction(sem, other, gamma_s, theta, SOLVER)
    monkeypatch.setattr(simulation, "instance_condition", lambda sem, g, g_s: g_s.cells[CND])
    assert not satisfaction(sem, gamma, gamma_s, theta, SOLVER)


def test_a_derivation_without_its_unsat_condition_breaks_strong_precision_only():
    """G-P4 is stronger than G-L3: with [if-false]'s `¬unsat(ψ ∧ b)` dropped, L^sym steps from
    `y > 5` to the unsatisfiable `y > 5 ∧ ¬(y > 3)`; backward simulation skips that step (no
    model), strong precision does not."""
    dropped = _planted(IMP.symbolic, "if-false", cond=None)
    sem = Semantics.of(IMP.concrete, dropped, SOLVER)
    gamma_s = _if_config(dropped, Cmp(">", Var("y"), Int(3)),
                         PathCondition.of(Cmp(">", Var("y"), Int(5))))
    assert backward_simulation(sem, gamma_s, SOLVER)
    assert not strong_precision(sem, gamma_s, SOLVER)
    assert strong_precision(SEM["imp"], _if_config(IMP.symbolic, Cmp(">", Var("y"), Int(3)),
                                                   PathCondition.of(Cmp(">", Var("y"), Int(5)))),
                            SOLVER)
