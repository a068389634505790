"""The symbolic executor: `expand` (seed 000, Fig. 7) and the state stream `run` (Fig. 6).

A statement whose expression may divide by zero has one more successor, `φ ∧ ¬ok`, which is
stuck at `fail` (X-A2); its other successors assume the guard `ok` (guards.py). `assume b` has
the one successor `φ ∧ ⟦b⟧_S` (X-U1): the runs it blocks are on no path.

`x = new C` (seed 003 §4) makes the next new object, the literal `-k` for the k-th of the
path, and sets its fields to 0 / nil in their maps: new objects are distinct from each other
and from every input object (positive) by construction (B-T4).

Procedures follow seed 003 §3: a state in a procedure carries the stack of closures
(`SymState.frame`); a call pushes the callee's frame with its parameters bound to the
arguments' terms, `return e` (or the end of the body, returning 0) pops it, and expressions are
read in `τ ∪ σ` (frames.py). Every term stays over the symbolic inputs (B-P1, B-P2).

`run(l)` yields the states of a worklist, breadth-first by default (the paper's order, which
W-L3.1 needs) or depth-first on request, then `None` forever once the worklist is empty
(W-T3.3). It is a loop over a deque, never a recursion, so memory is the frontier. Given a
solver, it prunes a successor whose path condition is UNSAT; UNKNOWN keeps it (M-S1). A
successor whose new conjunct already holds under its parent's model needs no solver call.
`run_n` is its eager twin, on which the stream lemmas are stated.
"""

from __future__ import annotations

import enum
from collections import deque
from dataclasses import dataclass, replace
from itertools import islice
from typing import Callable, Iterable, Iterator

from symcert.core.concrete import beval, head
from symcert.core.valuations import Valuations
from symcert.core.frames import Frame, after, assign, enter, leave, scope
from symcert.core.state import PathCondition, Store, SymState
from symcert.core.guards import assuming, may_fail, may_fail_at
from symcert.core.symbolic import sym_aeval, sym_beval, sym_guard, sym_update
from symcert.core.terms import conj, negate
from symcert.engine.alias import ALIAS, Alias, resolve_reads, split
from symcert.engine import contracts
from symcert.engine.invariants import INVARIANTS, applies, expand_invariant, unrolled
from symcert.engine.merge import MERGE, Frontier, Merging
from symcert.engine.threads import expand_config
from symcert.lang.syntax import (
    ALLOC, AExpr, Assert, Assign, Assume, BExpr, Bool, Call, Fail, If, Int, New, Return, Seq, Skip,
    Stmt, While, allocation,
)
from symcert.solver.z3backend import Sat, Solver
from symcert.spec.expansion import (
    bfs_successor_bound,
    locals_stay_local,
    no_fresh_dereference,
    expand_complete,
    expand_complete_sampled,
    expand_monotone,
    expand_sound,
    expand_sound_sampled,
    run_reachable_from,
    run_terminates_soundly,
)
from symcert.spec.switch import CONTRACTS, icontract


class Strategy(enum.Enum):
    """Which frontier state `run` expands next."""

    BFS = "bfs"
    DFS = "dfs"


@dataclass
class RunStats:
    """Counters a caller can watch while the stream runs."""

    yielded: int = 0
    frontier: int = 0
    pruned: int = 0
    unknown: int = 0
    model_reuse: int = 0
    too_deep: int = 0
    """Successors dropped because their stack is deeper than `run`'s `max_call_depth`."""
    merged: int = 0
    """Successors merged into a waiting state (`--merge`, merge.py)."""
    queries: int = 0
    """Queries asked for the stream by solvers other than the caller's (a partitioned
    exploration's workers'), and their seconds."""
    solver_seconds: float = 0.0


@icontract.ensure(expand_sound, "W-T3.1 correct expansion", enabled=CONTRACTS)
@icontract.ensure(expand_complete, "W-T3.1 correct expansion", enabled=CONTRACTS)
@icontract.ensure(expand_monotone, "W-L2.2 monotone path conditions", enabled=CONTRACTS)
@icontract.ensure(expand_sound_sampled, "W-L2.3 one-step soundness", enabled=CONTRACTS)
@icontract.ensure(expand_complete_sampled, "W-L2.5 one-step completeness", enabled=CONTRACTS)
@icontract.ensure(locals_stay_local, "B-P1/B-P2 locals stay local", enabled=CONTRACTS)
@icontract.ensure(no_fresh_dereference, "B-H2 no dereference of fresh objects",
                  enabled=CONTRACTS)
