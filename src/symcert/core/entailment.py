"""`φ ⊢ i = j` read off the path condition (seed 003 §4, "Implementation": the evaluation of
`ρ(H)` imports information from `φ`). A literal among `φ`'s conjuncts (conjunctions flattened)
that compares two terms answers the alias question between them: `i == j` and `not i != j`
answer yes; `i != j`, `not i == j`, `i < j` and `i > j` answer no. Sound, not complete: what
the literals do not say is left to the solver.

The literals of a path condition are those of its parent and those of its last conjunct, so
`state.PathCondition` counts them as it grows and links each node to the newest ancestor whose
conjunct holds one (`facts`, `older`): `state.read_facts` visits those conjuncts only, never the
conjuncts in between, and nothing at all for a path condition without such a literal."""

from __future__ import annotations

from symcert.lang.syntax import AExpr, And, BExpr, Cmp, Not

Question = tuple[AExpr, AExpr]
"""An alias question `(i, j)`: whether the update's index `i` equals the read's index `j`."""

_ANSWERED = {"==": True, "!=": False, "<": False, ">": False}
"""What a literal `i op j` answers to the question `i == j`."""
_ANSWERED_NOT = {"==": False, "!=": True}
"""What a literal `not (i op j)` answers."""


def literals(conjunct: BExpr) -> list[BExpr]:
    """The literals of one conjunct (its conjunctions flattened) that answer an alias question,
    in order."""
    out: list[BExpr] = []
    todo = [conjunct]
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
