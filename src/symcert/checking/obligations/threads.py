# crosshair: off
"""Obligations per rule of threads (seed 003 §5): the symbolic global step of a configuration
(`engine.threads`: `thread_moves` per thread, the deadlock successor of `expand_config`) against
the concrete one (`core.threads`: `step_thread`, `deadlocked`), one step, for every thread of a
schematic configuration.

A schematic configuration is a global store `S` (`x ↦ ?sx`, the operands `?e1 ↦ ?t1`, `?e2 ↦
?t2`, a future `f` bound to a thread's number, `$1 ↦ ?r` where thread 1 has returned) and
threads: the main statement's (thread 0) and a worker's (thread 1, in the frame of
`proc w(k)`, `k ↦ ?tk`), each at a statement of the variant; its concretization is `V0∘S` and
each thread's program with `V0∘Σ` (`concretize_frames`). For thread i:

- soundness: under the path condition of each symbolic successor where thread i steps, thread i
  steps concretely to the successor's concretization (globals, every thread's program and
  stack); where thread i cannot step concretely, no successor of it is satisfiable;
- completeness: under `φ`, where thread i steps concretely, some successor of thread i holds and
  is that step;

and for the configuration, B-X4: the deadlock successor's path condition holds only where the
concrete configuration is deadlocked (soundness), and does where it is (completeness). Each is
named by the rule of thread i's statement: `B-X1/local` (a thread's step of the sequential
semantics, lifted), `B-X1/await`, `B-X1/await-then`, `B-X2/spawn`, `B-X3/get`, `B-X4/deadlock`.
"""

from __future__ import annotations

from symcert.checking.obligations.common import PHI, V0, Draft, Obligation, X, Y, collect
from symcert.checking.obligations.common import env_equal, frames_equal, schematic_store
from symcert.verify.smtlib import Script, conj, disj
from symcert.core.concrete import head
from symcert.core.state import Store, SymState, concretize, concretize_frames
from symcert.core.threads import (
    Config, Thread, deadlocked, result_name, settle, spawned, step_thread,
)
from symcert.engine import por
from symcert.engine.explore import expand
from symcert.engine.threads import configuration, expand_config, thread_moves
from symcert.lang.procedures import declare
from symcert.lang.syntax import (
    Add, Assign, Assume, Await, Cmp, Div, Fail, Get, If, Int, Procedures, Return, Skip, Spawn,
    Stmt, Var,
)
from symcert.lang.structure import variables
from symcert.spec.definedness import defined

PROCS = Procedures()
"""The program's table: `proc w() begin ?BODY = 0 end` and `proc v(k) begin ?BODY = 0 end` (a
worker's statements are the variant's, run in its frame; a local in a frame doubles the paths,
as a compared global does, so only `v` has one)."""
PROCS["w"] = declare("w", [], Assign("?BODY", Int(0)), None, PROCS)
PROCS["v"] = declare("v", ["k"], Assign("?BODY", Int(0)), None, PROCS)

E1, E2, K, F = Var("?e1"), Var("?e2"), Var("k"), "f"
ATOM1, ATOM2 = Cmp("<=", Var(X), E1), Cmp("<=", Var(Y), E2)
"""The conditions of `await`, `if` and `assert`: two atoms over globals the steps compare
anyway (each name compared doubles the paths: `Env.of` branches on a value being 0)."""
S = schematic_store((X, Var("?sx")), ("?e1", Var("?t1")), ("?e2", Var("?t2")), (F, Int(0)))
"""The globals: `x ↦ ?sx`, the operands, and the future `f` holding no thread yet."""
FINISHED = Thread(Skip())
"""A worker that has returned."""


def worker(p: Stmt, local: bool = False) -> Thread[Store]:
    """Thread 1, spawned by `spawn w()` (`spawn v(?tk)` with a `local`), at the statement `p`
    in the procedure's frame."""
    args = (Var("?tk"),) if local else ()
    t = spawned(Spawn("v" if local else "w", args, None, None, PROCS), 1, list(args), Int(0),
                Store.of)
    return Thread(settle(p), t.frame)


def _joined(store: Store) -> Store:
    """`store` with `f ↦ 1` and `$1 ↦ ?r`: thread 1 was spawned into `f` and has returned."""
    return store.update(F, Int(1)).update(result_name(1), Var("?r"))


Variant = tuple[str, Store, tuple[Thread[Store], ...]]


def variants() -> list[Variant]:
    """The schematic configurations: (variant, globals, threads)."""
    started = S.update(F, Int(1))
    return [
        ("assign+assign", S, (Thread(Assign(X, E1)), worker(Assign(Y, E2)))),
        ("return", S, (Thread(Skip()), worker(Return(Add(K, E1)), local=True))),
        ("end", S, (Thread(Skip()), worker(Skip()))),
        ("spawn", S, (Thread(Spawn("v", (E1,), F, None, PROCS)),)),
        ("spawn-div", S, (Thread(Spawn("v", (Div(E1, E2),), None, None, PROCS)),)),
        ("get-returned", _joined(S), (Thread(Get(Y, F)), FINISHED)),
        ("get-running", started, (Thread(Get(Y, F)), worker(Await(ATOM2)))),
        ("get-non-future", S, (Thread(Get(Y, F)),)),
        ("await+await", S, (Thread(Await(ATOM1)), worker(Await(ATOM2)))),
        ("await-then+assign", S, (Thread(Await(ATOM1, Assign(X, E1))),
                                  worker(Assign(X, E2)))),
        ("await-then-if", S, (Thread(Await(ATOM1, If(ATOM2, Assign(X, E1), Assign(Y, E2)))),
                              FINISHED)),
        ("await-div", S, (Thread(Await(Cmp("<=", Div(E1, E2), Var(X)))), FINISHED)),
        ("assume+await", S, (Thread(Assume(ATOM1)), worker(Await(ATOM2)))),
    ]