def expand(state: SymState) -> list[SymState]:
    """The successors of a symbolic state under `→sym` (Fig. 7).

    :param state: the state `⟨φ, S, p⟩` to step.
    :return: zero to three successor states, each one step deeper, their new reads resolved
        with the path condition (alias.py's `resolve_reads`, B-H3).
    """
    children = resolve_reads(state, _expand(state.pc, state.store, state.frame, state.prog,
                                            state.depth + 1))
    return children if state.ghost is None else _carry_ghost(state, children)


@icontract.ensure(expand_monotone, "W-L2.2 monotone path conditions", enabled=CONTRACTS)
@icontract.ensure(expand_sound_sampled, "W-L2.3 one-step soundness", enabled=CONTRACTS)
@icontract.ensure(expand_complete_sampled, "W-L2.5 one-step completeness", enabled=CONTRACTS)
@icontract.ensure(locals_stay_local, "B-P1/B-P2 locals stay local", enabled=CONTRACTS)
@icontract.ensure(no_fresh_dereference, "B-H2 no dereference of fresh objects",
                  enabled=CONTRACTS)
def expand_split(state: SymState) -> list[SymState]:
    """`expand` under `--alias split` (alias.py): each successor's undecided alias questions
    split into their answers. Not one successor per rule (W-T3.1's count), so `expand_sound`'s
    shape and `expand_complete`'s count do not apply; the one-step lemmas do, at every sampled
    valuation, and each step still adds at most one conjunct.

    :param state: the state to step.
    :return: the successors, each one step deeper.
    """
    return split(state, expand(state))


def successors(invariants: bool = True) -> Callable[[SymState], list[SymState]]:
    """The step `run` takes under the aliasing strategy in force (alias.py): `expand`, or
    `expand_split` under `--alias split`, and, with `invariants` (unless switched off by
    `INVARIANTS`), the invariant transition T-I1 at a loop with an invariant (invariants.py)
    and the contract transition T-S1 at a call of a procedure with a contract (contracts.py);
    whoever steps a state as `run` does calls this. A configuration of threads steps by
    threads.py's `expand_config` over that step (seed 003 §5)."""
    base = expand_split if ALIAS.get() is Alias.SPLIT else expand
    if not (invariants and INVARIANTS.get()):
        return lambda s: expand_config(s, base) if s.config is not None else base(s)
    return lambda s: (expand_config(s, base) if s.config is not None  # threads: no T-I1
                      else expand_invariant(s) if applies(s.prog) else contracts.expand_call(s)
                      if contracts.applies(s.prog) else base(s))


def _carry_ghost(parent: SymState, children: list[SymState]) -> list[SymState]:
    """Ghost mode (seed 004): a successor keeps ρ only on the branch ρ takes (`ρ ⊨ φ'`)."""
    rho = parent.ghost
    assert rho is not None
    return [replace(t, ghost=rho) if t.pc is parent.pc or beval(rho, t.pc.last) else t
            for t in children]


Stack = Frame[Store] | None


def _expand(phi: PathCondition, store: Store, frame: Stack, p: Stmt,
            depth: int) -> list[SymState]:
    match p:
        case Skip():  # in a procedure: the end of its body returns 0 (seed 003's return)
            return [] if frame is None else [_return(phi, store, frame, Int(0), depth)]
        case Fail():
            return []
        case Seq(Skip(), q):
            return [SymState(phi, store, q, depth, frame=frame)]
        case Assign(x, e):
            ctx = scope(frame, store)
            if frame is None:
                inner, done = None, sym_update(store, x, e)
            else:  # seed 003's local or global assignment
                inner, done = assign(frame, store, x, sym_aeval(ctx, e))
            if not may_fail(e):
                return [SymState(phi, done, Skip(), depth, frame=inner)]
            ok = sym_guard(ctx, e)
            return [SymState(phi.extend(ok), done, Skip(), depth, frame=inner),
                    _by_zero(phi, ok, store, frame, p, depth)]
        case New():  # seed 003 §4: the next new object (a literal: B-T4), its fields 0 / nil
            last = store(ALLOC)
            writes = allocation(p, last.value if isinstance(last, Int) else 0)
            ctx = scope(frame, store)  # `y.f = new C` fails first where y is nil
            ok = sym_guard(ctx, writes[0].expr) if may_fail_at(p) else None
            inner, done = frame, store
            for a in writes:
                if inner is None:
                    done = sym_update(done, a.name, a.expr)
                else:
                    inner, done = assign(inner, done, a.name,
                                         sym_aeval(scope(inner, done), a.expr))
            if ok is None:
                return [SymState(phi, done, Skip(), depth, frame=inner)]
            return [SymState(phi.extend(ok), done, Skip(), depth, frame=inner),  # `y.f = new C`
                    _by_zero(phi, ok, store, frame, p, depth)]
        case Seq(p1, q):
            first = head(p1)
            if isinstance(first, (Call, Return)):
                return _procedure(phi, store, frame, p, first, depth)
            return [SymState(t.pc, t.store, Seq(t.prog, q), depth, frame=t.frame)
                    for t in _expand(phi, store, frame, p1, depth)]
        case Call() | Return():
            return _procedure(phi, store, frame, p, p, depth)
        case While(b, body, invariants=()):
            return _branch(phi, store, frame, p, b, Seq(body, p), Skip(), depth)
        case While():  # its invariant checked at the head, as an assertion
            return _checked(phi, store, frame, p, depth)
        case If(b, p1, p2):
            return _branch(phi, store, frame, p, b, p1, p2, depth)
        case Assert(b):
            return _branch(phi, store, frame, p, b, Skip(), Fail(p.pos, p), depth)
        case Assume(b):  # X-U1: one successor; the runs it blocks have none
            return _branch(phi, store, frame, p, b, Skip(), None, depth)
    raise TypeError(f"not a statement: {p!r}")


