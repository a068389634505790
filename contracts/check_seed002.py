"""Seed 002's matcher lemmas, G-L1 (Lemma 1) and G-U1 (Cor. 1), as `check_*` functions.

Each takes integers and a bool, from which it builds a small configuration `γˢ` of IMP^sym (the
shipped imp.sem, derived): one construct of imp.sem over leaves that are constants, the symbolic
value `x`, a term over it or an identifier, possibly heated (its first argument on top of `k`,
the construct frozen with `□`), and an environment binding `x` to its symbolic value and `y` to
a constant. It returns whether the lemma's predicate (`seed002.simulation`) holds for every rule
of IMP^sym, with `@ensure(lambda result: result)`, so `crosshair check` searches for arguments
that make it False and the Hypothesis properties call the same functions. CrossHair runs the
same predicates as the properties: one checker run two ways, not a second checker.
"""

from __future__ import annotations

from typing import Any

from icontract import ensure

from symcert.core.concrete import Env
from symcert.core.state import TRUE_PC
from symcert.core.terms import TERMS
from symcert.lang.syntax import Bool, Int, Var
from symcert.seed002.bugfinder import Language
from symcert.seed002.rewrite import Config, initial
from symcert.seed002.definition import Rule
from symcert.seed002.simulation import Semantics, matcher, matcher_unique, matching_lifts
from symcert.seed002.terms import HOLE, App, Id, MapValue, kseq
from symcert.spec.switch import lemma

IMP = Language.load("imp")
SEM = Semantics.of(IMP.concrete, IMP.symbolic, None)
CONSTRUCTS = tuple(p for p in IMP.concrete.productions if not p.bracket)
"""The constructs of imp.sem (not its brackets), one of which is on top of `k`."""
START = initial(IMP.concrete, App("skip"), symbolic=True).cells[2:]
"""The cells after `env` as a program starts (arrays, frames, declarations)."""


def _leaf(sort: str, kind: int, n: int) -> Any:
    """A leaf of `sort`: for AExp `n`, the symbolic value `x`, `x + n` or the identifier `y`
    (by `kind`); for BExp the constant `n > 0` or `x <= n`; for Stmt `skip` or `fail`; for Id
    `x`."""
    choice = kind % 4
    if sort == "AExp":
        if choice < 2:
            return Int(n) if choice == 0 else Var("x")
        return TERMS.add(Var("x"), Int(n)) if choice == 2 else Id("y")
    if sort == "BExp":
        return Bool(n > 0) if choice % 2 == 0 else TERMS.cmp("<=", Var("x"), Int(n))
    if sort == "Stmt":
        return App("skip") if choice % 2 == 0 else App("fail")
    return Id("x")


def configuration(construct: int, kind1: int, kind2: int, n: int, heated: bool) -> Config:
    """`⟨⟨c ↷ ·⟩k ⟨x ↦ x, y ↦ n⟩env ⋯ ⟨true⟩cnd⟩` for the construct `c` chosen by `construct`,
    its arguments leaves chosen by `kind1`, `kind2`; `heated`: `a1 ↷ c(□, a2, …)` instead; the
    other cells (arrays, frames, declarations) as a program starts."""
    p = CONSTRUCTS[construct % len(CONSTRUCTS)]
    args = tuple(_leaf(s, k, n) for s, k in zip(p.arg_sorts, (kind1, kind2, kind1)))
    items = [args[0], App(p.label, (HOLE, *args[1:]))] if heated and args \
        else [App(p.label, args)]
    return Config((kseq(items), MapValue((("x", Var("x")), ("y", Int(n)))), *START, TRUE_PC))


def _indexed(gamma: Config) -> list[Rule]:
    """The rules of IMP^sym indexed by `γ`'s `k` cell (`Engine.candidates`): no other rule's
    left-hand side can match `γ`, nor `ϑ(γ)` (a valuation keeps constructors, and a datum's
    sort). Checking these only keeps each call short for CrossHair."""
    engine = SEM.symbolic
    return engine.candidates(gamma.cells[engine.k])


@lemma("G-L1")
@ensure(lambda result: result)
def check_g_l1_matching_lifts(construct: int, kind1: int, kind2: int, n: int, heated: bool,
                              x: int) -> bool:
    """Every rule of IMP^sym matches `γˢ` iff it matches `ϑ(γˢ)`, and then `ρ = ϑ∘ρˢ`, for
    `ϑ = {x ↦ x}` (seed 002 Lemma 1)."""
    gamma_s = configuration(construct, kind1, kind2, n, heated)
    theta = Env.of({"x": x})
    return all(matching_lifts(SEM, rule, gamma_s, theta) for rule in _indexed(gamma_s))


@lemma("G-U1")
@ensure(lambda result: result)
def check_g_u1_matcher_unique(construct: int, kind1: int, kind2: int, n: int,
                              heated: bool) -> bool:
    """The matcher of every rule of IMP^sym on `γˢ` is the one forced by the positions of the
    rule's variables (seed 002 Cor. 1)."""
    gamma_s = configuration(construct, kind1, kind2, n, heated)
    return all(matcher_unique(SEM, rule, gamma_s, matcher(SEM, rule, gamma_s))
               for rule in _indexed(gamma_s))
