"""The one program generator (generate.py): bounds, reachability, simplest choices, determinism,
for each backend (random, Hypothesis, CrossHair), and the campaign's generic shrinker."""

from __future__ import annotations

import random
import sys
from collections import Counter
from itertools import chain
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, get_args

import pytest
from hypothesis import HealthCheck, find, given, settings
from hypothesis import strategies as st

from symcert.checking import campaign, generate
from symcert.checking.generate import Choices, RandomChoices, Shape, clamp
from symcert.core.concrete import Cells, Env
from symcert.core.state import TRUE_PC, Store, SymState
from symcert.lang.procedures import table_of
from symcert.lang.structure import children, variables, with_children
from symcert.lang.syntax import (
    CMP_OPS,
    Quant,
    AExpr,
    ArrayVar,
    Await,
    Get,
    New,
    Nil,
    Assert,
    Assign,
    BExpr,
    Bool,
    Call,
    Cmp,
    If,
    Int,
    Node,
    Return,
    Select,
    Seq,
    Skip,
    Spawn,
    Stmt,
    Update,
    Var,
    While,
    array_write,
)

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "properties"))
import strategies  # noqa: E402

FREE = Shape()
SHAPES = {"campaign": campaign.SHAPE, "properties": strategies.SHAPE, "default": FREE,
          "procedural": strategies.PROCEDURAL}
ALL_KINDS = set(get_args(AExpr) + get_args(BExpr) + get_args(Stmt)) - {Spawn, Get, Await}
"""Every kind of node the generator makes: thread statements come from generate_threads.py."""


@dataclass
class Zeros:
    """The choice sequence of zeros (each clamped into its range)."""

    def integer(self, lo: int, hi: int) -> int:
        return clamp(0, lo, hi)


@dataclass
class Wide:
    """Unbounded choices, as CrossHair's symbolic integers are before the plugin clamps them."""

    rng: random.Random

    def __call__(self, typ: type) -> int:
        return self.rng.choice([-(2**70), -7, -1, 0, 1, 2, 3, 4, 5, 9, 2**70])


def nodes(n: Node) -> Iterator[Node]:
    yield n
    for kid in children(n):
        yield from nodes(kid)


def height(n: Node, sort: Any) -> int:
    """Levels of `n` counting only nodes of `sort` (1 for a leaf)."""
    return 1 + max((height(k, sort) for k in children(n) if isinstance(k, sort)), default=0)


def logical(p: Stmt) -> Stmt:
    """`p` with each bounded loop `k = 0; while k < N [and b] do body; k = k + 1 od` written as
    `while k < N [and b] do body od`, the statement the generator counts as one loop."""
    match p:
        case Seq(Assign(k, Int(0)), While(guard, Seq(body, Assign(k2, _)))) if k == k2 and \
                k.startswith("k"):
            return While(guard, logical(body))
    return with_children(p, [logical(k) if isinstance(k, Stmt) else k for k in children(p)])


def loop_nesting(p: Stmt) -> int:
    inner = max((loop_nesting(k) for k in children(p) if isinstance(k, Stmt)), default=0)
    return inner + (1 if isinstance(p, While) else 0)


def check_stmt_bounds(p: Stmt, shape: Shape) -> None:
    q = logical(p) if shape.loop_bound is not None else p
    assert height(q, Stmt) <= shape.stmt_depth + 1, str(p)
    assert sum(1 for n in nodes(q) if not children(n) and isinstance(n, Stmt)) <= shape.leaves
    assert loop_nesting(q) <= shape.loop_depth
    counters = {f"k{i}" for i in range(1, shape.loop_depth + 1)}
    assert variables(p) <= set(shape.names + shape.arrays) | (
        counters if shape.loop_bound else set())
    for n in nodes(q):
        written = array_write(n)
        if written is not None:  # `b[e] = e'`: an index of one operator level, any value
            assert written.array == ArrayVar(n.name) and n.name in shape.arrays
            check_aexpr_bounds(written.index, shape, 1)
            check_aexpr_bounds(written.value, shape, shape.aexpr_depth)
        elif isinstance(n, Assign) and n.name not in counters:
            check_aexpr_bounds(n.expr, shape, shape.aexpr_depth)
        if isinstance(n, While) and shape.loop_bound is not None:
            bound = n.cond if isinstance(n.cond, Cmp) else n.cond.left
            assert isinstance(bound, Cmp) and 1 <= bound.right.value <= shape.loop_bound
        elif isinstance(n, (Assert, If, While)):
            check_bexpr_bounds(n.cond, shape, shape.bexpr_depth)


def check_aexpr_bounds(e: AExpr, shape: Shape, depth: int) -> None:
    assert height(e, AExpr) <= depth + 1
    assert all(-shape.literal <= n.value <= shape.literal for n in nodes(e) if isinstance(n, Int))
    assert variables(e) <= set(shape.names + shape.arrays)


