"""The labelled transition system of a set of rules (seed 002 Def. 2), by syntactic matching.

`γ ⇒α γ'` iff `α = l ∧ b ⇒ r` and a valuation `ρ` has `γ = ρ(l)`, `ρ ⊨ b` and `γ' = ρ(r)`.
Non-data constructors are free (♠ in the proof of Lemma 1), so `ρ` is found by syntactic
matching, and it is unique (Cor. 1): a rule gives at most one successor, and a configuration
has one successor per rule that applies (the system may be nondeterministic). A variable
occurring twice in `l` (a non-linear rule) matches equal terms. `b` and `r` are evaluated in the
data algebra (`terms.DATA_OPS`); `b` must evaluate to `true`.

A constructor that a right-hand side builds (rather than takes from `ρ`) gets the source
position of the construct the rule rewrote, the first constructor with a position among the
computations its `k` pattern matched: the frozen `assert □` of a heating rule, the `assert false`
its cooling rule gives back and the `abort` an `if` with no enabled guard steps to stand where
that `assert` or `if` stands in the program. Positions are not part of terms (`App.pos`), so they
change no step.

Each left-hand side is compiled once into matching closures, and rules are indexed by the head
of the `k` cell (a constructor's label, or a data value's sort) and, for cooling rules, by the
label of the frozen context under it, so a step tries only the rules that can match. `run` is a loop (no recursion per step), bounded
by `max_steps`. The same engine runs a derived `L^sym` (symbolic.py): its conditions call
`unsat`, which needs the `solver` of the context.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Mapping

from symcert.core.concrete import Cells, Env, Value
from symcert.core.state import PathCondition
from symcert.lang.syntax import Bool, Int, Var
from symcert.seed002.definition import Definition, KPattern, Rule
from symcert.seed002.semfile import initial_cells
from symcert.seed002.terms import (
    ARRAYS, DATA_OPS, MAP, App, ArraysValue, Id, KSeq, MapValue, Op, Variable, data_sort, kitems,
    kseq, same, subterms,
)
from symcert.solver.caches import Cache
from symcert.solver.z3backend import CACHE_SIZE

REST = "⋯"
"""The name under which a matcher binds the rest of the `k` cell."""


@dataclass(frozen=True, slots=True)
class Config:
    """A configuration `⟨⟨k⟩_k ⟨env⟩_env …⟩_cfg`: the cells' contents in the definition's order
    (the `k` cell a `KSeq` or None)."""

    cells: tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class Transition:
    """`γ ⇒α γ'`: the rule's label `α` and the target configuration."""

    label: str
    target: Config


class Undecided(ValueError):
    """A rule's condition is not a constant: a concrete rule applied to symbolic data."""


@dataclass
class Context:
    """What data operations need: the solver and the models of the path conditions it found
    satisfiable (for `unsat`), and the values of the operations of the rule being applied, so
    that `ψ ∧ b` is built once for its condition and right side."""

    solver: Any = None
    models: Cache[PathCondition, Env] | None = None
    memo: dict[int, Any] = field(default_factory=dict)


Matcher = Callable[[Any, dict[str, Any]], bool]
"""A compiled pattern: extends `ρ` in place so that `ρ(pattern) = term`, or answers False."""
Builder = Callable[[Mapping[str, Any], "Context", "tuple[int, int] | None"], Any]
"""A compiled right-hand side: `ρ(pattern)` in a context, its new constructors at a position."""


