"""Symbolic execution of `L` as concrete execution of `L^sym` (seed 002 §4.4, §6.3).

A symbolic configuration `⟨γˢ, φ⟩` is a configuration of `L^sym`: its cells hold data over
symbolic values (an identifier `a` of the program starts bound to the symbolic value `a`, as
`symInt(a)` in §6.3) and its `cnd` cell the path condition `φ` (a `core.state.PathCondition`).
A step is a step of the *same* rewrite engine (rewrite.py) on the derived rules, with `unsat`
interpreted by symcert's three-valued solver: `unsat(φ)` is true only when the solver answers
UNSAT; SAT and UNKNOWN both let the rule apply (Remark 1: only soundness of `unsat` is needed,
so pruning never drops a feasible path).

`sym_run` explores the symbolic transition system breadth-first from one configuration, with a
worklist (no recursion), and yields each leaf: a configuration where no rule applies, finished
(`k` empty) or stuck (a bug when its `k` starts with `fail`).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any, Iterator

from symcert.core.state import PathCondition
from symcert.seed002.definition import Definition
from symcert.seed002.rewrite import Config, Engine, Transition, initial
from symcert.seed002.terms import FOL

__all__ = ["Leaf", "Trail", "labels_of", "path_condition", "sym_initial", "sym_run", "sym_step"]


def sym_initial(dsym: Definition, program: Any) -> Config:
    """`⟨γˢ, true⟩`: the program in `k`, each of its identifiers bound to its symbolic value.

    :param dsym: a derived definition (`derive.derive`).
    :param program: a program term (`semfile.parse_program` with `dsym` or its `L`).
    """
    if not dsym.symbolic:
        raise ValueError(f"{dsym.name} is not a derived definition: derive it first")
    return initial(dsym, program, symbolic=True)


def sym_step(dsym: Definition, cfg: Config, solver: Any) -> list[Transition]:
    """Every `⟨γˢ, φ⟩ ⇒α^sym ⟨γ'ˢ, φ'⟩` (the transitions of `L^sym`, Def. 2).

    :param solver: a `solver.z3backend.Solver`; `unsat` is its UNSAT answer.
    """
    return Engine(dsym, solver).step(cfg)


def path_condition(dsym: Definition, cfg: Config) -> PathCondition:
    """The path condition `φ` of a symbolic configuration (its `cnd` cell)."""
    return cfg.cells[next(i for i, c in enumerate(dsym.cells) if c.sort == FOL)]


@dataclass(frozen=True, slots=True)
class Trail:
    """The rule labels of a path, last first, as a persistent list: a step adds one cell and
    shares the path before it (copying a tuple per step would be quadratic in the depth)."""

    label: str
    before: Trail | None = None


def labels_of(trail: Trail | None) -> tuple[str, ...]:
    """The labels of `trail`, first first (`β`)."""
    out: list[str] = []
    while trail is not None:
        out.append(trail.label)
        trail = trail.before
    return tuple(reversed(out))


@dataclass(frozen=True, slots=True)
class Leaf:
    """A symbolic configuration where no rule of `L^sym` applies, and the rule labels of the
    path that reached it (`β^sym`)."""

    config: Config
    labels: tuple[str, ...]


def sym_run(dsym: Definition, cfg: Config, solver: Any, max_states: int = 100_000,
            max_depth: int | None = None) -> Iterator[Leaf]:
    """The leaves of the symbolic execution tree from `cfg`, breadth-first.

    :param max_states: stop after this many configurations have been expanded.
    :param max_depth: do not expand configurations this many steps deep (None: no bound).
    """
    engine = Engine(dsym, solver)
    todo: deque[tuple[Config, Trail | None, int]] = deque([(cfg, None, 0)])
    expanded = 0
    while todo and expanded < max_states:
        c, trail, depth = todo.popleft()
        if max_depth is not None and depth >= max_depth:
            continue
        expanded += 1
        nexts = engine.step(c)
        if not nexts:
            yield Leaf(c, labels_of(trail))
        for t in nexts:
            todo.append((t.target, Trail(t.label, trail), depth + 1))
