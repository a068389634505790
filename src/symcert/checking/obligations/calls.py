# crosshair: off
"""T-S1 obligations: the contract transition (`engine.contracts.expand_call`) fails exactly where
the concrete call fails (its precondition false, an argument dividing by zero), and its summary
successor is exhaustive (every state a call meeting the contract may return to is one of its
states for some value of the fresh symbols) and sound (each of its valuations is such a state).

The schematic state is `⟨φ, S, r = f(?e1); ?Q⟩` (`?e1 / ?e2` as the argument for the failing
division), with `proc f(u) requires P ensures Q begin x = u; return x end`: `f` writes the
global `x` (the havoc set must hold it), `y` stands for every global it does not write, `r` is
the call's target. `S` binds `x ↦ ?sx`, `y ↦ ?sy`, `r ↦ ?sr`, `?e2 ↦ ?t2` and the argument `?e1`
to a term of a shape of `A_SHAPES`; `P` and `Q` are missing or take the shapes of `B_SHAPES` over
the parameter, the globals and `result` (`REQUIRES`, `ENSURES`). The concrete meaning is Fig. 2
on `σ = V0∘S`: `concrete.step` at the call (which evaluates the arguments, enters `f`'s frame
and checks `P` there) and, for the summary, the contract: `σ'` is `σ` with `x` and `r` at
arbitrary values `?hx`, `?hr`, and `Q` is read (`concrete.beval`) in `f`'s frame at the call
over `σ'`'s globals, `result` being `σ'(r)`:

- `T-S1/pre`, `T-S1/by-zero`: the failing successor's path condition implies that the concrete
  step fails there (its program), and `φ` where the concrete step fails implies it;
- `T-S1/post`, sound: every valuation `V` of the successor's path condition makes the concrete
  call enter `f` (`P` holds, the arguments are defined), makes `Q` true over `V∘S'` with
  `result = V∘S'(r)`, and keeps `y` and the operands (`V∘S' = σ` there); the program is what follows
  the call;
- `T-S1/post`, complete: under `φ`, where the concrete call enters `f` and `Q` holds over `σ'`,
  `∃ x#k, result#k. φ' ∧ V∘S' = σ'`.

With the body verified from `P` against `Q` (`contracts.entry`), every concrete call that
returns does so in a `σ'`, which makes the transition exhaustive.
"""

from __future__ import annotations

from typing import Callable

from symcert.checking import smtlib
from symcert.checking.obligations.common import (
    A_SHAPES, PHI, Q, V0, Draft, Obligation, X, Y, collect, schematic_store, snum,
)
from symcert.checking.obligations.loops import exists, fresh, same
from symcert.checking.smtlib import Script, conj, sbool
from symcert.core.concrete import Env, State, aeval, beval, step
from symcert.core.frames import scope
from symcert.core.state import Store, SymState
from symcert.engine.contracts import expand_call
from symcert.lang.annotations import RESULT
from symcert.lang.procedures import Procedures, declare, link
from symcert.lang.syntax import (
    AExpr, Add, Assign, BExpr, Bool, Call, Cmp, Div, Fail, Not, Return, Seq, Var, seq_of,
)
from symcert.spec.definedness import defined

U, R = Var("u"), "r"

REQUIRES: dict[str, Callable[[], BExpr | None]] = {
    "none": lambda: None,
    "bool": lambda: Bool(sbool("?bp")),  # type: ignore[arg-type]
    "not": lambda: Not(Cmp("<=", Var(X), U)),
    "atom": lambda: Cmp("<=", U, Var(Y)),
}
"""The precondition: missing, or in each shape of `B_SHAPES`, over the parameter `u` and the
globals."""

ENSURES: dict[str, Callable[[], BExpr | None]] = {
    "none": lambda: None,
    "bool": lambda: Bool(sbool("?bq")),  # type: ignore[arg-type]
    "not": lambda: Not(Cmp("==", Add(Var(RESULT), U), Var(Y))),
    "atom": lambda: Cmp("<=", Var(X), Var(RESULT)),
}
"""The postcondition: missing, or in each shape of `B_SHAPES`, over `result`, the parameter `u`
(its value at the call), the written `x` and the unwritten `y`."""

NAMES = (X, Y, R, "?e1", "?e2")
"""The globals compared: the written `x`, the unwritten `y`, the target `r`, the operands of
the argument."""

HAVOCKED = {X: "?hx", R: "?hr"}
"""`σ'` on the names the call may change: arbitrary values."""


