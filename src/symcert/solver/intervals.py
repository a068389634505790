"""The solver's fast path for single-variable bounds: what the conjuncts of a path condition say
about one variable each, as intervals (a query on them alone needs no z3 call)."""

from __future__ import annotations

from dataclasses import dataclass

from symcert.core.terms import interval_of
from symcert.lang.syntax import BExpr


@dataclass(frozen=True)
class Bounds:
    """What the conjuncts of a path condition say about single variables: `box[x]` the
    interval its single-variable conjuncts allow, `mixed` the variables some other conjunct
    mentions (their constraints are not an interval)."""

    box: dict[str, tuple[int | None, int | None]]
    mixed: frozenset[str]

    def add(self, c: BExpr, names: frozenset[str]) -> Bounds:
        """The bounds after conjoining `c` (with free variables `names`)."""
        bound = interval_of(c)
        if bound is None:
            if names <= self.mixed:
                return self
            return Bounds(self.box, self.mixed | names)
        x, lo, hi = bound
        plo, phi = self.box.get(x, (None, None))
        lo = plo if lo is None else lo if plo is None else max(lo, plo)
        hi = phi if hi is None else hi if phi is None else min(hi, phi)
        box = dict(self.box)
        box[x] = (lo, hi)
        return Bounds(box, self.mixed)


NO_BOUNDS = Bounds({}, frozenset())
