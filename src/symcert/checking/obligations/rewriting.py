# crosshair: off
"""G-L2 and G-L3 rule by rule (seed 002 Lemmas 2 and 3): for each rule `α = l ∧ b ⇒ r` of a
language defined by rewrite rules (the shipped `imp.sem` and `gcl.sem`) and its derived
`α^sym = ⟨l', ψ⟩ ∧ ¬unsat(ψ ∧ b') ⇒ ⟨r', ψ ∧ b'⟩` (`seed002.derive`), the two simulations on
the most general symbolic configuration whose valuations `α` can match.

That configuration is built here from `l` itself, not from `l'`: each variable occurrence and
each constant of a symbolically extensible sort of `l` becomes a datum of a given shape (an Int
a literal `?k` or a term `?t`; a Bool a literal `?b` or an atom `?u <= ?w`; a Map binding `x` or
not; an array an input `?a` or a store over one; the arrays of a program binding `x` to such an
array or not; the first Id `x`, a later one `x` again or another), a variable the rule only
carries along a placeholder `?Sort(X)`, the rest of `k` a placeholder, a cell the rule does not
read a map or the arrays binding `x` and `y` or a placeholder `?Sort(cell)`, the path condition
`φ` the unknown `?phi` (one conjunct). `γ = ϑ(γˢ)` has
the data's values (`ϑ` the SMT constants; a Bool's value is split on). Then the engines run,
each trying the rules its index offers: the concrete one `α` on `γ` (`seed002.rewrite.Engine`,
its data operations on schematic values, branching where `b` does), the symbolic one `α^sym`
on `⟨γˢ, φ⟩`, its `unsat` the weakest sound one (the solver never answers UNSAT: Remark 1).

- `G-L2/<lang>-<rule>/<shapes>`: if `α` steps `γ ⇒ γ'` and `ϑ ⊨ φ`, then `α^sym` steps to
  `⟨γ'ˢ, φ'⟩` with `ϑ ⊨ φ'` and `ϑ(γ'ˢ) = γ'` (any sound `unsat` lets it: `φ'` holds at `ϑ`);
- `G-L3/<lang>-<rule>/<shapes>`: if `α^sym` steps to `⟨γ'ˢ, φ'⟩` and `ϑ ⊨ φ'`, then `ϑ ⊨ φ`
  and `α` steps `ϑ(γˢ) ⇒ ϑ(γ'ˢ)`.

That these configurations stand for all: a symbolic configuration whose valuation `l` matches
is an instance of `l'` (G-L1, Lemma 1); the data operations commute with `ϑ` whatever their
arguments (G-M1, `obligations.languages`); a carried-along subterm is left as it is by both
sides. An array of `γ` is an SMT array, not the `Cells` of a concrete run (docs/proofs.md
says what is argued by hand). A derivation that keeps a constant or does not linearise (G-L2),
forgets `b` in `ψ ∧ b` (G-L3), or restores the wrong locals on a return is refuted
(tests/proofs/test_rewriting.py).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace
from functools import cache
from typing import Any, Iterator

from symcert.checking.obligations.common import Draft, Obligation, collect, snum
from symcert.verify.smtlib import Script, conj, equal, sbool
from symcert.core.concrete import Cells
from symcert.core.state import PathCondition
from symcert.lang.syntax import ArrayVar, Bool, Cmp, Int, Update, Var
from symcert.seed002.definition import Definition, KPattern, Production, Rule
from symcert.seed002.derive import derive
from symcert.seed002.rewrite import Config, Engine
from symcert.seed002.semfile import find_language, load
from symcert.seed002.terms import (
    ARRAY, ARRAYS, BOOL, DATA_SORTS, ID, INT, K, MAP, App, ArraysValue, Id, KSeq, MapValue,
    Variable, data_sort, kseq,
)
from symcert.solver.answers import Sat

LANGUAGES = ("imp", "gcl")
"""The shipped definitions whose every rule gets its G-L2 and G-L3 obligations."""

SHAPES = {INT: ("int", "term"), BOOL: ("bool", "atom"), MAP: ("bound", "unbound"),
          ARRAY: ("input", "store-int", "store-term"),
          ARRAYS: ("bound", "stored-int", "stored-term", "unbound"), ID: ("same", "other")}
"""The shapes of a datum of each sort that the data operations and `unsat` tell apart: an
array an input `?a` or a store over one at a literal or a term index; the arrays of a program
binding `x` to such an array (and `y`) or not (`x` then its input array); an identifier after
the first (always `x`) the first one again or another."""

X, Y = "x", "y"
"""The identifiers of a schematic configuration: `x`, the one the rule reads or writes, and
`y`, standing for every other."""

PHI = PathCondition.of(Bool(sbool("?phi")))  # type: ignore[arg-type]
"""The path condition `φ` of `γˢ`: one unknown conjunct."""


class WeakestUnsat:
    """A solver that never answers UNSAT: `unsat` is then the weakest sound one (Remark 1),
    true only where `seed002.terms`'s `unsat` decides a constant last conjunct itself."""

    def check(self, phi: PathCondition, parent: Any = None) -> tuple[Sat, None]:
        """UNKNOWN, whatever `phi`."""
        return Sat.UNKNOWN, None