def variants() -> list[tuple[str, BExpr | None, BExpr | None, AExpr, Store]]:
    """(variant, precondition, postcondition, argument, store): every pair of shapes of the
    contract with the argument bound to a term, every shape of the argument's term with both
    atoms, and an argument that may divide by zero."""
    out = []
    base = ((X, Var("?sx")), (Y, Var("?sy")), (R, Var("?sr")), ("?e2", Var("?t2")))
    for sp, pre in REQUIRES.items():
        for sq, post in ENSURES.items():
            for sa, term in A_SHAPES.items():
                if sa == "term" or (sp, sq) == ("atom", "atom"):
                    store = schematic_store(*base, ("?e1", term(1)))
                    out.append((f"{sp}+{sq}/{sa}", pre(), post(), Var("?e1"), store))
    store = schematic_store(*base, ("?e1", Var("?t1")))
    out.append(("atom+atom/div", REQUIRES["atom"](), ENSURES["atom"](),
                Div(Var("?e1"), Var("?e2")), store))
    return out


def program(pre: BExpr | None, post: BExpr | None, argument: AExpr) -> Seq:
    """`r = f(argument); ?Q` with `f` declared with the contract `pre`, `post`."""
    procs = Procedures()
    procs["f"] = declare("f", ["u"], seq_of([Assign(X, U), Return(Var(X))]), None, procs,
                         pre, post)
    return link(Seq(Call("f", (argument,), R, None, False, procs), Q), procs)  # type: ignore[return-value]


def _env(store: Store, names: tuple[str, ...]) -> Env:
    """`V0∘S` on `names`, built without `Env.of` (which would fork on each value being 0)."""
    return Env(tuple((n, aeval(V0, store(n))) for n in names))


def rule(p: object) -> str:
    """The rule of a successor, by its program."""
    if isinstance(p, Fail):
        return "by-zero" if p.by_zero else "pre"
    return "post"


def _ensured(state: SymState, sigma: Env, after: Env) -> tuple[bool, bool]:
    """(whether the concrete call from `sigma` enters `f`, whether `Q` then holds in `f`'s
    frame over the globals `after`, `result` being `after(r)`)."""
    nxt = step(State(sigma, state.prog))
    if nxt is None or nxt.frame is None:
        return False, False
    post = nxt.frame.proc.ensures
    if post is None:
        return True, True
    inner = scope(nxt.frame, after)
    return True, bool(beval(lambda n: after(R) if n == RESULT else inner(n), post))  # type: ignore[arg-type]


def sound(state: SymState) -> list[Draft]:
    """Soundness of every successor of the call."""
    sigma = _env(state.store, NAMES)
    drafts = []
    for t in expand_call(state):
        name = rule(t.prog)
        s = Script()
        if name == "post":
            after = defined(lambda t=t: _env(t.store, NAMES))
            entered, holds = _ensured(state, sigma, after) if after is not None else (False,
                                                                                      False)
            goal = "false"
            if entered and holds and t.prog == Q and t.frame is None:
                goal = same(s, after, sigma, (Y, "?e1", "?e2"))  # type: ignore[arg-type]
        else:
            nxt = step(State(sigma, state.prog))
            ok = nxt is not None and nxt.prog == t.prog and t.store == state.store
            goal = "true" if ok else "false"
        drafts.append(Draft("T-S1", f"{name}/sound", s, [s.conjunction(t.pc.conjuncts())], goal,
                            state, NAMES, t))
    return drafts


def complete(state: SymState) -> list[Draft]:
    """Completeness: under `φ`, a failing concrete call is the failing successor's, and a call
    meeting the contract returns to a state of the summary's for some value of its symbols."""
    sigma = _env(state.store, NAMES)
    nxt = step(State(sigma, state.prog))
    assert nxt is not None
    successors = expand_call(state)
    s = Script()
    if isinstance(nxt.prog, Fail):
        goal = smtlib.disj(s.conjunction(t.pc.conjuncts()) for t in successors
                           if t.prog == nxt.prog)
        return [Draft("T-S1", f"{rule(nxt.prog)}/complete", s, [s.conjunction(PHI.conjuncts())],
                      goal, state, NAMES)]
    moved = Env(tuple((n, snum(HAVOCKED[n]) if n in HAVOCKED else sigma(n)) for n in NAMES))
    if not _ensured(state, sigma, moved)[1]:
        return []  # `Q` does not hold at `σ'`: no call meeting the contract returns there
    options = []
    for t in successors:
        after = defined(lambda t=t: _env(t.store, NAMES))
        if rule(t.prog) == "post" and after is not None:
            body = conj([s.conjunction(t.pc.conjuncts()), same(s, after, moved, NAMES)])
            options.append(exists(s, fresh(t, state, NAMES), body))
    return [Draft("T-S1", "post/complete", s, [s.conjunction(PHI.conjuncts())],
                  smtlib.disj(options), state, NAMES)]


def t_s1() -> list[Obligation]:
    """The obligations of the contract transition for every variant."""
    out: list[Obligation] = []
    for variant, pre, post, argument, store in variants():
        state = SymState(PHI, store, program(pre, post, argument))
        out += collect(variant, lambda s=state: sound(s))
        out += collect(variant, lambda s=state: complete(s))
    return out


T_S1_RULES = tuple(("T-S1", r) for r in ("pre", "post", "by-zero"))
"""The (lemma, rule) pairs every replay must have obligations for."""
