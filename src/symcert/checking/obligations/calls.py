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
over `σ'`'s globals, `result` being `σ'(r)`. Two more states run the call in a procedure
`g(a)` with the local `l`: `l = f(a)` (the result goes to the caller's local) and `r = f(l)`
(the caller's locals are kept):

- `T-S1/pre`, `T-S1/by-zero`: the failing successor's path condition implies that the concrete
  step fails there (its program), and `φ` where the concrete step fails implies it;
- `T-S1/post`, sound: every valuation `V` of the successor's path condition makes the concrete
  call enter `f` (`P` holds, the arguments are defined), makes `Q` true over `V∘S'` with
  `result = V∘S'(r)`, and keeps `y`, the operands and the caller's locals but the target
  (`V∘S' = σ` there), and its stack; the program is what follows the call;
- `T-S1/post`, complete: under `φ`, where the concrete call enters `f` and `Q` holds over `σ'`,
  `∃ x#k, result#k. φ' ∧ V∘S' = σ'`.

With the body verified from `P` against `Q` (`contracts.entry`), every concrete call that
returns does so in a `σ'`, which makes the transition exhaustive.
"""

from __future__ import annotations

from typing import Callable

from symcert.verify import smtlib
from symcert.checking.obligations.common import (
    A_SHAPES, P1, PHI, Q, Draft, Obligation, X, Y, collect, schematic_store, snum,
)
from symcert.checking.obligations.loops import (
    Concrete, concrete, exists, frame_kept, fresh, moved, names, read, same,
)
from symcert.verify.smtlib import Script, conj, sbool
from symcert.core.concrete import State, beval, step
from symcert.core.frames import after as continuation, assign, enter, scope
from symcert.core.state import ID, Store, SymState
from symcert.engine.contracts import expand_call
from symcert.lang.annotations import RESULT
from symcert.lang.procedures import declare, link
from symcert.lang.syntax import (
    AExpr, Add, Assign, BExpr, Bool, Call, Cmp, Div, Fail, Int, Not, Procedures, Return, Seq,
    Var,
    seq_of,
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

GLOBALS = (X, Y, R, "?e1", "?e2")
"""The globals compared: the written `x`, the unwritten `y`, the target `r`, the operands of
the argument."""

A, L = "a", "l"
"""The caller's locals where the call runs in `g(a)`, which declares `var l`."""

HAVOCKED = {X: "?hx", R: "?hr", L: "?hr"}
"""`σ'` on the names the call may change (the written global, the target): arbitrary values."""

Variant = tuple[str, SymState, str]
"""(variant, state, the call's target)."""


def state_of(pre: BExpr | None, post: BExpr | None, argument: AExpr, target: str,
             store: Store, in_g: bool = False) -> SymState:
    """`⟨φ, S, target = f(argument); ?Q⟩`, `f` declared with the contract `pre`, `post`; with
    `in_g`, the call runs in `g(a)` (`var l = 0; target = f(argument)`), called from the main
    statement with `a ↦ ?ta`, its local `l` then at `?tl`, and goes on with `?P1`."""
    procs = Procedures()
    procs["f"] = declare("f", ["u"], seq_of([Assign(X, U), Return(Var(X))]), None, procs,
                         pre, post)
    call = Call("f", (argument,), target, None, False, procs)
    if not in_g:
        return SymState(PHI, store, link(Seq(call, Q), procs))
    procs["g"] = declare("g", [A], seq_of([Assign(L, Int(0), local=True), call]), None, procs)
    g = link(Call("g", (Var("?ta"),), None, None, False, procs), procs)
    frame = enter(g, [Var("?ta")], Int(0), Store.of, None, Q)  # type: ignore[arg-type]
    frame = assign(frame, ID, L, Var("?tl"))[0]
    return SymState(PHI, store, Seq(call, P1), frame=frame)


def variants() -> list[Variant]:
    """Every pair of shapes of the contract with the argument bound to a term, every shape of
    the argument's term with both atoms, an argument that may divide by zero, and the call in
    `g` to its local `l` (with the argument `a`) and to the global `r` (with the argument `l`)."""
    out = []
    base = ((X, Var("?sx")), (Y, Var("?sy")), (R, Var("?sr")), ("?e2", Var("?t2")))
    for sp, pre in REQUIRES.items():
        for sq, post in ENSURES.items():
            for sa, term in A_SHAPES.items():
                if sa == "term" or (sp, sq) == ("atom", "atom"):
                    store = schematic_store(*base, ("?e1", term(1)))
                    out.append((f"{sp}+{sq}/{sa}", state_of(pre(), post(), Var("?e1"), R, store),
                                R))
    store = schematic_store(*base, ("?e1", Var("?t1")))
    atoms = (REQUIRES["atom"](), ENSURES["atom"]())
    out.append(("atom+atom/div", state_of(*atoms, Div(Var("?e1"), Var("?e2")), R, store), R))
    out.append(("atom+atom/in-g/local-target", state_of(*atoms, Var(A), L, store, True), L))
    out.append(("atom+atom/in-g/global-target", state_of(*atoms, Var(L), R, store, True), R))
    return out


