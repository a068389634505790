"""The bounded symbolic interpreter of seed 004 and its concrete twin (Becker & Marché).

Concrete twin: `exec_concrete(p, env, n)` (natural.py) is the natural semantics `i /Γ ⇓N β/Γ'`
(seed 004, Figs. 2-4) run as a big-step interpreter, with a *partial* environment Γ.

Symbolic interpreter: `exec_symbolic(p, n)` maps a program to a finite set of result states
`(σ' | C'; ρ')_β` (Listings 3-7). Notation and decisions:

- **Bound variables.** Γ and σ are partial. The variables bound at the start are `declared`
  (default `inputs(p)`: every variable the program may read before assigning it, so that the
  default mode agrees with the main engine, where an absent variable reads 0). Reading any other
  variable before assigning it is `UNBOUND_VAR` (pass `declared=frozenset()` to see it).
- **Behaviours** `β`: NORMAL, UNBOUND_VAR, LOOP_LIMIT (a loop ran `n` iterations and is tested
  once more: the limit check comes before the test, Fig. 4 WHILE-LIMIT), FAIL (`fail`, an
  `assert` whose condition is false, or a `/` or `%` by zero, X-A2) and BLOCKED (an `assume`
  whose condition is false, X-U1: a result `C ∧ ¬se` that is neither an outcome nor a bug).
  Reading is strict: every variable of an expression must be bound, even one `and`/`or` would
  not reach; a division is evaluated, and fails, only where it is reached, as in the small-step
  semantics. Where an expression may divide by zero, its guard (guards.py) splits the state:
  `C ∧ ok` goes on, `C ∧ ¬ok` is a FAIL result.
- **Symbolic variables** (M-F1). The initial σ maps each declared `x` to the symbolic variable
  `x` (so an input Env is also the initial interpretation); `x = e` binds `x` to a fresh `x#k`
  (`#` cannot occur in an IMP name; `k` counts the assignments on the path) constrained by
  `x#k == σ(e)`.
- **Constraints** `C = ∃ exists. pc`: a quantifier-free path condition (the solver's
  `PathCondition`) under a prefix of existentially quantified variables. As in the paper, the
  ghost ρ holds a witness for each of them, so `ρ ⊨ C` is `ρ ⊨ pc` (`satisfies`).
- **Quantifier elimination** (M-Q1). `existentially_quantify(v, pc, exists)` applies the
  one-point rule: when `pc` holds `v`'s defining equation `v == se` (`v ∉ vars(se)`, which an
  assignment guarantees), `∃v. (v == se ∧ D) ≡ D[se/v]`: the equation is dropped and `se`
  substituted for `v`. A variable without a definition joins the prefix instead; one that `pc`
  does not mention is dropped (`∃v. C ≡ C`). `eliminate=False` always uses the prefix. An
  overwritten *input* is never eliminated: a branch may have compared it (`x == 1` looks like a
  definition), and its conjuncts are what tie a result to the inputs that reach it.
- **Pruning** (M-S1): a branch is explored unless `maybe_sat` says its constraint has no
  solution; without a solver only constant-false conjuncts prune; UNKNOWN counts as maybe.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Sequence

import icontract

from symcert.core import terms
from symcert.core.algebra import fold, fold_a, fold_b
from symcert.core.concrete import Env
from symcert.core.guards import GUARDS, may_fail
from symcert.core.state import TRUE_PC, PathCondition, satisfies
from symcert.engine.ghost import Interpretation
from symcert.lang.structure import inputs
from symcert.lang.syntax import (
    AExpr,
    Assert,
    Assign,
    Assume,
    BExpr,
    Bool,
    Cmp,
    Fail,
    If,
    Seq,
    Skip,
    Stmt,
    Var,
    While,
    spine,
)
from symcert.seed004.natural import Behaviour, Outcome, Unbound, exec_concrete
from symcert.solver.z3backend import Sat, Solver
from symcert.spec.concretization import sample_valuations
from symcert.spec.definedness import defined
from symcert.spec.switch import CONTRACTS, lemma


# ---------------------------------------------------------------------------------------------
# Symbolic environments, constraints and results.


@dataclass(frozen=True, slots=True)
class SymEnv:
    """A symbolic environment `σ : PVar ⇀ SVar` (partial), as sorted bindings."""

    bindings: tuple[tuple[str, str], ...] = ()

    def get(self, x: str) -> str | None:
        """`σ(x)`, or None when `x ∉ dom(σ)`."""
        for k, v in self.bindings:
            if k == x:
                return v
        return None

    def update(self, x: str, v: str) -> SymEnv:
        """`σ[x ← v]`."""
        rest = tuple((k, w) for k, w in self.bindings if k != x)
        return SymEnv(tuple(sorted(rest + ((x, v),))))

    def codom(self) -> frozenset[str]:
        """The symbolic variables σ maps to."""
        return frozenset(v for _, v in self.bindings)

    def __str__(self) -> str:
        return "{" + ", ".join(f"{k} ↦ {v}" for k, v in self.bindings) + "}"


@dataclass(frozen=True, slots=True)
class SymResult:
    """A result state `(σ' | C'; ρ')_β` with `C' = ∃ exists. pc` (Listing 3).

    `fresh` is how many fresh variables the path introduced (the next index, M-F1).
    """

    behaviour: Behaviour
    env: SymEnv
    pc: PathCondition
    ghost: Interpretation | None = None
    exists: frozenset[str] = frozenset()
    fresh: int = field(default=0, compare=False)

    def symbolic_vars(self) -> frozenset[str]:
        """`codom(σ) ∪ vars(C)`, existentially bound variables included (M-I1)."""
        found = set(self.env.codom()) | set(self.exists)
        for c in self.pc.conjuncts():
            found |= terms.free_vars(c)
        return frozenset(found)

    def __str__(self) -> str:
        prefix = "∃" + ",".join(sorted(self.exists)) + ". " if self.exists else ""
        return f"({self.env} | {prefix}{self.pc})_{self.behaviour.value}"


def concretize_result(r: SymResult, rho: Env) -> Outcome:
    """What result `r` means under an interpretation `ρ ⊨ C'`: the outcome `β/ρ∘σ'`."""
    return Outcome(r.behaviour, Env.of({x: rho(v) for x, v in r.env.bindings}))


def input_of(rho: Env, declared: frozenset[str]) -> Env:
    """The concrete input `ρ∘σ₀` an interpretation gives, σ₀ mapping each declared x to x."""
    return Env.of({x: rho(x) for x in declared})


def _sigma(env: SymEnv) -> Callable[[str], AExpr]:
    """σ applied to a program variable; raises `Unbound` outside `dom(σ)`."""

    def sub(x: str) -> AExpr:
        v = env.get(x)
        if v is None:
            raise Unbound(x)
        return Var(v)

    return sub


@lemma("M-Q1")
def quantify_adds_no_variable(v: str, pc: PathCondition, exists: frozenset[str],
                        result: tuple[PathCondition, frozenset[str]]) -> bool:
    """`existentially_quantify` introduces no variable and binds `v`: the result's free
    variables are those of `∃v. ∃exists. pc`."""
    new_pc, new_exists = result
    before = frozenset().union(*(terms.free_vars(c) for c in pc.conjuncts())) - exists - {v}
    after = frozenset().union(*(terms.free_vars(c) for c in new_pc.conjuncts())) - new_exists
    return after <= before and new_exists <= exists | {v}


@icontract.ensure(quantify_adds_no_variable, "M-Q1 existential quantification", enabled=CONTRACTS)
def existentially_quantify(v: str, pc: PathCondition, exists: frozenset[str],
                           eliminate: bool = True) -> tuple[PathCondition, frozenset[str]]:
    """`∃v. ∃exists. pc` as a new (pc, exists): one-point elimination when `pc` defines `v`.

    :param v: the variable to quantify.
    :param pc: the quantifier-free matrix.
    :param exists: the variables already quantified.
    :param eliminate: try the one-point rule `∃v. (v == se ∧ D) ≡ D[se/v]` first.
    """
    conjuncts = pc.conjuncts()
    if not any(v in terms.free_vars(c) for c in conjuncts):
        return pc, exists
    if eliminate:
        for i, c in enumerate(conjuncts):
            if isinstance(c, Cmp) and c.op == "==" and c.left == Var(v) \
                    and v not in terms.free_vars(c.right):
                se = c.right
                rest = conjuncts[:i] + conjuncts[i + 1:]
                memo: dict[int, AExpr] = {}  # the conjuncts share subterms: substituted once
                return PathCondition.of(*(fold_b(terms.TERMS, lambda x: se if x == v else Var(x),
                                                 d, memo) for d in rest)), exists
    return pc, exists | {v}


@lemma("M-S1")
def maybe_sat_sound(pc: PathCondition, result: bool) -> bool:
    """`maybe_sat(C) = False ⇒ C has no solution`, spot-checked: no sample valuation solves it."""
    names = frozenset().union(*(terms.free_vars(c) for c in pc.conjuncts()))
    return result or not any(satisfies(v, pc) for v in sample_valuations(names))


@icontract.ensure(maybe_sat_sound, "M-S1 sound maybe_sat", enabled=CONTRACTS)
def maybe_sat(pc: PathCondition, solver: Solver | None) -> bool:
    """False only when `pc` surely has no solution: UNKNOWN, and no solver, count as maybe."""
    if isinstance(pc.last, Bool) and not pc.last.value:
        return False
    if solver is None:
        return True
    return solver.check(pc)[0] is not Sat.UNSAT


@dataclass(frozen=True, slots=True)
class _Config:
    n: int
    solver: Solver | None
    eliminate: bool


def _with(s: SymResult, behaviour: Behaviour) -> SymResult:
    return SymResult(behaviour, s.env, s.pc, s.ghost, s.exists, s.fresh)


def _assume(s: SymResult, cond: BExpr) -> SymResult:
    return SymResult(s.behaviour, s.env, s.pc.extend(cond), s.ghost, s.exists, s.fresh)


@lemma("M-F1")
def is_fresh(s: SymResult, result: str) -> bool:
    """`fresh(ρ) ∉ dom(ρ)`: the new variable is in neither the state nor its ghost."""
    return result not in s.symbolic_vars() and (s.ghost is None or result not in s.ghost.dom())


def counter_bounds_fresh_vars(x: str, s: SymResult) -> bool:
    """The invariant `fresh` relies on: `x` is an input name, and every fresh variable `y#k`
    of the state and its ghost has `k <= s.fresh` (every state the interpreter builds has it)."""
    names = s.symbolic_vars() | (s.ghost.dom() if s.ghost is not None else frozenset())
    suffixes = [v.rpartition("#")[2] for v in names if not is_input(v)]
    return is_input(x) and all(k.isascii() and k.isdigit() and int(k) <= s.fresh for k in suffixes)


@icontract.require(counter_bounds_fresh_vars, "M-F1 the counter bounds the fresh variables",
                   enabled=CONTRACTS)
@icontract.ensure(is_fresh, "M-F1 freshness", enabled=CONTRACTS)
def fresh(x: str, s: SymResult) -> str:
    """A symbolic variable new on the path of `s`: `x#k`, `k` one more than the path's count."""
    return f"{x}#{s.fresh + 1}"


