"""The second aliasing strategy, `--alias split` (seed 003 §4-5; KLEE/SPF-like).

The default strategy (`terms`) keeps a read `Select(Update(ρ, i, v), j)` that syntax does not
decide as a term, B-A1's conditional `if i = j then v else ρ[j]`, and leaves it to the solver.
`split` turns each such alias question into a case split instead: a successor of `expand`
whose terms (its new path-condition conjunct, its global store, its running frame's locals)
contain an undecided read becomes two, one that adds `i == j` (the read is `v`) and one that
adds `i != j` (the read goes on into `ρ`), until no undecided read is left: more states, plain
terms. The two cases partition the successor's valuations and agree with it on each, so the
split successors are one-step sound and complete exactly when `expand`'s are (W-L2.3, W-L2.5:
`explore.expand_split` carries those contracts). The alias literals are conjoined to the
successor's own conjunct, so a step still adds at most one conjunct (W-L2.2).

An alias literal is guarded as its read is (X-A2). A read may sit where the concrete semantics
does not reach it, behind a short-circuit `and`, with an index like `t.next` that reads through
nil there. With `ok` the guard of the two indices (`guards.GUARDS`), the cases add
`not ok or i == j` and `ok and i != j`: each is defined wherever it is evaluated, and a read
that is evaluated is so where `ok` holds, where the cases are `i == j` and `i != j`.

A successor that divides by zero or dereferences nil (stuck at `fail`, X-A2) is not split:
it is never stepped, its store never read, and its condition `φ ∧ ¬ok` may read through the
very nil reference that fails, where an alias literal would be undefined; the solver decides
its conditional reads as in the default strategy.

The strategy is chosen per run by `aliasing` (a context variable `run` reads when it starts),
so every command and check that calls `run` can run either without its own plumbing.

Under both, `expand` first resolves the new reads of its successors with the path condition
(`resolve_reads`, seed 003 §4's `ρ{H.x = E}(H'.x) = E if φ ⊢ ρ(H) = ρ(H')`, and the read goes on
into `ρ` if `φ ⊢ ρ(H) ≠ ρ(H')`, with `⊢` read off `φ`'s literals: core/entailment.py): an alias
question that a literal of `φ` answers is no question, and neither strategy keeps or splits it.
"""

from __future__ import annotations

import enum
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import replace
from typing import Callable, Iterator

from symcert.core.algebra import fold
from symcert.core.concrete import beval, head
from symcert.core import entailment
from symcert.core.entailment import Question
from symcert.core.state import Store, SymState, may_answer, read_facts
from symcert.core.guards import GUARDS
from symcert.core.terms import Terms, cmp, conj, disj, negate
from symcert.lang.syntax import AExpr, ArrayExpr, BExpr, Bool, Fail, Int, Select, Update, Var


class Alias(enum.Enum):
    """How a read over an undecided update is represented."""

    TERMS = "terms"
    """A conditional term over the update sequence, decided by the solver (the default)."""
    SPLIT = "split"
    """A case split on each alias question `i == j`, one successor per answer."""


ALIAS: ContextVar[Alias] = ContextVar("symcert_alias", default=Alias.TERMS)
"""The strategy `explore.run` uses; set it with `aliasing`."""


@contextmanager
def aliasing(strategy: Alias) -> Iterator[None]:
    """Runs started (first advanced) inside the block use `strategy`."""
    token = ALIAS.set(strategy)
    try:
        yield
    finally:
        ALIAS.reset(token)


class _Deciding(Terms):
    """The term algebra under answered alias questions: `select` goes past an update the
    answers decide, and records the first question it meets that they do not. The answers are
    a dict, or the literals to read them from when syntax first leaves a question open."""

    def __init__(self, answers: dict[Question, bool] | Callable[[], list[BExpr]]) -> None:
        self._answers = answers
        self.question: Question | None = None
        self.binders = 0  # quantifiers around the node being folded (X-Q1)

    @property
    def answers(self) -> dict[Question, bool]:
        """The answered questions (read from the literals on first use)."""
        if not isinstance(self._answers, dict):
            self._answers = entailment.answers(self._answers())
        return self._answers

    def quantifier(self, universal: bool, name: str, lo: AExpr, hi: AExpr,
                   body: Callable[[AExpr], BExpr]) -> BExpr:
        """As `Terms.quantifier`, asking no alias question inside (its index may be the bound
        variable, which no literal of the path condition mentions)."""
        self.binders += 1
        try:
            return super().quantifier(universal, name, lo, hi, body)
        finally:
            self.binders -= 1

    def select(self, a: ArrayExpr, i: AExpr) -> AExpr:  # type: ignore[override]
        if self.binders:
            return super().select(a, i)
        while isinstance(a, Update):
            if a.index == i:
                return a.value
            known = (False if isinstance(a.index, Int) and isinstance(i, Int)  # distinct
                     else self.answers.get((a.index, i)))
            if known is True:
                return a.value
            if known is None:
                if self.question is None:
                    self.question = (a.index, i)
                break
            a = a.array
        return Select(a, i)


def _identity(name: str) -> AExpr:
    return Var(name)


