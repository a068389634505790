# crosshair: off
"""Every obligation, and the coverage check: every rule, every expression constructor, every
data operation of a defined language and every rule of the shipped ones (seed 002) has its
obligations."""

from __future__ import annotations

from typing import Iterable

from symcert.checking.obligations.arrays import (
    b_a1, b_h3, b_h3_path_condition, b_l1_select, x_a2_arrays,
)
from symcert.checking.obligations.common import (
    EXPR_CASES, FRAME_RULES, OPERATIONS, Obligation, RULES,
)
from symcert.checking.obligations.calls import T_S1_RULES, t_s1
from symcert.checking.obligations.division import x_a1, x_a2
from symcert.checking.obligations.expressions import b_l1, g_m1, w_l2_1
from symcert.checking.obligations.objects import b_h1_fields, b_h2_fresh
from symcert.checking.obligations.languages import DEFINABLE, g_m1_languages, rule_name
from symcert.checking.obligations.loops import T_I1_RULES, t_i1
from symcert.checking.obligations.merging import t_m1
from symcert.checking.obligations.procedures import procedure_rules
from symcert.checking.obligations.rewriting import g_l2_g_l3, rules_needed
from symcert.checking.obligations.rules import statements
from symcert.checking.obligations.solver_rules import m_q1, m_q1_quantify, m_s1, m_s1_maybe_sat
from symcert.checking.obligations.threads import THREAD_RULES, thread_rules


def generate() -> list[Obligation]:
    """Every proof obligation, in a stable order."""
    obs = (b_l1() + g_m1() + g_m1_languages() + w_l2_1() + statements() + procedure_rules()
           + m_s1() + m_s1_maybe_sat() + m_q1() + m_q1_quantify() + x_a1() + x_a2() + b_a1()
           + b_h3() + b_h3_path_condition() + b_l1_select() + x_a2_arrays() + b_h1_fields()
           + b_h2_fresh() + g_l2_g_l3() + t_m1() + thread_rules() + t_i1() + t_s1())
    names = [o.name for o in obs]
    if len(set(names)) != len(names):
        raise AssertionError("two obligations share a name")
    return obs


# --- coverage: every rule and every expression constructor has its obligations ----------------

RULE_LEMMAS = ("W-L2.3", "W-L2.5")
"""The lemmas every rule needs; W-L2.2 too for the rules that step."""


def missing(obs: Iterable[Obligation], vacuous: frozenset[str] = frozenset()) -> list[str]:
    """The (lemma, rule or case) pairs with no obligation, or only vacuous ones (named in
    `vacuous`); empty when coverage is complete."""
    have = {(o.lemma, o.rule.split("/")[0]) for o in obs if o.name not in vacuous}
    need = [(lemma, rule) for rules in [*RULES.values(), *FRAME_RULES.values()] for rule in rules
            for lemma in RULE_LEMMAS + (() if rule in ("skip", "fail") else ("W-L2.2",))]
    need += [("B-L1", case) for case in EXPR_CASES]
    need += [("G-M1", op) for op in OPERATIONS]
    need += [("G-M1", rule_name(op)) for op in DEFINABLE]
    need += [("X-A1", rule) for rule in ("floor", "z3", "concrete", "purified", "purified-z3")]
    need += [("X-A2", case) for case in EXPR_CASES]
    need += [("W-L2.1", "update"), ("M-S1", "prune"), ("M-S1", "maybe_sat"),
             ("M-Q1", "substitution"), ("M-Q1", "quantify"), ("B-A1", "update"),
             ("B-A1", "congruence"), ("B-H3", "resolve"), ("B-H3", "resolve-pc")]
    need += [(lemma, rule) for rule in rules_needed() for lemma in ("G-L2", "G-L3")]
    need += [("B-H2", "fresh-read")]
    need += [("T-M1", rule) for rule in ("sound", "complete-a", "complete-b")]
    need += [("B-H1", rule) for rule in ("field-write", "field-write-nil", "field-read",
                                         "field-read-nil")]
    need += list(THREAD_RULES) + list(T_I1_RULES) + list(T_S1_RULES)
    return [f"{lemma} {rule}" for lemma, rule in need if (lemma, rule) not in have]