def check_bexpr_bounds(b: BExpr, shape: Shape, depth: int) -> None:
    assert height(b, BExpr) <= depth + 1
    for n in nodes(b):
        if isinstance(n, Cmp):
            assert n.op in CMP_OPS
            for side in (n.left, n.right):
                check_aexpr_bounds(side, shape, shape.operand_depth)


def check_state_bounds(s: SymState, shape: Shape) -> None:
    assert s.pc.length <= shape.conjuncts
    for b in s.pc.conjuncts():
        check_bexpr_bounds(b, shape, shape.bexpr_depth)
    for x, t in s.store.bindings:
        if isinstance(t, Update):  # an array: one write of its input array
            assert x in shape.arrays and t.array == ArrayVar(x)
            check_aexpr_bounds(t.index, shape, 1)
            check_aexpr_bounds(t.value, shape, shape.aexpr_depth)
            continue
        assert x in shape.names
        check_aexpr_bounds(t, shape, shape.aexpr_depth)
    check_stmt_bounds(s.prog, shape)


def check_env_bounds(v: Env, shape: Shape) -> None:
    for x, n in v.bindings:
        if isinstance(n, Cells):  # an array: its cells `CELLS`, values in range
            assert x in shape.arrays and n.default == 0
            assert all(i in generate.CELLS and -shape.value <= m <= shape.value for i, m in n.cells)
        else:
            assert x in shape.names and -shape.value <= n <= shape.value


def draw_all(c: Choices, shape: Shape) -> None:
    """One of everything from `c`, each checked against `shape`."""
    check_stmt_bounds(generate.program(c, shape), shape)
    check_aexpr_bounds(generate.aexpr(c, shape), shape, shape.aexpr_depth)
    check_bexpr_bounds(generate.bexpr(c, shape), shape, shape.bexpr_depth)
    check_env_bounds(generate.env(c, shape), shape)
    check_state_bounds(generate.sym_state(c, shape), shape)


@pytest.mark.parametrize("shape", SHAPES.values(), ids=SHAPES.keys())
def test_random_backend_respects_the_bounds(shape):
    """Depths, leaves, loop nesting, variables and ranges stay within the shape (random)."""
    c = RandomChoices(random.Random(3))
    for _ in range(300):
        draw_all(c, shape)


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_hypothesis_backend_respects_the_bounds(data):
    """The same bounds, on choices Hypothesis draws (strategies.Draws), for the suites' shape
    and the campaign's."""
    for shape in (strategies.SHAPE, campaign.SHAPE):
        draw_all(strategies.Draws(data.draw), shape)


def test_crosshair_backend_respects_the_bounds():
    """The plugin's choices, unbounded integers clamped into range, keep its shape's bounds,
    also for the values it builds for one class at its argument depth."""
    plugin = pytest.importorskip("symcert.checking.crosshair_plugin")
    c = plugin.SymbolicChoices(Wide(random.Random(1)))
    for _ in range(300):
        draw_all(c, plugin.SHAPE)
        for kind in generate.AEXPR_KINDS:
            e = generate.aexpr(c, plugin.SHAPE, plugin.DEPTH, kind=kind)
            assert type(e) is kind
            check_aexpr_bounds(e, plugin.SHAPE, plugin.DEPTH)
        for kind in generate.BEXPR_KINDS:
            b = generate.bexpr(c, plugin.SHAPE, plugin.DEPTH, kind=kind)
            assert type(b) is kind
            check_bexpr_bounds(b, plugin.SHAPE, plugin.DEPTH)
        for kind in generate.STMT_KINDS:
            p = generate.stmt(c, plugin.SHAPE, plugin.DEPTH, kind=kind)
            assert type(p) is kind
            check_stmt_bounds(p, plugin.SHAPE)


@pytest.mark.parametrize("shape", SHAPES.values(), ids=SHAPES.keys())
def test_every_kind_is_reachable(shape):
    """Every expression and statement class, and every comparison operator, is generated."""
    c = RandomChoices(random.Random(4))
    seen: Counter[object] = Counter()
    for _ in range(500):
        p = generate.program(c, shape)
        for n in chain(nodes(p), *(nodes(q.body) for q in table_of(p).values())):
            seen[type(n)] += 1
            if isinstance(n, Cmp):
                seen[n.op] += 1
    kinds = ALL_KINDS if shape.procedures else ALL_KINDS - {Call, Return}
    kinds = kinds if shape.arrays else kinds - {Select}
    kinds -= {Nil, New}  # seed 003 §4: objects, test_object_programs_...
    kinds -= {Quant}  # X-Q1: the generator draws no quantifier yet (docs/lemmas.md, X-Q1)
    assert kinds | set(CMP_OPS) <= set(seen), kinds | set(CMP_OPS) - set(seen)


