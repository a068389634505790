"""The persistent AVL map of concrete arrays (`core.intmap`) and the work a cell costs.

The work is counted, not timed: a write's cost is the number of nodes the new array does not
share with the old one (the path copied), a read's is bounded by the tree's height.
"""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from symcert.core import intmap
from symcert.core.concrete import NO_CELLS, Cells, Env, FieldMap, State, Values, step
from symcert.lang.parser import parse


def node_at(t: intmap.Tree, key: int) -> intmap.Tree:
    """The node of `t` holding `key` (None if none)."""
    while t is not None and t[1] != key:
        t = t[0] if key < t[1] else t[3]
    return t


def fresh_nodes(after: intmap.Tree, before: intmap.Tree) -> int:
    """How many nodes of `after` are not nodes of `before`: a shared node is the very object
    `before` holds for its key, and below a shared node everything is shared."""
    todo, count = [after], 0
    while todo:
        t = todo.pop()
        if t is None or node_at(before, t[1]) is t:
            continue
        count += 1
        todo += [t[0], t[3]]
    return count


def is_avl(t: intmap.Tree, lo: float = -math.inf, hi: float = math.inf) -> bool:
    """Search order within (lo, hi), stored heights right, children's heights within one."""
    if t is None:
        return True
    left, k, _, right, h = t
    return (lo < k < hi and h == max(intmap.height(left), intmap.height(right)) + 1
            and abs(intmap.height(left) - intmap.height(right)) <= 1
            and is_avl(left, lo, k) and is_avl(right, k, hi))


def avl_bound(n: int) -> float:
    """The height of an AVL tree of n keys is below 1.4405·log2(n + 2) (Knuth, TAOCP 6.2.3)."""
    return 1.4405 * math.log2(n + 2)


OPS = st.lists(st.tuples(st.integers(-20, 20), st.integers(-2, 2)), max_size=60)


@settings(max_examples=300, deadline=None)
@given(OPS, st.integers(-2, 2))
def test_cells_agree_with_a_dict_after_any_writes(ops, default):
    """Reads after any sequence of writes are a dict's; no default cell is listed; the tree
    stays an AVL tree; the writes never change the array they start from."""
    cells, model = Cells(default=default), {}
    for index, value in ops:
        before, listed = cells, cells.cells
        cells = cells.set(index, value)
        model[index] = value
        assert before.cells == listed
        assert is_avl(cells.tree)
    expected = {i: v for i, v in model.items() if v != default}
    assert cells.cells == tuple(sorted(expected.items()))
    assert all(cells(i) == model.get(i, default) for i in range(-22, 23))
    assert cells == Cells.of(model, default) and hash(cells) == hash(Cells.of(model, default))


@given(st.lists(st.integers(-50, 50), unique=True, max_size=40), st.randoms())
def test_equality_and_hash_are_the_maps_whatever_the_shape(keys, rng):
    """Two insertion orders build trees of different shapes; the arrays are equal, hash
    alike, and hash as the sorted cells did (`hash((cells, default))`)."""
    shuffled = list(keys)
    rng.shuffle(shuffled)
    a, b = NO_CELLS, NO_CELLS
    for k in keys:
        a = a.set(k, k + 100)
    for k in shuffled:
        b = b.set(k, k + 100)
    assert a == b and hash(a) == hash(b) == hash((a.cells, 0))
    assert a == FieldMap(a.tree) and (a == Cells(a.tree, 1)) is False


def test_a_field_map_stays_one_and_a_zeroed_array_drops_from_the_environment():
    """`FieldMap.set` keeps its class (nil has no cell: `Values.update`); an array whose every
    cell went back to 0 is `NO_CELLS`, and the environment drops its binding."""
    f = Values().update(FieldMap(), 2, 7)
    assert type(f) is FieldMap and f(2) == 7
    a = NO_CELLS.set(3, 4)
    env = Env.of({"a": a, "x": 1})
    assert env.update("a", a.set(3, 0)) == Env.of({"x": 1})
    assert repr(a) == "Cells.of({3: 4}, 0)"


def test_a_write_copies_a_logarithmic_path_and_shares_the_rest():
    """W(n), the nodes one write of a cell creates in an array of n cells, stays below
    2·1.44·log2(n + 2) + 2 from n = 64 to n = 65,536: the write copies one path (and a
    rotation's two nodes), it does not copy the array (a copy would be n nodes)."""
    for k in (6, 10, 13, 16):
        n = 1 << k
        cells = Cells(intmap.of_sorted(tuple((i, i + 1) for i in range(n))))
        assert intmap.height(cells.tree) <= avl_bound(n)  # a read visits at most this many
        worst = 0
        for index in (0, n // 3, n - 1, n, n + 7, -5):  # existing cells and new ones
            for value in (9, 0):  # a write, then a removal (0 is the default)
                done = cells.set(index, value)
                worst = max(worst, fresh_nodes(done.tree, cells.tree))
                assert intmap.height(done.tree) <= avl_bound(n + 1)
        assert 1 <= worst <= 2 * avl_bound(n + 1) + 2, (n, worst)


def test_each_step_of_the_array_loop_copies_a_logarithmic_path():
    """Through the concrete semantics (`step`, Fig. 2) on the loop `a[i] = i` of 4,096
    iterations: every step's new environment shares all but O(log n) nodes of its arrays with
    the previous one, and the run's total of created nodes is O(n log n), not O(n²)."""
    n = 4096
    state = State(Env(), parse(f"i = 0; while i < {n} do a[i] = i; i = i + 1 od; "
                               f"assert a[5] == 5"))
    total = worst = 0
    while (nxt := step(state)) is not None:
        old, new = state.env("a"), nxt.env("a")
        if new is not old and isinstance(new, Cells):
            made = fresh_nodes(new.tree, old.tree if isinstance(old, Cells) else None)
            worst, total = max(worst, made), total + made
        state = nxt
    assert state.env("a")(n - 1) == n - 1 and state.prog == parse("skip")
    assert worst <= 2 * avl_bound(n) + 2 and total <= 2 * n * avl_bound(n), (worst, total)


@settings(max_examples=200, deadline=None)
@given(OPS, OPS, st.booleans())
def test_changed_lists_exactly_the_cells_that_differ(first, then, related):
    """`intmap.changed(a, b)` is the sorted set of keys whose values differ, whether `b` was
    written from `a` (sharing nodes) or built apart."""
    a = NO_CELLS
    for index, value in first:
        a = a.set(index, value)
    b = a if related else NO_CELLS
    for index, value in then:
        b = b.set(index, value)
    expected = [i for i in range(-21, 22) if a(i) != b(i)]
    assert intmap.changed(a.tree, b.tree) == expected == intmap.changed(b.tree, a.tree)


def test_a_trace_of_the_array_loop_names_each_written_cell():
    """The trace (`engine.trace`, which diffs successive states) of the array loop reports the
    cell each `a[i] = i` wrote, from the nodes the write copied."""
    from symcert.engine.trace import Tracer

    state = State(Env(), parse("i = 0; while i < 300 do a[i] = i + 1; i = i + 1 od"))
    tracer, written = Tracer(), []
    while (nxt := step(state)) is not None:
        done = tracer.follow(state, nxt)
        written += [c.name for c in done.changes if c.name.startswith("a[")] if done else []
        state = nxt
    assert written == [f"a[{i}]" for i in range(300)]
