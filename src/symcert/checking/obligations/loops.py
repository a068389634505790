# crosshair: off
"""T-I1 obligations: the invariant transition (`engine.invariants.expand_invariant`) checks the
invariant exactly where it fails, and its iteration and exit successors are exhaustive (every
state the loop's head may be in after any number of iterations, as far as the invariant tells,
is one of theirs for some value of the fresh symbols) and sound (each of their valuations is a
state where the invariant holds, the guard is true, resp. false, and every name the body does
not write keeps its value).

The schematic state is `⟨φ, S, while b invariant I do x = ?e od; ?Q⟩`: the body writes `x`
(the havoc set must hold it), `y` stands for every name the body does not write; `S` binds `x`
to a term of a shape of `A_SHAPES` and `y` to the term `?sy`; `I` and `b` take the shapes of
`B_SHAPES` over `x` and `y` (`INVARIANTS`, `CONDITIONS`; a condition may divide by `x`, which
the havoc may make 0). The concrete meaning is Fig. 2 on `σ = V0∘S` (`concrete.beval` of `I`,
`concrete.step` at the loop's head, which checks `I` then tests `b`), and `σ'` is `σ` with `x`
at an arbitrary value `?hx`, the state after any iterations:

- `T-I1/entry` at the head reached anew, `T-I1/preserve` at the head after the iteration: the
  failing successor's path condition is exactly `φ ∧ ¬⟦I⟧_σ` (sound: it implies it, and the
  successor is the concrete failing step; complete: `φ ∧ ¬⟦I⟧_σ` implies it);
- `T-I1/iterate`, `T-I1/exit`, `T-I1/by-zero`, sound: every valuation `V` of the successor's
  path condition has `⟦I⟧_σ`, and the concrete step at the head from `V∘S'` checks `I` and
  goes into the body (resp. after the loop, to `fail` dividing by zero): the successor's
  program; and `V∘S'` agrees with `σ` on `y`;
- complete: under `φ ∧ ⟦I⟧_σ`, where the concrete step from `σ'` goes into the body (resp.
  after the loop, to `fail`), `∃ x#k. φ' ∧ V∘S' = σ'` for the successor of that program.

Together with the check after the iteration (`preserve`), this is the induction that makes the
transition exhaustive: every state of a run at the loop's head satisfies `I` and agrees with
`σ` on what the body does not write, so it is a `σ'`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable

from symcert.checking import smtlib
from symcert.checking.obligations.common import (
    A_SHAPES, PHI, Q, V0, Draft, Obligation, X, Y, collect, schematic_store, snum,
)
from symcert.checking.smtlib import Script, conj, sbool
from symcert.core.concrete import Env, State, aeval, beval, head, step
from symcert.core.state import Store, SymState
from symcert.core.terms import free_vars
from symcert.engine.invariants import expand_invariant
from symcert.lang.syntax import (
    Assign, BExpr, Bool, Cmp, Div, Fail, Int, Not, Seq, Skip, Stmt, Var, While,
)
from symcert.spec.definedness import defined

INVARIANTS: dict[str, Callable[[], BExpr]] = {
    "bool": lambda: Bool(sbool("?bi")),  # type: ignore[arg-type]
    "not": lambda: Not(Cmp("<=", Var(Y), Var(X))),
    "atom": lambda: Cmp("<=", Var(X), Var(Y)),
}
"""The invariant in each shape of `B_SHAPES`, over the written `x` and the unwritten `y`."""

CONDITIONS: dict[str, Callable[[], BExpr]] = {
    "bool": lambda: Bool(sbool("?bc")),  # type: ignore[arg-type]
    "not": lambda: Not(Cmp("==", Var(X), Var(Y))),
    "atom": lambda: Cmp("<", Var(X), Int(snum("?kc"))),  # type: ignore[arg-type]
    "div": lambda: Cmp("<", Div(Var(Y), Var(X)), Int(1)),
}
"""The loop's condition in each shape of `B_SHAPES`, and one dividing by the written `x`."""

BODY = Assign(X, Var("?e"))
"""The loop's body: it writes `x` (what it assigns is never evaluated by one step)."""

NAMES = (X, Y)
"""The names compared."""

HAVOCKED = "?hx"
"""`σ'(x)`: the arbitrary value of the written `x` after any number of iterations."""


def variants() -> list[tuple[str, BExpr, BExpr, Store]]:
    """(variant, invariant, condition, store): every pair of shapes of the invariant and the
    condition with `x` bound to a term, and every shape of `x`'s term with both atoms."""
    out = []
    for si, inv in INVARIANTS.items():
        for sb, cond in CONDITIONS.items():
            for sx, term in A_SHAPES.items():
                if sx == "term" or (si, sb) == ("atom", "atom"):
                    store = schematic_store((X, term(1)), (Y, Var("?sy")))
                    out.append((f"{si}+{sb}/{sx}", inv(), cond(), store))
    return out


def _env(store: Store) -> Env:
    """`V0∘S` on `NAMES`, built without `Env.of` (whose test of each value against 0 would
    fork the generation for nothing)."""
    return Env(tuple((n, aeval(V0, store(n))) for n in NAMES))


def same(s: Script, a: Env, b: Env, names: tuple[str, ...]) -> str:
    """The SMT formula `a(n) = b(n)` for every name (schematic values: no fork)."""
    return conj(smtlib.equal(s.int_value(a(n)), s.int_value(b(n))) for n in names)  # type: ignore[arg-type]


