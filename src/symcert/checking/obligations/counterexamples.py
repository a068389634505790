# crosshair: off
"""Counterexamples as IMP states: a prover's model put back into the schematic values (the
fold's algebra `INSTANCES`)."""

from __future__ import annotations

from typing import Callable

from symcert.checking.obligations.common import Obligation
from symcert.verify.smtlib import SchematicError, SymBool, SymInt
from symcert.core.algebra import fold
from symcert.core.concrete import VALUES, Env, State, step
from symcert.core.frames import Frame
from symcert.core.state import (
    PathCondition, Store, SymState, concretize, concretize_frames, frames, satisfies,
)
from symcert.lang.syntax import (
    Add,
    AExpr,
    And,
    ArrayExpr,
    ArrayVar,
    Assert,
    Assign,
    Assume,
    BExpr,
    Bool,
    Call,
    Cmp,
    Div,
    Fail,
    If,
    Int,
    Mod,
    Mul,
    Neg,
    Node,
    Not,
    Or,
    Quant,
    Return,
    Select,
    Seq,
    Skip,
    Sub,
    Update,
    Var,
    While,
    show_stmt,
)
from symcert.spec.definedness import defined


Model = dict[str, int | bool]


class Instances:
    """The expression fold's algebra (algebra.py) that rebuilds an expression with each
    schematic literal replaced by its value under a prover's model."""

    def integer(self, model: Model, value: int | SymInt) -> AExpr:
        return Int(value.value(model) if isinstance(value, SymInt) else value)

    def var(self, model: Model, name: str) -> AExpr:
        return Var(name)

    def neg(self, a: AExpr) -> AExpr:
        return Neg(a)

    def add(self, a: AExpr, b: AExpr) -> AExpr:
        return Add(a, b)

    def sub(self, a: AExpr, b: AExpr) -> AExpr:
        return Sub(a, b)

    def mul(self, a: AExpr, b: AExpr) -> AExpr:
        return Mul(a, b)

    def div(self, a: AExpr, b: AExpr) -> AExpr:
        return Div(a, b)

    def mod(self, a: AExpr, b: AExpr) -> AExpr:
        return Mod(a, b)

    def array(self, model: Model, name: str) -> ArrayVar:
        return ArrayVar(name)

    def select(self, a: ArrayExpr, i: AExpr) -> AExpr:
        return Select(a, i)

    def update(self, a: ArrayExpr, i: AExpr, v: AExpr) -> ArrayExpr:
        return Update(a, i, v)

    def cmp(self, op: str, a: AExpr, b: AExpr) -> BExpr:
        return Cmp(op, a, b)

    def boolean(self, model: Model, value: bool | SymBool) -> BExpr:
        return Bool(value.value(model) if isinstance(value, SymBool) else value)

    def not_(self, a: BExpr) -> BExpr:
        return Not(a)

    def and_(self, a: BExpr, b: Callable[[], BExpr]) -> BExpr:
        return And(a, b())

    def or_(self, a: BExpr, b: Callable[[], BExpr]) -> BExpr:
        return Or(a, b())

    def bind(self, model: Model, name: str, value: AExpr) -> Model:
        return model

    def quantifier(self, universal: bool, name: str, lo: AExpr, hi: AExpr,
                   body: Callable[[AExpr], BExpr]) -> BExpr:
        return Quant(universal, name, lo, hi, body(Var(name)))


INSTANCES = Instances()


def instantiate(node: Node, model: Model) -> Node:
    """`node` with every schematic literal replaced by its value under `model`."""
    def go(n: Node) -> Node:
        match n:
            case Skip() | Fail():
                return n
            case Assert(a):
                return Assert(go(a))  # type: ignore[arg-type]
            case Assume(a):
                return Assume(go(a))  # type: ignore[arg-type]
            case Seq(a, b):
                return Seq(go(a), go(b))  # type: ignore[arg-type]
            case While(a, b, invariants=clauses):
                return While(go(a), go(b), invariants=tuple(go(c) for c in clauses))  # type: ignore[arg-type, misc]
            case Assign(x, e):
                return Assign(x, go(e), local=n.local)  # type: ignore[arg-type]
            case Call(name, args, target):
                instances: tuple[AExpr, ...] = tuple(go(a) for a in args)  # type: ignore[misc]
                return Call(name, instances, target, n.pos, n.local, n.procs)
            case Return(e):
                return Return(go(e))  # type: ignore[arg-type]
            case If(c, a, b):
                return If(go(c), go(a), go(b))  # type: ignore[arg-type]
        return fold(INSTANCES, model, n)  # type: ignore[arg-type]
    return go(node)


