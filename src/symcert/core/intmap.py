"""A persistent sorted map from integers to integers: an AVL tree of plain tuples.

The concrete arrays and fields' maps (`concrete.Cells`, seed 003 §§4-5) are held in it, so a
cell is read or written in O(log n) for an array of n cells instead of a copy of all n. A tree
is `None` (empty) or a node `(left, key, value, right, height)`: every key of `left` is below
`key`, every key of `right` above it, and the heights of `left` and `right` differ by at most
one (Adelson-Velsky and Landis, 1962), so a tree of n keys is at most 1.44·log2(n + 2) high.
`insert` and `remove` rebuild the nodes on one path from the root and share every other node
with the tree they start from (path copying: Okasaki, *Purely Functional Data Structures*,
1998, §2.2); the tree passed in is never changed. Two trees holding the same map may differ in
shape: compare `items`, never the tuples.
"""

from __future__ import annotations

from typing import Iterator, Optional

Tree = Optional[tuple["Tree", int, int, "Tree", int]]
"""`None`, or `(left, key, value, right, height)`."""


def height(t: Tree) -> int:
    """The number of nodes on the longest path from the root of `t` down (0 when empty)."""
    return 0 if t is None else t[4]


def _node(left: Tree, key: int, value: int, right: Tree) -> Tree:
    return left, key, value, right, max(height(left), height(right)) + 1


def _balance(left: Tree, key: int, value: int, right: Tree) -> Tree:
    """The node over `left` and `right`, rotated once or twice if their heights differ by two
    (what an insertion or a removal below leaves at most)."""
    hl, hr = height(left), height(right)
    if hl > hr + 1:
        assert left is not None
        ll, lk, lv, lr, _ = left
        if height(ll) >= height(lr):
            return _node(ll, lk, lv, _node(lr, key, value, right))
        assert lr is not None
        lrl, lrk, lrv, lrr, _ = lr
        return _node(_node(ll, lk, lv, lrl), lrk, lrv, _node(lrr, key, value, right))
    if hr > hl + 1:
        assert right is not None
        rl, rk, rv, rr, _ = right
        if height(rr) >= height(rl):
            return _node(_node(left, key, value, rl), rk, rv, rr)
        assert rl is not None
        rll, rlk, rlv, rlr, _ = rl
        return _node(_node(left, key, value, rll), rlk, rlv, _node(rlr, rk, rv, rr))
    return _node(left, key, value, right)


def lookup(t: Tree, key: int, default: int) -> int:
    """The value of `key` in `t`, `default` if it has none (visits one path)."""
    while t is not None:
        k = t[1]
        if key == k:
            return t[2]
        t = t[0] if key < k else t[3]
    return default


def insert(t: Tree, key: int, value: int) -> Tree:
    """`t` with `key` mapped to `value`."""
    if t is None:
        return None, key, value, None, 1
    left, k, v, right, h = t
    if key < k:
        below = insert(left, key, value)
        assert below is not None
        if below[4] == height(left):  # the same height: no rotation, the same height here
            return below, k, v, right, h
        return _balance(below, k, v, right)
    if k < key:
        below = insert(right, key, value)
        assert below is not None
        if below[4] == height(right):
            return left, k, v, below, h
        return _balance(left, k, v, below)
    return left, key, value, right, h


def remove(t: Tree, key: int) -> Tree:
    """`t` without `key`."""
    if t is None:
        return None
    left, k, v, right, _ = t
    if key < k:
        return _balance(remove(left, key), k, v, right)
    if k < key:
        return _balance(left, k, v, remove(right, key))
    if left is None:
        return right
    if right is None:
        return left
    first, rest = _pop_first(right)
    return _balance(left, first[0], first[1], rest)


def _pop_first(t: Tree) -> tuple[tuple[int, int], Tree]:
    """The least key of a non-empty `t` with its value, and `t` without it."""
    assert t is not None
    left, k, v, right, _ = t
    if left is None:
        return (k, v), right
    first, rest = _pop_first(left)
    return first, _balance(rest, k, v, right)


def of_sorted(pairs: tuple[tuple[int, int], ...]) -> Tree:
    """The tree of `pairs`, whose keys increase strictly (n nodes built, balanced)."""
    return _build(pairs, 0, len(pairs))


def _build(pairs: tuple[tuple[int, int], ...], lo: int, hi: int) -> Tree:
    if lo >= hi:
        return None
    mid = (lo + hi) // 2
    return _node(_build(pairs, lo, mid), pairs[mid][0], pairs[mid][1], _build(pairs, mid + 1, hi))


def changed(a: Tree, b: Tree) -> list[int]:
    """The keys whose values differ between `a` and `b` (a key only one has included), in
    increasing order. Only the nodes one tree does not share with the other are visited (a
    shared node is the object the other tree holds for its key, and everything below it is
    shared): for `b` made from `a` by k writes, O(k·log² n), not a walk of both trees."""
    keys: set[int] = set()
    for t, other in ((a, b), (b, a)):
        todo = [t]
        while todo:
            node = todo.pop()
            if node is None or _node_at(other, node[1]) is node:
                continue
            keys.add(node[1])
            todo += [node[0], node[3]]
    return sorted(k for k in keys if _node_value(a, k) != _node_value(b, k))


def _node_at(t: Tree, key: int) -> Tree:
    while t is not None and t[1] != key:
        t = t[0] if key < t[1] else t[3]
    return t


def _node_value(t: Tree, key: int) -> int | None:
    node = _node_at(t, key)
    return None if node is None else node[2]


def items(t: Tree) -> Iterator[tuple[int, int]]:
    """The `(key, value)` pairs of `t` in increasing key order."""
    stack: list[tuple[Tree, int, int, Tree, int]] = []
    while stack or t is not None:
        while t is not None:
            stack.append(t)
            t = t[0]
        node = stack.pop()
        yield node[1], node[2]
        t = node[3]
