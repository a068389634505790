"""Seed 002 §4-5 as checkable predicates: satisfaction decided by a solver agrees with its
definition (G-D3), matching lifts through valuations (Lemma 1, G-L1), matchers are unique
(Cor. 1, G-U1), `L^sym` forward-simulates `L` (Lemma 2, G-L2; coverage, Cor. 2, G-C2), `L`
backward-simulates `L^sym` (Lemma 3, G-L3; precision along a path, Cor. 3/4, G-C3) and, with a
complete `unsat`, every symbolic step has a concrete instance (Lemma 4, G-P4).

Notation: `γˢ` a configuration of `L^sym` (its cells, the last one `cnd` holding `φ`), `ϑ` a
valuation of the symbolic values (a `core.concrete.Env`: symbolic values are named like the
program's identifiers, §6.3), `ϑ(γˢ)` the concrete configuration of `L` (the data evaluated by
`core.concrete`'s fold, the `cnd` cell dropped: `valuate`). Each predicate takes the engines
(`Semantics`) and returns a bool; the properties in `tests/properties/test_g_*.py` call them on
configurations reached by generated programs of IMP and of the guarded commands.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator

from symcert.core.concrete import Cells, Env, aeval, beval
from symcert.core.state import PathCondition
from symcert.core.terms import TERMS
from symcert.lang.syntax import Bool, Int
from symcert.seed002.definition import Definition, KPattern, Rule
from symcert.seed002.rewrite import REST, Config, Engine, Transition, initial, program_ids
from symcert.seed002.symbolic import sym_initial
from symcert.seed002.terms import (
    ARRAY, BOOL, INT, App, ArraysValue, KSeq, MapValue, Variable, data_sort, same,
)
from symcert.solver.z3backend import Sat
from symcert.spec.definedness import defined
from symcert.spec.switch import lemma

__all__ = ["Semantics", "backward_simulation", "coverage", "forward_simulation", "holds",
           "instance_condition", "matcher", "matcher_unique", "matching_lifts", "precision",
           "satisfaction", "strong_precision", "valuate"]


@dataclass(frozen=True)
class Semantics:
    """A language's engines: `concrete` runs `L`, `symbolic` runs `L^sym` (its `unsat` asks
    the solver the symbolic engine holds); `cells` is the number of `L`'s cells."""

    concrete: Engine
    symbolic: Engine

    @staticmethod
    def of(concrete: Definition, symbolic: Definition, solver: Any) -> Semantics:
        """The engines of `L` and of `L^sym = derive(L)`, the latter asking `solver`."""
        return Semantics(Engine(concrete), Engine(symbolic, solver))

    @property
    def cells(self) -> int:
        """The cells of `L` (`L^sym` adds `cnd` after them)."""
        return len(self.concrete.d.cells)


def holds(theta: Env, phi: PathCondition) -> bool:
    """`ϑ ⊨ φ`, each conjunct evaluated by `core.concrete.beval`."""
    return all(beval(theta, c) for c in phi.conjuncts())


def valuate(sem: Semantics, gamma_s: Config, theta: Env) -> Config:
    """`ϑ(γˢ)`: every datum over symbolic values replaced by its value under `ϑ` (the unique
    morphism of Fig. 5/6), in `L`'s cells; iterative, shared subterms valued once."""
    memo: dict[int, Any] = {}
    return Config(tuple(_valuate(t, theta, memo) for t in gamma_s.cells[:sem.cells]))


def _valuate(t: Any, theta: Env, memo: dict[int, Any]) -> Any:
    todo: list[tuple[Any, bool]] = [(t, False)]
    while todo:
        x, ready = todo.pop()
        if x is None or id(x) in memo:
            continue
        children: tuple[Any, ...] = x.args if isinstance(x, App) else \
            (x.head, x.rest) if isinstance(x, KSeq) else ()
        if children and not ready:
            todo.append((x, True))
            todo.extend((c, False) for c in children if c is not None and id(c) not in memo)
            continue
        if children:
            new = tuple(None if c is None else memo[id(c)] for c in children)
            unchanged = all(n is c for n, c in zip(new, children))
            memo[id(x)] = x if unchanged else App(x.label, new) if isinstance(x, App) \
                else KSeq(new[0], new[1])
        elif isinstance(x, MapValue):
            memo[id(x)] = MapValue(tuple((k, _datum(v, theta)) for k, v in x.bindings))
        elif isinstance(x, ArraysValue):
            memo[id(x)] = _arrays(x, theta)
        else:
            memo[id(x)] = _datum(x, theta)
    return memo[id(t)] if t is not None else None