def _procedure(phi: PathCondition, store: Store, frame: Stack, p: Stmt, first: Call | Return,
               depth: int) -> list[SymState]:
    """Seed 003's procedure call and return for the program `p` whose next statement is
    `first`: a call pushes the callee's frame (parameters bound to the arguments' terms, other
    locals to 0) and saves `p`'s continuation; a `return` pops the frame and drops it. Where an
    argument may divide by zero, one more successor fails (X-A2); where the callee has a
    `requires` `P`, the call enters under `P` and fails under `¬P`."""
    ctx = scope(frame, store)
    exprs: tuple[AExpr, ...] = first.args if isinstance(first, Call) else (first.expr,)
    values = [sym_aeval(ctx, e) for e in exprs]
    out: list[SymState] = []
    ok: BExpr | None = None
    if any(map(may_fail, exprs)):
        ok = sym_guard(ctx, exprs[0])
        for e in exprs[1:]:
            ok = conj(ok, sym_guard(ctx, e))
        out.append(SymState(phi.extend(negate(ok)), store, Fail(first.pos, first, by_zero=True),
                            depth, frame=frame))
    if isinstance(first, Return):
        return [_return(phi if ok is None else phi.extend(ok), store, frame, values[0],
                        depth)] + out
    inner = enter(first, values, Int(0), Store.of, frame, after(p))
    if inner.proc.requires is None:
        return [SymState(phi if ok is None else phi.extend(ok), store, inner.proc.body, depth,
                         frame=inner)] + out
    pre = sym_beval(scope(inner, store), inner.proc.requires)  # checked at the call (T-S1)
    return [SymState(phi.extend(_guarded(ok, pre)), store, inner.proc.body, depth, frame=inner),
            SymState(phi.extend(_guarded(ok, negate(pre))), store, Fail(first.pos, first), depth,
                     frame=frame)] + out


def _guarded(ok: BExpr | None, c: BExpr) -> BExpr:
    return c if ok is None else assuming(ok, c)


def _return(phi: PathCondition, store: Store, frame: Stack, value: AExpr,
            depth: int) -> SymState:
    """Seed 003's procedure return: the caller's frame, `value` assigned to the call's target."""
    assert frame is not None  # `return` outside a procedure is a syntax error
    below, done, caller = leave(frame, store, value)
    return SymState(phi, done, caller, depth, frame=below)


def _branch(phi: PathCondition, store: Store, frame: Stack, p: Stmt, b: BExpr, yes: Stmt,
            no: Stmt | None, depth: int) -> list[SymState]:
    """The successors of a test of `b`, `φ ∧ ⟦b⟧_S` and `φ ∧ ¬⟦b⟧_S` (none for `no = None`:
    `assume`); where `b` may divide by zero, both also assume its guard `ok` and one more,
    `φ ∧ ¬ok`, fails (X-A2)."""
    ctx = scope(frame, store)
    cond = sym_beval(ctx, b)
    if not may_fail(b):
        out = [SymState(phi.extend(cond), store, yes, depth, frame=frame)]
        if no is not None:
            out.append(SymState(phi.extend(negate(cond)), store, no, depth, frame=frame))
        return out
    ok = sym_guard(ctx, b)
    out = [SymState(phi.extend(assuming(ok, cond)), store, yes, depth, frame=frame)]
    if no is not None:
        out.append(SymState(phi.extend(assuming(ok, negate(cond))), store, no, depth,
                            frame=frame))
    return out + [_by_zero(phi, ok, store, frame, p, depth)]