def is_input(v: str) -> bool:
    """Whether symbolic variable `v` is an input (`x`), not a fresh one (`x#k`, M-F1)."""
    return "#" not in v


def _defined(s: SymResult, e: AExpr | BExpr, cfg: _Config) -> tuple[SymResult | None,
                                                                      list[SymResult]]:
    """`s` under the guard `ok` of `e` (guards.py) and the FAIL result `C ∧ ¬ok` where `e`
    divides by zero (X-A2), each dropped when pruned by `maybe_sat`; `(s, [])` when no division
    of `e` may fail."""
    if not may_fail(e):
        return s, []
    ok = fold(GUARDS, _sigma(s.env), e)[1]  # type: ignore[index]
    good, bad = _assume(s, ok), _with(_assume(s, terms.negate(ok)), Behaviour.FAIL)
    return (good if maybe_sat(good.pc, cfg.solver) else None,
            [bad] if maybe_sat(bad.pc, cfg.solver) else [])


def _assign(s: SymResult, x: str, e: AExpr, cfg: _Config) -> SymResult:
    """Listing 4: `x` gets a fresh `v` with `v == σ(e)`; the overwritten variable is quantified."""
    se = fold_a(terms.TERMS, _sigma(s.env), e)
    v = fresh(x, s)
    pc = s.pc.extend(Cmp("==", Var(v), se))
    # A ghost outside the guard of `e` satisfies no result of this path: any value will do.
    ghost = (s.ghost.extend(v, defined(lambda: s.ghost.eval(se)) or 0)  # type: ignore[union-attr]
             if s.ghost is not None else None)
    exists = s.exists
    old = s.env.get(x)
    if old is not None:
        # Only a fresh variable is defined by its assignment's equation. An input keeps the
        # conjuncts that mention it (a branch's `x == 1` is no definition), or the result
        # would forget which inputs reach it (M-P2, M-P4).
        eliminate = cfg.eliminate and not is_input(old)
        pc, exists = existentially_quantify(old, pc, exists, eliminate)
    return SymResult(Behaviour.NORMAL, s.env.update(x, v), pc, ghost, exists, s.fresh + 1)