@dataclass
class _Instance:
    """Builds `γˢ` and `γ = ϑ(γˢ)` side by side from a left-hand side, the data taking their
    shapes from `shapes` in order."""

    shapes: Iterator[str]
    count: int = 0
    ids: int = 0

    def datum(self, sort: str) -> tuple[Any, Any]:
        """A fresh datum of `sort` in the next shape: (symbolic, its value under ϑ)."""
        self.count += 1
        i, shape = self.count, next(self.shapes)
        if shape == "int":
            v = snum(f"?k{i}")
            return Int(v), Int(v)  # type: ignore[arg-type]
        if shape == "term":
            return Var(f"?t{i}"), Int(snum(f"?t{i}"))  # type: ignore[arg-type]
        if shape == "bool":
            b = sbool(f"?b{i}")
            return Bool(b), Bool(bool(b))  # type: ignore[arg-type]
        if shape == "atom":
            value = snum(f"?u{i}") <= snum(f"?w{i}")
            return Cmp("<=", Var(f"?u{i}"), Var(f"?w{i}")), Bool(bool(value))
        if shape in ("same", "other"):
            return (Id(X), Id(X)) if shape == "same" else (Id(f"z{i}"), Id(f"z{i}"))
        if sort == ARRAY:
            return _array(shape.removeprefix("store-"), f"a{i}", i)
        if sort == ARRAYS:
            if shape == "unbound":  # ϑ of an unbound name's input array is that array
                return (ArraysValue(((Y, ArrayVar(f"?b{i}")),), True),
                        ArraysValue(((Y, ArrayVar(f"?b{i}")),), True))
            a, b = _array(shape.removeprefix("stored-") if shape != "bound" else "input",
                          f"a{i}", i)
            return (ArraysValue(((X, a), (Y, ArrayVar(f"?b{i}"))), True),
                    ArraysValue(((X, b), (Y, ArrayVar(f"?b{i}"))), True))
        keys = ("x", "y") if shape == "bound" else ("y",)
        return (MapValue(tuple((k, Var(f"?{k}{i}")) for k in keys)),
                MapValue(tuple((k, Int(snum(f"?{k}{i}"))) for k in keys)))  # type: ignore[arg-type]

    def term(self, d: Definition, t: Any) -> tuple[Any, Any]:
        """`t` of a left-hand side with its data positions filled (symbolic, valued)."""
        if isinstance(t, App):
            pairs = [self.term(d, a) for a in t.args]
            return (App(t.label, tuple(p[0] for p in pairs)),
                    App(t.label, tuple(p[1] for p in pairs)))
        if isinstance(t, Variable):
            sort = slot_sort(t)
            if sort is None:
                hole = App(f"?{placeholder_sort(t)}", (Id(t.name),))
                return hole, hole
            if sort == ID:
                self.ids += 1
                if self.ids == 1:
                    return Id(X), Id(X)
            return self.datum(sort)
        sort = d.sort_of(t)
        if sort in d.symbolic_sorts:
            return self.datum(sort)  # type: ignore[arg-type]
        return t, t


def _array(shape: str, name: str, i: int) -> tuple[Any, Any]:
    """An array (symbolic, its value under ϑ): the input `?<name>`, or a store over it at
    `?j<i>` (a literal, or symbolically a term when `shape` is `term`) of `?v<i>`. A value is
    an SMT array (`ϑ` of the input, a store over it), computed on by `core.terms`' `select`
    and `update`, not a `Cells` (docs/proofs.md: what that leaves to an argument by hand)."""
    a = ArrayVar(f"?{name}")
    if shape == "input":
        return a, a
    index = Int(snum(f"?j{i}"))
    return (Update(a, index if shape == "int" else Var(f"?j{i}"), Var(f"?v{i}")),  # type: ignore[arg-type]
            Update(a, index, Int(snum(f"?v{i}"))))  # type: ignore[arg-type]


