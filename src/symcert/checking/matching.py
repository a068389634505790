"""Matchers by enumeration (seed 002 Lemma 1, Cor. 1): an oracle written from Def. 2's
`γ = ρ(l)` alone, not from the engine's compiled matcher (`seed002.rewrite.Engine.compile`)
nor from the positions of `l`'s variables (`seed002.simulation.matcher_unique`).

A valuation `ρ` with `ρ(l) = γ` binds each variable of `l` to a subterm of `γ` of a sort the
variable accepts, and the `⋯` of the `k` pattern to a suffix of the computation. `matchers`
tries every such valuation, builds `ρ(l)` and keeps those syntactically equal to `γ` (non-data
constructors are free), so it counts the matchers rather than computing one: G-U1 says there is
at most one, G-L1 that the matchers of `ϑ(γˢ)` are the `ϑ∘ρˢ` of those of `γˢ`. The only
pruning is sound: a constructor on top of `k` in `l` must be the one at the same place in `γ`.
"""

from __future__ import annotations

import itertools
from typing import Any, Callable

from symcert.core.concrete import Cells, Env, aeval, beval
from symcert.lang.syntax import Bool, Int
from symcert.seed002.definition import Definition, KPattern, Rule
from symcert.seed002.rewrite import REST
from symcert.seed002.terms import (
    BOOL, INT, App, ArraysValue, KSeq, MapValue, Variable, data_sort, kitems, same, subterms,
)
from symcert.spec.definedness import defined

Valuation = dict[str, Any]


def _sort(d: Definition, t: Any) -> str | None:
    return d.label_sort.get(t.label) if isinstance(t, App) else data_sort(t)


def _distinct(terms: list[Any]) -> list[Any]:
    out: list[Any] = []
    for t in terms:
        if not any(same(t, u) for u in out):
            out.append(t)
    return out


def _build(t: Any, rho: Valuation) -> Any:
    if isinstance(t, Variable):
        return rho[t.name]
    if isinstance(t, App):
        return App(t.label, tuple(_build(a, rho) for a in t.args))
    return t


def _instance(part: Any, rho: Valuation) -> Any:
    """`ρ(part)` for one cell's pattern."""
    if isinstance(part, KPattern):
        rest = rho[REST] if part.rest else None
        for item in reversed(part.items):
            rest = KSeq(_build(item, rho), rest)
        return rest
    return _build(part, rho)


def _variables(rule: Rule, cells: int) -> list[Variable | str]:
    out: dict[str, Variable | str] = {}
    for part in rule.lhs[:cells]:
        if part is None:
            continue
        items = part.items if isinstance(part, KPattern) else (part,)
        for item in items:
            for t in subterms(item):
                if isinstance(t, Variable):
                    out.setdefault(t.name, t)
        if isinstance(part, KPattern) and part.rest:
            out[REST] = REST
    return list(out.values())


def _heads_agree(rule: Rule, k: int, gamma: tuple[Any, ...]) -> bool:
    """Whether each constructor on top of `k` in `l` is the one at its place in `γ` (else no
    `ρ` has `ρ(l) = γ`)."""
    items = list(kitems(gamma[k]))
    pattern = rule.lhs[k].items
    if len(items) < len(pattern):
        return False
    return all(not isinstance(p, App) or isinstance(t, App) and t.label == p.label
               for p, t in zip(pattern, items))


def matchers(d: Definition, rule: Rule, gamma: tuple[Any, ...], limit: int = 2
             ) -> list[Valuation]:
    """The valuations `ρ` of `var(l)` with `ρ(l) = γ` on `γ`'s cells, found by trying every
    candidate binding; at most `limit` of them."""
    k = d.cell_index["k"]
    if not _heads_agree(rule, k, gamma):
        return []
    subs = _distinct([t for cell in gamma for t in subterms(cell)
                      if not isinstance(t, KSeq) and t is not None])
    suffixes: list[Any] = []
    tail = gamma[k]
    while tail is not None:
        suffixes.append(tail)
        tail = tail.rest
    suffixes.append(None)
    names = _variables(rule, len(gamma))
    options = [suffixes if v == REST else [t for t in subs if _sort(d, t) in v.accepts]
               for v in names]
    out: list[Valuation] = []
    for values in itertools.product(*options):
        rho = {v if isinstance(v, str) else v.name: t for v, t in zip(names, values)}
        if all(part is None or same(_instance(part, rho), cell)
               for part, cell in zip(rule.lhs, gamma)):
            out.append(rho)
            if len(out) >= limit:
                break
    return out


def value(t: Any, theta: Env) -> Any:
    """`ϑ(t)`: each datum over symbolic values replaced by its value (recursive: small terms)."""
    if isinstance(t, App):
        return App(t.label, tuple(value(a, theta) for a in t.args))
    if isinstance(t, KSeq):
        return KSeq(value(t.head, theta), value(t.rest, theta))
    if isinstance(t, MapValue):
        return MapValue(tuple((k, value(v, theta)) for k, v in t.bindings))
    if isinstance(t, ArraysValue):  # an array left to its input is `ϑ`'s array of its name
        bound = {k: value(v, theta) for k, v in t.bindings}
        if t.symbolic:
            bound = {k: v for k, v in theta.bindings if isinstance(v, Cells)} | bound
        return ArraysValue(tuple(sorted(bound.items())))
    sort = data_sort(t)
    if sort == INT:
        return Int(aeval(theta, t))
    if sort == BOOL:
        return Bool(beval(theta, t))
    return t


def unique_matcher(d: Definition, rule: Rule, gamma_s: tuple[Any, ...],
                   found: Valuation | None) -> bool:
    """G-U1 by enumeration: `γˢ` has at most one matcher, and it is `found` (the engine's;
    None when the engine found none)."""
    all_ = matchers(d, rule, gamma_s)
    if found is None:
        return not all_
    return len(all_) == 1 and all_[0].keys() == found.keys() and all(
        same(all_[0][x], found[x]) for x in found)


def lifts(d: Definition, rule: Rule, gamma_s: tuple[Any, ...], theta: Env) -> bool:
    """G-L1 by enumeration: the matchers of `ϑ(γˢ)` are the `ϑ∘ρˢ` of the matchers `ρˢ` of
    `γˢ` (vacuous where `ϑ(γˢ)` divides by zero)."""
    gamma = defined(lambda: tuple(value(c, theta) for c in gamma_s))
    if gamma is None:
        return True
    symbolic = matchers(d, rule, gamma_s)
    concrete = matchers(d, rule, gamma)
    lifted: list[Valuation] = [{x: value(t, theta) for x, t in rho.items()} for rho in symbolic]
    agree: Callable[[Valuation, Valuation], bool] = lambda a, b: a.keys() == b.keys() and all(
        same(a[x], b[x]) for x in a)
    return len(lifted) == len(concrete) and all(any(agree(r, s) for s in lifted)
                                                for r in concrete)