def test_zero_choices_give_the_simplest_values():
    """Choice 0 everywhere: `skip`, `0`, `true`, the empty valuation and store, `⟨true, id,
    skip⟩`."""
    for shape in SHAPES.values():
        assert generate.program(Zeros(), shape) == Skip()
        assert generate.aexpr(Zeros(), shape) == Int(0)
        assert generate.bexpr(Zeros(), shape) == Bool(True)
        assert generate.name(Zeros(), shape) == shape.names[0]
        assert generate.env(Zeros(), shape) == Env()
        assert generate.store(Zeros(), shape) == Store()
        assert generate.sym_state(Zeros(), shape) == SymState(TRUE_PC, Store(), Skip())


def test_hypothesis_shrinks_to_the_simplest_loop():
    """Shrinking the choices shrinks the program: the smallest generated program with a loop is
    `while true do skip od` (now and then beside a `skip` or two: Hypothesis's shrinker may stop
    where the size and the kind of the root would have to shrink together)."""
    smallest = find(strategies.programs,
                    lambda p: any(isinstance(n, While) for n in nodes(p)),
                    settings=settings(database=None, max_examples=500))
    lines = [line.strip().rstrip(";") for line in str(smallest).splitlines()]
    assert lines.count("while true do") == 1 and set(lines) <= {"while true do", "skip", "od"}, \
        str(smallest)


def test_random_backend_is_deterministic_per_seed():
    """Same seed, same programs; another seed, other programs."""
    def draw(seed: int) -> list[Stmt]:
        c = RandomChoices(random.Random(seed))
        return [generate.program(c, campaign.SHAPE) for _ in range(20)]

    assert draw(11) == draw(11)
    assert draw(11) != draw(12)


def test_pick_follows_the_weights_and_starts_with_the_first():
    """`pick` maps choice 0 to the first option and each option gets its weight's share."""
    assert generate.pick(Zeros(), ("a", "b")) == "a"
    c = RandomChoices(random.Random(0))
    counts = Counter(generate.pick(c, ("a", "b", "c"), (1, 2, 1)) for _ in range(4000))
    assert 800 < counts["a"] < 1200 and 1800 < counts["b"] < 2200 and 800 < counts["c"] < 1200


def _measure(n: Node) -> tuple[int, int]:
    """Node count, then the leaves' ranks in `campaign.SIMPLEST` (others rank last)."""
    rank = 0
    for m in nodes(n):
        if not children(m):
            simplest = next(ns for sort, ns in campaign.SIMPLEST if isinstance(m, sort))
            rank += simplest.index(m) if m in simplest else len(simplest)
    return sum(1 for _ in nodes(n)), rank


def test_smaller_strictly_reduces_and_keeps_the_sort():
    """Every candidate of the generic shrinker is a program, and smaller in a well-founded
    order (so `shrink` terminates); every kind of node gets reduced."""
    c = RandomChoices(random.Random(6))
    reduced: set[type] = set()
    for shape in (strategies.SHAPE, campaign.SHAPE, campaign.OBJECT_SHAPE) * 50:
        p = generate.program(c, shape)
        for q in campaign.smaller(p):
            assert isinstance(q, Stmt)
            assert _measure(q) < _measure(p), (str(p), str(q))
        for n in nodes(p):
            if next(campaign.smaller(n), None) is not None:
                reduced.add(type(n))
    # the campaign's shape has procedures and arrays; `return` occurs in procedures' bodies only,
    # which the shrinker leaves alone
    assert ALL_KINDS - {Skip, Return, Nil, Quant} <= reduced  # `nil`: a leaf of no smaller
    # value; a quantifier is drawn by no generator yet (X-Q1)
    assert Int(0) in list(campaign.smaller(Var("x")))


def test_object_programs_are_well_kinded_and_print_back():
    """Programs with objects (seed 003 §4) pass the static kinds and print to source that parses
    back to the same text; a valuation of their inputs is a valid input heap."""
    import random

    from symcert.checking.generate import RandomChoices, Shape, env, program
    from symcert.core.state import valid_heap
    from symcert.lang.parser import parse
    from symcert.lang.procedures import references, show_program
    from symcert.lang.structure import inputs

    shape = Shape(objects=True, loop_bound=2, procedures=1)
    fields, kinds = 0, set()
    for seed in range(60):
        c = RandomChoices(random.Random(seed))
        p = program(c, shape)
        text = show_program(p)
        assert show_program(parse(text)) == text
        fields += "." in text
        assert valid_heap(env(c, shape, sorted(inputs(p))), references(p))
        kinds.update(type(n) for n in nodes(p))
    assert fields > 30 and {Nil, New, Select, Update} <= kinds
