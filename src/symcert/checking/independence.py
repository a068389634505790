"""The independence oracle: B-X5's premise judged on the concrete configurations (seed 003 §5,
core/threads.py), a second checker of the reduction that never reads its read and write sets.

The partial-order reduction (engine/por.py, after Godefroid 1996: Thms. 4.3 and 6.12) rests on
two claims about the steps of threads, which it derives from what each step reads and writes:
- **pairs** (the sleep sets): where `por.independent` calls the next steps of threads `i` and
  `j` independent, they *commute*: from the configuration `c`, `i` then `j` and `j` then `i`
  reach the same configuration, neither step enables nor disables the other, and a step that
  fails (`fail`, a failed `get`) fails at the same statement whichever runs first;
- **persistence** (the singletons): where `por.singletons` yields `{i}`, thread `i`'s next step
  stays enabled and commutes with every step the other threads may take before it, and with
  those of the threads they spawn.

The oracle asks the reduction for its claims at sampled reachable configurations and judges
each with `core.threads.step_thread` alone (`commute`). The configurations are the ghost pairs
(engine/ghost_threads.py) along random schedules from a concrete input `ρ`: a concrete
configuration `c` and the symbolic configuration `g` that the same schedule reached, `ρ∘g = c`
(checked at every step: M-P3, M-P4); the claims are made at `g` (its store and path condition,
as the engine makes them) and checked at `c`. It also counts, by the kinds of the two
statements (`kind`), the claims it checked and the pairs it saw not commute (the dependencies
the programs exercise): the campaign prints the counts, so a statement kind that no generated
program puts on either side of a dependency shows as a gap.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from symcert.checking.disagreement import Disagreement
from symcert.core.concrete import Env, head
from symcert.core.state import SymState
from symcert.core.threads import Config, Thread, is_threaded, step_thread, stuck_at
from symcert.engine import por
from symcert.engine.explore import successors
from symcert.engine.ghost_threads import Pair, ghost_start, ghost_step, matches
from symcert.lang.parser import parse
from symcert.lang.procedures import show_program
from symcert.lang.structure import variables
from symcert.lang.syntax import (
    Assert, Assign, Assume, Await, Call, Fail, Get, If, New, Return, Skip, Spawn, Stmt, Update,
    While, is_field,
)
from symcert.solver.z3backend import Solver

WALKS = 12
"""Random schedules followed from each input."""
MAX_PAIRS = 400
"""The ghost pairs (configurations) one input's walks may visit."""
OTHERS = 48
"""The configurations the other threads may reach that a persistence claim is checked at."""

Outcome = Config | Fail | None
"""A thread's step from a configuration: the configuration it reaches, the `fail` it stops at
(the configuration is stuck), or None where it cannot step (finished or blocked)."""


def outcome(c: Config, i: int) -> Outcome:
    """Thread `i`'s concrete step from `c` (`Outcome`)."""
    nxt = step_thread(c, i) if i < len(c.threads) else None
    if nxt is None:
        return None
    failing = stuck_at(nxt.threads)
    return failing if failing is not None else nxt


def _same_failure(a: Outcome, b: Outcome) -> bool:
    return isinstance(a, Fail) and isinstance(b, Fail) and a == b and a.pos == b.pos


def _shown(o: Outcome) -> str:
    return ("blocked" if o is None else f"fails at `{o.origin or o}`" if isinstance(o, Fail)
            else "steps")


