"""Predicates about concrete evaluation and concretization (seed 000 Fig. 2, W-D2.2, W-F9).

Each predicate states one lemma on the inputs and result of the function it guards; parameter
names match that function's, plus `result`, so icontract can use it directly and a violation
names the lemma."""

from __future__ import annotations

from typing import TYPE_CHECKING

from symcert.core.concrete import Env, State, aeval, head, step
from symcert.lang.syntax import Assume, Await, Get, Return, Skip, Spawn, Stmt
from symcert.spec.switch import lemma

if TYPE_CHECKING:
    from symcert.core.state import Store


def sample_valuations(names: frozenset[str]) -> tuple[Env, ...]:
    """Three fixed valuations for spot checks: all zero, all one, and distinct per-name values."""
    return (
        Env(),
        Env.of({x: 1 for x in names}),
        Env.of({x: sum(map(ord, x)) * 7 % 23 - 11 + i * 29 for i, x in enumerate(sorted(names))}),
    )


@lemma("W-D2.2")
def concretize_pointwise(valuation: Env, store: Store, names: frozenset[str],
                         result: Env) -> bool:
    """`(V∘S)(x) = ⟦S(x)⟧_V` for every requested name, and nothing else is bound (a value read
    as an environment binds it: an array of 0s, as 0, is unbound)."""
    return (all(result(x) == Env.of({x: aeval(valuation, store(x))})(x) for x in names)
            and all(k in names for k, _ in result.bindings))


@lemma("W-F9", "W-D2.5/2.6", "X-U1")
def stuck_means_fail(p: Stmt, result: bool) -> bool:
    """`is_stuck(p)` holds iff no concrete rule applies to a program other than `skip` and one
    about to run an `assume` (whose false condition blocks the run, X-U1: not stuck); one about
    to `return` is not stuck (it runs in a frame, seed 003 §3), nor one about to `spawn`, `get`
    or `await` (it runs in a configuration of threads, seed 003 §5)."""
    if isinstance(head(p), (Return, Spawn, Get, Await)):  # run in a frame or a configuration
        return result is False
    blocked = isinstance(head(p), Assume)
    return result == (not isinstance(p, Skip) and not blocked and step(State(Env(), p)) is None)