def _arrays(x: ArraysValue, theta: Env) -> ArraysValue:
    """`ϑ` of the arrays: each bound one valued, and an array left to its input (symbolic:
    the array variable of its name) bound to `ϑ`'s array of that name, when `ϑ` has one."""
    bound = {k: _datum(v, theta) for k, v in x.bindings}
    if x.symbolic:
        bound = {k: v for k, v in theta.bindings if isinstance(v, Cells)} | bound
    return ArraysValue(tuple(sorted(bound.items())))


def _datum(x: Any, theta: Env) -> Any:
    """`ϑ(x)` for a datum; an array's name, bound to its symbolic integer in the environment
    (every identifier is), is valued 0 as the concrete initial configuration binds it."""
    sort = data_sort(x)
    if sort == INT:
        value = aeval(theta, x)
        return Int(value if isinstance(value, int) else 0)
    if sort == ARRAY:
        return x if isinstance(x, Cells) else aeval(theta, x)
    if sort == BOOL:
        return Bool(beval(theta, x))
    return x


def matcher(sem: Semantics, rule: Rule, gamma: Config) -> dict[str, Any] | None:
    """The valuation `ρ` with `ρ(l) = γ` on `L`'s cells (`Engine.matches`), or None."""
    return sem.symbolic.matches(rule, gamma.cells[:sem.cells])


def same_config(a: Config, b: Config) -> bool:
    """Syntactic equality of two configurations."""
    return len(a.cells) == len(b.cells) and all(same(x, y) for x, y in zip(a.cells, b.cells))


@lemma("G-L1")
def matching_lifts(sem: Semantics, rule: Rule, gamma_s: Config, theta: Env) -> bool:
    """Matching lifts through valuations: the left-hand side `l` of `α^sym` matches `ϑ(γˢ)` iff
    it matches `γˢ`, and then `ρ = ϑ ∘ ρˢ` (seed 002 Lemma 1; `l` linear and without constants
    of a symbolic sort, §4.3). Vacuous where `ϑ(γˢ)` is undefined: `/Int` and `%Int` are
    partial (X-A2), and a `ϑ` that breaks `φ` may divide a datum of `γˢ` by zero."""
    gamma = defined(lambda: valuate(sem, gamma_s, theta))
    if gamma is None:
        return True
    rho_s = matcher(sem, rule, gamma_s)
    rho = matcher(sem, rule, gamma)
    if rho is None or rho_s is None:
        return rho is None and rho_s is None
    memo: dict[int, Any] = {}
    return rho.keys() == rho_s.keys() and all(
        same(rho[x], _valuate(rho_s[x], theta, memo)) for x in rho)


def _positions(rule: Rule, cells: int) -> Iterator[tuple[tuple[int, ...], Variable | str]]:
    """Each variable of `l` (and the rest `⋯` of `k`) with its position: cell, then the index
    in the computation for `k`, then argument indices."""
    for i, part in enumerate(rule.lhs[:cells]):
        if part is None:
            continue
        roots = [((i, j), item) for j, item in enumerate(part.items)] \
            if isinstance(part, KPattern) else [((i,), part)]
        if isinstance(part, KPattern) and part.rest:
            yield (i, len(part.items)), REST
        todo = list(roots)
        while todo:
            pos, t = todo.pop()
            if isinstance(t, Variable):
                yield pos, t
            elif isinstance(t, App):
                todo.extend((pos + (a,), arg) for a, arg in enumerate(t.args))


@lemma("G-U1")
def matcher_unique(sem: Semantics, rule: Rule, gamma_s: Config,
                   result: dict[str, Any] | None) -> bool:
    """The matcher is unique (seed 002 Cor. 1): each variable of `l` occurs once (linear), so
    `ρˢ(X)` is forced to be the subterm of `γˢ` at `X`'s position in `l`; the matcher found
    (`result`) binds exactly `var(l)` and each to that subterm."""
    if result is None:
        return True
    kcell = sem.symbolic.k
    expected: dict[str, Any] = {}
    for pos, x in _positions(rule, sem.cells):
        if x == REST:
            t = gamma_s.cells[pos[0]]
            for _ in range(pos[1]):
                t = t.rest
            expected[REST] = t
        else:
            assert isinstance(x, Variable)
            expected[x.name] = _subterm(gamma_s, pos, kcell)
    return expected.keys() == result.keys() and all(
        same(expected[x], result[x]) for x in expected)


