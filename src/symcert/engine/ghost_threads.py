"""Ghost interpretations for configurations of threads (seed 004 Sect. 3.1-3.2 over seed 003 §5).

The global step (B-X1 to B-X4, `threads.expand_config`) introduces no symbolic variable, as
`expand` introduces none, so a configuration's ghost is the input `ρ` fixed along the path
(ghost.py, M-E1). What `ρ` alone does not fix is the schedule: a concrete run is an input and
a schedule. Ghost mode for configurations therefore pairs a concrete configuration `c`
(core/threads.py) with the ghost state `g` the same schedule reached, `ρ∘g = c`, and checks one
step of the full global transition (`--por off`) without a solver (`ghost_step`):

- M-P4 (under-approximation): every successor of `g` whose path condition `ρ` satisfies (a
  *ghost successor*, which carries `ρ`) is the concrete step of its thread from `c`: globals,
  every thread's program and stack, futures (`concretize_config`), and whether the whole
  configuration is stuck; at most one per thread, none for a thread that cannot step; a
  deadlock successor only where `c` is deadlocked (B-X4);
- M-P3 (over-approximation): every thread that steps concretely from `c` has a ghost successor
  where it steps, and a deadlocked `c` has a ghost deadlock successor.

`check_ghost_schedule` follows one schedule (`core.threads.run_schedule`'s configurations);
`check_ghost_schedules` checks every schedule from `ρ`, breadth first, pairs met twice checked
once (the step is a function of the pair), up to a depth and a number of pairs.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Sequence

from symcert.core.concrete import Env, is_stuck
from symcert.core.state import SymState, concretize, concretize_frames, satisfies
from symcert.core.threads import (
    Config, Thread, deadlocked, initial_config, run_schedule, step_thread, stuck_at,
)
from symcert.engine import por
from symcert.engine.explore import successors
from symcert.engine.ghost import ghost_initial, ghost_interprets
from symcert.lang.structure import variables
from symcert.engine.threads import Step
from symcert.lang.syntax import Fail, Stmt

Pair = tuple[Config, SymState]
"""A concrete configuration and the ghost state that the same schedule reached."""


def ghost_start(p: Stmt, rho: Env) -> Pair:
    """The initial configuration of `p` from `ρ` (restricted to `p`'s variables, futures 0) and
    the initial symbolic configuration carrying `ρ`."""
    g = ghost_initial(p, rho)
    assert g.ghost is not None and g.config is not None
    return initial_config(g.ghost, p), g


def concretize_config(g: SymState, names: frozenset[str] = frozenset()) -> Config:
    """`ρ∘g`: the globals `ρ∘σ` (on `names`, the names `σ` binds and `dom(ρ)`: every other
    global is 0 in both) and every thread with its stack `ρ∘Σ` (seed 003 Thm. 3)."""
    rho, config = g.ghost, g.config
    assert rho is not None and config is not None
    names = names | {x for x, _ in g.store.bindings} | {x for x, _ in rho.bindings}
    return Config(concretize(rho, g.store, names),
                  tuple(Thread(t.prog, concretize_frames(rho, t.frame)) for t in config.threads))


def matches(g: SymState, c: Config) -> str | None:
    """None when `ρ∘g = c` and `g` is stuck exactly where `c` is (a thread about to `fail`),
    else what differs."""
    mine = concretize_config(g, frozenset(x for x, _ in c.env.bindings))
    if mine.env != c.env:
        return f"the globals are {mine.env.show()}, concretely {c.env.show()}"
    if len(mine.threads) != len(c.threads):
        return f"{len(mine.threads)} threads, concretely {len(c.threads)}"
    for k, (t, u) in enumerate(zip(mine.threads, c.threads)):
        if t.prog != u.prog:
            return f"thread {k} runs `{t.prog}`, concretely `{u.prog}`"
        if t.frame != u.frame:
            return f"thread {k}'s stack differs"
    if is_stuck(g.prog) != (stuck_at(c.threads) is not None):
        return "stuck" + (", concretely not" if is_stuck(g.prog) else " concretely only")
    return None


def ghost_successors(g: SymState, step: Step) -> list[SymState]:
    """Ghost mode's step: the successors of `g` whose path condition its ghost `ρ` satisfies,
    carrying `ρ` (the others are the successors of other inputs).

    :param step: the global step (`explore.successors()`).
    """
    rho = g.ghost
    assert rho is not None
    return [replace(s, ghost=rho) for s in step(g) if satisfies(rho, s.pc)]


def ghost_step(c: Config, g: SymState, step: Step,
               names: frozenset[str]) -> str | list[tuple[int, Config, SymState]]:
    """One step of ghost mode from the pair `(c, g)`: each thread's concrete step and its ghost
    successor (M-P3, M-P4 and B-X4, module docstring), or the first miss.

    :param step: the global step (`explore.successors()`, run under `por.reducing(False)`).
    :param names: the variables `ρ` interprets (M-I1).
    """
    rho, config = g.ghost, g.config
    assert rho is not None and config is not None
    moves: dict[int, SymState] = {}
    dead = False
    for s in ghost_successors(g, step):
        if not ghost_interprets(s, names):  # M-I1
            return f"a ghost successor mentions symbols ρ does not interpret: {s.pc}"
        assert s.config is not None
        if len(s.config.schedule) == len(config.schedule):  # no thread stepped: B-X4
            if not (isinstance(s.prog, Fail) and s.prog.deadlock):
                return "a successor where no thread steps and no deadlock (M-P4)"
            changed = matches(replace(s, prog=g.prog), c)
            if changed is not None:
                return f"the deadlock successor changed the configuration: {changed} (M-P4)"
            dead = True
            continue
        i = s.config.schedule[-1]
        if i in moves:
            return f"two ghost successors where thread {i} steps (M-P4)"
        moves[i] = s
    out: list[tuple[int, Config, SymState]] = []
    for i in sorted(set(range(len(c.threads))) | set(moves)):
        nxt = step_thread(c, i) if i < len(c.threads) else None
        mine = moves.get(i)
        if nxt is None and mine is not None:
            return f"a ghost successor where thread {i} steps, which cannot step concretely (M-P4)"
        if nxt is not None and mine is None:
            return f"thread {i} steps concretely, no ghost successor does (M-P3)"
        if nxt is not None and mine is not None:
            differs = matches(mine, nxt)
            if differs is not None:
                return f"where thread {i} steps, {differs} (M-P4)"
            out.append((i, nxt, mine))
    if dead != (deadlocked(c) is not None):
        return ("a ghost deadlock successor, concretely no deadlock (M-P4)" if dead
                else "a concrete deadlock, no ghost deadlock successor (M-P3)")
    return out


def _shown(g: SymState) -> str:
    assert g.config is not None
    return f"after the schedule {list(g.config.schedule)}"


def check_ghost_schedule(p: Stmt, rho: Env, schedule: Sequence[int], then: int = 0) -> str | None:
    """Ghost mode along one schedule: None when each configuration `core.threads.run_schedule`
    reaches from `ρ` under `schedule` (then `then` steps of the default schedule) is the
    concretization of the ghost successor of the thread scheduled, and every configuration on
    the way, the last one included, passes `ghost_step`; else the first miss.

    :raises ScheduleError: where `schedule` names a thread that cannot step.
    """
    c, g = ghost_start(p, rho)
    names = variables(p)
    first = matches(g, c)
    if first is not None:
        return f"at the start, {first}"
    with por.reducing(False):
        step = successors()
        for i, nxt in run_schedule(c, schedule, len(schedule) + then):
            if i is None:
                continue
            found = ghost_step(c, g, step, names)
            if isinstance(found, str):
                return f"{_shown(g)}: {found}"
            c, g = nxt, next(s for j, _, s in found if j == i)
        found = ghost_step(c, g, step, names)  # the last configuration's steps and deadlock
    return f"{_shown(g)}: {found}" if isinstance(found, str) else None


@dataclass(frozen=True, slots=True)
class GhostCheck:
    """What `check_ghost_schedules` found: the first miss (None: none), how many pairs it
    stepped, the depth `d` such that every schedule of at most `d` steps was checked, and
    whether every schedule ended within it (no pair left to step)."""

    miss: str | None
    pairs: int
    depth: int
    complete: bool


def check_ghost_schedules(p: Stmt, rho: Env, depth: int | None = None,
                          max_pairs: int = 5000) -> GhostCheck:
    """Ghost mode over every schedule from `ρ` of at most `depth` steps, level by level (a level
    that would pass `max_pairs` pairs in all is not started): the full global transition
    (`--por off`) against every interleaving of the concrete configurations, no solver.

    :param depth: the longest schedule checked (None: as long as `max_pairs` allows).
    :param max_pairs: the budget of pairs (concrete configuration, ghost state).
    """
    c, g = ghost_start(p, rho)
    names = variables(p)
    first = matches(g, c)
    if first is not None:
        return GhostCheck(f"at the start, {first}", 0, 0, False)
    level: list[Pair] = [(c, g)]
    seen: set[Pair] = {(c, g)}
    pairs = 0
    with por.reducing(False):
        step = successors()
        levels = max_pairs + 1 if depth is None else depth  # a level steps one pair at least
        for d in range(levels):
            if not level or pairs + len(level) > max_pairs:
                return GhostCheck(None, pairs, d, not level)
            after: list[Pair] = []
            for c, g in level:
                found = ghost_step(c, g, step, names)
                pairs += 1
                if isinstance(found, str):
                    return GhostCheck(f"{_shown(g)}: {found}", pairs, d, False)
                for _, nxt, s in found:
                    if (nxt, s) not in seen:
                        seen.add((nxt, s))
                        after.append((nxt, s))
            level = after
    return GhostCheck(None, pairs, levels, not level)
