"""The invariant transition T-I1 (seed 001: an m-to-n transition "using an invariant approach"):
a loop with invariant `I` is executed once from an arbitrary state satisfying `I` instead of
being unrolled.

At the head of `while b invariant I do S od`, reached anew, in state `⟨φ, S, p⟩`:
- `φ ∧ ¬I` fails at the loop (the invariant does not hold on entry: a state like an assertion
  failure, replayed as any bug);
- otherwise the variables, arrays and fields' maps the body may write (`annotations.written`)
  are *havocked*: bound to fresh symbolic values `x#k@L:C`, `a#k@L:C` (`k` counts the havocs
  of the path, `HAVOC` in the store; `L:C` is the loop's place, `symbols`), giving `S'`; then, with `I' = ⟦I⟧_S'`,
  - `φ ∧ I ∧ I' ∧ b'` runs the body once from `S'` and reaches the loop's head again (`entered`),
    where only `I` is checked: `¬I` fails ("not preserved"), `I` ends the path;
  - `φ ∧ I ∧ I' ∧ ¬b'` goes on after the loop from `S'`;
  - where `b` may divide by zero, `φ ∧ I ∧ I' ∧ ¬ok'` fails (X-A2).
Every successor adds one conjunct (W-L2.2). The transition is exhaustive when its checks hold
(every concrete run's state at the loop's exit satisfies `I ∧ ¬b` and agrees with `S'` for some
value of the fresh symbols), not precise: a failure on a path through a havoc (`abstract`) is a
bug only if a concrete run from its model's input replays it (`confirm`); otherwise it is the
invariant's fault (`Unproved`), never a bug and never safe.

A loop whose body makes objects is unrolled instead (the counter of new objects must stay a
literal, B-T4).
"""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace
from typing import Iterator

from symcert.core.concrete import Ending, Env, State, aeval, final_of, head, trace
from symcert.core.replays import ended
from symcert.core.frames import assign, scope
from symcert.core.guards import assuming, may_fail
from symcert.core.state import Store, SymState, witness_input
from symcert.core.symbolic import sym_beval, sym_guard
from symcert.core.terms import conj, free_vars, negate
from symcert.lang.annotations import globals_written, written
from symcert.lang.procedures import arrays, table_of
from symcert.lang.syntax import (
    ALLOC, AExpr, ArrayVar, BExpr, Fail, Int, Seq, Skip, Stmt, Var, While,
)
from symcert.engine.symbols import havocked as havocked_symbol
from symcert.solver.z3backend import Sat, Solver

INVARIANTS: ContextVar[bool] = ContextVar("symcert_invariants", default=True)
"""Whether `run` uses T-I1 at loops with an invariant (else it unrolls them, checking the
invariant at each head as the concrete semantics does)."""



@contextmanager
def unrolled() -> Iterator[None]:
    """Within: `run` unrolls loops with an invariant (each path a concrete one), as the test
    generator needs."""
    token = INVARIANTS.set(False)
    try:
        yield
    finally:
        INVARIANTS.reset(token)


HAVOC = "#havoc"
"""The store's count of the havocs on the path (no program variable has a `#`)."""

REPLAY_STEPS = 100_000
"""How many concrete steps the replay of a failure on an abstract path may take."""


def applies(p: Stmt) -> bool:
    """Whether T-I1 steps a state with program `p`: its next statement is a loop with an
    invariant whose body makes no object (nor do the procedures it calls)."""
    loop = head(p)
    return (isinstance(loop, While) and bool(loop.invariants)
            and ALLOC not in havocked(loop, p))


def abstract(s: SymState) -> bool:
    """Whether the path to `s` went through a havoc (its states stand for more than runs)."""
    return s.store(HAVOC) != Var(HAVOC)


def expand_invariant(state: SymState) -> list[SymState]:
    """The successors of `state` under T-I1 (`applies(state.prog)` holds).

    :param state: a state whose next statement is a loop with an invariant.
    :return: at its head reached anew, the failing entry check, the one iteration, the exit
        (and the failing test where `b` may divide by zero); at its head after that iteration,
        the failing preservation check alone.
    """
    loop = head(state.prog)
    assert isinstance(loop, While)
    phi, store, frame, depth = state.pc, state.store, state.frame, state.depth + 1
    inv = sym_beval(scope(frame, store), loop.invariant())
    fail = SymState(phi.extend(negate(inv)), store, _at_head(state.prog, Fail(loop.pos, loop)),
                    depth, frame=frame)
    if loop.entered:
        return [fail]
    k = _count(store) + 1
    new_frame, new_store = frame, store.update(HAVOC, Int(k))
    array_names = arrays(state.prog)
    for x in sorted(havocked(loop, state.prog)):
        name = havocked_symbol(x, k, loop.pos)
        fresh = ArrayVar(name) if x in array_names else Var(name)
        new_frame, new_store = assign(new_frame, new_store, x, fresh)
    ctx = scope(new_frame, new_store)
    holds = conj(inv, sym_beval(ctx, loop.invariant()))
    cond = sym_beval(ctx, loop.cond)
    ok = sym_guard(ctx, loop.cond) if may_fail(loop.cond) else None
    again = replace(loop, entered=True)
    out = [
        SymState(phi.extend(conj(holds, _ok(ok, cond))), new_store,
                 _at_head(state.prog, Seq(loop.body, again)), depth, frame=new_frame),
        SymState(phi.extend(conj(holds, _ok(ok, negate(cond)))), new_store,
                 _at_head(state.prog, Skip()), depth, frame=new_frame),
    ]
    if ok is not None:
        out.append(SymState(phi.extend(conj(holds, negate(ok))), new_store,
                            _at_head(state.prog, Fail(loop.pos, loop, by_zero=True)), depth,
                            frame=new_frame))
    return out + [fail]