def rule(p: object) -> str:
    """The rule of a successor, by its program."""
    if isinstance(p, Fail):
        return "by-zero" if p.by_zero else "pre"
    return "post"


def _ensured(state: SymState, sigma: Concrete, after: Concrete, target: str
             ) -> tuple[bool, bool]:
    """(whether the concrete call from `sigma` enters `f`, whether `Q` then holds in `f`'s
    frame over the globals of `after`, `result` being the target's value in `after`)."""
    nxt = step(State(sigma[0], state.prog, frame=sigma[1]))
    if nxt is None or nxt.frame is None or nxt.frame.proc.name != "f":
        return False, False
    post = nxt.frame.proc.ensures
    if post is None:
        return True, True
    inner, result = scope(nxt.frame, after[0]), read(after)(target)
    return True, bool(beval(lambda n: result if n == RESULT else inner(n), post))  # type: ignore[arg-type]


def sound(state: SymState, target: str) -> list[Draft]:
    """Soundness of every successor of the call."""
    sigma, compared = concrete(state, GLOBALS), names(state, GLOBALS)
    drafts = []
    for t in expand_call(state):
        name = rule(t.prog)
        s = Script()
        if name == "post":
            after = defined(lambda t=t: concrete(t, GLOBALS))
            goal = "false"
            if after is not None and t.prog == continuation(state.prog) \
                    and frame_kept(t.frame, state.frame) \
                    and all(_ensured(state, sigma, after, target)):
                kept = tuple(n for n in compared if n not in (X, target))
                goal = same(s, read(after), read(sigma), kept)
        else:
            nxt = step(State(sigma[0], state.prog, frame=sigma[1]))
            ok = nxt is not None and nxt.prog == t.prog and t.store is state.store \
                and t.frame is state.frame
            goal = "true" if ok else "false"
        drafts.append(Draft("T-S1", f"{name}/sound", s, [s.conjunction(t.pc.conjuncts())], goal,
                            state, compared, t))
    return drafts


def complete(state: SymState, target: str) -> list[Draft]:
    """Completeness: under `φ`, a failing concrete call is the failing successor's, and a call
    meeting the contract returns to a state of the summary's for some value of its symbols."""
    sigma, compared = concrete(state, GLOBALS), names(state, GLOBALS)
    nxt = step(State(sigma[0], state.prog, frame=sigma[1]))
    assert nxt is not None
    successors = expand_call(state)
    s = Script()
    if isinstance(nxt.prog, Fail):
        goal = smtlib.disj(s.conjunction(t.pc.conjuncts()) for t in successors
                           if t.prog == nxt.prog)
        return [Draft("T-S1", f"{rule(nxt.prog)}/complete", s, [s.conjunction(PHI.conjuncts())],
                      goal, state, compared)]
    later = moved(sigma, {n: snum(HAVOCKED[n]) for n in (X, target)})
    if not _ensured(state, sigma, later, target)[1]:
        return []  # `Q` does not hold at `σ'`: no call meeting the contract returns there
    options = []
    for t in successors:
        after = defined(lambda t=t: concrete(t, GLOBALS))
        if rule(t.prog) == "post" and after is not None and frame_kept(t.frame, state.frame):
            body = conj([s.conjunction(t.pc.conjuncts()),
                         same(s, read(after), read(later), compared)])
            options.append(exists(s, fresh(t, state, compared), body))
    return [Draft("T-S1", "post/complete", s, [s.conjunction(PHI.conjuncts())],
                  smtlib.disj(options), state, compared)]


def t_s1() -> list[Obligation]:
    """The obligations of the contract transition for every variant."""
    out: list[Obligation] = []
    for variant, state, target in variants():
        out += collect(variant, lambda s=state, r=target: sound(s, r))
        out += collect(variant, lambda s=state, r=target: complete(s, r))
    return out


T_S1_RULES = tuple(("T-S1", r) for r in ("pre", "post", "by-zero"))
"""The (lemma, rule) pairs every replay must have obligations for."""