def rule(p: Stmt) -> tuple[str, str]:
    """The lemma and rule of a thread's step at program `p`."""
    first = head(p)
    if isinstance(first, Spawn):
        return "B-X2", "spawn"
    if isinstance(first, Get):
        return "B-X3", "get"
    if isinstance(first, Await):
        return "B-X1", "await" if isinstance(first.body, Skip) else "await-then"
    return "B-X1", "local"


def _names(store: Store, threads: tuple[Thread[Store], ...]) -> tuple[str, ...]:
    """The globals compared: `x`, `y`, the future, thread 1's result where a thread returns
    or gets, and what the threads read."""
    read = {v for t in threads for v in variables(t.prog) if v not in ("k", "?BODY")}
    returns = any(isinstance(head(t.prog), (Get, Return)) or t.frame is not None
                  and isinstance(t.prog, Skip) for t in threads)
    return tuple(sorted({X, Y, F, *read} | ({result_name(1)} if returns else set())))


def _concrete(state: SymState, names: tuple[str, ...]) -> Config:
    """`V0` applied to a configuration: the globals on `names`, each thread's stack."""
    assert state.config is not None
    return Config(concretize(V0, state.store, frozenset(names)),
                  tuple(Thread(t.prog, concretize_frames(V0, t.frame))
                        for t in state.config.threads))


def _same(s: Script, c: Config | None, t: SymState, names: tuple[str, ...]) -> str:
    """The concrete configuration `c` is the concretization of the symbolic `t`."""
    mine = defined(lambda: _concrete(t, names))
    if c is None or mine is None:  # no concrete step, or `V0∘S'` divides by zero
        return "false"
    if len(c.threads) != len(mine.threads) or any(
            a.prog != b.prog for a, b in zip(c.threads, mine.threads)):
        return "false"
    return conj([env_equal(s, c.env, mine.env, names),
                 *(frames_equal(s, a.frame, b.frame) for a, b in zip(c.threads, mine.threads))])


def global_steps(store: Store, threads: tuple[Thread[Store], ...]) -> list[Draft]:
    """The soundness and completeness obligations of every thread's step and of the deadlock
    successor at one schematic configuration."""
    names = _names(store, threads)
    state = configuration(PHI, store, threads, (), 0)
    start = _concrete(state, names)
    drafts: list[Draft] = []
    for i, t in enumerate(threads):
        if t.finished:
            continue
        lemma, name = rule(t.prog)
        moves = thread_moves(state, i, expand)
        nxt = step_thread(start, i)
        for k, m in enumerate(moves):
            s = Script()
            drafts.append(Draft(lemma, f"{name}/sound/thread{i}/{k}", s,
                                [s.conjunction(m.pc.conjuncts())], _same(s, nxt, m, names),
                                state, names, m))
        s = Script()
        goal = ("true" if nxt is None else
                disj(conj([s.conjunction(m.pc.conjuncts()), _same(s, nxt, m, names)])
                     for m in moves))
        drafts.append(Draft(lemma, f"{name}/complete/thread{i}", s,
                            [s.conjunction(PHI.conjuncts())], goal, state, names))
    with por.reducing(False):
        dead = [d for d in expand_config(state, expand)
                if isinstance(d.prog, Fail) and d.prog.deadlock]
    stuck = deadlocked(start) is not None
    for k, d in enumerate(dead):
        s = Script()
        drafts.append(Draft("B-X4", f"deadlock/sound/{k}", s, [s.conjunction(d.pc.conjuncts())],
                            "true" if stuck else "false", state, names, d))
    s = Script()
    goal = disj(s.conjunction(d.pc.conjuncts()) for d in dead) if stuck else "true"
    drafts.append(Draft("B-X4", "deadlock/complete", s, [s.conjunction(PHI.conjuncts())], goal,
                        state, names))
    return drafts


def thread_rules() -> list[Obligation]:
    """The obligations of every schematic configuration of `variants`, named
    `<lemma>/<rule>/sound/thread<i>/<k>/<variant>` (the k-th successor of thread i) or
    `<lemma>/<rule>/complete/thread<i>/<variant>`, and `B-X4/deadlock/...` alike."""
    out: list[Obligation] = []
    for variant, store, threads in variants():
        out += collect(variant, lambda store=store, threads=threads: global_steps(store, threads))
    return out


THREAD_RULES = (("B-X1", "local"), ("B-X1", "await"), ("B-X1", "await-then"),
                ("B-X2", "spawn"), ("B-X3", "get"), ("B-X4", "deadlock"))
"""The (lemma, rule) pairs every replay must have obligations for."""