def _branches(s: SymResult, b: BExpr, cfg: _Config) -> tuple[SymResult | None,
                                                              SymResult | None, list[SymResult]]:
    """The states `C ∧ se` and `C ∧ ¬se` (Listing 6), each None when pruned by `maybe_sat`, and
    the FAIL results where `b` divides by zero (`_defined`)."""
    se = fold_b(terms.TERMS, _sigma(s.env), b)
    good, failed = _defined(s, b, cfg)
    if good is None:
        return None, None, failed
    yes, no = _assume(good, se), _assume(good, terms.negate(se))
    return (yes if maybe_sat(yes.pc, cfg.solver) else None,
            no if maybe_sat(no.pc, cfg.solver) else None, failed)


def _ins(p: Stmt, states: Sequence[SymResult], cfg: _Config) -> list[SymResult]:
    """`sym_interp_ins'`: run `p` from every (normal) state of `states` (Listing 5)."""
    out: list[SymResult] = []
    todo = list(states)
    for s in spine(p):
        normal: list[SymResult] = []
        for t in todo:
            for r in _ins_simple(s, t, cfg):
                (normal if r.behaviour is Behaviour.NORMAL else out).append(r)
        todo = normal
    return out + todo


def _ins_simple(p: Stmt, s: SymResult, cfg: _Config) -> list[SymResult]:
    try:
        match p:
            case Skip():
                return [s]
            case Fail():
                return [_with(s, Behaviour.FAIL)]
            case Assign(x, e):
                good, failed = _defined(s, e, cfg)
                return ([_assign(good, x, e, cfg)] if good is not None else []) + failed
            case Assert(b):
                yes, no, failed = _branches(s, b, cfg)
                return (([yes] if yes is not None else [])
                        + ([_with(no, Behaviour.FAIL)] if no is not None else []) + failed)
            case Assume(b):
                yes, no, failed = _branches(s, b, cfg)
                return (([yes] if yes is not None else [])
                        + ([_with(no, Behaviour.BLOCKED)] if no is not None else []) + failed)
            case If(b, p1, p2):
                yes, no, failed = _branches(s, b, cfg)
                return ((_ins(p1, [yes], cfg) if yes is not None else [])
                        + (_ins(p2, [no], cfg) if no is not None else []) + failed)
            case While(b, body):
                return _loop(b, body, s, cfg)
            case Seq():
                return _ins(p, [s], cfg)
    except Unbound:
        return [_with(s, Behaviour.UNBOUND_VAR)]
    raise TypeError(f"not a statement: {p!r}")


