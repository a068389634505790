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
the havoc may make 0). One more state runs the loop in a procedure `g(a)` whose local `x` the
body writes (the havoc goes to the frame). The concrete meaning is Fig. 2 on `σ = V0∘S` (and
`V0∘Σ`: `concrete.beval` of `I`, `concrete.step` at the loop's head, which checks `I` then
tests `b`), and `σ'` is `σ` with `x` at an arbitrary value `?hx`, the state after any
iterations:

- `T-I1/entry` at the head reached anew, `T-I1/preserve` at the head after the iteration: the
  failing successor's path condition is exactly `φ ∧ ¬⟦I⟧_σ` (sound: it implies it, and the
  successor is the concrete failing step; complete: `φ ∧ ¬⟦I⟧_σ` implies it);
- `T-I1/iterate`, `T-I1/exit`, `T-I1/by-zero`, sound: every valuation `V` of the successor's
  path condition has `⟦I⟧_σ`, and the concrete step at the head from `V∘S'` checks `I` and
  goes into the body (resp. after the loop, to `fail` dividing by zero): the successor's
  program; and `V∘S'` agrees with `σ` on `y` (and the frame's other locals, the stack kept);
- complete: under `φ ∧ ⟦I⟧_σ`, where the concrete step from `σ'` goes into the body (resp.
  after the loop, to `fail`), `∃ x#k. φ' ∧ V∘S' = σ'` for the successor of that program.

Together with the check after the iteration (`preserve`), this is the induction that makes the
transition exhaustive: every state of a run at the loop's head satisfies `I` and agrees with
`σ` on what the body does not write, so it is a `σ'`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable

from symcert.verify import smtlib
from symcert.checking.obligations.common import (
    A_SHAPES, P1, PHI, Q, V0, Draft, Obligation, X, Y, collect, schematic_store, snum,
)
from symcert.verify.smtlib import Script, conj, sbool
from symcert.core.concrete import Env, State, aeval, beval, head, step
from symcert.core.frames import Frame, assign, enter, scope
from symcert.core.state import ID, Store, SymState
from symcert.core.terms import free_vars
from symcert.engine.invariants import expand_invariant
from symcert.lang.procedures import declare, link
from symcert.lang.syntax import (
    Assign, BExpr, Bool, Call, Cmp, Div, Fail, Int, Not, Procedures, Seq, Skip, Stmt, Var,
    While,
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

GLOBALS = (X, Y)
"""The globals compared (in `g`, `x` is a local: the frame's locals are compared too)."""

HAVOCKED = "?hx"
"""`σ'(x)`: the arbitrary value of the written `x` after any number of iterations."""


def variants() -> list[tuple[str, SymState]]:
    """(variant, the state at the loop's head reached anew): every pair of shapes of the
    invariant and the condition with `x` bound to a term, every shape of `x`'s term with both
    atoms, and both atoms in a procedure `g(a)` whose `var x` the body writes."""
    out = []
    for si, inv in INVARIANTS.items():
        for sb, cond in CONDITIONS.items():
            for sx, term in A_SHAPES.items():
                if sx == "term" or (si, sb) == ("atom", "atom"):
                    store = schematic_store((X, term(1)), (Y, Var("?sy")))
                    loop = While(cond(), BODY, invariants=(inv(),))
                    out.append((f"{si}+{sb}/{sx}", SymState(PHI, store, Seq(loop, Q))))
    loop = While(CONDITIONS["atom"](), BODY, invariants=(INVARIANTS["atom"](),))
    procs = Procedures()
    procs["g"] = declare("g", ["a"], Seq(Assign(X, Int(0), local=True), loop), None, procs)
    g = link(Call("g", (Var("?ta"),), None, None, False, procs), procs)
    frame = enter(g, [Var("?ta")], Int(0), Store.of, None, Q)  # type: ignore[arg-type]
    frame = assign(frame, ID, X, Var("?t1"))[0]
    out.append(("atom+atom/in-g", SymState(PHI, schematic_store((Y, Var("?sy"))),
                                           Seq(loop, P1), frame=frame)))
    return out


Concrete = tuple[Env, "Frame[Env] | None"]
"""A concrete state's globals and stack (one frame at most)."""


def concrete(s: SymState, globals_: tuple[str, ...]) -> Concrete:
    """`V0∘S` on `globals_` and `V0∘Σ`, built without `Env.of` (whose test of each value
    against 0 would fork the generation for nothing)."""
    env = Env(tuple((n, aeval(V0, s.store(n))) for n in globals_))
    f = s.frame
    if f is None:
        return env, None
    assert f.below is None
    local = Env(tuple((n, aeval(V0, f.locals(n))) for n in sorted(f.proc.locals)))
    return env, Frame(f.proc, local, f.target, f.caller, None, f.height)


def names(s: SymState, globals_: tuple[str, ...]) -> tuple[str, ...]:
    """The names compared: the globals and the running procedure's locals (a local that
    shadows a global is read once, in the frame)."""
    own = s.frame.proc.locals - set(globals_) if s.frame is not None else ()
    return globals_ + tuple(sorted(own))


def read(c: Concrete) -> Callable[[str], object]:
    """Where a statement reads a name: the frame's locals, else the globals."""
    return scope(c[1], c[0])


def moved(c: Concrete, values: dict[str, object]) -> Concrete:
    """`c` with the names of `values` (globals or locals) at those values."""
    def put(e: Env) -> Env:
        return Env(tuple((k, values.get(k, v)) for k, v in e.bindings))
    env, f = c
    return put(env), None if f is None else Frame(f.proc, put(f.locals), f.target, f.caller,
                                                   None, f.height)


def frame_kept(a: Frame[Store] | None, b: Frame[Store] | None) -> bool:
    """Whether two stacks are the same closures (their locals compared apart)."""
    if a is None or b is None:
        return a is b
    return (a.proc.name, a.target, a.caller, a.height, a.below) == \
        (b.proc.name, b.target, b.caller, b.height, b.below)


def _step(c: Concrete, p: Stmt) -> State | None:
    return step(State(c[0], p, frame=c[1]))


def same(s: Script, a: Callable[[str], object], b: Callable[[str], object],
         names: tuple[str, ...]) -> str:
    """The SMT formula `a(n) = b(n)` for every name (schematic values: no fork)."""
    return conj(smtlib.equal(s.int_value(a(n)), s.int_value(b(n))) for n in names)  # type: ignore[arg-type]


def exists(s: Script, names: frozenset[str], body: str) -> str:
    """`∃ names. body`, the names no longer declared in `s` (as merging.py's)."""
    for n in names:
        s.sorts.pop(n, None)
    bound = " ".join(f"({smtlib.symbol(n)} Int)" for n in sorted(names))
    return f"(exists ({bound}) {body})" if bound else body


def fresh(t: SymState, state: SymState, names: tuple[str, ...]) -> frozenset[str]:
    """The symbols `t` has and `state` has not (in the path condition and on `names`, read in
    the running procedure's scope): the havoc's `x#k`."""
    def symbols(u: SymState) -> frozenset[str]:
        out: frozenset[str] = frozenset()
        for c in u.pc.conjuncts():
            out |= free_vars(c)
        for n in names:
            out |= free_vars(scope(u.frame, u.store)(n))
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
    sigma, compared = concrete(state, GLOBALS), names(state, GLOBALS)
    holds = beval(read(sigma), loop.invariant())  # type: ignore[arg-type]
    drafts = []
    for t in fail:
        s = Script()
        nxt = None if holds else _step(sigma, state.prog)
        kept = nxt is not None and nxt.prog == t.prog and t.store is state.store \
            and t.frame is state.frame
        goal = conj([s.conjunction(PHI.conjuncts()), "true" if kept else "false"])
        drafts.append(Draft("T-I1", f"{name}/sound", s, [s.conjunction(t.pc.conjuncts())], goal,
                            state, compared, t))
    if not holds:
        s = Script()
        goal = smtlib.disj(s.conjunction(t.pc.conjuncts()) for t in fail)
        drafts.append(Draft("T-I1", f"{name}/complete", s, [s.conjunction(PHI.conjuncts())],
                            goal, state, compared))
    return drafts


def sound(state: SymState) -> list[Draft]:
    """Soundness of the iteration, the exit and the failing test (by zero) at the head reached
    anew."""
    loop = head(state.prog)
    assert isinstance(loop, While)
    sigma, compared = concrete(state, GLOBALS), names(state, GLOBALS)
    kept = tuple(n for n in compared if n != X)
    drafts = []
    for t in expand_invariant(state):
        name = rule(t.prog)
        if name == "entry":
            continue
        s = Script()
        after = defined(lambda t=t: concrete(t, GLOBALS))
        ok = "false"
        if after is not None and frame_kept(t.frame, state.frame) \
                and beval(read(sigma), loop.invariant()):  # type: ignore[arg-type]
            nxt = _step(after, state.prog)
            stepped = nxt is not None and nxt.prog == t.prog  # the head changes no value
            ok = conj(["true" if stepped else "false", same(s, read(after), read(sigma), kept)])
        drafts.append(Draft("T-I1", f"{name}/sound", s, [s.conjunction(t.pc.conjuncts())], ok,
                            state, compared, t))
    return drafts


def complete(state: SymState) -> list[Draft]:
    """Completeness: under `φ ∧ ⟦I⟧_σ`, the concrete step from `σ'` at the head is the step of
    the successor with its program, for some value of the fresh symbols."""
    loop = head(state.prog)
    assert isinstance(loop, While)
    sigma, compared = concrete(state, GLOBALS), names(state, GLOBALS)
    if not beval(read(sigma), loop.invariant()):  # type: ignore[arg-type]
        return []
    later = moved(sigma, {X: snum(HAVOCKED)})
    nxt = _step(later, state.prog)
    if nxt is None or (rule(nxt.prog) == "entry"):
        return []  # `I` does not hold at `σ'`: not a state of the loop's head
    successors = expand_invariant(state)
    s = Script()
    options = []
    for t in successors:
        if t.prog != nxt.prog:
            continue
        after = defined(lambda t=t: concrete(t, GLOBALS))
        if after is not None and frame_kept(t.frame, state.frame):
            body = conj([s.conjunction(t.pc.conjuncts()), same(s, read(after), read(later),
                                                                compared)])
            options.append(exists(s, fresh(t, state, compared), body))
    return [Draft("T-I1", f"{rule(nxt.prog)}/complete", s, [s.conjunction(PHI.conjuncts())],
                  smtlib.disj(options), state, compared)]


def t_i1() -> list[Obligation]:
    """The obligations of the invariant transition for every variant."""
    out: list[Obligation] = []
    for variant, anew in variants():
        assert isinstance(anew.prog, Seq) and isinstance(anew.prog.first, While)
        again = replace(anew, prog=Seq(replace(anew.prog.first, entered=True), anew.prog.second))
        out += collect(variant, lambda s=anew: checks(s, "entry"))
        out += collect(variant, lambda s=again: checks(s, "preserve"))
        out += collect(variant, lambda s=anew: sound(s))
        out += collect(variant, lambda s=anew: complete(s))
    return out


T_I1_RULES = tuple(("T-I1", r) for r in ("entry", "preserve", "iterate", "exit", "by-zero"))
"""The (lemma, rule) pairs every replay must have obligations for."""
