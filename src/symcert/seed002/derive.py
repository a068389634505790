"""The derivation `L ↦ L^sym` (seed 002 §4.3, G-C1): a function from a definition to a
definition.

For each rule `l ∧ b ⇒ r`:
1. *linearise* (§4.3.1): a variable `X` occurring again in `l` is renamed `X'` there, and
   `X = X'` is added to `b` (the equality of `X`'s data sort);
2. *replace constants by variables* (§4.3.2): each constant `c` of a symbolically extensible
   sort in `l` becomes a fresh variable `C` of its sort, and `C = c` is added to `b`;
3. *add formulas* (§4.3.3): a rule left conditional becomes
   `⟨l, ψ⟩ ∧ ¬unsat(ψ ∧ b) ⇒ ⟨r, ψ ∧ b⟩`, ψ the new cell `cnd` of sort Fol
   (`Cfg^sym = ⟨⟨Code⟩_k ⟨Map⟩_env ⟨Fol⟩_cnd⟩_cfg`); an unconditional rule is kept as it is
   (§6.2: `¬unsat(ψ)` always holds on a reachable configuration).

The result runs on the same engine (rewrite.py), `unsat` interpreted by symcert's solver
(symbolic.py). Its syntactic properties are `derive`'s postconditions (lemmas.py).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable

from symcert.core.state import TRUE_PC
from symcert.lang.errors import line_text
from symcert.seed002.definition import (
    Cell, DataSort, Definition, DefinitionError, KPattern, Rule,
)
from symcert.seed002.lemmas import (
    derived_conditions_in_path_condition, derived_keeps_unconditional_rules, derived_lhs_linear,
    derived_lhs_no_symbolic_constant, is_linear, symbolic_constants,
)
from symcert.seed002.terms import (
    EQUALITY, FOL, App, Op, Variable, is_constant, variables,
)
from symcert.spec.switch import CONTRACTS, icontract

PSI = Variable("ψ", FOL, frozenset({FOL}))
"""The path condition's variable `ψ ∈ Var` of sort Fol (§4.3.3)."""
CND = Cell("cnd", FOL, TRUE_PC)


@icontract.ensure(derived_lhs_linear, "G-C1 derivation: left-hand sides linear",
                  enabled=CONTRACTS)
@icontract.ensure(derived_lhs_no_symbolic_constant,
                  "G-C1 derivation: no constant of a symbolic sort in a left-hand side",
                  enabled=CONTRACTS)
@icontract.ensure(derived_keeps_unconditional_rules,
                  "G-C1 derivation: unconditional rules unchanged", enabled=CONTRACTS)
@icontract.ensure(derived_conditions_in_path_condition,
                  "G-C1 derivation: ⟨l, ψ⟩ ∧ ¬unsat(ψ ∧ b) ⇒ ⟨r, ψ ∧ b⟩", enabled=CONTRACTS)
def derive(d: Definition) -> Definition:
    """Derive `L^sym` from `L` (seed 002 §4.3).

    :param d: a concrete definition (not already derived).
    :raises DefinitionError: when a rule cannot be linearised (a variable of a non-data sort
        occurring twice: no equality to express `X = X'` with).
    """
    if d.symbolic:
        raise ValueError(f"{d.name} is already a symbolic definition")
    rules = tuple(symbolic_rule(d, rule) for rule in d.rules)
    return replace(d, data=d.data + (DataSort(FOL),), cells=d.cells + (CND,), rules=rules,
                   symbolic=True)


def symbolic_rule(d: Definition, rule: Rule) -> Rule:
    """`α^sym` for a rule `α` of `d` (steps 1-3)."""
    if rule.cond is None and is_linear(rule) and not symbolic_constants(d, rule):
        return replace(rule, lhs=rule.lhs + (None,), rhs=rule.rhs + (None,))
    taken = {v.name for part in (*rule.lhs, *rule.rhs, rule.cond) if part is not None
             for v in _vars(part)}
    equations: list[Any] = []
    seen: set[str] = set()

    def fresh(stem: str) -> str:
        name = stem
        while name in taken:
            name += "'"
        taken.add(name)
        return name

    def linearise(t: Any) -> Any:  # step 1
        if isinstance(t, Variable):
            if t.name not in seen:
                seen.add(t.name)
                return t
            op = EQUALITY.get(t.sort)
            if op is None:
                raise _error(d, rule, f"rule [{rule.label}] cannot be linearised: variable "
                                      f"{t.name} of sort {t.sort} occurs twice in its left-hand "
                                      "side, and only data sorts have an equality")
            renamed = Variable(fresh(t.name + "'"), t.sort, t.accepts)
            equations.append(Op(op, (t, renamed)))
            return renamed
        return t

    def generalise(t: Any) -> Any:  # step 2
        sort = d.sort_of(t)
        if is_constant(t) and sort in d.symbolic_sorts:
            x = Variable(fresh(sort[0]), sort, d.below(sort))
            equations.append(Op(EQUALITY[sort], (x, t)))
            return x
        return t

    lhs = tuple(_map_leaves(part, lambda t: generalise(linearise(t))) for part in rule.lhs)
    b = rule.cond
    for eq in equations:
        b = eq if b is None else Op("andBool", (b, eq))
    if b is None:
        return replace(rule, lhs=lhs + (None,), rhs=rule.rhs + (None,))
    new_pc = Op("∧Fol", (PSI, b))
    return replace(rule, lhs=lhs + (PSI,), rhs=rule.rhs + (new_pc,),
                   cond=Op("notBool", (Op("unsat", (new_pc,)),)))


def _vars(part: Any) -> list[Variable]:
    if isinstance(part, KPattern):
        return [v for item in part.items for v in variables(item)]
    return variables(part)


def _map_leaves(part: Any, fn: Callable[[Any], Any]) -> Any:
    """`part` with each variable and constant `t` replaced by `fn(t)`, left to right."""
    if part is None:
        return None
    if isinstance(part, KPattern):
        return KPattern(tuple(_map_leaves(i, fn) for i in part.items), part.rest)
    if isinstance(part, App):
        return App(part.label, tuple(_map_leaves(a, fn) for a in part.args)) if part.args \
            else part
    return fn(part)


def _error(d: Definition, rule: Rule, message: str) -> DefinitionError:
    try:
        with open(d.filename, encoding="utf-8") as f:
            source = line_text(f.read(), rule.pos[0])
    except OSError:
        source = ""
    return DefinitionError(d.filename, rule.pos[0], rule.pos[1], message, source)