def _resolve(t: SymState, added: BExpr | None, algebra: _Deciding
             ) -> tuple[BExpr | None, Store, object]:
    """`t`'s new conjunct, store and running frame with every read re-read in `algebra`."""
    memo: dict[int, object] = {}

    def again(term: AExpr) -> AExpr:
        return fold(algebra, _identity, term, memo)  # type: ignore[arg-type, return-value]

    conjunct = None if added is None else fold(algebra, _identity, added, memo)
    store = Store(tuple((k, again(v)) for k, v in t.store.bindings))
    frame = t.frame
    if frame is not None:
        frame = replace(frame, locals=Store(tuple((k, again(v))
                                                  for k, v in frame.locals.bindings)))
    return conjunct, store, frame  # type: ignore[return-value]


def resolve_reads(parent: SymState, children: list[SymState]) -> list[SymState]:
    """`children` (the successors `expand` gives `parent`) with the reads in their new store
    terms resolved with `parent`'s path condition (B-H3 with `φ ⊢`): a read past an update
    whose alias question `φ` answers is the update's value or goes on below it. Terms `parent`
    already holds are kept as they are (a fact learnt later leaves them to the solver), and so
    are the new conjuncts (the shapes W-T3.1 reads off stay as the rules make them). Every
    valuation of `φ` gives a resolved term the value of the term it replaces, so the one-step
    lemmas hold as for the unresolved successors; no state is added."""
    if not may_answer(parent):
        return children
    algebra = _Deciding(lambda: read_facts(parent))
    memo: dict[int, object] = {id(v): v for v in _held(parent)}

    def again(term: AExpr) -> AExpr:
        if id(term) in memo:
            return memo[id(term)]  # type: ignore[return-value]
        new = fold(algebra, _identity, term, memo)
        return term if new == term else new  # type: ignore[return-value]

    out = []
    for t in children:
        store = _reread(t.store, again)
        frame = t.frame
        if frame is not None and (parent.frame is None or frame.locals is not parent.frame.locals):
            locals_ = _reread(frame.locals, again)
            if locals_ is not frame.locals:
                frame = replace(frame, locals=locals_)
        out.append(t if store is t.store and frame is t.frame
                   else replace(t, store=store, frame=frame))
    return out


def _held(s: SymState) -> list[object]:
    """The terms `s`'s global store and running frame bind."""
    held = [v for _, v in s.store.bindings]
    return held if s.frame is None else held + [v for _, v in s.frame.locals.bindings]


def _reread(store: Store, again: Callable[[AExpr], AExpr]) -> Store:
    """`store` with each binding re-read by `again`; `store` itself when none changes."""
    bindings = tuple((k, again(v)) for k, v in store.bindings)
    if all(new is old for (_, new), (_, old) in zip(bindings, store.bindings)):
        return store
    return Store(bindings)


def split(parent: SymState, children: list[SymState]) -> list[SymState]:
    """`children` (the successors `expand` gives `parent`) with each undecided alias question
    in their terms split into its two answers, `i == j` first."""
    out: list[SymState] = []
    for t in children:
        stuck = head(t.prog)
        if isinstance(stuck, Fail) and stuck.by_zero:
            out.append(t)  # stuck at once: its terms are never read (see below)
            continue
        added = None if t.pc is parent.pc else t.pc.last
        _decide(parent, t, added, {}, [], out)
    return out


def _decide(parent: SymState, t: SymState, added: BExpr | None, answers: dict[Question, bool],
            literals: list[BExpr], out: list[SymState]) -> None:
    algebra = _Deciding(answers)
    conjunct, store, frame = _resolve(t, added, algebra)
    if algebra.question is None:
        out.append(_successor(parent, t, added, conjunct, literals, store, frame))
        return
    i, j = algebra.question
    same = cmp("==", i, j)
    ok = conj(fold(GUARDS, _identity, i)[1], fold(GUARDS, _identity, j)[1])  # type: ignore[index]
    for answer, literal in ((True, disj(negate(ok), same)), (False, conj(ok, negate(same)))):
        if isinstance(literal, Bool) and not literal.value:
            continue  # the answer the terms refute: no case
        _decide(parent, t, added, {**answers, (i, j): answer},
                literals if isinstance(literal, Bool) else literals + [literal], out)


def _successor(parent: SymState, t: SymState, added: BExpr | None, conjunct: BExpr | None,
               literals: list[BExpr], store: Store, frame: object) -> SymState:
    """`t` with its resolved terms and one conjunct, its own then the alias literals, added to
    `parent`'s path condition (none added when there is neither)."""
    if not literals and conjunct == added and store == t.store and frame == t.frame:
        return t
    c: BExpr | None = None
    for lit in ([conjunct] if conjunct is not None else []) + literals:
        c = lit if c is None else conj(c, lit)
    pc = parent.pc if c is None else parent.pc.extend(c)
    ghost = t.ghost
    if ghost is not None and c is not None and not beval(ghost, c):
        ghost = None  # ghost mode: ρ follows one answer only
    return replace(t, pc=pc, store=store, frame=frame, ghost=ghost)  # type: ignore[arg-type]