def _loop(b: BExpr, body: Stmt, s: SymResult, cfg: _Config) -> list[SymResult]:
    """`sym_interp_loop` (Listing 7), iterated: the states still looping after k iterations."""
    out: list[SymResult] = []
    looping = [s]
    for _ in range(cfg.n):
        entering: list[SymResult] = []
        for t in looping:
            try:
                yes, no, failed = _branches(t, b, cfg)
            except Unbound:
                out.append(_with(t, Behaviour.UNBOUND_VAR))
                continue
            out += failed
            if no is not None:
                out.append(no)
            if yes is not None:
                entering.append(yes)
        looping = []
        for r in _ins(body, entering, cfg):
            (looping if r.behaviour is Behaviour.NORMAL else out).append(r)
    return out + [_with(t, Behaviour.LOOP_LIMIT) for t in looping]


# ---------------------------------------------------------------------------------------------
# The interpreter and its postconditions (Listing 3, checked with the ghost interpretations).


def _initial(p: Stmt, ghost: Env | None, declared: frozenset[str] | None) -> SymResult:
    """`(σ₀ | ⊤; ρ₀)`: each declared `x` mapped to the symbolic variable `x`, `ρ₀(x) = ghost(x)`."""
    bound = inputs(p) if declared is None else declared
    rho = Interpretation.of({x: ghost(x) for x in bound}) if ghost is not None else None
    return SymResult(Behaviour.NORMAL, SymEnv(tuple(sorted((x, x) for x in bound))), TRUE_PC,
                     rho)


