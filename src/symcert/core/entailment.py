"""`φ ⊢ i = j` read off the path condition (seed 003 §4, "Implementation": the evaluation of
`ρ(H)` imports information from `φ`). A literal among `φ`'s conjuncts (conjunctions flattened)
that compares two terms answers the alias question between them: `i == j` and `not i != j`
answer yes; `i != j`, `not i == j`, `i < j` and `i > j` answer no. Sound, not complete: what
the literals do not say is left to the solver.

The literals of a path condition are those of its parent and those of its last conjunct, so
`state.PathCondition` counts them as it grows and links each node to the newest ancestor whose
conjunct holds one (`facts`, `older`): `read_facts` visits those conjuncts only, never the
conjuncts in between, and nothing at all for a path condition without such a literal."""

from __future__ import annotations

from typing import TYPE_CHECKING

from symcert.lang.syntax import AExpr, And, BExpr, Cmp, Not, Update

if TYPE_CHECKING:
    from symcert.core.state import PathCondition, SymState

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


def fact_literals(pc: PathCondition) -> list[BExpr]:
    """The literals of `pc` that answer an alias question, oldest conjunct first; only the
    conjuncts that hold one are visited (`PathCondition.older`)."""
    nodes: list[PathCondition] = []
    node = pc if pc.parent is not None and pc.facts > pc.parent.facts else pc.older
    while node is not None:
        nodes.append(node)
        node = node.older
    return [lit for n in reversed(nodes) for lit in literals(n.last)]  # type: ignore[arg-type]


def may_answer(s: SymState) -> bool:
    """Whether `s`'s path condition holds a literal that answers an alias question and its
    store binds an update sequence (a read can go past one only then); constant in `φ`."""
    return bool(s.pc.facts) and any(type(v) is Update for _, v in s.store.bindings)


def read_facts(s: SymState) -> list[BExpr]:
    """The literals of `s`'s path condition that answer an alias question, oldest conjunct
    first; none unless `may_answer(s)`."""
    return fact_literals(s.pc) if may_answer(s) else []


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
