"""Existential quantification of a path condition (seed 004, M-Q1): the one-point rule that
eliminates the fresh variables of the bounded interpreter (interp.py)."""

from __future__ import annotations

import icontract

from symcert.core import terms
from symcert.core.algebra import fold_a, fold_b
from symcert.core.state import PathCondition
from symcert.lang.syntax import AExpr, ArrayVar, BExpr, Bool, Cmp, Var
from symcert.seed004.results import pc_mentions
from symcert.spec.switch import CONTRACTS, lemma


@lemma("M-Q1")
def quantify_adds_no_variable(v: str, pc: PathCondition, exists: frozenset[str],
                        result: tuple[PathCondition, frozenset[str]]) -> bool:
    """`existentially_quantify` introduces no variable and binds `v`: the result's free
    variables are those of `∃v. ∃exists. pc`."""
    new_pc, new_exists = result
    if new_pc is pc:  # `vars(pc) - new_exists ⊆ vars(pc) - exists - {v}`, asked per variable
        return new_exists <= exists | {v} and not any(
            pc_mentions(pc, u) for u in (exists | {v}) - new_exists)
    before = frozenset().union(*(terms.free_vars(c) for c in pc.conjuncts())) - exists - {v}
    after = frozenset().union(*(terms.free_vars(c) for c in new_pc.conjuncts())) - new_exists
    return after <= before and new_exists <= exists | {v}


@icontract.ensure(quantify_adds_no_variable, "M-Q1 existential quantification", enabled=CONTRACTS)
def existentially_quantify(v: str, pc: PathCondition, exists: frozenset[str],
                           eliminate: bool = True) -> tuple[PathCondition, frozenset[str]]:
    """`∃v. ∃exists. pc` as a new (pc, exists): one-point elimination when `pc` defines `v`.

    :param v: the variable to quantify.
    :param pc: the quantifier-free matrix.
    :param exists: the variables already quantified.
    :param eliminate: try the one-point rule `∃v. (v == se ∧ D) ≡ D[se/v]` first.
    """
    if not pc_mentions(pc, v):
        return pc, exists
    conjuncts = pc.conjuncts()
    if eliminate:
        for i, c in enumerate(conjuncts):
            if isinstance(c, Cmp) and c.op == "==" and c.left == terms.variable(v, c.right) \
                    and v not in terms.free_vars(c.right):
                se = c.right
                rest = conjuncts[:i] + conjuncts[i + 1:]
                memo: dict[int, AExpr] = {}  # the conjuncts share subterms: substituted once
                return PathCondition.of(*(fold_b(terms.TERMS, lambda x: se if x == v else Var(x),
                                                 d, memo) for d in rest)), exists
    return pc, exists | {v}


@lemma("M-Q1")
def quantify_all_adds_no_variable(pc: PathCondition, exists: frozenset[str], names: frozenset[str],
                                  result: tuple[PathCondition, frozenset[str]]) -> bool:
    """`quantify_all` introduces no variable and keeps no quantifier it was not given."""
    new_pc, new_exists = result
    before = frozenset().union(*(terms.free_vars(c) for c in pc.conjuncts())) - exists
    after = frozenset().union(*(terms.free_vars(c) for c in new_pc.conjuncts())) - new_exists
    return after <= before and new_exists <= exists


@icontract.ensure(quantify_all_adds_no_variable, "M-Q1 existential quantification",
                  enabled=CONTRACTS)
def quantify_all(pc: PathCondition, exists: frozenset[str], names: frozenset[str],
                 eliminate: bool = True) -> tuple[PathCondition, frozenset[str]]:
    """`∃exists. pc` with the one-point rule applied in one pass (linear time) to each `v` of
    `names ∩ exists` whose first mention in `pc` is an equation `v == se`, `v ∉ vars(se)`: the
    definition of a fresh variable (`existentially_quantify` for each in turn takes quadratic
    time). A quantified variable `pc` no longer mentions is dropped.

    :param pc: the quantifier-free matrix.
    :param exists: the quantified variables.
    :param names: the variables to eliminate.
    :param eliminate: apply the one-point rule (else only drop the unmentioned variables).
    """
    defs: dict[str, AExpr] = {}
    memo: dict[int, AExpr] = {}  # sound: a node met before `v`'s definition never mentions `v`
    kept: list[BExpr] = []
    seen: set[str] = set()

    def read(x: str) -> AExpr:
        return defs[x] if x in defs else Var(x)

    for c in pc.conjuncts():
        v = c.left.name if isinstance(c, Cmp) and isinstance(c.left, (Var, ArrayVar)) else ""
        if v in names and v in exists and v not in seen and eliminate and c.op == "==" \
                and v not in terms.free_vars(c.right):  # type: ignore[union-attr]
            defs[v] = fold_a(terms.TERMS, read, c.right, memo)  # type: ignore[union-attr]
        elif (d := fold_b(terms.TERMS, read, c, memo) if defs else c) != Bool(True):
            kept.append(d)  # a conjunct the substitution made `true` is dropped
        seen |= terms.free_vars(c)
    mentioned = frozenset().union(*(terms.free_vars(c) for c in kept))
    return PathCondition.of(*kept), exists & mentioned
