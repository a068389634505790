"""Named, deliberately wrong variants of the core, applied as monkeypatches.

Each variant is named after its mistake and patches module globals where the core looks them
up, so the contracted public functions stay decorated and run the wrong code. `apply(name)`
patches for the rest of the process (used by the subprocesses of `run_variants.py` through
SYMCERT_MUTANT); `applied(name)` is the context-manager form.
"""

from __future__ import annotations

import contextlib
from collections import deque
from typing import Callable, Iterator

from symcert.core import concrete, terms
from symcert.core.state import TRUE_PC, SymState
from symcert.engine import bugfinder, explore, testgen
from symcert.lang.syntax import Assert, Fail, If, Skip, While

Patch = tuple[object, str, object]


def _expand_drops_else() -> list[Patch]:
    orig = explore._expand

    def mutant(phi, store, frame, p, depth):
        out = orig(phi, store, frame, p, depth)
        return out[:1] if isinstance(p, If) else out

    return [(explore, "_expand", mutant)]


def _while_forgets_negated_guard() -> list[Patch]:
    orig = explore._expand

    def mutant(phi, store, frame, p, depth):
        out = orig(phi, store, frame, p, depth)
        if isinstance(p, While):
            out[1] = SymState(phi, store, Skip(), depth, frame=frame)
        return out

    return [(explore, "_expand", mutant)]


def _sub_swaps_operands() -> list[Patch]:
    # The symbolic algebra's `-` (sym_aeval is the fold with terms.TERMS).
    return [(terms.Terms, "sub", lambda self, a, b: terms.sub(b, a))]


def _neg_dropped() -> list[Patch]:
    return [(terms.Terms, "neg", lambda self, a: a)]


def _assign_stores_unevaluated() -> list[Patch]:
    return [(explore, "sym_update", lambda store, x, e: store.update(x, e))]


def _pc_replaced_not_extended() -> list[Patch]:
    orig = explore._expand

    def mutant(phi, store, frame, p, depth):
        out = orig(phi, store, frame, p, depth)
        if isinstance(p, (If, While, Assert)):
            return [SymState(TRUE_PC.extend(t.pc.last), t.store, t.prog, depth, frame=t.frame)
                    for t in out]
        return out

    return [(explore, "_expand", mutant)]


def _branch_condition_not_negated() -> list[Patch]:
    return [(explore, "negate", lambda c: c)]


class _LossyDeque(deque):
    """A worklist that silently drops every fourth state pushed on it."""

    def append(self, x):
        self.pushed = getattr(self, "pushed", 0) + 1
        if self.pushed % 4:
            super().append(x)


def _worklist_loses_states() -> list[Patch]:
    return [(explore, "deque", _LossyDeque)]


class _LifoDeque(deque):
    """A worklist whose `popleft` takes the newest state: BFS silently becomes DFS."""

    def popleft(self):
        return self.pop()


def _bfs_is_depth_first() -> list[Patch]:
    return [(explore, "deque", _LifoDeque)]


def _stream_yields_after_finished() -> list[Patch]:
    orig = bugfinder.find_bugs

    def mutant(p, *args, **kwargs):
        last = None
        done = False
        for status in orig(p, *args, **kwargs):
            if isinstance(status, bugfinder.Finished) and not done and last is not None:
                done = True
                yield status
                yield bugfinder.Pending(last)
                continue
            if isinstance(status, bugfinder.Pending):
                last = status.state
            yield status

    return [(bugfinder, "find_bugs", mutant)]


def _witness_from_wrong_branch() -> list[Patch]:
    orig = explore._feasible

    def mutant(child, parent, solver, stats, values):
        if isinstance(concrete.head(child.prog), Fail) and parent.model is not None:
            return explore._with_model(child, parent)  # the passing branch's model
        return orig(child, parent, solver, stats, values)

    return [(explore, "_feasible", mutant)]


def _skip_counts_as_stuck() -> list[Patch]:
    return [(bugfinder, "is_stuck", lambda p: isinstance(concrete.head(p), (Fail, Skip)))]


def _leaf_ends_inside_a_procedure() -> list[Patch]:
    return [(testgen, "_is_leaf", lambda s: isinstance(s.prog, Skip) or concrete.is_stuck(s.prog))]


VARIANTS: dict[str, tuple[str, Callable[[], list[Patch]]]] = {
    "expand_drops_else": ("`expand` forgets the else branch of `if`", _expand_drops_else),
    "while_forgets_negated_guard": ("the while rule's exit keeps φ without `not b`",
                                    _while_forgets_negated_guard),
    "sub_swaps_operands": ("symbolic evaluation computes `b - a` for `a - b`",
                           _sub_swaps_operands),
    "neg_dropped": ("symbolic evaluation drops unary minus", _neg_dropped),
    "assign_stores_unevaluated": ("assignment stores `e` instead of `⟦e⟧_S`",
                                  _assign_stores_unevaluated),
    "pc_replaced_not_extended": ("a branch replaces φ by its condition instead of extending it",
                                 _pc_replaced_not_extended),
    "branch_condition_not_negated": ("the second successor of a branch keeps `b`, not `not b`",
                                     _branch_condition_not_negated),
    "worklist_loses_states": ("the worklist drops every fourth state pushed",
                              _worklist_loses_states),
    "bfs_is_depth_first": ("the BFS queue pops its newest state (DFS in disguise)",
                           _bfs_is_depth_first),
    "stream_yields_after_finished": ("`find_bugs` yields a Pending after `Finished`",
                                     _stream_yields_after_finished),
    "witness_from_wrong_branch": ("a BugFound inherits the model of the assert's passing branch",
                                  _witness_from_wrong_branch),
    "skip_counts_as_stuck": ("`is_stuck` also holds for a finished (`skip`) program",
                             _skip_counts_as_stuck),
    "leaf_ends_inside_a_procedure": ("test generation takes the `skip` ending a procedure's "
                                     "body (inside its frame) for a leaf",
                                     _leaf_ends_inside_a_procedure),
}


def apply(name: str) -> list[tuple[object, str, object]]:
    """Patch the core with variant `name`; return what to restore."""
    saved = []
    for module, attr, value in VARIANTS[name][1]():
        saved.append((module, attr, getattr(module, attr)))
        setattr(module, attr, value)
    return saved


@contextlib.contextmanager
def applied(name: str) -> Iterator[None]:
    """Apply variant `name` inside a `with` block."""
    saved = apply(name)
    try:
        yield
    finally:
        for module, attr, value in reversed(saved):
            setattr(module, attr, value)