def _ok(ok: BExpr | None, c: BExpr) -> BExpr:
    return c if ok is None else assuming(ok, c)


def havocked(loop: While, p: Stmt) -> frozenset[str]:
    """The names T-I1 havocks at `loop`: what its body may write, and the globals of the
    program's procedures when it calls one."""
    w = written(loop.body)
    extra = globals_written(table_of(p)) if w.calls else frozenset()
    return w.variables | w.arrays | extra


def _count(store: Store) -> int:
    k = store(HAVOC)
    return k.value if isinstance(k, Int) else 0


def _at_head(p: Stmt, new: Stmt) -> Stmt:
    """`p` with its next statement (the head of its leftmost spine) replaced by `new`."""
    if isinstance(p, Seq):
        return Seq(_at_head(p.first, new), p.second, p.pos)
    return new


@dataclass(frozen=True, slots=True)
class Unproved:
    """A failure on an abstract path that no concrete run replays: the invariant of `loop` is not
    preserved (the failing check is its own, after one iteration), or is too weak for the
    failing statement `failing`. `before` and `after` are the counterexample to induction: the
    values at the start of the iteration and at the failure."""

    loop: While | None
    failing: Fail
    before: tuple[tuple[str, int], ...]
    after: tuple[tuple[str, int], ...]
    input: Env = Env()
    """The model's input whose replay did not fail there (a candidate for a longer replay)."""

    def message(self) -> str:
        """The sentence for a user."""
        where = self.failing.pos
        at = f" at {where.line}:{where.column}" if where else ""
        before, after = _shown(self.before), _shown(self.after)
        if isinstance(self.failing.origin, While) and self.failing.origin.entered:
            inv = self.failing.origin.invariant()
            return (f"invariant `{inv}`{at} is not preserved: one iteration of the loop's body "
                    f"from {before} leads to {after}, where it does not hold (a counterexample "
                    "to induction, maybe unreachable)")
        return (f"the loop invariants are too weak to show that no {self.failing.what()}{at}: "
                f"it fails where a loop ends in {before} (allowed by its invariant; {after} at "
                "the failure), and no concrete run replays it")


def _shown(values: tuple[tuple[str, int], ...]) -> str:
    return "{" + ", ".join(f"{x} = {v}" for x, v in values) + "}"


def confirm(p: Stmt, s: SymState, solver: Solver) -> tuple[Env, State] | Unproved | None:
    """A stuck state on an abstract path: the input and final state of a concrete run that
    fails at the same statement (a bug, W-T3.5), else why it is not one (`Unproved`), or None
    when the solver cannot decide its path condition."""
    answer, model = solver.check(s.pc)
    if answer is not Sat.SAT or model is None:
        return None
    failing = head(s.prog)
    assert isinstance(failing, Fail)
    given = Env.of({x: v for x, v in witness_input(model, s.pc).bindings if "#" not in x})
    last = State(given, p)
    for last in trace(last, REPLAY_STEPS):
        pass
    end = final_of(last) if ended(last, REPLAY_STEPS) else None
    if end is not None and end.ending is Ending.FAIL and end.where == failing.pos:
        return given, last
    symbols = set().union(*(free_vars(c) for c in s.pc.conjuncts()))
    before = {x.split("#")[0]: model(x) for x in sorted(symbols)
              if "#" in x and not x.split("#")[0].endswith("()")}  # a call's value: no variable
    before = {x: v for x, v in before.items() if isinstance(v, int)}
    after = {x: _value(model, s.store(x) if s.frame is None else scope(s.frame, s.store)(x))
             for x in before}
    return Unproved(failing.origin if isinstance(failing.origin, While) else None, failing,
                    tuple(before.items()), tuple(after.items()), given)


def _value(model: Env, t: AExpr) -> int:
    try:
        return aeval(model, t)
    except ZeroDivisionError:  # a term no path reaches
        return 0