@lemma("M-I1")
def results_interpreted(result: Sequence[SymResult]) -> bool:
    """Every result's ghost interprets `codom(σ') ∪ vars(C')`, quantified variables included."""
    return all(r.ghost is None or r.symbolic_vars() <= r.ghost.dom() for r in result)


@lemma("M-E1")
def interpretations_extend(p: Stmt, ghost: Env | None, declared: frozenset[str] | None,
                           result: Sequence[SymResult]) -> bool:
    """Every result interpretation extends the initial one: `ρ ⊑ ρ'`."""
    rho = _initial(p, ghost, declared).ghost
    return rho is None or all(r.ghost is not None and r.ghost.extends(rho) for r in result)


@lemma("M-P3")
def over_approximation(p: Stmt, n: int, ghost: Env | None, declared: frozenset[str] | None,
                       result: Sequence[SymResult]) -> bool:
    """The concrete outcome `β/Γ'` from the ghost input is some result `(σ'|C'; ρ')_β` with
    `ρ' ⊨ C'` and `Γ' = ρ'∘σ'`."""
    if ghost is None:
        return True
    outcome = exec_concrete(p, ghost, n, declared)
    return any(r.ghost is not None and satisfies(r.ghost.as_env(), r.pc)
               and concretize_result(r, r.ghost.as_env()) == outcome for r in result)


@lemma("M-P4")
def under_approximation(p: Stmt, n: int, ghost: Env | None, declared: frozenset[str] | None,
                        result: Sequence[SymResult]) -> bool:
    """Every result `(σ'|C'; ρ')_β` with `ρ' ⊨ C'` is the concrete outcome from the ghost input:
    `i /ρ∘σ ⇓n β/ρ'∘σ'`."""
    if ghost is None:
        return True
    outcome = exec_concrete(p, ghost, n, declared)
    return all(concretize_result(r, r.ghost.as_env()) == outcome for r in result
               if r.ghost is not None and satisfies(r.ghost.as_env(), r.pc))


@icontract.require(lambda n: n >= 0, enabled=CONTRACTS)
@icontract.ensure(results_interpreted, "M-I1 ghost state invariant", enabled=CONTRACTS)
@icontract.ensure(interpretations_extend, "M-E1 interpretations extend", enabled=CONTRACTS)
@icontract.ensure(over_approximation, "M-P3 ghost over-approximation", enabled=CONTRACTS)
@icontract.ensure(under_approximation, "M-P4 ghost under-approximation", enabled=CONTRACTS)
def exec_symbolic(p: Stmt, n: int, solver: Solver | None = None, ghost: Env | None = None,
                  declared: frozenset[str] | None = None,
                  eliminate: bool = True) -> tuple[SymResult, ...]:
    """`sym_interp_ins_n(σ₀ | ⊤; ρ₀)(p)`: the result states of `p`, every behaviour.

    :param p: the program.
    :param n: the loop limit, as in `exec_concrete`.
    :param solver: prunes branches whose constraint is UNSAT (M-S1); None prunes none.
    :param ghost: a concrete input: the results then carry interpretations extending it.
    :param declared: the variables bound at the start (default `inputs(p)`).
    :param eliminate: eliminate quantifiers by the one-point rule where possible (M-Q1).
    """
    return tuple(_ins(p, [_initial(p, ghost, declared)], _Config(n, solver, eliminate)))
