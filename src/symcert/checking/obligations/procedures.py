# crosshair: off
"""Obligations per rule of seed 003 §3 (procedures): W-L2.3 one-step soundness, W-L2.5 one-step
completeness and W-L2.2 for the procedure call (statement and assigned, arguments that may
divide by zero), the return (with a value, and the end of the body returning 0), the local and
the global assignment in a procedure, and `var x = e`.

The schematic states run in a small program built in code (`PROCS`, through
`procedures.declare` and `procedures.link`): `f(u)` with the `var`-declared local `l`, and
`g(a, b)`. A state in a procedure carries a stack built by `frames.enter` (the parameters bound
to schematic terms `?tu`, `?cu`) whose `var` local is then given a schematic term too (`?tl`,
`?cl`, by `frames.assign`): `IN_F` is `f` called from the main statement, `IN_F_OF_F` a
recursive `f` called by an `f` whose local `l` receives the value. The concrete side is
`concrete.step` on `⟨V0∘S, p⟩` with the stack `V0∘Σ` (`state.concretize_frames`); the symbolic
side is `explore.expand` (`rules.steps`); stacks are compared by `common.frames_equal`.
"""

from __future__ import annotations

from typing import Callable

from symcert.checking.obligations.common import (
    P1,
    Q,
    S_X,
    X,
    Y,
    Obligation,
    collect,
    rule_of,
    schematic_store,
)
from symcert.checking.obligations.rules import steps
from symcert.core.concrete import head
from symcert.core.frames import Frame, assign, enter
from symcert.core.state import ID, Store
from symcert.lang.procedures import declare, link
from symcert.lang.syntax import (
    AExpr, Add, Assign, Call, Cmp, Div, Fail, If, Int, Mod, Pos, Procedures, Return, Seq, Skip,
    Stmt, Sub, Var,
    seq_of,
)
from symcert.lang.structure import variables

PROCS = Procedures()
"""The program's table: `proc f(u) begin var l = u; if u > 0 then l = f(u - 1) else skip fi;
return l + u end` and `proc g(a, b) begin x = f(a / b) end`."""


def call(name: str, *args: AExpr, target: str | None = None, local: bool = False) -> Call:
    """A call of one of `PROCS`'s procedures (linked to the table)."""
    return Call(name, args, target, None, local, PROCS)


U, L = Var("u"), Var("l")
PROCS["f"] = declare("f", ["u"], seq_of([
    Assign("l", U, local=True),
    If(Cmp(">", U, Int(0)), call("f", Sub(U, Int(1)), target="l"), Skip()),
    Return(Add(L, U)),
]), Pos(1, 1), PROCS)
PROCS["g"] = declare("g", ["a", "b"], call("f", Div(Var("a"), Var("b")), target=X), Pos(2, 1),
                     PROCS)
link(call("g", Var(X), Var(Y)), PROCS)


def frame_of(target: str | None, below: Frame[Store] | None, caller: Stmt,
             u_term: str, l_term: str) -> Frame[Store]:
    """The frame of `f` called with target `target` over the stack `below`, the caller going on
    with `caller` (`frames.enter`): the parameter `u` bound to the schematic term `u_term`,
    then the `var` local `l` (0 on entry) assigned `l_term` (`frames.assign`)."""
    frame = enter(call("f", Var(u_term), target=target), [Var(u_term)], Int(0), Store.of, below,
                  caller)
    return assign(frame, ID, "l", Var(l_term))[0]  # type: ignore[return-value]


def in_f(target: str | None) -> Frame[Store]:
    """`f` called from the main statement (`target = f(..); ?Q`, or the call statement)."""
    return frame_of(target, None, Q, "?tu", "?tl")


IN_F_OF_F = frame_of("l", frame_of(None, None, Q, "?cu", "?cl"), P1, "?tu", "?tl")
"""A recursive `f` called by `l = f(..); ?P1` in an `f` called by the main statement: the
value it returns goes to its caller's local `l`."""

E1, E2 = Var("?e1"), Var("?e2")
S_E = schematic_store((X, Var("?sx")), ("?e1", Var("?t1")), ("?e2", Var("?t2")))
"""The globals: `x ↦ ?sx` and the operands `?e1 ↦ ?t1`, `?e2 ↦ ?t2`."""

Variant = tuple[str, Stmt, Store, "Frame[Store] | None"]
"""(variant, program, global store, stack)."""