def commute(c: Config, i: int, j: int) -> str | None:
    """None when the steps of threads `i` and `j` from `c` commute (module docstring), else how
    they do not: a step that enables, disables or changes the failure of the other, or two
    orders that reach different configurations."""
    first = {i: outcome(c, i), j: outcome(c, j)}
    for x, y in ((i, j), (j, i)):
        after = first[y]
        if not isinstance(after, Config):
            continue
        again = outcome(after, x)
        if (again is None) != (first[x] is None) or isinstance(again, Fail) != isinstance(
                first[x], Fail) or (isinstance(again, Fail) and not _same_failure(again,
                                                                                   first[x])):
            return (f"thread {x} {_shown(first[x])} before thread {y}'s step and "
                    f"{_shown(again)} after it")
    a, b = first[i], first[j]
    if isinstance(a, Config) and isinstance(b, Config):
        ij, ji = outcome(a, j), outcome(b, i)
        if isinstance(ij, Config) and isinstance(ji, Config) and (
                ij.env != ji.env or ij.threads != ji.threads):
            return (f"thread {i} then {j} reaches {ij.env.show()}, thread {j} then {i} "
                    f"reaches {ji.env.show()}" + (" (the threads differ)"
                                                   if ij.env == ji.env else ""))
    return None


def kind(t: Thread[Env]) -> str:
    """The kind of thread `t`'s next statement, as the coverage counts name it: `end` (a body's
    end, which returns 0), `return`, `get`, `await`, `await-then`, `spawn`, `call`, `new`,
    `field` and `array` (a write of a field or a cell), `local` (of a procedure), `assign`,
    `assert`, `assume`, `if`, `while`."""
    first = head(t.prog)
    match first:
        case Skip():
            return "end"
        case Await(_, body):
            return "await" if isinstance(body, Skip) else "await-then"
        case Assign(x, e) if isinstance(e, Update):
            return "field" if is_field(x) else "array"
        case Assign(x) if t.frame is not None and x in t.frame.proc.locals:
            return "local"
    names = {Return: "return", Get: "get", Spawn: "spawn", Call: "call", New: "new",
             Assign: "assign", Assert: "assert", Assume: "assume", If: "if", While: "while"}
    return names.get(type(first), type(first).__name__.lower())


KINDS = ("assign", "local", "array", "field", "new", "assert", "assume", "if", "while", "call",
         "return", "end", "spawn", "get", "await", "await-then")
"""The kinds of statements `kind` tells apart (a thread's next statement is one of them)."""


def by_kind(pairs: Counter[str]) -> dict[str, int]:
    """The counts of pairs (`a × b`) added up by kind: each pair counts once for each of its
    kinds (`KINDS` order; a kind in no pair counts 0)."""
    out = dict.fromkeys(KINDS, 0)
    for pair, n in pairs.items():
        for k in set(pair.split(" × ")):
            out[k] = out.get(k, 0) + n
    return out


def _pair(c: Config, i: int, j: int) -> str:
    return " × ".join(sorted((kind(c.threads[i]), kind(c.threads[j]))))


@dataclass
class Independence:
    """What the oracle found from one input: the first claim refuted (None: none) or ghost pair
    that is not one (`ghost`), how many
    configurations it visited and claims it checked, and the coverage counts by the kinds of the
    two statements: `claimed`, pairs called independent (each claim of persistence counted
    by the pairs it was checked on); `dependent`, pairs seen not to commute."""

    miss: str | None = None
    ghost: bool = False
    """Whether the miss is the ghost pairs' own (M-P3, M-P4: `ghost_threads.ghost_step`)."""
    configurations: int = 0
    claims: int = 0
    claimed: Counter[str] = field(default_factory=Counter)
    dependent: Counter[str] = field(default_factory=Counter)

    def add(self, other: Independence) -> None:
        """Add `other`'s counts to these."""
        self.configurations += other.configurations
        self.claims += other.claims
        self.claimed.update(other.claimed)
        self.dependent.update(other.dependent)


def check_at(c: Config, g: SymState, found: Independence) -> str | None:
    """Check the reduction's claims at the ghost pair `(c, g)` (module docstring), counting in
    `found`; the first refuted claim, or None."""
    assert g.config is not None
    if stuck_at(c.threads) is not None:
        return None
    waiting = [i for i, t in enumerate(c.threads) if not t.finished]
    sym = g.config.threads
    steps = {i: por.step(sym[i], g.store) for i in waiting}
    for n, i in enumerate(waiting):
        for j in waiting[n + 1:]:
            wrong = commute(c, i, j)
            if wrong is not None:
                found.dependent[_pair(c, i, j)] += 1
            if por.independent(steps[i], steps[j], g.pc):
                found.claims += 1
                found.claimed[_pair(c, i, j)] += 1
                if wrong is not None:
                    return (f"threads {i} (`{head(c.threads[i].prog)}`) and {j} "
                            f"(`{head(c.threads[j].prog)}`) are called independent, but {wrong}")
    for i in por.singletons(g):
        wrong = _persistent(c, i, found)
        if wrong is not None:
            return f"thread {i} (`{head(c.threads[i].prog)}`) is a persistent set, but {wrong}"
    return None


