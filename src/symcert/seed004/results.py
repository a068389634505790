"""The result states of seed 004's symbolic interpreter (Listing 3): symbolic environments,
result states `(σ' | C'; ρ')_β` and their meaning under an interpretation (interp.py runs them).

Inside a procedure (seed 003 §3) a state also has the running call's local environment `τ`
(`SymResult.locals`): it binds every local of the procedure (procedures.py) from the call on,
so a program variable is read in `τ ∪ σ` (`scope`): in `τ` if bound there, else in `σ`. The
caller's `τ` waits in the interpreter's Python frame while the callee runs: the call's result
states have the caller's `τ` again, and a result of the whole program has none (`locals` None).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import Callable

from symcert.core import terms
from symcert.core.concrete import Env
from symcert.core.state import PathCondition
from symcert.engine.ghost import Interpretation
from symcert.lang.syntax import AExpr, Var
from symcert.seed004.natural import Behaviour, Outcome, Unbound

RESULT = "return"
"""The entry of `τ` where `return e` leaves the fresh variable holding its value (interp.py): a
keyword, never the name of a program variable."""


@dataclass(frozen=True, slots=True)
class SymEnv:
    """A symbolic environment `σ : PVar ⇀ SVar` (partial), as sorted bindings."""

    bindings: tuple[tuple[str, str], ...] = ()

    def get(self, x: str) -> str | None:
        """`σ(x)`, or None when `x ∉ dom(σ)`."""
        for k, v in self.bindings:
            if k == x:
                return v
        return None

    def update(self, x: str, v: str) -> SymEnv:
        """`σ[x ← v]`."""
        rest = tuple((k, w) for k, w in self.bindings if k != x)
        return SymEnv(tuple(sorted(rest + ((x, v),))))

    def codom(self) -> frozenset[str]:
        """The symbolic variables σ maps to."""
        return frozenset(v for _, v in self.bindings)

    def __str__(self) -> str:
        return "{" + ", ".join(f"{k} ↦ {v}" for k, v in self.bindings) + "}"


@dataclass(frozen=True, slots=True)
class SymResult:
    """A result state `(σ' | C'; ρ')_β` with `C' = ∃ exists. pc` (Listing 3).

    `fresh` is how many fresh variables the path introduced (the next index, M-F1); `locals` is
    the running call's `τ` while the state is inside a procedure (None in the main statement).
    """

    behaviour: Behaviour
    env: SymEnv
    pc: PathCondition
    ghost: Interpretation | None = None
    exists: frozenset[str] = frozenset()
    fresh: int = field(default=0, compare=False)
    locals: SymEnv | None = None

    def mentions(self, v: str) -> bool:
        """`v ∈ symbolic_vars()`, the path condition's part read from its facts (`pc_mentions`)."""
        return (v in self.exists or v in self.env.codom()
                or (self.locals is not None and v in self.locals.codom())
                or pc_mentions(self.pc, v))

    def top_index(self) -> int:
        """The largest `k` of a fresh `y#k` in `symbolic_vars()` (0 if none; `index_of`)."""
        names = self.env.codom() | self.exists | (self.locals.codom() if self.locals is not None
                                                  else frozenset())
        return max([path_facts(self.pc)[1], *(index_of(v) for v in names if not is_input(v))])

    def symbolic_vars(self) -> frozenset[str]:
        """`codom(σ) ∪ codom(τ) ∪ vars(C)`, existentially bound variables included (M-I1)."""
        found = set(self.env.codom()) | set(self.exists)
        if self.locals is not None:
            found |= self.locals.codom()
        for c in self.pc.conjuncts():
            found |= terms.free_vars(c)
        return frozenset(found)

    def __str__(self) -> str:
        prefix = "∃" + ",".join(sorted(self.exists)) + ". " if self.exists else ""
        local = "" if self.locals is None else f" τ = {self.locals}"
        return f"({self.env}{local} | {prefix}{self.pc})_{self.behaviour.value}"


def is_input(v: str) -> bool:
    """Whether symbolic variable `v` is an input (`x`), not a fresh one (`x#k`, M-F1)."""
    return "#" not in v


MALFORMED = sys.maxsize
"""The index `index_of` gives a name `y#s` whose `s` is no decimal number (no fresh name)."""


def index_of(v: str) -> int:
    """The `k` of a fresh variable `y#k` (M-F1): `MALFORMED` when the suffix is no number."""
    suffix = v.rpartition("#")[2]
    return int(suffix) if suffix.isascii() and suffix.isdigit() else MALFORMED


_FACTS: dict[int, tuple[PathCondition, frozenset[str], int]] = {}
"""`path_facts` of each path-condition node met, by identity (the node is kept with its facts,
so its id is not reused while the entry lives)."""

FACTS_KEPT = 100_000
"""How many nodes `_FACTS` keeps before it starts again empty."""


def path_facts(pc: PathCondition) -> tuple[frozenset[str], int]:
    """The inputs `pc` mentions and the largest index of a fresh variable it mentions (0 if
    none), kept per node: a node's are its parent's and its last conjunct's, so along a path
    each conjunct is scanned once, not once per fresh variable (the M-F1 contracts)."""
    todo: list[PathCondition] = []
    node: PathCondition | None = pc
    while node is not None and node.last is not None and id(node) not in _FACTS:
        todo.append(node)
        node = node.parent
    found = _FACTS.get(id(node)) if node is not None and node.last is not None else None
    ins, top = (found[1], found[2]) if found is not None else (frozenset(), 0)
    if len(_FACTS) + len(todo) > FACTS_KEPT:
        _FACTS.clear()
    for node in reversed(todo):
        names = terms.free_vars(node.last)  # type: ignore[arg-type]
        new = frozenset(v for v in names if is_input(v))
        ins = ins if new <= ins else ins | new
        top = max([top, *(index_of(v) for v in names if not is_input(v))])
        _FACTS[id(node)] = (node, ins, top)
    return ins, top


def pc_mentions(pc: PathCondition, v: str) -> bool:
    """`v ∈ vars(pc)`: for an input from `path_facts`, for a fresh `y#k` with `k` above the
    largest index `pc` mentions no scan either (the counter bounds the fresh variables)."""
    ins, top = path_facts(pc)
    if is_input(v):
        return v in ins
    if index_of(v) > top:
        return False
    return any(v in terms.free_vars(c) for c in pc.conjuncts())


def concretize_result(r: SymResult, rho: Env) -> Outcome:
    """What result `r` means under an interpretation `ρ ⊨ C'`: the outcome `β/ρ∘σ'`."""
    return Outcome(r.behaviour, Env.of({x: rho(v) for x, v in r.env.bindings}))


def input_of(rho: Env, declared: frozenset[str]) -> Env:
    """The concrete input `ρ∘σ₀` an interpretation gives, σ₀ mapping each declared x to x."""
    return Env.of({x: rho(x) for x in declared})


def scope(s: SymResult) -> Callable[[str], AExpr]:
    """`τ ∪ σ` applied to a program variable (σ in the main statement); raises `Unbound`
    outside `dom(τ) ∪ dom(σ)`."""

    def sub(x: str) -> AExpr:
        v = s.locals.get(x) if s.locals is not None else None
        if v is None:
            v = s.env.get(x)
        if v is None:
            raise Unbound(x)
        return Var(v)

    return sub