def variants() -> list[Variant]:
    """The schematic states of the procedure rules, by rule: variants `<statement>/<where it
    runs: main, in-f, in-f-of-f>/<what>` (the rule is read off the step, `frame_rule`)."""
    f_of_e1 = call("f", E1)
    return [
        # Procedure call: the statement, assigned (global, local, `var`), in a sequence whose
        # continuation is saved, from the main statement and from a procedure.
        ("call/main/statement", f_of_e1, S_E, None),
        ("call/main/seq", Seq(f_of_e1, Q), S_E, None),
        ("call/main/nested-seq", Seq(Seq(call("f", E1, target=X), P1), Q), S_E, None),
        ("call/main/assigned", call("f", E1, target=X), S_E, None),
        ("call/main/two-arguments", Seq(call("g", E1, Var(X)), Q), S_E, None),
        ("call/in-f/local-argument", Seq(call("f", U, target="l"), P1), S_X, in_f(X)),
        ("call/in-f/var-target", call("f", E1, target="l", local=True), S_E, in_f(None)),
        ("call/in-f/global-target", call("f", L, target=X), S_X, in_f(None)),
        # Arguments that may divide by zero: the first, the second, in a procedure.
        ("call/main/div", Seq(call("f", Div(E1, E2)), Q), S_E, None),
        ("call/main/second-div", call("g", E1, Mod(E1, E2), target=X), S_E, None),
        ("call/in-f/div-local", call("f", Div(L, U)), S_X, in_f(X)),
        # Return with a value, to a global target, no target, the caller's local target.
        ("return/in-f/global-target", Return(E1), S_E, in_f(X)),
        ("return/in-f/global-target-seq", Seq(Return(L), P1), S_X, in_f(X)),
        ("return/in-f/identity", Return(Var(X)), ID, in_f(X)),
        ("return/in-f/no-target", Return(U), S_X, in_f(None)),
        ("return/in-f-of-f/local-target", Return(U), S_X, IN_F_OF_F),
        ("return/in-f-of-f/local-target-seq", Seq(Return(L), P1), S_X, IN_F_OF_F),
        ("return/in-f/div", Return(Div(L, U)), S_X, in_f(X)),
        # Falling off the end of the body returns 0.
        ("skip/in-f/global-target", Skip(), S_X, in_f(X)),
        ("skip/in-f/no-target", Skip(), S_X, in_f(None)),
        ("skip/in-f-of-f/local-target", Skip(), S_X, IN_F_OF_F),
        # Assignments in a procedure: to a local (a parameter, a `var` one), to a global.
        ("assign/in-f/local", Assign("l", E1), S_E, in_f(X)),
        ("assign/in-f-of-f/parameter", Assign("u", L), S_X, IN_F_OF_F),
        ("assign/in-f/local-seq", Seq(Assign("l", E1), P1), S_E, in_f(None)),
        ("assign/in-f/global-reads-local", Assign(X, U), S_X, in_f(X)),
        ("assign/in-f-of-f/global", Assign(Y, L), S_X, IN_F_OF_F),
        ("assign/in-f/global-seq", Seq(Assign(X, U), P1), S_X, in_f(None)),
        ("assign/in-f/div-local", Assign("l", Mod(L, U)), S_X, in_f(X)),
        # `var x = e`.
        ("var/in-f/reads-global", Assign("l", E1, local=True), S_E, in_f(X)),
        ("var/in-f/reads-local-seq", Seq(Assign("l", U, local=True), P1), S_X, in_f(X)),
    ]


def frame_rule(frame: Frame[Store] | None) -> Callable[[Stmt, Stmt], str]:
    """The naming of a step from a program to another (`common.rule_of`'s, with seed 003's
    rules): a call or return takes the whole program (`call`, `return`, `-by-zero` where it
    fails); in a procedure, `skip` returns 0 (`return-end`) and an assignment is `var`,
    `assign-local` or `assign-global` by where it writes."""
    def rule(p: Stmt, p2: Stmt) -> str:
        first = head(p)
        by_zero = "-by-zero" if isinstance(p2, Fail) and p2.by_zero else ""
        if isinstance(first, (Call, Return)):
            return type(first).__name__.lower() + by_zero
        if frame is None:
            return rule_of(p, p2)
        match p:
            case Skip():
                return "return-end"
            case Seq(Skip(), _):
                return "seq-skip"
            case Seq(p1, _):
                return "seq/" + rule(p1, p2.first if isinstance(p2, Seq) else p2)
            case Assign(x, _) if not by_zero:
                return "var" if p.local else \
                    "assign-local" if x in frame.proc.locals else "assign-global"
        return rule_of(p, p2)
    return rule


def _globals(p: Stmt, frame: Frame[Store] | None) -> tuple[str, ...]:
    """The globals compared: `x`, the frame `y` and those `p` reads (not the running
    procedure's locals, which its frame holds, nor the placeholders it carries)."""
    own = frame.proc.locals if frame is not None else frozenset()
    read = {v for v in variables(p) if v.startswith("?e")} - own
    return (X, Y, *sorted(read))


def procedure_rules() -> list[Obligation]:
    """W-L2.3, W-L2.5 and W-L2.2 for every state of `variants`."""
    out: list[Obligation] = []
    for variant, p, store, frame in variants():
        out += collect(variant, lambda p=p, store=store, frame=frame: steps(
            p, store, _globals(p, frame), frame, frame_rule(frame)))
    return out
