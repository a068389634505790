"""Facts about path conditions, plain Python (no z3): folded along a path with a cache, the
distance between two path conditions, and which ones are nonlinear (solver/z3backend.py)."""

from __future__ import annotations

from typing import Callable, TypeVar

from symcert.core.state import PathCondition
from symcert.lang.syntax import BExpr
from symcert.solver.caches import Cache

V = TypeVar("V")


def along(pc: PathCondition, cache: Cache[PathCondition, V], empty: V,
           add: Callable[[V, BExpr], V]) -> V:
    """A fact about `pc` folded conjunct by conjunct (`add`) from the nearest ancestor whose fact
    `cache` holds, caching it at each node on the way: O(1) amortised along a path."""
    todo: list[PathCondition] = []
    node: PathCondition | None = pc
    found: V | None = None
    while node is not None and node.last is not None:
        found = cache.get(node)
        if found is not None:
            break
        todo.append(node)
        node = node.parent
    acc = found if found is not None else empty
    for node in reversed(todo):
        assert node.last is not None
        acc = add(acc, node.last)
        cache.put(node, acc)
    return acc


def within(a: PathCondition, b: PathCondition | None, budget: int) -> bool:
    """Whether `b` is at most `budget` pops and pushes away from `a`."""
    ups: dict[int, int] = {}
    node: PathCondition | None = b
    k = 0
    while node is not None and k <= budget:
        ups[id(node)] = k
        node, k = node.parent, k + 1
    node, k = a, 0
    while node is not None and k <= budget:
        j = ups.get(id(node))
        if j is not None:
            return j + k <= budget
        node, k = node.parent, k + 1
    return False


class Nonlinear:
    """The algebra of linearity: an arithmetic value is (constant?, nonlinear?), a boolean one
    (False, nonlinear?). Nonlinear, that is outside linear integer arithmetic: a product of two
    non-constants, a division or remainder by a non-constant, or an array (seed 003 §5: kept on
    the assertion stack as before the literals; arrays under literals were not measured)."""

    def integer(self, ctx: None, value: int) -> tuple[bool, bool]:
        return True, False

    def var(self, ctx: None, name: str) -> tuple[bool, bool]:
        return False, False

    def neg(self, a: tuple[bool, bool]) -> tuple[bool, bool]:
        return a

    def add(self, a: tuple[bool, bool], b: tuple[bool, bool]) -> tuple[bool, bool]:
        return a[0] and b[0], a[1] or b[1]

    sub = add

    def mul(self, a: tuple[bool, bool], b: tuple[bool, bool]) -> tuple[bool, bool]:
        return a[0] and b[0], a[1] or b[1] or not (a[0] or b[0])

    def div(self, a: tuple[bool, bool], b: tuple[bool, bool]) -> tuple[bool, bool]:
        return a[0] and b[0], a[1] or b[1] or not b[0]

    mod = div

    def array(self, ctx: None, name: str) -> tuple[bool, bool]:
        return False, True

    def select(self, array: tuple[bool, bool], index: tuple[bool, bool]) -> tuple[bool, bool]:
        return False, True

    def update(self, array: tuple[bool, bool], index: tuple[bool, bool],
               value: tuple[bool, bool]) -> tuple[bool, bool]:
        return False, True

    def cmp(self, op: str, a: tuple[bool, bool], b: tuple[bool, bool]) -> tuple[bool, bool]:
        return False, a[1] or b[1]

    def boolean(self, ctx: None, value: bool) -> tuple[bool, bool]:
        return False, False

    def not_(self, a: tuple[bool, bool]) -> tuple[bool, bool]:
        return a

    def and_(self, a: tuple[bool, bool],
             b: Callable[[], tuple[bool, bool]]) -> tuple[bool, bool]:
        return False, a[1] or b()[1]

    or_ = and_

    def bind(self, ctx: None, name: str, value: tuple[bool, bool]) -> None:
        return ctx

    def quantifier(self, universal: bool, name: str, lo: tuple[bool, bool],
                   hi: tuple[bool, bool], body: Callable[[tuple[bool, bool]], tuple[bool, bool]]
                   ) -> tuple[bool, bool]:
        """A quantifier (X-Q1) is outside the quantifier-free fragments both algebras name."""
        return False, True


NONLINEAR = Nonlinear()


class NonlinearArithmetic(Nonlinear):
    """Nonlinear arithmetic only: a product of two non-constants, or a division or remainder by
    a non-constant; an array is linear here (z3's array theory stops within its resource
    limit). The path conditions z3 may be unable to stop on (`deadline.within`)."""

    def array(self, ctx: None, name: str) -> tuple[bool, bool]:
        return False, False

    def select(self, array: tuple[bool, bool], index: tuple[bool, bool]) -> tuple[bool, bool]:
        return False, array[1] or index[1]

    def update(self, array: tuple[bool, bool], index: tuple[bool, bool],
               value: tuple[bool, bool]) -> tuple[bool, bool]:
        return False, array[1] or index[1] or value[1]


ARITHMETIC = NonlinearArithmetic()
