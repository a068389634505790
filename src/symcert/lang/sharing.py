"""Hashing and equality of shared terms (syntax.py): symbolic terms are DAGs, so that after
`x = x + x` runs n times the term of `x` has n nodes and 2^n leaves as a tree. A compound
expression hashes its top `HASH_DEPTH` levels and a stored *shape*; equality compares each pair
of shared nodes once. Nothing value-dependent is stored in a node (contracts/README.md).

syntax.py fills `ARITY` (each compound class and its number of operands) and `WITH_OP` (the
classes with an `op` field) and binds these functions as the classes' dunder methods.
"""

from __future__ import annotations

from typing import Any

ARITY: dict[type, int] = {}
"""Each compound expression class and its number of operands (`operand`, or `left`/`right`)."""
WITH_OP: set[type] = set()
"""The compound classes whose `op` field takes part in equality (comparisons)."""
FIELDS: dict[type, tuple[str, ...]] = {}
"""The compound classes whose operands have their own names (an array's `select` and `update`,
seed 003 §5), and those names in order; the others use `operand` or `left`/`right`."""

_set = object.__setattr__


def shape(e: Any) -> int:
    """The hash of `e`'s shape: stored in a compound expression, the hash of its class for a
    leaf. Equal terms have equal shapes."""
    return e._shape if type(e) in ARITY else hash(type(e))


def store_shape(self: Any) -> None:
    """`__post_init__` of compound expressions: the hash of the term's *shape* (its classes and
    comparison operators, no literal value, no name), from the operands' stored shapes. It is
    the only thing a node stores: it distinguishes terms of any depth, and it stays a concrete
    int when CrossHair makes literals and names symbolic (a stored hash of those values was a
    stale symbolic object to CrossHair: contracts/README.md)."""
    kind = type(self)
    named = FIELDS.get(kind)
    if named is not None:
        _set(self, "_shape", hash((kind, *(shape(getattr(self, f)) for f in named))))
    elif ARITY[kind] == 1:
        _set(self, "_shape", hash((kind, shape(self.operand))))
    else:
        op = self.op if kind in WITH_OP else ""
        _set(self, "_shape", hash((kind, op, shape(self.left), shape(self.right))))


HASH_DEPTH = 3
"""How many levels of a term its hash reads the values of (beyond its stored shape). Three, so
that a loop's or a recursion's conditions `not 0 < x + -k` (a negation, a comparison, a sum)
hash apart: at two, all of them collided and every cache lookup compared them one by one (a
countdown loop's 20,000 states took 17.5 s instead of 0.35 s)."""


def structural_hash(self: Any) -> int:
    """`__hash__` of compound expressions: the stored shape, and the literals and names of the
    top `HASH_DEPTH` levels, read afresh. Consistent with structural equality and constant time
    however much the term shares."""
    return hash((self._shape, _top(self, HASH_DEPTH)))


def _top(e: Any, depth: int) -> object:
    """A hashable summary of `e` down to `depth` levels of operands (leaves whole)."""
    kind = type(e)
    arity = ARITY.get(kind)
    if arity is None:
        return e
    if depth == 0:
        return kind
    named = FIELDS.get(kind)
    if named is not None:
        return (kind, *(_top(getattr(e, f), depth - 1) for f in named))
    if arity == 1:
        return kind, _top(e.operand, depth - 1)
    return kind, _top(e.left, depth - 1), _top(e.right, depth - 1)


_EQ_PLAIN = 64
"""Pairs of nodes `__eq__` compares before it starts remembering the pairs it has seen."""


def structural_eq(self: Any, other: object) -> bool:
    """`__eq__` of compound expressions: iterative, and past `_EQ_PLAIN` pairs each pair of
    shared nodes is compared once, so two equal terms with 2^n leaves in n shared nodes
    compare in O(n)."""
    if self is other:
        return True
    if type(other) is not type(self):
        return NotImplemented
    todo: list[tuple[Any, Any]] = [(self, other)]
    seen: set[tuple[int, int]] = set()
    compared = 0
    while todo:
        a, b = todo.pop()
        if a is b:
            continue
        kind = type(a)
        if kind is not type(b):
            return False
        arity = ARITY.get(kind)
        if arity is None:
            if a != b:
                return False
            continue
        compared += 1
        if compared > _EQ_PLAIN:
            if (id(a), id(b)) in seen:
                continue
            seen.add((id(a), id(b)))
        named = FIELDS.get(kind)
        if named is not None:
            todo.extend((getattr(a, f), getattr(b, f)) for f in reversed(named))
            continue
        if arity == 1:
            todo.append((a.operand, b.operand))
            continue
        if kind in WITH_OP and a.op != b.op:
            return False
        todo.append((a.right, b.right))
        todo.append((a.left, b.left))
    return True


def parts(e: Any) -> tuple[Any, ...]:
    """The operands of a compound expression in field order (none for a leaf)."""
    kind = type(e)
    named = FIELDS.get(kind)
    if named is not None:
        return tuple(getattr(e, f) for f in named)
    arity = ARITY.get(kind)
    if arity is None:
        return ()
    return (e.operand,) if arity == 1 else (e.left, e.right)
