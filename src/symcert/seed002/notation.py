"""Terms, rules and definitions printed in the seed's notation (seed 002 Fig. 4, §4.3, §6.2).

A rule reads `⟨⟨I1 / I2 ⋯⟩k ⟨ψ⟩cnd ⋯⟩cfg ∧ ¬unsat(ψ ∧ I2 ≠ 0) ⇒ ⟨⟨I1 /Int I2 ⋯⟩k ⟨ψ ∧ I2 ≠ 0⟩cnd ⋯⟩cfg`:
a configuration shows the cells the rule reads, `⋯` inside `k` is the rest of the computation,
`⋯` before `⟩cfg` the cells it does not read, `↷` separates computations, `□` is a hole.
"""

from __future__ import annotations

from typing import Any

from symcert.seed002.definition import Definition, KPattern, Rule
from symcert.seed002.terms import DATA_OPS, HOLE, App, KSeq, Op, Variable, kitems, show_data

TYPO_NOTE = ("note: seed 002 §6.2 prints the derived rule for `if true` with the new path "
             "condition `ψ ∧ B = false`, a typo: step 3 (§4.3.3, rule (2)) adds the rule's own "
             "condition, so it is `ψ ∧ B = true`, as printed here.")


def show(d: Definition, t: Any) -> str:
    """A term in the language's concrete syntax (or a data value, variable or operation)."""
    if isinstance(t, App):
        if t is HOLE or t.label == HOLE.label:
            return "□"
        p = d.production.get(t.label)
        if p is None:
            return f"{t.label}({', '.join(show(d, a) for a in t.args)})"
        parts, args = [], iter(t.args)
        n = len(p.items)
        open_production = n > 1 and not (p.items[0][0] and p.items[-1][0])
        for j, (terminal, text) in enumerate(p.items):
            if terminal:
                parts.append(text)
                continue
            arg = next(args)
            shown = show(d, arg)
            if open_production and (j == 0 or j == n - 1) and _looser(d, p, j, arg):
                shown = f"({shown})"
            parts.append(shown)
        return " ".join(parts)
    if isinstance(t, Variable):
        return t.name
    if isinstance(t, Op):
        op = DATA_OPS[t.name]
        args = [show(d, a) for a in t.args]
        if not op.infix:
            inner = t.args[0]
            if op.symbol == "¬" and not (isinstance(inner, Op) and DATA_OPS[inner.name].infix):
                return f"¬{args[0]}"
            return f"{op.symbol}({', '.join(args)})"
        return f" {op.symbol} ".join(f"({a})" if isinstance(x, Op) and DATA_OPS[x.name].infix
                                     and x.name != t.name and t.name != "∧Fol" else a
                                     for a, x in zip(args, t.args))
    if isinstance(t, KSeq):
        return " ↷ ".join(show(d, i) for i in kitems(t))
    if isinstance(t, KPattern):
        return _kpattern(d, t)
    if t is None:
        return "·"
    return show_data(t)


def _looser(d: Definition, parent: Any, j: int, t: Any) -> bool:
    """Whether `t`, argument `j` at an edge of `parent`'s production, needs parentheses: it
    is an open production of the same sort in a looser group, or in the same group but not on
    the side its associativity allows (the program grammar's rules, grammar.py)."""
    if not isinstance(t, App) or t.label not in d.production:
        return False
    q = d.production[t.label]
    if q.sort != parent.sort or q.bracket or (q.items[0][0] and q.items[-1][0]):
        return False
    if q.group != parent.group:
        return q.group > parent.group
    both = not parent.items[0][0] and not parent.items[-1][0]
    side = "left" if j == 0 else "right"
    return both and parent.assoc != side


def _kpattern(d: Definition, p: KPattern) -> str:
    items = [show(d, i) for i in p.items] + (["⋯"] if p.rest else [])
    return " ↷ ".join(items[:-1]) + (" ⋯" if p.rest and len(items) > 1 else "") \
        if p.rest else " ↷ ".join(items) or "·"


def show_rule(d: Definition, rule: Rule) -> str:
    """`l ∧ b ⇒ r` in the seed's notation."""
    lhs, rhs, rest = [], [], False
    for i, cell in enumerate(d.cells):
        left = rule.lhs[i]
        if left is None:
            rest = True
            continue
        right = rule.rhs[i] if rule.rhs[i] is not None else left
        lhs.append(f"⟨{_cell(d, left)}⟩{cell.name}")
        rhs.append(f"⟨{_cell(d, right)}⟩{cell.name}")
    dots = " ⋯" if rest else ""
    cond = f" ∧ {show(d, rule.cond)}" if rule.cond is not None else ""
    return f"⟨{' '.join(lhs)}{dots}⟩cfg{cond} ⇒ ⟨{' '.join(rhs)}{dots}⟩cfg"


def _cell(d: Definition, part: Any) -> str:
    if isinstance(part, KPattern):
        if not part.items:
            return "⋯" if part.rest else "·"
        return " ↷ ".join(show(d, i) for i in part.items) + (" ⋯" if part.rest else "")
    return show(d, part)


def show_definition(d: Definition, all_rules: bool = False) -> str:
    """`d` in the seed's notation: its configuration, then its conditional rules in full and the
    labels of the others (all of them in full with `all_rules`)."""
    cells = " ".join(f"⟨{c.sort if c.name != 'k' else 'Code'}⟩{c.name}" for c in d.cells)
    title = f"{d.name}^sym" if d.symbolic else d.name
    lines = [f"{title}: {len(d.rules)} rules", "", f"Cfg{'^sym' if d.symbolic else ''} ::= "
             f"⟨{cells}⟩cfg", ""]
    conditional = [r for r in d.rules if r.cond is not None]
    shown = d.rules if all_rules else conditional
    lines.append("rules:" if all_rules else
                 f"conditional rules ({len(conditional)}):")
    for r in shown:
        lines.append(f"  [{r.label}]")
        lines.append(f"    {show_rule(d, r)}")
    if not all_rules:
        plain = [r for r in d.rules if r.cond is None]
        user = [r.label for r in plain if r.kind == "rule"]
        generated = sum(r.kind != "rule" for r in plain)
        lines.append("")
        lines.append(f"unconditional rules ({len(plain)}), unchanged by the derivation: "
                     + ", ".join(user) + (f", and {generated} heating/cooling rules of the "
                                          "strict arguments" if generated else ""))
    if d.symbolic and any(r.label == "if-true" for r in d.rules):
        lines += ["", TYPO_NOTE]
    return "\n".join(lines) + "\n"