def exists(s: Script, names: frozenset[str], body: str) -> str:
    """`∃ names. body`, the names no longer declared in `s` (as merging.py's)."""
    for n in names:
        s.sorts.pop(n, None)
    bound = " ".join(f"({smtlib.symbol(n)} Int)" for n in sorted(names))
    return f"(exists ({bound}) {body})" if bound else body


def fresh(t: SymState, state: SymState, names: tuple[str, ...]) -> frozenset[str]:
    """The symbols `t` has and `state` has not (in the path condition and on `names`): the
    havoc's `x#k`."""
    def symbols(u: SymState) -> frozenset[str]:
        out: frozenset[str] = frozenset()
        for c in u.pc.conjuncts():
            out |= free_vars(c)
        for n in names:
            out |= free_vars(u.store(n))
        return out
    return symbols(t) - symbols(state)


def rule(p: Stmt) -> str:
    """The rule of a successor of the head reached anew, by its program's next statement."""
    first = p.first if isinstance(p, Seq) else p
    if isinstance(first, Fail):
        return "by-zero" if first.by_zero else "entry"
    return "exit" if isinstance(first, Skip) else "iterate"


def checks(state: SymState, name: str) -> list[Draft]:
    """`T-I1/<name>` (`entry` or `preserve`): the failing check of the head is `φ ∧ ¬⟦I⟧_σ`."""
    loop = head(state.prog)
    assert isinstance(loop, While)
    fail = [t for t in expand_invariant(state) if rule(t.prog) == "entry"]
    sigma = _env(state.store)
    holds = beval(sigma, loop.invariant())
    drafts = []
    for t in fail:
        s = Script()
        nxt = None if holds else step(State(sigma, state.prog))
        same = nxt is not None and nxt.prog == t.prog and t.store == state.store
        goal = conj([s.conjunction(PHI.conjuncts()), "true" if same else "false"])
        drafts.append(Draft("T-I1", f"{name}/sound", s, [s.conjunction(t.pc.conjuncts())], goal,
                            state, NAMES, t))
    if not holds:
        s = Script()
        goal = smtlib.disj(s.conjunction(t.pc.conjuncts()) for t in fail)
        drafts.append(Draft("T-I1", f"{name}/complete", s, [s.conjunction(PHI.conjuncts())],
                            goal, state, NAMES))
    return drafts


def sound(state: SymState) -> list[Draft]:
    """Soundness of the iteration, the exit and the failing test (by zero) at the head reached
    anew."""
    loop = head(state.prog)
    assert isinstance(loop, While)
    sigma = _env(state.store)
    drafts = []
    for t in expand_invariant(state):
        name = rule(t.prog)
        if name == "entry":
            continue
        s = Script()
        after = defined(lambda t=t: _env(t.store))
        ok = "false"
        if after is not None and beval(sigma, loop.invariant()):
            nxt = step(State(after, state.prog))
            stepped = nxt is not None and nxt.prog == t.prog  # the head changes no value
            ok = conj(["true" if stepped else "false", same(s, after, sigma, (Y,))])
        drafts.append(Draft("T-I1", f"{name}/sound", s, [s.conjunction(t.pc.conjuncts())], ok,
                            state, NAMES, t))
    return drafts


def complete(state: SymState) -> list[Draft]:
    """Completeness: under `φ ∧ ⟦I⟧_σ`, the concrete step from `σ'` at the head is the step of
    the successor with its program, for some value of the fresh symbols."""
    loop = head(state.prog)
    assert isinstance(loop, While)
    sigma = _env(state.store)
    if not beval(sigma, loop.invariant()):
        return []
    moved = Env(tuple((n, snum(HAVOCKED) if n == X else sigma(n)) for n in NAMES))
    nxt = step(State(moved, state.prog))
    if nxt is None or (rule(nxt.prog) == "entry"):
        return []  # `I` does not hold at `σ'`: not a state of the loop's head
    successors = expand_invariant(state)
    s = Script()
    options = []
    for t in successors:
        if t.prog != nxt.prog:
            continue
        after = defined(lambda t=t: _env(t.store))
        if after is not None:
            body = conj([s.conjunction(t.pc.conjuncts()), same(s, after, moved, NAMES)])
            options.append(exists(s, fresh(t, state, NAMES), body))
    return [Draft("T-I1", f"{rule(nxt.prog)}/complete", s, [s.conjunction(PHI.conjuncts())],
                  smtlib.disj(options), state, NAMES)]


def t_i1() -> list[Obligation]:
    """The obligations of the invariant transition for every variant."""
    out: list[Obligation] = []
    for variant, inv, cond, store in variants():
        loop = While(cond, BODY, invariants=(inv,))
        anew = SymState(PHI, store, Seq(loop, Q))
        again = replace(anew, prog=Seq(replace(loop, entered=True), Q))
        out += collect(variant, lambda s=anew: checks(s, "entry"))
        out += collect(variant, lambda s=again: checks(s, "preserve"))
        out += collect(variant, lambda s=anew: sound(s))
        out += collect(variant, lambda s=anew: complete(s))
    return out


T_I1_RULES = tuple(("T-I1", r) for r in ("entry", "preserve", "iterate", "exit", "by-zero"))
"""The (lemma, rule) pairs every replay must have obligations for."""