def _subterm(gamma: Config, pos: tuple[int, ...], kcell: int) -> Any:
    t = gamma.cells[pos[0]]
    rest = pos[1:]
    if pos[0] == kcell:
        for _ in range(rest[0]):
            t = t.rest
        t, rest = t.head, rest[1:]
    for a in rest:
        t = t.args[a]
    return t


@lemma("G-L2")
def forward_simulation(sem: Semantics, gamma_s: Config, theta: Env) -> bool:
    """`L^sym` forward-simulates `L` (seed 002 Lemma 2): when `ϑ ⊨ φ`, each concrete step
    `ϑ(γˢ) ⇒α γ'` is matched by a symbolic step `⟨γˢ, φ⟩ ⇒α^sym ⟨γ'ˢ, φ'⟩` with `ϑ ⊨ φ'` and
    `ϑ(γ'ˢ) = γ'` (only the soundness of `unsat` is used: Remark 1)."""
    if not holds(theta, gamma_s.cells[sem.cells]):
        return True
    symbolic = sem.symbolic.step(gamma_s)
    for t in sem.concrete.step(valuate(sem, gamma_s, theta)):
        if not any(s.label == t.label and holds(theta, s.target.cells[sem.cells])
                   and same_config(valuate(sem, s.target, theta), t.target) for s in symbolic):
            return False
    return True


@lemma("G-L3")
def backward_simulation(sem: Semantics, gamma_s: Config, solver: Any) -> bool:
    """`L` backward-simulates `L^sym` (seed 002 Lemmas 3 and 4): for each symbolic step
    `⟨γˢ, φ⟩ ⇒α^sym ⟨γ'ˢ, φ'⟩` with `φ'` satisfiable, a model `ϑ` of `φ'` (the solver's) has
    `ϑ ⊨ φ` and `ϑ(γˢ) ⇒α ϑ(γ'ˢ)`. An UNKNOWN `φ'` is skipped (no model to replay)."""
    for s in sem.symbolic.step(gamma_s):
        answer, theta = solver.check(s.target.cells[sem.cells])
        if theta is not None and answer is Sat.SAT and not _instance(sem, gamma_s, s, theta):
            return False
    return True


def _instance(sem: Semantics, gamma_s: Config, s: Transition, theta: Env) -> bool:
    """Whether `ϑ ⊨ φ`, `ϑ ⊨ φ'` and `ϑ(γˢ) ⇒α ϑ(γ'ˢ)` for the symbolic step `s`."""
    if not (holds(theta, gamma_s.cells[sem.cells]) and holds(theta, s.target.cells[sem.cells])):
        return False
    target = valuate(sem, s.target, theta)
    return any(t.label == s.label and same_config(t.target, target)
               for t in sem.concrete.step(valuate(sem, gamma_s, theta)))


@lemma("G-P4")
def strong_precision(sem: Semantics, gamma_s: Config, solver: Any) -> bool:
    """Strong precision (seed 002 Lemma 4, Cor. 4): with a complete `unsat` (the solver decides
    every formula: linear integer arithmetic), every step `⟨γˢ, φ⟩ ⇒α^sym ⟨γ'ˢ, φ'⟩` of `L^sym`
    from a satisfiable `φ` has a satisfiable `φ'` and a concrete instance along `α`: a model
    `ϑ` of `φ'` has `ϑ(γˢ) ⇒α ϑ(γ'ˢ)`. An UNKNOWN answer breaks the premise: False."""
    answer, _ = solver.check(gamma_s.cells[sem.cells])
    if answer is not Sat.SAT:
        return answer is Sat.UNSAT
    for s in sem.symbolic.step(gamma_s):
        answer, theta = solver.check(s.target.cells[sem.cells])
        if theta is None or answer is not Sat.SAT or not _instance(sem, gamma_s, s, theta):
            return False
    return True


