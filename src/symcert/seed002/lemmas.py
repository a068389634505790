"""G-C1's syntactic postconditions on the derivation `L ↦ L^sym` (seed 002 §4.3), as named
predicates: `derive`'s contracts (derive.py) apply them, a violation names the lemma."""

from __future__ import annotations

from typing import Any

from symcert.seed002.definition import Definition, KPattern, Rule
from symcert.seed002.terms import Op, Variable, is_constant, subterms, variables
from symcert.spec.switch import lemma


def _lhs_terms(rule: Rule) -> list[Any]:
    out: list[Any] = []
    for part in rule.lhs:
        if isinstance(part, KPattern):
            out.extend(part.items)
        elif part is not None:
            out.append(part)
    return out


def is_linear(rule: Rule) -> bool:
    """Whether no variable occurs twice in the rule's left-hand side (§4.3.1)."""
    names = [v.name for t in _lhs_terms(rule) for v in variables(t)]
    return len(names) == len(set(names))


def symbolic_constants(d: Definition, rule: Rule) -> list[Any]:
    """The constants of symbolically extensible sorts in the rule's left-hand side (Cpos(l),
    §4.3.2)."""
    return [t for item in _lhs_terms(rule) for t in subterms(item)
            if is_constant(t) and d.sort_of(t) in d.symbolic_sorts]


@lemma("G-C1")
def derived_lhs_linear(d: Definition, result: Definition) -> bool:
    """Every left-hand side of `L^sym` is linear: `∀α ∈ S^sym. l_α linear` (seed 002 §4.3.1)."""
    return all(is_linear(r) for r in result.rules)


@lemma("G-C1")
def derived_lhs_no_symbolic_constant(d: Definition, result: Definition) -> bool:
    """No left-hand side of `L^sym` holds a constant of a symbolically extensible sort:
    `Cpos(l_α) = ∅` (seed 002 §4.3.2)."""
    return all(not symbolic_constants(result, r) for r in result.rules)


@lemma("G-C1")
def derived_keeps_unconditional_rules(d: Definition, result: Definition) -> bool:
    """A rule that is unconditional, linear and free of symbolic constants is its own `α^sym`
    (seed 002 §6.2 step 3: `⟨l, ψ⟩ ⇒ ⟨r, ψ⟩` is `l ⇒ r`); every rule has exactly one `α^sym`,
    with its label, in the same order."""
    if [r.label for r in d.rules] != [r.label for r in result.rules]:
        return False
    for alpha, sym in zip(d.rules, result.rules):
        plain = alpha.cond is None and is_linear(alpha) and not symbolic_constants(d, alpha)
        if plain and not (sym.lhs[:len(d.cells)] == alpha.lhs and sym.rhs[:len(d.cells)]
                          == alpha.rhs and sym.cond is None and sym.lhs[-1] is None
                          and sym.rhs[-1] is None):
            return False
    return True


@lemma("G-C1")
def derived_conditions_in_path_condition(d: Definition, result: Definition) -> bool:
    """Each conditional `α^sym` is `⟨l, ψ⟩ ∧ ¬unsat(ψ ∧ b) ⇒ ⟨r, ψ ∧ b⟩` (seed 002 (2)): it
    reads the path condition `ψ` and writes `ψ ∧ b`, the very formula its condition asks
    `unsat` about, with `b` containing the original condition of `α`."""
    cnd = result.cell_index.get("cnd")
    if cnd is None or cnd != len(d.cells):
        return False
    for alpha, sym in zip(d.rules, result.rules):
        if sym.cond is None:
            continue
        psi, new = sym.lhs[cnd], sym.rhs[cnd]
        if not (isinstance(psi, Variable) and isinstance(new, Op) and new.name == "∧Fol"
                and new.args[0] is psi):
            return False
        cond = sym.cond
        if not (isinstance(cond, Op) and cond.name == "notBool"
                and isinstance(cond.args[0], Op) and cond.args[0].name == "unsat"
                and cond.args[0].args[0] is new):
            return False
        if alpha.cond is not None and not any(t is alpha.cond for t in subterms(new.args[1])):
            return False
    return True