def slot_sort(v: Variable) -> str | None:
    """The data sort of the datum that stands for `v`, or None for a placeholder."""
    if v.sort in DATA_SORTS:
        return v.sort
    if v.sort in v.accepts:
        return None
    data = sorted(s for s in v.accepts if s in DATA_SORTS)
    return data[0] if data else None


def placeholder_sort(v: Variable) -> str:
    """The sort of the placeholder that stands for `v`."""
    return v.sort if v.sort in v.accepts else min(s for s in v.accepts if s not in DATA_SORTS)


def slots(d: Definition, rule: Rule) -> list[str]:
    """The data sorts of the positions of `l` that `_Instance` fills with data, in order."""
    out: list[str] = []
    ids = 0
    todo = [t for part in reversed(rule.lhs) if part is not None
            for t in reversed(part.items if isinstance(part, KPattern) else (part,))]
    while todo:
        t = todo.pop()
        if isinstance(t, App):
            todo.extend(reversed(t.args))
        elif isinstance(t, Variable):
            sort = slot_sort(t)
            if sort == ID:
                ids += 1
            if sort is not None and (sort != ID or ids > 1):
                out.append(sort)
        elif d.sort_of(t) in d.symbolic_sorts:
            out.append(d.sort_of(t))  # type: ignore[arg-type]
    return out


def with_placeholders(d: Definition) -> Definition:
    """`d` with a nullary production `?S` of each sort `S`, so that a placeholder has a sort
    (the rules are unchanged)."""
    extra = tuple(Production(s, ((True, f"?{s}"),), f"?{s}") for s in (*d.sorts, K))
    return replace(d, productions=d.productions + extra)


def _instances(d: Definition, rule: Rule, inst: _Instance) -> tuple[Config, Config]:
    """`⟨γˢ, φ⟩` and `γ = ϑ(γˢ)` for `rule`'s left-hand side; a cell it does not read holds a
    map binding `x` and `y`, the arrays `x` and `y`, or a placeholder `?Sort(cell)`."""
    sym: list[Any] = []
    conc: list[Any] = []
    for i, cell in enumerate(d.cells):
        part = rule.lhs[i]
        if isinstance(part, KPattern):
            pairs = [inst.term(d, t) for t in part.items]
            rest = kseq([App(f"?{K}", (Id("⋯"),))]) if part.rest else None
            sym.append(kseq([p[0] for p in pairs], rest))
            conc.append(kseq([p[1] for p in pairs], rest))
        elif part is None and cell.sort == MAP:
            keys = ("x", "y")
            sym.append(MapValue(tuple((k, Var(f"?{cell.name}-{k}")) for k in keys)))
            conc.append(MapValue(tuple((k, Int(snum(f"?{cell.name}-{k}")))  # type: ignore[arg-type]
                                       for k in keys)))
        elif part is None and cell.sort == ARRAYS:
            bound = tuple((k, ArrayVar(f"?{cell.name}-{k}")) for k in (X, Y))
            sym.append(ArraysValue(bound, True))
            conc.append(ArraysValue(bound))
        elif part is None:
            hole = App(f"?{cell.sort}", (Id(cell.name),))
            sym.append(hole)
            conc.append(hole)
        else:
            s, c = inst.term(d, part)
            sym.append(s)
            conc.append(c)
    return Config((*sym, PHI)), Config(tuple(conc))


def _fire(engine: Engine, rule: Rule, cfg: Config) -> Config | None:
    """`rule`'s step from `cfg`, if the engine's index offers it and it applies."""
    k = cfg.cells[engine.k]
    if k is None or not any(r is rule for r in engine.candidates(k)):
        return None
    return engine.apply(rule, cfg)


def holds(s: Script, phi: PathCondition) -> str:
    """`ϑ ⊨ φ` as SMT text."""
    return conj(s.bexpr(c) for c in phi.conjuncts())