def _checked(phi: PathCondition, store: Store, frame: Stack, p: While,
             depth: int) -> list[SymState]:
    """The head of a loop with invariant `I`: `_branch`'s successors, each assuming `I` too,
    and `φ ∧ ¬I`, stuck at the loop's `fail` (the invariant does not hold)."""
    inv = sym_beval(scope(frame, store), p.invariant())
    again = p if p.entered else replace(p, entered=True)
    out = [replace(t, pc=phi.extend(assuming(inv, t.pc.last)))  # type: ignore[arg-type]
           for t in _branch(phi, store, frame, p, p.cond, Seq(p.body, again), Skip(), depth)]
    return out + [SymState(phi.extend(negate(inv)), store, Fail(p.pos, p), depth, frame=frame)]


def _by_zero(phi: PathCondition, ok: BExpr, store: Store, frame: Stack, p: Stmt,
             depth: int) -> SymState:
    """The successor where statement `p` divides by zero: `φ ∧ ¬ok`, stuck at `fail` (X-A2)."""
    return SymState(phi.extend(negate(ok)), store, Fail(p.pos, p, by_zero=True), depth,
                    frame=frame)


def _feasible(child: SymState, parent: SymState, solver: Solver, stats: RunStats,
              values: Valuations) -> SymState | None:
    """The child with a model if its path condition may be satisfiable, None if UNSAT."""
    if child.pc is parent.pc:
        return _with_model(child, parent)
    new = child.pc.last
    assert new is not None
    if isinstance(new, Bool):
        return _with_model(child, parent) if new.value else None
    if parent.model is not None and values.beval(parent.model, new):
        stats.model_reuse += 1
        return _with_model(child, parent)
    # The parent's model lets a conjunct independent of the parent's path be decided alone.
    answer, model = solver.check(child.pc,
                                 parent.model if child.pc.parent is parent.pc else None)
    if answer is Sat.UNSAT:
        return None
    if answer is Sat.UNKNOWN:
        stats.unknown += 1
    return SymState(child.pc, child.store, child.prog, child.depth, model, child.ghost,
                    child.frame, child.config)


def _with_model(child: SymState, parent: SymState) -> SymState:
    return SymState(child.pc, child.store, child.prog, child.depth, parent.model, child.ghost,
                    child.frame, child.config)


def _initial_check(state: SymState, solver: Solver) -> SymState | None:
    if state.model is not None:
        return state
    answer, model = solver.check(state.pc)
    if answer is Sat.UNSAT:
        return None
    return SymState(state.pc, state.store, state.prog, state.depth, model, state.ghost,
                    state.frame, state.config)


Watch = Callable[[SymState, SymState, Sat], None]
"""Told of every successor `run` generates: the parent, the successor, and whether its path
condition is SAT (kept), UNKNOWN (kept) or UNSAT (pruned). `symcert tree` draws from it."""

Explorer = Callable[..., Iterator["SymState | None"]]
"""What `find_bugs` and `Check` explore with: `run`, or a strategy with its signature
`(l, strategy, solver, stats, max_call_depth=...)` such as `partition.partitioned`."""

LoopCounts = tuple[tuple[int, int], ...]
"""How many times the path has entered each loop it is inside (the loop's `id`, the count)."""