def _persistent(c: Config, i: int, found: Independence) -> str | None:
    """Thread `i`'s step stays enabled and commutes with each step of the others at each
    configuration they reach from `c` without `i` (at most `OTHERS`, breadth first)."""
    seen = {c}
    todo = [c]
    found.claims += 1
    while todo:
        d = todo.pop(0)
        if stuck_at(d.threads) is not None:
            continue
        if outcome(d, i) is None:
            return f"it is blocked after the others' steps to {d.env.show()}"
        for j in range(len(d.threads)):
            if j == i or outcome(d, j) is None:
                continue
            found.claimed[_pair(d, i, j)] += 1
            wrong = commute(d, i, j)
            if wrong is not None:
                return wrong
            nxt = step_thread(d, j)
            if nxt is not None and nxt not in seen and len(seen) < OTHERS:
                seen.add(nxt)
                todo.append(nxt)
    return None


def check_independence(p: Stmt, rho: Env, seed: int = 0, walks: int = WALKS,
                       max_pairs: int = MAX_PAIRS) -> Independence:
    """The oracle from the input `ρ`: `walks` random schedules of the full global step (seeded
    by `seed`), the claims checked at each ghost pair met (at most `max_pairs`)."""
    rng = random.Random(seed)
    found = Independence()
    start = ghost_start(p, rho)
    names = variables(p)
    miss = matches(start[1], start[0])
    if miss is not None:
        found.miss = f"at the start, {miss}"
        return found
    seen: dict[Pair, list[tuple[int, Config, SymState]]] = {}
    with por.reducing(False):
        step = successors()
        for _ in range(walks):
            c, g = start
            while (c, g) in seen or len(seen) < max_pairs:
                if (c, g) not in seen:
                    found.configurations += 1
                    miss = check_at(c, g, found)
                    if miss is not None:
                        found.miss = f"{_after(g)}: {miss}"
                        return found
                    moves = ghost_step(c, g, step, names)
                    if isinstance(moves, str):
                        found.miss, found.ghost = f"{_after(g)}: {moves}", True
                        return found
                    seen[(c, g)] = moves
                if not seen[(c, g)]:
                    break
                _, c, g = rng.choice(seen[(c, g)])
    return found


def _after(g: SymState) -> str:
    assert g.config is not None
    return f"after the schedule {','.join(map(str, g.config.schedule)) or '(none)'}"


_last = Independence()
"""The counts of the last `check` (the campaign adds them to its coverage)."""


def take_counts() -> Independence:
    """The counts of the checks since the last call (and start afresh)."""
    global _last
    out, _last = _last, Independence()
    return out


def counted(more: Independence) -> None:
    """Add `more` to the counts `take_counts` gives next (a child process's, for one)."""
    _last.add(more)


def check(p: Stmt, sigmas: list[Env], solver: Solver) -> Disagreement | None:
    """The campaign's check `independence`: the oracle from each input of `sigmas`, on the
    program printed and parsed back (failures are told apart by their positions)."""
    if not is_threaded(p):
        return None
    source = parse(show_program(p))
    for n, sigma in enumerate(sigmas):
        found = check_independence(source, sigma, seed=n)
        _last.add(found)
        if found.miss is not None:
            kind = ("a ghost configuration is not the concrete one (M-P3/M-P4)" if found.ghost
                    else "a step called independent does not commute (B-X5)")
            return Disagreement(kind, p, sigma, found.miss)
    return None