def _concrete_state(s: SymState, model: Model, names: tuple[str, ...]
                    ) -> tuple[State | None, bool | None]:
    """`⟨V0∘S, p⟩` under the model's inputs `V0`, and whether `V0 ⊨ φ`; None where reading
    them divides by zero (X-A2)."""
    v0 = Env.of({k: v for k, v in model.items() if not isinstance(v, bool)})
    store = _instantiate_store(s.store, model)
    prog = instantiate(s.prog, model)
    holds = defined(lambda: satisfies(v0, PathCondition.of(
        *(instantiate(c, model) for c in s.pc.conjuncts()))))  # type: ignore[arg-type]
    stack = _instantiate_frames(s.frame, model)
    env = defined(lambda: (concretize(v0, store, frozenset(names)),
                           concretize_frames(v0, stack)))
    state = None if env is None else State(env[0], prog, frame=env[1])  # type: ignore[arg-type]
    return state, holds


def _instantiate_store(store: Store, model: Model) -> Store:
    return Store(tuple((k, instantiate(t, model)) for k, t in store.bindings))  # type: ignore[misc]


def _instantiate_frames(frame: Frame[Store] | None, model: Model) -> Frame[Store] | None:
    """A stack (seed 003 §3) with its local stores' schematic literals instantiated."""
    out: Frame[Store] | None = None
    for f in reversed(list(frames(frame))):
        out = Frame(f.proc, _instantiate_store(f.locals, model), f.target, f.caller, out,
                    f.height)
    return out


def _show(state: State | None) -> str:
    if state is None:
        return "no step (finished, stuck or blocked), or a store that divides by zero"
    shown = f"⟨{state.env}, {' '.join(show_stmt(state.prog).split())}⟩"
    stack = state.frame
    while stack is not None:  # the closures, top first: `· f{τ} → target, then S`
        target = f" → {stack.target}" if stack.target is not None else ""
        caller = " ".join(show_stmt(stack.caller).split())
        shown += f" · {stack.proc.name}{stack.locals.show('locals')}{target}, then `{caller}`"
        stack = stack.below
    return shown


def counterexample(ob: Obligation, model: Model) -> str:
    """The refuting model of an obligation, printed as IMP states."""
    values = ", ".join(f"{k} = {v}" for k, v in sorted(model.items()))
    lines = [f"  model: {values}"]
    if ob.state is None:
        return "\n".join(lines)
    store = ", ".join(f"{k} ↦ {instantiate(t, model)}" for k, t in ob.state.store.bindings)
    lines.append(f"  symbolic store  S  = {{{store}}}")
    if ob.state.config is not None:  # threads (obligations/threads.py): the configuration
        lines += [f"  thread {i}: {' '.join(show_stmt(t.prog).split())}"
                  for i, t in enumerate(ob.state.config.threads)]
        if ob.successor is not None:
            lines.append(f"  symbolic successor with φ' = {instantiate_pc(ob.successor.pc, model)}"
                         f" at `{' '.join(show_stmt(ob.successor.prog).split())}`")
        return "\n".join(lines)
    sigma, _ = _concrete_state(ob.state, model, ob.names)
    for f in frames(_instantiate_frames(ob.state.frame, model)):
        lines.append(f"  symbolic frame  τ  = {f.proc.name}{f.locals} (depth {f.height})")
    lines.append(f"  concrete state  σ  = {_show(sigma)}")
    try:
        lines.append(f"  concrete step   σ → {_show(sigma and step(sigma))}")
    except SchematicError:  # a contract's schematic literal (obligations/calls.py)
        lines.append("  concrete step   σ → reads a schematic literal of a contract")
    if ob.successor is not None:
        succ, holds = _concrete_state(ob.successor, model, ob.names)
        pc = instantiate_pc(ob.successor.pc, model)
        truth = {True: "true", False: "false", None: "divides by zero"}[holds]
        lines.append(f"  symbolic successor with φ' = {pc} ({truth} "
                     f"under the model) concretizes to {_show(succ)}")
    if ob.value is not None:
        v0 = Env.of({k: v for k, v in model.items() if not isinstance(v, bool)})
        term = instantiate(ob.value, model)
        result = defined(lambda: fold(VALUES, v0, term))  # type: ignore[arg-type]
        shown = "undefined (a division by zero)" if result is None else result
        lines.append(f"  symbolic value  {term}, which is {shown} under the model")
    return "\n".join(lines)


def instantiate_pc(pc: PathCondition, model: Model) -> str:
    """A path condition with its schematic literals' values, as text."""
    return " and ".join(f"({instantiate(c, model)})" for c in pc.conjuncts()) or "true"