def instance_condition(sem: Semantics, gamma: Config, gamma_s: Config) -> PathCondition | None:
    """`φ` and the equations `t = v` that make each datum `t` of `γˢ` the value `v` at the same
    place in `γ`, on `L`'s cells; None when `γ` and `γˢ` differ elsewhere (a constructor, an
    identifier, a map's keys, a constant): `γ ⊨ ⟨γˢ, φ⟩` iff it is satisfiable (seed 002
    §4.4). The equations come in the order of the places, left to right. An array's equality
    is no equation over Int and Bool: the Arrays cells must both be empty (no array given nor
    written), else None, so G-D3 is checked on programs without arrays."""
    phi: PathCondition = gamma_s.cells[sem.cells]
    todo = list(zip(gamma.cells[:sem.cells], gamma_s.cells[:sem.cells]))[::-1]
    while todo:
        c, s = todo.pop()
        sort = data_sort(s)
        if sort in (INT, BOOL):
            if data_sort(c) != sort:
                return None
            equation = TERMS.cmp("==", s, c) if sort == INT else s if c == Bool(True) \
                else TERMS.not_(s)
            if equation == Bool(False):
                return None
            phi = phi if equation == Bool(True) else phi.extend(equation)
            continue
        if isinstance(s, MapValue):
            if not (isinstance(c, MapValue) and [k for k, _ in c.bindings] == [k for k, _ in
                                                                              s.bindings]):
                return None
            pairs = [(v, w) for (_, v), (_, w) in zip(c.bindings, s.bindings)]
        elif isinstance(s, ArraysValue):
            if not isinstance(c, ArraysValue) or s.bindings or c.bindings:
                return None
            continue
        elif isinstance(s, (App, KSeq)):
            if type(c) is not type(s) or isinstance(s, App) and (
                    c.label != s.label or len(c.args) != len(s.args)):
                return None
            pairs = list(zip(c.args, s.args) if isinstance(s, App)
                         else ((c.head, s.head), (c.rest, s.rest)))
        elif type(c) is type(s) and c == s:
            continue
        else:
            return None
        todo.extend(reversed(pairs))
    return phi


@lemma("G-D3")
def satisfaction(sem: Semantics, gamma: Config, gamma_s: Config, theta: Env, solver: Any) -> bool:
    """Satisfaction decided agrees with its definition, `γ ⊨ ⟨γˢ, φ⟩ iff ∃ϑ'. γ = ϑ'(γˢ) ∧
    ϑ' ⊨ φ` (seed 002 §4.4): a model `ϑ'` of `instance_condition` has `ϑ'(γˢ) = γ` and `ϑ' ⊨ φ`;
    when it is UNSAT (or `γ` is no instance of `γˢ`'s shape), the given `ϑ` is no witness. An
    UNKNOWN answer is not checked."""
    phi = gamma_s.cells[sem.cells]
    witness = holds(theta, phi) and same_config(valuate(sem, gamma_s, theta), gamma)
    condition = instance_condition(sem, gamma, gamma_s)
    if condition is None:
        return not witness
    answer, model = solver.check(condition)
    if answer is Sat.UNSAT:
        return not witness
    return answer is Sat.UNKNOWN or model is not None and holds(model, phi) and same_config(
        valuate(sem, gamma_s, model), gamma)


@lemma("G-C2")
def coverage(sem: Semantics, program: Any, theta: Env, choices: list[int]) -> bool:
    """Coverage (seed 002 Cor. 2): the concrete run from `ϑ` that takes transition
    `choices[i] mod n` at step `i` is followed, rule by rule, by a symbolic path from
    `⟨γˢ₀, true⟩` whose configurations `ϑ` satisfies and values to the concrete ones."""
    d, dsym = sem.concrete.d, sem.symbolic.d
    gamma = initial(d, program, dict(theta.bindings))
    gamma_s = sym_initial(dsym, program)
    for c in choices:
        steps = sem.concrete.step(gamma)
        if not steps:
            break
        t = steps[c % len(steps)]
        follow = [s.target for s in sem.symbolic.step(gamma_s) if s.label == t.label
                  and holds(theta, s.target.cells[sem.cells])
                  and same_config(valuate(sem, s.target, theta), t.target)]
        if not follow:
            return False
        gamma, gamma_s = t.target, follow[0]
    return True


@lemma("G-C3")
def precision(sem: Semantics, program: Any, labels: tuple[str, ...], final_s: Config,
              solver: Any) -> bool:
    """Precision (seed 002 Cor. 3/4): a symbolic path `⟨γˢ₀, true⟩ ⇒β^sym ⟨γ'ˢ, φ'⟩` with `φ'`
    satisfiable has a concrete run along the same labels `β` from the input `ϑ` (a model of
    `φ'`) to `ϑ(γ'ˢ)`; an UNKNOWN `φ'` is not checked."""
    answer, theta = solver.check(final_s.cells[sem.cells])
    if theta is None or answer is not Sat.SAT:
        return True
    gamma = initial(sem.concrete.d, program, {x: theta(x) for x in program_ids(program)})
    for label in labels:
        gamma = next((t.target for t in sem.concrete.step(gamma) if t.label == label), None)
        if gamma is None:
            return False
    return same_config(gamma, valuate(sem, final_s, theta))