class Engine:
    """The rules of a definition, each side compiled once into closures (matching, building), and
    indexed by the head of the `k` cell and, for a rule whose `k` pattern has a constructor
    second (a cooling rule's frozen context), by that constructor's label too."""

    def __init__(self, d: Definition, solver: Any = None) -> None:
        self.d = d
        self.k = d.cell_index["k"]
        self.solver = solver
        self.models: Cache[PathCondition, Env] = Cache(CACHE_SIZE)
        self._builders: dict[int, tuple[Any, Builder]] = {}
        self.matchers = {rule.label: self._compile_rule(rule) for rule in d.rules}
        self.conditions = {rule.label: self.builder(rule.cond) for rule in d.rules
                           if rule.cond is not None}
        self.right_sides = {rule.label: tuple((i, self.builder(p)) for i, p in enumerate(rule.rhs)
                                              if p is not None) for rule in d.rules}
        self.index: dict[str, list[Rule]] = {}
        self.index_next: dict[tuple[str, str], list[Rule]] = {}
        nexts: dict[str, set[str]] = {}
        for rule in d.rules:
            for key in self._keys(rule.lhs[self.k].items[0]):
                self.index.setdefault(key, []).append(rule)
                if (label := self._next_label(rule)) is not None:
                    nexts.setdefault(key, set()).add(label)
        for key, labels in nexts.items():
            for label in labels:
                self.index_next[key, label] = [
                    r for r in self.index[key] if self._next_label(r) in (None, label)]
            self.index[key] = [r for r in self.index[key] if self._next_label(r) is None]

    def with_solver(self, solver: Any) -> Engine:
        """This engine, its compiled rules shared, with `solver` and no models yet."""
        other = copy.copy(self)
        other.solver, other.models = solver, Cache(CACHE_SIZE)
        return other

    def _next_label(self, rule: Rule) -> str | None:
        """The label of the constructor second in the rule's `k` pattern, if it has one."""
        items = rule.lhs[self.k].items
        return items[1].label if len(items) > 1 and isinstance(items[1], App) else None

    def _keys(self, head: Any) -> list[str]:
        """The index keys of the terms a head pattern can match."""
        if isinstance(head, App):
            return [head.label]
        if isinstance(head, Variable):
            return [s for s in head.accepts if s not in self.d.sorts] + \
                   [p.label for p in self.d.productions if p.sort in head.accepts]
        return [data_sort(head) or "?"]

    def key(self, term: Any) -> str:
        """The index key of a term at the head of `k`."""
        return term.label if isinstance(term, App) else data_sort(term) or "?"

    def candidates(self, k: KSeq) -> list[Rule]:
        """The rules, in their order, whose left-hand side can match a `k` cell: no other
        can, nor match any valuation of it (a valuation keeps constructors, and data sorts)."""
        key = self.key(k.head)
        second = k.rest.head if k.rest is not None else None
        if isinstance(second, App):
            rules = self.index_next.get((key, second.label))
            if rules is not None:
                return rules
        return self.index.get(key, [])

    def step(self, cfg: Config) -> list[Transition]:
        """Every `γ ⇒α γ'` from `cfg`, in the order of the rules."""
        k = cfg.cells[self.k]
        if k is None:
            return []
        out = []
        for rule in self.candidates(k):
            target = self.apply(rule, cfg)
            if target is not None:
                out.append(Transition(rule.label, target))
        return out

    def matches(self, rule: Rule, cells: tuple[Any, ...]) -> dict[str, Any] | None:
        """The matcher `ρ` with `ρ(l) = cells` on the cells given (a prefix of the
        configuration's), or None; unique when it exists (Cor. 1)."""
        rho: dict[str, Any] = {}
        for i, match in self.matchers[rule.label]:
            if i < len(cells) and not match(cells[i], rho):
                return None
        return rho

    def apply(self, rule: Rule, cfg: Config) -> Config | None:
        """`ρ(r)` if `cfg = ρ(l)` and `ρ ⊨ b`, else None."""
        rho = self.matches(rule, cfg.cells)
        if rho is None:
            return None
        ctx = Context(self.solver, self.models)
        if rule.cond is not None:
            b = self.conditions[rule.label](rho, ctx, None)
            if not isinstance(b, Bool):
                raise Undecided(f"the condition of rule [{rule.label}] is not decided: {b}")
            if not b.value:
                return None
        cells = list(cfg.cells)
        pos = self._redex_pos(len(rule.lhs[self.k].items), cfg.cells[self.k])
        for i, build in self.right_sides[rule.label]:
            cells[i] = build(rho, ctx, pos)
        return Config(tuple(cells))

    @staticmethod
    def _redex_pos(n: int, k: KSeq | None) -> tuple[int, int] | None:
        """The position of the first of the `n` computations on top of `k` that has one."""
        for _ in range(n):
            if k is None:
                return None
            if isinstance(k.head, App) and k.head.pos is not None:
                return k.head.pos
            k = k.rest
        return None

    def _compile_rule(self, rule: Rule) -> tuple[tuple[int, Matcher], ...]:
        """The matchers of a rule's cells, left to right: a variable's first occurrence binds
        it, a later one (a non-linear rule) compares."""
        bound: set[str] = set()
        return tuple((i, self.compile(p, bound)) for i, p in enumerate(rule.lhs)
                     if p is not None)

    def compile(self, pattern: Any, bound: set[str]) -> Matcher:
        """Syntactic matching of `pattern` (constructors are free) as a closure; `bound` holds
        the variables that the patterns matched before it bind, and gets its own."""
        if isinstance(pattern, KPattern):
            return self._compile_k(pattern, bound)
        if isinstance(pattern, Variable):
            return self._compile_var(pattern, bound)
        if isinstance(pattern, App):
            label, n = pattern.label, len(pattern.args)
            subs = tuple(self.compile(a, bound) for a in pattern.args)

            def app(term: Any, rho: dict[str, Any]) -> bool:
                if not (isinstance(term, App) and term.label == label and len(term.args) == n):
                    return False
                for sub, arg in zip(subs, term.args):
                    if not sub(arg, rho):
                        return False
                return True
            return app
        kind = type(pattern)
        return lambda term, rho: type(term) is kind and pattern == term

    def _compile_var(self, pattern: Variable, bound: set[str]) -> Matcher:
        name, accepts, label_sort = pattern.name, pattern.accepts, self.d.label_sort
        if name in bound:
            return lambda term, rho: same(rho[name], term)
        bound.add(name)

        def var(term: Any, rho: dict[str, Any]) -> bool:
            sort = label_sort.get(term.label) if isinstance(term, App) else data_sort(term)
            if sort not in accepts:
                return False
            rho[name] = term
            return True
        return var

    def _compile_k(self, pattern: KPattern, bound: set[str]) -> Matcher:
        items = tuple(self.compile(i, bound) for i in pattern.items)
        rest = pattern.rest

        def k(term: Any, rho: dict[str, Any]) -> bool:
            for item in items:
                if term is None or not item(term.head, rho):
                    return False
                term = term.rest
            if rest:
                rho[REST] = term
                return True
            return term is None
        return k

    def match(self, pattern: Any, term: Any, rho: dict[str, Any]) -> bool:
        """Extend `rho` so that `rho(pattern) = term`, if possible (`compile`, for one use)."""
        return self.compile(pattern, set(rho))(term, rho)

    def build(self, pattern: Any, rho: Mapping[str, Any], ctx: Context,
              pos: tuple[int, int] | None = None) -> Any:
        """`ρ(pattern)`, data operations evaluated (each once per rule application), the
        constructors it builds placed at `pos`."""
        return self.builder(pattern)(rho, ctx, pos)

    def builder(self, pattern: Any) -> Builder:
        """`build` of `pattern` compiled into a closure (once per pattern: an operation's
        value is kept in `ctx.memo` under the operation's identity)."""
        known = self._builders.get(id(pattern))
        if known is not None:
            return known[1]
        made = self._compile_build(pattern)
        self._builders[id(pattern)] = (pattern, made)  # the pattern kept alive: its id names it
        return made

    def _compile_build(self, pattern: Any) -> Builder:
        if isinstance(pattern, Variable):
            name = pattern.name
            return lambda rho, ctx, pos: rho[name]
        if isinstance(pattern, App):
            label, subs = pattern.label, tuple(self.builder(a) for a in pattern.args)
            return lambda rho, ctx, pos: App(label, tuple(b(rho, ctx, pos) for b in subs), pos) \
                if subs or pos is not None else pattern
        if isinstance(pattern, KPattern):
            items, rest = tuple(self.builder(i) for i in pattern.items), pattern.rest
            return lambda rho, ctx, pos: kseq([b(rho, ctx, pos) for b in items],
                                              rho[REST] if rest else None)
        if isinstance(pattern, Op):
            key, fn = id(pattern), DATA_OPS[pattern.name].fn
            args = tuple(self.builder(a) for a in pattern.args)

            def op(rho: Mapping[str, Any], ctx: Context, pos: tuple[int, int] | None) -> Any:
                value = ctx.memo.get(key)
                if value is None:
                    value = ctx.memo[key] = fn(ctx, *[b(rho, ctx, None) for b in args])
                return value
            return op
        return lambda rho, ctx, pos: pattern


