"""`φ ⊢ i = j` read off the path condition (seed 003 §4, "Implementation": the evaluation of
`ρ(H)` imports information from `φ`). A literal among `φ`'s conjuncts (conjunctions flattened)
that compares two terms answers the alias question between them: `i == j` and `not i != j`
answer yes; `i != j`, `not i == j`, `i < j` and `i > j` answer no. Sound, not complete: what
the literals do not say is left to the solver."""

from __future__ import annotations

from symcert.core.state import SymState
from symcert.lang.syntax import AExpr, And, BExpr, Cmp, Not, Update

Question = tuple[AExpr, AExpr]
"""An alias question `(i, j)`: whether the update's index `i` equals the read's index `j`."""

_ANSWERED = {"==": True, "!=": False, "<": False, ">": False}
"""What a literal `i op j` answers to the question `i == j`."""
_ANSWERED_NOT = {"==": False, "!=": True}
"""What a literal `not (i op j)` answers."""


def read_facts(s: SymState) -> list[BExpr]:
    """The literals of `s`'s path condition that answer an alias question, oldest conjunct
    first; none when `s`'s store binds no update sequence (no read can go past one then)."""
    if not any(type(v) is Update for _, v in s.store.bindings):
        return []
    out: list[BExpr] = []
    for c in s.pc.conjuncts():
        todo = [c]
        while todo:
            lit = todo.pop()
            if isinstance(lit, And):
                todo += (lit.right, lit.left)
            elif _answer(lit) is not None:
                out.append(lit)
    return out


def answers(facts: list[BExpr]) -> dict[Question, bool]:
    """The alias questions the literals `facts` answer, both ways round."""
    out: dict[Question, bool] = {}
    for lit in facts:
        found = _answer(lit)
        assert found is not None
        (i, j), yes = found
        out[(i, j)] = out[(j, i)] = yes
    return out


def _answer(lit: BExpr) -> tuple[Question, bool] | None:
    table = _ANSWERED
    if isinstance(lit, Not):
        lit, table = lit.operand, _ANSWERED_NOT
    if isinstance(lit, Cmp) and lit.op in table:
        return (lit.left, lit.right), table[lit.op]
    return None
