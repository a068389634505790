"""Oracles by enumeration over a box of valuations (seed 002 §4.4 and Lemma 4): satisfaction
`γ ⊨ ⟨γˢ, φ⟩` (G-D3) and strong precision (G-P4) decided by trying every valuation `ϑ` of the
symbolic values with each value in `[-bound, bound]`, against the concrete semantics, with no
solver: a formulation apart from `seed002.simulation`'s, which reads the solver's models.

- G-D3: at every `ϑ` of the box, `ϑ` satisfies the decided condition
  (`simulation.instance_condition`: `φ` and an equation per datum) iff it is a witness of the
  definition, `ϑ ⊨ φ ∧ ϑ(γˢ) = γ`.
- G-P4: when `φ` bounds every symbolic value to the box (`box_condition`), a satisfiable
  formula has a model in the box, so each step `⟨γˢ, φ⟩ ⇒α^sym ⟨γ'ˢ, φ'⟩` of `L^sym` must have
  a `ϑ` of the box with `ϑ ⊨ φ'` and `ϑ(γˢ) ⇒α ϑ(γ'ˢ)` concretely: a step to an unsatisfiable
  `φ'`, or without a concrete instance, has none.
"""

from __future__ import annotations

import itertools
from typing import Iterator

from symcert.checking.matching import value
from symcert.core.concrete import Env, beval
from symcert.core.state import PathCondition
from symcert.lang.syntax import Cmp, Int, Var
from symcert.seed002 import simulation
from symcert.seed002.rewrite import Config
from symcert.seed002.simulation import Semantics
from symcert.seed002.terms import same
from symcert.spec.definedness import defined


def box(names: tuple[str, ...], bound: int) -> Iterator[Env]:
    """Every valuation of `names` with values in `[-bound, bound]`."""
    for values in itertools.product(range(-bound, bound + 1), repeat=len(names)):
        yield Env.of(dict(zip(names, values)))


def box_condition(names: tuple[str, ...], bound: int) -> PathCondition:
    """`-bound <= x <= bound` for each symbolic value `x` of `names`."""
    pc = PathCondition.of()
    for x in names:
        pc = pc.extend(Cmp(">=", Var(x), Int(-bound))).extend(Cmp("<=", Var(x), Int(bound)))
    return pc


def _holds(theta: Env, phi: PathCondition | None) -> bool:
    """`ϑ ⊨ φ`; false where a conjunct divides by zero (it has no value) or `φ` is None."""
    return phi is not None and bool(defined(lambda: all(beval(theta, c)
                                                        for c in phi.conjuncts())))


def _valued(sem: Semantics, gamma_s: Config, theta: Env) -> tuple[object, ...] | None:
    """`ϑ(γˢ)` on `L`'s cells, or None where a datum divides by zero."""
    return defined(lambda: tuple(value(c, theta) for c in gamma_s.cells[:sem.cells]))


def _same(a: tuple[object, ...] | None, b: tuple[object, ...]) -> bool:
    return a is not None and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))


def satisfaction_agrees(sem: Semantics, gamma: Config, gamma_s: Config,
                        names: tuple[str, ...], bound: int) -> bool:
    """G-D3 by enumeration: over the box, `ϑ ⊨ instance_condition(γ, γˢ)` iff
    `ϑ ⊨ φ ∧ ϑ(γˢ) = γ`."""
    condition = simulation.instance_condition(sem, gamma, gamma_s)
    phi = gamma_s.cells[sem.cells]
    return all(_holds(theta, condition) == (_holds(theta, phi) and _same(
        _valued(sem, gamma_s, theta), gamma.cells)) for theta in box(names, bound))


def strongly_precise(sem: Semantics, gamma_s: Config, names: tuple[str, ...],
                     bound: int) -> bool:
    """G-P4 by enumeration, for `γˢ` whose `φ` bounds `names` to the box: every symbolic step
    has a valuation of the box satisfying its `φ'` whose concrete step along the same rule
    reaches its valuation; vacuous where no valuation of the box satisfies `φ` (Lemma 4 speaks
    of satisfiable configurations)."""
    if not any(_holds(theta, gamma_s.cells[sem.cells]) for theta in box(names, bound)):
        return True
    for s in sem.symbolic.step(gamma_s):
        phi2 = s.target.cells[sem.cells]
        if not any(_holds(theta, phi2) and _instance(sem, gamma_s, s.label, s.target, theta)
                   for theta in box(names, bound)):
            return False
    return True


def _instance(sem: Semantics, gamma_s: Config, label: str, target: Config, theta: Env) -> bool:
    before, after = _valued(sem, gamma_s, theta), _valued(sem, target, theta)
    if before is None or after is None:
        return False
    return any(t.label == label and _same(after, t.target.cells)
               for t in sem.concrete.step(Config(before)))