def same(s: Script, sym: tuple[Any, ...], conc: tuple[Any, ...]) -> str:
    """`ϑ(γ'ˢ) = γ'` as SMT text: the same constructors, identifiers and map keys (else
    `false`), and an equation per datum."""
    parts: list[str] = []
    todo = list(zip(sym, conc))
    while todo:
        a, b = todo.pop()
        sort = data_sort(a)
        if sort in (INT, BOOL):
            if data_sort(b) != sort:
                return "false"
            text = s.aexpr if sort == INT else s.bexpr
            parts.append(equal(text(a), text(b)))
        elif sort == ARRAY:
            if data_sort(b) != ARRAY:
                return "false"
            parts.append(equal(array_text(s, a), array_text(s, b)))
        elif sort == ARRAYS:
            if not isinstance(b, ArraysValue):
                return "false"
            names = sorted({k for k, _ in a.bindings} | {k for k, _ in b.bindings})
            todo.extend((a.lookup(n), b.lookup(n)) for n in names)
        elif isinstance(a, MapValue):
            if not (isinstance(b, MapValue) and [k for k, _ in a.bindings] == [k for k, _ in
                                                                              b.bindings]):
                return "false"
            todo.extend((v, w) for (_, v), (_, w) in zip(a.bindings, b.bindings))
        elif isinstance(a, App):
            if not (isinstance(b, App) and a.label == b.label and len(a.args) == len(b.args)):
                return "false"
            todo.extend(zip(a.args, b.args))
        elif isinstance(a, KSeq):
            if not isinstance(b, KSeq):
                return "false"
            todo.extend(((a.head, b.head), (a.rest, b.rest)))
        elif not (type(a) is type(b) and a == b):
            return "false"
    return conj(parts)


def array_text(s: Script, a: Any) -> str:
    """An array's value as SMT text (SMT-LIB's `(Array Int Int)`): a `Cells` the stores of its
    cells over the constant array of its default, a term as `Script.aexpr` writes it."""
    if not isinstance(a, Cells):
        return s.aexpr(a)
    text = f"((as const (Array Int Int)) {s.int_value(a.default)})"
    for i, v in a.cells:
        text = f"(store {text} {s.int_value(i)} {s.int_value(v)})"
    return text


def rule_name(language: str, label: str) -> str:
    """The obligation's rule for `label` of `language`, without `/` (`imp-heat-_slash_-1`)."""
    return f"{language}-{label.replace('/', 'slash')}"


def rule_obligations(language: str, d: Definition, dsym: Definition,
                     labels: tuple[str, ...] | None = None) -> list[Obligation]:
    """G-L2 and G-L3 for each rule of `d` (those of `labels` only, if given) against its
    namesake in `dsym`, one obligation per lemma, shapes of the data and path.

    :param language: the name in the obligations' rules (`imp`, `gcl`).
    :param d: a concrete definition `L`.
    :param dsym: its derived `L^sym` (or a planted wrong one).
    """
    d, dsym = with_placeholders(d), with_placeholders(dsym)
    concrete, symbolic = Engine(d), Engine(dsym, WeakestUnsat())
    derived = {r.label: r for r in dsym.rules}
    out: list[Obligation] = []
    for rule in d.rules:
        if labels is not None and rule.label not in labels:
            continue
        name = rule_name(language, rule.label)
        sorts = slots(d, rule)
        for combo in itertools.product(*(SHAPES[s] for s in sorts)):
            out.extend(collect("+".join(combo) or "plain",
                               lambda rule=rule, combo=combo, name=name: _drafts(
                                   d, concrete, symbolic, rule, derived.get(rule.label), combo,
                                   name)))
    return out


def _drafts(d: Definition, concrete: Engine, symbolic: Engine, rule: Rule,
            derived: Rule | None, combo: tuple[str, ...], name: str) -> list[Draft]:
    s = Script()
    gamma_s, gamma = _instances(d, rule, _Instance(iter(combo)))
    after = _fire(concrete, rule, gamma)
    after_s = _fire(symbolic, derived, gamma_s) if derived is not None else None
    phi = holds(s, PHI)
    drafts = []
    if after is not None:
        goal = "false" if after_s is None else conj(
            [holds(s, after_s.cells[-1]), same(s, after_s.cells[:-1], after.cells)])
        drafts.append(Draft("G-L2", name, s, [phi], goal))
    if after_s is not None:
        goal = "false" if after is None else conj(
            [phi, same(s, after_s.cells[:-1], after.cells)])
        drafts.append(Draft("G-L3", name, s, [holds(s, after_s.cells[-1])], goal))
    return drafts


@cache
def languages() -> dict[str, tuple[Definition, Definition]]:
    """Each shipped language of `LANGUAGES`: `L` and `derive(L)` (read and derived once)."""
    out = {}
    for name in LANGUAGES:
        d = load(find_language(name))
        out[name] = (d, derive(d))
    return out


def g_l2_g_l3() -> list[Obligation]:
    """G-L2 and G-L3 for every rule of the shipped languages."""
    return [o for name, (d, dsym) in languages().items() for o in rule_obligations(name, d, dsym)]


def rules_needed() -> list[str]:
    """The obligations' rules that must have G-L2 and G-L3 obligations: every rule of the
    shipped languages."""
    return [rule_name(name, r.label) for name, (d, _) in languages().items() for r in d.rules]
