"""The result states of seed 004's symbolic interpreter (Listing 3): symbolic environments,
result states `(σ' | C'; ρ')_β` and their meaning under an interpretation (interp.py runs them).

Inside a procedure (seed 003 §3) a state also has the running call's local environment `τ`
(`SymResult.locals`): it binds every local of the procedure (procedures.py) from the call on,
so a program variable is read in `τ ∪ σ` (`scope`): in `τ` if bound there, else in `σ`. The
caller's `τ` waits in the interpreter's Python frame while the callee runs: the call's result
states have the caller's `τ` again, and a result of the whole program has none (`locals` None).
"""

from __future__ import annotations

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