def step(d: Definition, cfg: Config, solver: Any = None) -> list[Transition]:
    """Every transition `cfg ⇒α γ'` of Def. 2 (one engine per call: use `Engine` in loops).

    :param d: the definition (a concrete `L` or a derived `L^sym`).
    :param cfg: the configuration.
    :param solver: a `solver.z3backend.Solver`, needed by `L^sym`'s `unsat`.
    """
    return Engine(d, solver).step(cfg)


@dataclass(frozen=True, slots=True)
class Run:
    """A run's last configuration, its steps and rule labels, and whether it ended (no rule
    applies) rather than running out of steps."""

    final: Config
    steps: int
    labels: tuple[str, ...]
    ended: bool


def run(d: Definition, cfg: Config, max_steps: int, solver: Any = None) -> Run:
    """Follow the first transition (by rule order) until none applies or `max_steps` steps.

    :param d: the definition.
    :param cfg: the first configuration.
    :param max_steps: the step bound.
    """
    engine = Engine(d, solver)
    labels: list[str] = []
    for _ in range(max_steps):
        nexts = engine.step(cfg)
        if not nexts:
            return Run(cfg, len(labels), tuple(labels), True)
        labels.append(nexts[0].label)
        cfg = nexts[0].target
    return Run(cfg, len(labels), tuple(labels), not engine.step(cfg))