def run(
    l: Iterable[SymState],
    strategy: Strategy = Strategy.BFS,
    solver: Solver | None = None,
    stats: RunStats | None = None,
    unroll: int | None = None,
    watch: Watch | None = None,
    max_call_depth: int | None = None,
) -> Iterator[SymState | None]:
    """The stream of states reachable from the worklist `l` (Fig. 6), then None forever.

    :param l: the initial worklist.
    :param strategy: BFS (a FIFO queue, as in the paper) or DFS (a stack).
    :param solver: prunes UNSAT successors when given; without it, nothing is pruned.
    :param stats: counters updated as the stream advances.
    :param unroll: when given, a path that would enter a loop more than `unroll` times in a row
        is dropped (loop unrolling, seed 001 T-X1: precise, not exhaustive); a loop's count
        starts again each time the loop is reached anew.
    :param watch: told of every successor and the solver's answer on it.
    :param max_call_depth: when given, a successor whose stack of calls is deeper is dropped
        (a budget: counted in `stats.too_deep`, so the run is not exhaustive).

    Under `--merge` (`merge.MERGE`, not with `unroll`) the frontier is merge.py's `Frontier`,
    which orders the states its own way and merges a successor into a waiting state at the
    same program and frames (T-M1).
    """
    stats = stats if stats is not None else RunStats()
    how = MERGE.get() if unroll is None else Merging.OFF
    frontier: deque[SymState] | Frontier = (deque() if how is Merging.OFF
                                            else Frontier(eager=how is Merging.ALL))
    for s in l:
        checked = _initial_check(s, solver) if solver is not None else s
        if checked is not None:
            frontier.append(checked)
        else:
            stats.pruned += 1
    loops: dict[int, LoopCounts] = {}  # with `unroll`: each frontier state's counts, by id
    values = Valuations()  # the parents' models' values, each node's computed once per model
    take = (frontier.take if isinstance(frontier, Frontier)
            else frontier.popleft if strategy is Strategy.BFS else frontier.pop)
    step = successors(invariants=unroll is None)  # unrolling is the other loop transition
    while frontier:
        state = take()
        stats.yielded += 1
        stats.frontier = len(frontier)
        yield state
        children = step(state)
        counts = (_entered(state, children, loops.pop(id(state), ()), unroll, step)
                  if unroll is not None else None)
        order = range(len(children))
        for i in reversed(order) if strategy is Strategy.DFS else order:
            child = children[i]
            if counts is not None and counts[i] is None:
                continue  # one iteration past the unrolling threshold: dropped
            if (max_call_depth is not None and child.frame is not None
                    and child.frame.height > max_call_depth):
                stats.too_deep += 1
                continue
            unknown = stats.unknown
            kept = _feasible(child, state, solver, stats, values) if solver is not None else child
            if watch is not None:
                watch(state, child, Sat.UNSAT if kept is None
                      else Sat.UNKNOWN if stats.unknown > unknown else Sat.SAT)
            if kept is None:
                stats.pruned += 1
                continue
            if counts is not None:
                loops[id(kept)] = counts[i]  # type: ignore[assignment]
            frontier.append(kept)
        if isinstance(frontier, Frontier):
            stats.merged = frontier.merges
    stats.frontier = 0
    while True:
        yield None


def _entered(state: SymState, children: list[SymState], counts: LoopCounts,
             bound: int, step: Callable[[SymState], list[SymState]]) -> list[LoopCounts | None]:
    """The loop counts of each child (None: past the bound). Stepping a `while` makes two
    children, entering then leaving (Fig. 7): entering adds one to the loop's count, leaving
    forgets it, so a loop reached again later starts from 0. Under `--alias split` a child is
    one case of an `expand` successor, whose program it has: it takes that successor's count."""
    loop = head(state.prog)
    if not isinstance(loop, While) or state.config is not None:  # threads: no unrolling bound
        return [counts] * len(children)
    if step is not expand:
        base = expand(state)
        of = _entered(state, base, counts, bound, expand)
        return [of[[t.prog for t in base].index(c.prog)] for c in children]
    key = id(loop)
    rest = tuple((k, n) for k, n in counts if k != key)
    entered = dict(counts).get(key, 0) + 1
    return [rest + ((key, entered),) if entered <= bound else None, rest]


@icontract.require(lambda n: n >= 0, enabled=CONTRACTS)
@icontract.ensure(lambda n, result: len(result) == n, enabled=CONTRACTS)
@icontract.ensure(run_terminates_soundly, "W-T3.3 sound termination of SE", enabled=CONTRACTS)
@icontract.ensure(lambda l, result: run_reachable_from(l, result, expand),
                  "W-T3.2 relative soundness of SE (W-D3.1)", enabled=CONTRACTS)
@icontract.ensure(lambda l, strategy, solver, result: bfs_successor_bound(
    l, strategy is Strategy.BFS, solver is not None, result, expand),
    "W-L3.1 reachability of successors (BFS bound; W-T3.4)", enabled=CONTRACTS)
def run_n(
    l: list[SymState],
    n: int,
    strategy: Strategy = Strategy.BFS,
    solver: Solver | None = None,
) -> list[SymState | None]:
    """The first `n` elements of `run(l)`, eagerly: the twin the stream lemmas are stated on.

    :param l: the initial worklist.
    :param n: how many elements to take.
    """
    with unrolled():  # the stream lemmas speak of Fig. 6 over `expand`: no invariant transition
        return list(islice(run(l, strategy, solver), n))
