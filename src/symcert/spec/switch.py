"""The contract switch and the lemma tag: the leaf every contracted module imports.

Contracts are enabled by `SYMCERT_CONTRACTS=1` (read once, at import): on in the test suite and
in `symcert run --contracts`, off otherwise, when the guarded functions are left undecorated.
`@lemma(ID)` only tags a predicate with the lemma IDs it states (the catalogue of docs/lemmas.md):
a test compares the tags with that catalogue and with the map's rows.

The engine's modules take `icontract` from here: icontract itself when contracts are on, and
otherwise its `ensure` and `require` as they are with `enabled=False` (the function left as it
is), so that a run without contracts does not import icontract (0.01 s of start-up)."""

from __future__ import annotations

import os
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, Callable, TypeVar


CONTRACTS = os.environ.get("SYMCERT_CONTRACTS", "0") == "1"

F = TypeVar("F", bound=Callable[..., object])


def _unchanged(f: F) -> F:
    return f


def _off(*args: Any, **kwargs: Any) -> Callable[[F], F]:
    """`icontract.ensure(...)` or `icontract.require(...)` with contracts off."""
    return _unchanged


if TYPE_CHECKING or CONTRACTS:
    import icontract
else:
    icontract = SimpleNamespace(ensure=_off, require=_off)


def lemma(*ids: str) -> Callable[[F], F]:
    """Tag a predicate with the lemma IDs it states (docs/lemmas.md); the function is unchanged."""

    def tag(f: F) -> F:
        f.lemma_ids = ids  # type: ignore[attr-defined]
        return f

    return tag