def reachable(d: Definition, cfg: Config, max_configs: int) -> Iterator[Config]:
    """The configurations reachable from `cfg` along every transition, breadth-first, at
    most `max_configs` of them (duplicates are not merged)."""
    engine = Engine(d)
    todo = [cfg]
    seen = 0
    while todo and seen < max_configs:
        nxt = []
        for c in todo:
            seen += 1
            yield c
            nxt.extend(t.target for t in engine.step(c))
            if seen >= max_configs:
                return
        todo = nxt


def program_ids(program: Any) -> list[str]:
    """The identifiers of a program, in order of first occurrence."""
    return list(dict.fromkeys(t.name for t in subterms(program) if isinstance(t, Id)))


def initial(d: Definition, program: Any, inputs: Mapping[str, Value] | None = None,
            symbolic: bool = False) -> Config:
    """The initial configuration: `program` in `k`; in the first Map cell (the environment)
    every identifier of the program bound to its integer input (0 when not given, or an array),
    or with `symbolic` to the symbolic value of its name (seed 002 §6.3: `a ↦ symInt(a)`); in
    each Arrays cell the arrays given (every other array its input: `ArraysValue`); every other
    cell its declared content (`.Map`, a constant, the path condition `true`)."""
    values = inputs or {}
    env = MapValue(tuple(sorted(
        (x, Var(x) if symbolic else _integer(values.get(x, 0))) for x in program_ids(program))))
    arrays = ArraysValue(tuple(sorted((x, v) for x, v in values.items()
                                      if isinstance(v, Cells))), symbolic)
    init = initial_cells(d)
    first_map = next((c.name for c in d.cells if c.sort == MAP), None)
    cells = []
    for c in d.cells:
        if c.name == "k":
            cells.append(kseq([program]))
        elif c.name == first_map:
            cells.append(env)
        else:
            cells.append(arrays if c.sort == ARRAYS else init[c.name])
    return Config(tuple(cells))


def _integer(v: Value) -> Int:
    """An identifier's integer input: 0 for an array's name (each name is one or the other)."""
    return Int(v) if isinstance(v, int) else Int(0)


def store(d: Definition, cfg: Config, cell: str = "env") -> dict[str, Any]:
    """The bindings of a Map cell as a dict."""
    return dict(cfg.cells[d.cell_index[cell]].bindings)


def computation(d: Definition, cfg: Config) -> list[Any]:
    """The computations of the `k` cell, first first."""
    return list(kitems(cfg.cells[d.cell_index["k"]]))


def is_final(d: Definition, cfg: Config) -> bool:
    """Whether the `k` cell is empty (the program terminated normally)."""
    return cfg.cells[d.cell_index["k"]] is None


__all__ = ["Config", "Context", "Engine", "KSeq", "Run", "Transition", "Undecided", "computation",
           "initial", "is_final", "reachable", "run", "step", "store"]
