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
  once more: the limit check comes before the test, Fig. 4 WHILE-LIMIT), CALL_LIMIT (below),
  FAIL (`fail`, an `assert` whose condition is false, or a `/` or `%` by zero, X-A2) and
  BLOCKED (an `assume` whose condition is false, X-U1: a result `C ∧ ¬se` that is neither an
  outcome nor a bug).
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

Procedures (seed 003 §3), with the concrete twin's decisions (natural.py):

- **Where locals live.** σ holds the globals only; a state inside a procedure also has the
  running call's local environment `τ` (`SymResult.locals`, results.py), and expressions read
  `τ ∪ σ`. A call evaluates its arguments' terms left to right in the caller's scope (each
  split by its guard, like an assignment's expression), then binds in a new `τ` each parameter
  to a fresh `u#k` with `u#k == argument` and each `var`-declared local to a fresh `v#k` with
  `v#k == 0`, exactly as `u = e` does in Listing 4: the fresh-variable invariants (M-F1, M-I1,
  M-E1) hold unchanged, and every symbolic variable is bound in one place only, so quantifying
  one never touches another binding. An assignment to a local writes `τ`, to another variable
  `σ`. The caller's `τ` waits in the interpreter's Python frame; when a body's result leaves
  its call, the callee's variables join the quantifier prefix. Inside a call, quantifying is
  deferred so (an overwritten variable joins the prefix too): a path back in the main
  statement eliminates all the fresh variables of its prefix in one pass (`quantify_all`, the
  one-point rule on their definitions), so a result mentions no local of a finished call, and
  a recursion `d` calls deep costs time linear, not quadratic, in its path condition.
- **How `return` is modelled.** `return e` binds the entry `RESULT` of `τ` to a fresh variable
  equal to `e`'s term and ends with the internal behaviour RETURN, which skips the rest of the
  body like any behaviour but NORMAL (`_ins`, `_loop`). Leaving the call, a RETURN or NORMAL
  result becomes NORMAL with its value (`τ(RESULT)`, or 0 when the body ended without
  `return`) assigned to the call's target as `target = value` would be, in the caller's scope.
- **The call limit.** A call made when `CALL_LIMIT` (natural.py) calls are running is the
  result `CALL_LIMIT` in the state before it, as in the concrete twin: a budget like
  LOOP_LIMIT, with no final state (`ENDINGS`).
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass
from typing import Sequence

import icontract

from symcert.core import terms
from symcert.core.algebra import fold, fold_a, fold_b
from symcert.core.concrete import Env
from symcert.core.guards import GUARDS, may_fail
from symcert.core.state import TRUE_PC, PathCondition, satisfies
from symcert.core.threads import is_threaded
from symcert.engine.ghost import Interpretation
from symcert.lang.syntax import (
    ALLOC,
    AExpr, Assert, Assign, Assume, BExpr, Bool, Call, Cmp, Fail, If, Int, New, Proc, Return,
    Seq, Skip, Stmt, Var, While,
    allocation, spine,
)
from symcert.lang.structure import inputs
from symcert.seed004.quantify import existentially_quantify, quantify_all
from symcert.seed004.natural import CALL_LIMIT, Behaviour, Outcome, Unbound, exec_concrete
from symcert.seed004.results import (
    RESULT, SymEnv, SymResult, concretize_result, index_of, input_of, is_input, scope,
)
from symcert.solver.z3backend import Sat, Solver
from symcert.spec.concretization import sample_valuations
from symcert.spec.definedness import defined
from symcert.spec.switch import CONTRACTS, lemma


@lemma("M-S1")
def maybe_sat_sound(pc: PathCondition, result: bool) -> bool:
    """`maybe_sat(C) = False ⇒ C has no solution`, spot-checked: no sample valuation solves it."""
    if result:
        return True
    memo: dict[int, frozenset[str]] = {}  # the conjuncts share subterms: each scanned once
    names = frozenset().union(*(terms.free_vars(c, memo) for c in pc.conjuncts()))
    return not any(satisfies(v, pc) for v in sample_valuations(names))


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
    depth: int = 0
    """How many calls are running (0 in the main statement)."""


def _with(s: SymResult, behaviour: Behaviour) -> SymResult:
    return SymResult(behaviour, s.env, s.pc, s.ghost, s.exists, s.fresh, s.locals)


def _assume(s: SymResult, cond: BExpr) -> SymResult:
    return SymResult(s.behaviour, s.env, s.pc.extend(cond), s.ghost, s.exists, s.fresh,
                     s.locals)


@lemma("M-F1")
def is_fresh(s: SymResult, result: str) -> bool:
    """`fresh(ρ) ∉ dom(ρ)`: the new variable is in neither the state nor its ghost."""
    return not s.mentions(result) and (s.ghost is None or not _interprets(s.ghost, result))


def _interprets(rho: Interpretation, v: str) -> bool:
    """`v ∈ dom(ρ)`, by bisection (`ρ`'s bindings are sorted by name)."""
    i = bisect_left(rho.values, (v,))
    return i < len(rho.values) and rho.values[i][0] == v


def counter_bounds_fresh_vars(x: str, s: SymResult) -> bool:
    """The invariant `fresh` relies on: `x` is an input name, and every fresh variable `y#k`
    of the state and its ghost has `k <= s.fresh` (every state the interpreter builds has it)."""
    ghost = s.ghost.values if s.ghost is not None else ()
    return is_input(x) and s.top_index() <= s.fresh and all(
        index_of(v) <= s.fresh for v, _ in ghost if not is_input(v))


@icontract.require(counter_bounds_fresh_vars, "M-F1 the counter bounds the fresh variables",
                   enabled=CONTRACTS)
@icontract.ensure(is_fresh, "M-F1 freshness", enabled=CONTRACTS)
def fresh(x: str, s: SymResult) -> str:
    """A symbolic variable new on the path of `s`: `x#k`, `k` one more than the path's count."""
    return f"{x}#{s.fresh + 1}"


def _defined(s: SymResult, e: AExpr | BExpr, cfg: _Config) -> tuple[SymResult | None,
                                                                      list[SymResult]]:
    """`s` under the guard `ok` of `e` (guards.py) and the FAIL result `C ∧ ¬ok` where `e`
    divides by zero (X-A2), each dropped when pruned by `maybe_sat`; `(s, [])` when no division
    of `e` may fail."""
    if not may_fail(e):
        return s, []
    ok = fold(GUARDS, scope(s), e)[1]  # type: ignore[index]
    good, bad = _assume(s, ok), _with(_assume(s, terms.negate(ok)), Behaviour.FAIL)
    return (good if maybe_sat(good.pc, cfg.solver) else None,
            [bad] if maybe_sat(bad.pc, cfg.solver) else [])


def _assign(s: SymResult, x: str, e: AExpr, cfg: _Config) -> SymResult:
    """Listing 4: `x` gets a fresh `v` with `v == σ(e)`; the overwritten variable is quantified."""
    return _bind(s, x, fold_a(terms.TERMS, scope(s), e), cfg)


def _bind(s: SymResult, x: str, se: AExpr, cfg: _Config, local: bool | None = None) -> SymResult:
    """`x` gets a fresh `v` with `v == se` (Listing 4), in `τ` when `local` (by default: when
    `x` is a local of the running procedure, bound in `τ`) and in `σ` otherwise; the overwritten
    variable is quantified."""
    v = fresh(x, s)
    pc = s.pc.extend(Cmp("==", terms.variable(v, se), se))  # type: ignore[arg-type]
    # A ghost outside the guard of `e` satisfies no result of this path: any value will do.
    ghost = (s.ghost.extend(v, defined(lambda: s.ghost.eval(se)) or 0)  # type: ignore[union-attr]
             if s.ghost is not None else None)
    exists = s.exists
    if local is None:
        local = s.locals is not None and s.locals.get(x) is not None
    old = s.locals.get(x) if local and s.locals is not None else s.env.get(x)
    if old is not None and s.locals is not None:
        exists = exists | {old}  # in a call: eliminated on the way back to the main statement
    elif old is not None:
        # Only a fresh variable is defined by its assignment's equation. An input keeps the
        # conjuncts that mention it (a branch's `x == 1` is no definition), or the result
        # would forget which inputs reach it (M-P2, M-P4).
        eliminate = cfg.eliminate and not is_input(old)
        pc, exists = existentially_quantify(old, pc, exists, eliminate)
    if local:
        tau = s.locals if s.locals is not None else SymEnv()
        return SymResult(Behaviour.NORMAL, s.env, pc, ghost, exists, s.fresh + 1,
                         tau.update(x, v))
    return SymResult(Behaviour.NORMAL, s.env.update(x, v), pc, ghost, exists, s.fresh + 1,
                     s.locals)


def _last_object(s: SymResult) -> int:
    """The last new object of the path (0 before the first): the literal that defines the
    current variable of `ALLOC` (seed 003 §4)."""
    v = s.env.get(ALLOC)
    for c in s.pc.conjuncts() if v is not None else ():
        if isinstance(c, Cmp) and c.op == "==" and c.left == Var(v) and isinstance(c.right, Int):
            return c.right.value
    return 0


def _branches(s: SymResult, b: BExpr, cfg: _Config) -> tuple[SymResult | None,
                                                              SymResult | None, list[SymResult]]:
    """The states `C ∧ se` and `C ∧ ¬se` (Listing 6), each None when pruned by `maybe_sat`, and
    the FAIL results where `b` divides by zero (`_defined`)."""
    se = fold_b(terms.TERMS, scope(s), b)
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
                return _loop(p, s, cfg)
            case Seq():
                return _ins(p, [s], cfg)
            case Call():
                return _call(p, s, cfg)
            case New():  # seed 003 §4: each assignment of `allocation` as Listing 4's, the
                writes = allocation(p, _last_object(s))  # first (`y.f = new C`) as `Assign`
                out = _ins_simple(writes[0], s, cfg)
                for a in writes[1:]:
                    out = [_assign(t, a.name, a.expr, cfg) if t.behaviour is Behaviour.NORMAL
                           else t for t in out]
                return out
            case Return(e):
                good, failed = _defined(s, e, cfg)
                if good is None:
                    return failed
                done = _bind(good, RESULT, fold_a(terms.TERMS, scope(good), e), cfg, local=True)
                return [_with(done, Behaviour.RETURN)] + failed
    except Unbound:
        return [_with(s, Behaviour.UNBOUND_VAR)]
    raise TypeError(f"not a statement: {p!r}")


def _loop(loop: While, s: SymResult, cfg: _Config) -> list[SymResult]:
    """`sym_interp_loop` (Listing 7), iterated: the states still looping after k iterations.
    A loop's invariant is checked at each head as an assertion (FAIL where it does not hold)."""
    b, body = loop.cond, loop.body
    out: list[SymResult] = []
    looping = [s]
    for _ in range(cfg.n):
        entering: list[SymResult] = []
        if loop.invariants:
            holding = []
            for t in looping:
                try:
                    yes, no, failed = _branches(t, loop.invariant(), cfg)  # total: no `failed`
                except Unbound:
                    out.append(_with(t, Behaviour.UNBOUND_VAR))
                    continue
                out += failed + ([_with(no, Behaviour.FAIL)] if no is not None else [])
                holding += [yes] if yes is not None else []
            looping = holding
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
# Procedures (seed 003 §3): a call runs the body in a local environment τ of its own.


def _call(c: Call, s: SymResult, cfg: _Config) -> list[SymResult]:
    """A procedure call by value: CALL_LIMIT when `CALL_LIMIT` calls are running; else the
    arguments' terms, left to right in the caller's scope (each split by its guard, `_defined`:
    its FAIL results, and UNBOUND_VAR where one reads an unbound variable), then the body from
    a new `τ` (`_enter`), each of its results leaving the frame (`_leave`)."""
    if cfg.depth >= CALL_LIMIT:
        return [_with(s, Behaviour.CALL_LIMIT)]
    out: list[SymResult] = []
    values: list[AExpr] = []
    for a in c.args:
        try:
            value = fold_a(terms.TERMS, scope(s), a)
        except Unbound:
            return out + [_with(s, Behaviour.UNBOUND_VAR)]
        good, failed = _defined(s, a, cfg)
        out += failed
        if good is None:
            return out
        s, values = good, values + [value]
    proc = c.procs[c.name]
    inner = _Config(cfg.n, cfg.solver, cfg.eliminate, cfg.depth + 1)
    body = _ins(proc.body, [_enter(s, proc, values, cfg)], inner)
    return out + [_leave(r, s.locals, c.target, cfg) for r in body]


def _enter(s: SymResult, proc: Proc, values: list[AExpr], cfg: _Config) -> SymResult:
    """The callee's first state: `τ` binds each parameter to a fresh variable equal to its
    argument's term, then each other local to a fresh variable equal to 0."""
    t = SymResult(s.behaviour, s.env, s.pc, s.ghost, s.exists, s.fresh, SymEnv())
    for u, value in [*zip(proc.params, values), *((x, Int(0)) for x in sorted(
            proc.locals - set(proc.params)))]:
        t = _bind(t, u, value, cfg, local=True)
    return t


def _leave(r: SymResult, caller: SymEnv | None, target: str | None, cfg: _Config) -> SymResult:
    """A result `r` of the body back in the caller (its `τ`, `caller`): a RETURN or NORMAL one
    is NORMAL with the returned variable (0 without `return`) assigned to `target` in the
    caller's scope; any other keeps its behaviour. The callee's variables join the quantifier
    prefix, its frame gone; back in the main statement, `quantify_all` eliminates every fresh
    variable of the prefix (one pass: each had a definition, M-Q1)."""
    tau = r.locals if r.locals is not None else SymEnv()
    out = SymResult(r.behaviour, r.env, r.pc, r.ghost, r.exists, r.fresh, caller)
    if r.behaviour in (Behaviour.NORMAL, Behaviour.RETURN):
        returned = tau.get(RESULT) if r.behaviour is Behaviour.RETURN else None
        value: AExpr = Var(returned) if returned is not None else Int(0)
        out = _bind(out, target, value, cfg) if target is not None else out
        out = _with(out, Behaviour.NORMAL)
    pc, exists = out.pc, out.exists | tau.codom()
    if caller is None:
        pc, exists = quantify_all(pc, exists, frozenset(v for v in exists if not is_input(v)),
                                  cfg.eliminate)
    return SymResult(out.behaviour, out.env, pc, out.ghost, exists, out.fresh, out.locals)


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
@icontract.require(lambda p: not is_threaded(p), "seed 004 runs one thread (docs/threads.md)",
                   enabled=CONTRACTS)
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
