"""The contract switch and the lemma tag: the leaf every contracted module imports.

Contracts are enabled by `SYMCERT_CONTRACTS=1` (read once, at import): on in the test suite and
in `symcert run --contracts`, off otherwise, when the guarded functions are left undecorated.
`@lemma(ID)` only tags a predicate with the IDs of `shared/LEMMAS.md` it states: a test compares
the tags with LEMMAS.md and docs/lemmas.md."""

from __future__ import annotations

import os
from typing import Callable, TypeVar


CONTRACTS = os.environ.get("SYMCERT_CONTRACTS", "0") == "1"

F = TypeVar("F", bound=Callable[..., object])


def lemma(*ids: str) -> Callable[[F], F]:
    """Tag a predicate with the LEMMAS.md IDs it states; the function is returned unchanged."""

    def tag(f: F) -> F:
        f.lemma_ids = ids  # type: ignore[attr-defined]
        return f

    return tag

