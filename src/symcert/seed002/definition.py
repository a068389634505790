"""A language definition `L = (Σ, T, S)` (seed 002 §3), in the spirit of K (Figs. 1, 3, 4).

- Σ: the data sorts (`DataSort`: built-in, possibly symbolically extensible, possibly results)
  and the syntax (`Production`s, with K's `strict`/`seqstrict` attributes, and subsorts);
- T: data are interpreted by `terms.DATA_OPS`, the other sorts as ground terms (free
  constructors);
- S: the rules `l ∧ b ⇒ r` (Def. 2), each over the cells of the configuration (Fig. 3): in a
  `Rule`, `lhs[i]`/`rhs[i]` is what the rule reads and writes in cell `i` (None: not read, or not
  changed), the `k` cell's pattern a `KPattern` (the first computations and, with `⋯`, the
  rest). Strictness becomes heating/cooling rules (§2, `strictness_rules`): an argument is
  evaluated when it is not a result, and a result is decided by its sort.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from symcert.lang.errors import ParseError
from symcert.seed002.terms import (
    ARRAYS, BOOL, FOL, HOLE, K, MAP, App, Op, Variable, data_sort, result_sort, subterms, variables,
)


class DefinitionError(ParseError):
    """A definition that is not well formed (exit 65), at the spot of the culprit."""

    kind = "definition error"


Pos = tuple[int, int]
"""A 1-based line and column in the `.sem` file."""


@dataclass(frozen=True, slots=True)
class DataSort:
    """A built-in data sort; `symbolic`: symbolically extensible (§4.1), `result`: a value of
    this sort is a result of evaluation (no rule evaluates it further)."""

    name: str
    symbolic: bool = False
    result: bool = False


@dataclass(frozen=True, slots=True)
class Production:
    """A production `sort ::= items [attributes]`: `items` pairs (is_terminal, text); `group`
    its priority group (K's `>`: 0 binds tightest); `strict` the 1-based arguments evaluated
    first, left to right when `seq` (K's `seqstrict`); `bug`: a configuration stuck with this
    construct on top of `k` is a bug (seed 002 §6.3: an `assert` with no rule for `false`)."""

    sort: str
    items: tuple[tuple[bool, str], ...]
    label: str
    strict: tuple[int, ...] = ()
    seq: bool = False
    assoc: str | None = None
    bracket: bool = False
    group: int = 0
    pos: Pos = (0, 0)
    bug: bool = False

    @property
    def arg_sorts(self) -> tuple[str, ...]:
        """The sorts of the arguments, in order."""
        return tuple(text for terminal, text in self.items if not terminal)


@dataclass(frozen=True, slots=True)
class Cell:
    """A cell of the configuration: its name, sort (K for `k`, Map, Arrays, Fol, or a sort of
    the syntax) and initial content (`$PGM`, the program, or a value: `.Map`, `.Arrays`, a
    constant of the syntax)."""

    name: str
    sort: str
    init: Any = None


@dataclass(frozen=True, slots=True)
class KPattern:
    """The `k` cell's side of a rule: `items[0] ↷ … ↷ items[-1]`, followed by the rest of the
    computation when `rest` (K's `⋯`), or by nothing."""

    items: tuple[Any, ...]
    rest: bool = True


@dataclass(frozen=True, slots=True)
class Rule:
    """A rule `α = l ∧ b ⇒ r` (Def. 2) labelled `label`; `kind` is `rule`, or `heat`/`cool`
    for the rules that strictness generates."""

    label: str
    lhs: tuple[Any, ...]
    rhs: tuple[Any, ...]
    cond: Any = None
    pos: Pos = field(default=(0, 0), compare=False)
    kind: str = "rule"

    @property
    def conditional(self) -> bool:
        """Whether `b` is not `true`."""
        return self.cond is not None


@dataclass(frozen=True)
class Definition:
    """A language: sorts, syntax, configuration and rules; `symbolic` for a derived `L^sym`."""

    name: str
    data: tuple[DataSort, ...]
    sorts: tuple[str, ...]
    subsorts: tuple[tuple[str, str], ...]
    productions: tuple[Production, ...]
    cells: tuple[Cell, ...]
    rules: tuple[Rule, ...]
    pgm_sort: str
    symbolic: bool = False
    filename: str = "<definition>"

    @cached_property
    def label_sort(self) -> dict[str, str]:
        """The sort of each constructor."""
        return {p.label: p.sort for p in self.productions} | {HOLE.label: K}

    @cached_property
    def production(self) -> dict[str, Production]:
        """The production of each label."""
        return {p.label: p for p in self.productions}

    @cached_property
    def result_sorts(self) -> frozenset[str]:
        """The sorts whose values are results."""
        return frozenset(d.name for d in self.data if d.result)

    @cached_property
    def symbolic_sorts(self) -> frozenset[str]:
        """The symbolically extensible sorts (§4.1)."""
        return frozenset(d.name for d in self.data if d.symbolic)

    @cached_property
    def bug_labels(self) -> frozenset[str]:
        """The constructors marked `bug`: a configuration stuck with one on top of `k` is a
        bug (seed 002 §6.3)."""
        return frozenset(p.label for p in self.productions if p.bug)

    @cached_property
    def cell_index(self) -> dict[str, int]:
        """The position of each cell in a configuration."""
        return {c.name: i for i, c in enumerate(self.cells)}

    def below(self, sort: str) -> frozenset[str]:
        """`sort` and its subsorts (K accepts every sort)."""
        if sort == K:
            return frozenset((*self.sorts, *(d.name for d in self.data), K))
        out, todo = {sort}, [sort]
        while todo:
            s = todo.pop()
            for sub, sup in self.subsorts:
                if sup == s and sub not in out:
                    out.add(sub)
                    todo.append(sub)
        return frozenset(out)

    def sort_of(self, t: object) -> str | None:
        """The sort of a ground term or pattern (a variable's declared sort)."""
        if isinstance(t, App):
            return self.label_sort.get(t.label)
        if isinstance(t, Variable):
            return t.sort
        if isinstance(t, Op):
            return result_sort(t)
        return data_sort(t)


def strictness_rules(d: Definition) -> tuple[Rule, ...]:
    """The heating and cooling rules of each strict argument (§2): for argument `i` of `f`,
    `f(…, E, …) ↷ C ⇒ E ↷ f(…, □, …) ↷ C` when `E` is not a result, and
    `R ↷ f(…, □, …) ↷ C ⇒ f(…, R, …) ↷ C` for a result `R`; with `seqstrict` the strict
    arguments before `i` must be results already."""
    out: list[Rule] = []
    for p in d.productions:
        sorts = p.arg_sorts
        for i in p.strict:
            sort = sorts[i - 1]
            below = d.below(sort)
            args = [Variable(f"E{j + 1}", s, (d.below(s) & d.result_sorts)
                             if p.seq and j < i - 1 and j + 1 in p.strict else d.below(s))
                    for j, s in enumerate(sorts)]
            heated = Variable(f"E{i}", sort, below - d.result_sorts)
            result = Variable(f"R{i}", sort, below & d.result_sorts)
            term = App(p.label, tuple(heated if j == i - 1 else a for j, a in enumerate(args)))
            frozen = App(p.label, tuple(HOLE if j == i - 1 else a for j, a in enumerate(args)))
            cooled = App(p.label, tuple(result if j == i - 1 else a for j, a in enumerate(args)))
            k = d.cell_index["k"]
            none = (None,) * len(d.cells)
            out.append(Rule(f"heat-{p.label}-{i}", _at(none, k, KPattern((term,))),
                            _at(none, k, KPattern((heated, frozen))), pos=p.pos, kind="heat"))
            out.append(Rule(f"cool-{p.label}-{i}", _at(none, k, KPattern((result, frozen))),
                            _at(none, k, KPattern((cooled,))), pos=p.pos, kind="cool"))
    return tuple(out)


def _at(cells: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    return cells[:i] + (value,) + cells[i + 1:]


def lhs_variables(rule: Rule) -> list[Variable]:
    """`var(l)`, one entry per occurrence."""
    return [v for part in rule.lhs if part is not None for v in _pattern_vars(part)]


def _pattern_vars(part: Any) -> list[Variable]:
    if isinstance(part, KPattern):
        return [v for item in part.items for v in variables(item)]
    return variables(part)


def rule_problem(d: Definition, rule: Rule) -> str | None:
    """Why `rule` is not a rule of `d` (seed 002 Def. 1, Def. 2, §4.3), or None."""
    k = d.cell_index["k"]
    head = rule.lhs[k]
    if not isinstance(head, KPattern) or not head.items:
        return ("a rule must rewrite the computation at the top of the `k` cell "
                "(rules are indexed by it)")
    for part in rule.lhs:
        if part is None:
            continue
        items = part.items if isinstance(part, KPattern) else (part,)
        for t in (x for item in items for x in subterms(item)):
            if isinstance(t, Op):
                return (f"the left-hand side applies the data operation `{t.name}`: left-hand "
                        "sides hold constructors, variables and constants only (seed 002 §4.3; "
                        "write the operation in the right-hand side or the condition)")
    bound = {v.name for v in lhs_variables(rule)}
    if rule.cond is not None:
        free = sorted({v.name for v in variables(rule.cond)} - bound)
        if free:
            return (f"the condition's variable(s) {', '.join(free)} do not occur in the "
                    "left-hand side: seed 002 Def. 1 requires var(b) ⊆ var(l)")
        if d.sort_of(rule.cond) != BOOL:
            return "the condition after `requires` must be of sort Bool"
    for part in rule.rhs:
        if part is None:
            continue
        free = sorted({v.name for v in _pattern_vars(part)} - bound)
        if free:
            return (f"the right-hand side's variable(s) {', '.join(free)} do not occur in "
                    "the left-hand side")
    for i, cell in enumerate(d.cells):
        if cell.name == "k":
            continue
        for part in (rule.lhs[i], rule.rhs[i]):
            if part is not None and d.sort_of(part) not in (*d.below(cell.sort), None):
                return (f"cell <{cell.name}> holds a {cell.sort}, not a {d.sort_of(part)}")
    return None


def check_sorts(d: Definition) -> str | None:
    """Why the sorts of `d` are not consistent, or None: K's `<k>`, and `Map`, `Arrays`, `Fol`
    or syntax cells."""
    if "k" not in d.cell_index:
        return "the configuration has no <k> cell"
    for c in d.cells:
        if c.name != "k" and c.sort not in (MAP, ARRAYS, FOL, *d.sorts):
            return f"cell <{c.name}> must hold a Map, Arrays or a term of the syntax"
    return None
