"""The one generator of IMP programs, expressions, valuations, stores and symbolic states.

Every generated program symcert uses comes from here, driven by a source of bounded integer
choices (`Choices`):

- the differential campaign (`campaign.py`) draws the choices from `random.Random`
  (`RandomChoices`);
- the Hypothesis suites draw each choice as `st.integers(lo, hi)` (`tests/properties/
  strategies.py`), so Hypothesis shrinks the choice sequence;
- the CrossHair plugin (`crosshair_plugin.py`) makes each choice a symbolic integer clamped into
  its range.

`Shape` bounds what is built: the variables, the literal and value ranges, the depth of each
syntactic sort, the number of leaf statements, loop nesting, whether loops are bounded by
construction, how many procedures a program declares (seed 003 §3; `program`), and its array
variables (seed 003 §5: reads `b[e]`, writes `b[e] = e'`, at indices drawn from small values so
that two of them often alias), and objects (seed 003 §4: `Shape.objects`, references `r s t` of
the class `Node(val, next)`, paths, `new`, field writes, reference tests; a valuation a small
input heap whose references often alias). Choice 0 is always the simplest alternative: a leaf before a compound, `skip`
before the other statements (then `fail`), `0` among literals, the first variable, "unbound" or "absent" for
optional parts. So the choice sequence of zeros gives the simplest program (`skip`), and
shrinking the choices towards 0, as Hypothesis does, shrinks the program.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Protocol, Sequence, TypeVar

from symcert.core.concrete import Cells, Env, Value, beval
from symcert.core.state import PathCondition, Store, SymState
from symcert.core.terms import negate
from symcert.lang.procedures import declare, link
from symcert.lang.syntax import (
    CMP_OPS,
    AExpr, Add, And, ArrayVar, Assert, Assign, Assume, BExpr, Bool, Call, Cmp, Div, Fail, If,
    Int, Mod, Mul, Neg, New, Nil, Not, Or, Procedures, Return, Select, Seq, Skip, Stmt, Sub,
    Update, Var, While,
    is_field,
)

T = TypeVar("T")


class Choices(Protocol):
    """A source of choices: the generators below read nothing else."""

    def integer(self, lo: int, hi: int) -> int:
        """An integer in `[lo, hi]` (`lo <= hi`)."""
        ...


def clamp(value: int, lo: int, hi: int) -> int:
    """`value` moved into `[lo, hi]`: how an unbounded choice (a symbolic integer, a replayed
    choice) becomes a bounded one."""
    return lo if value < lo else hi if value > hi else value


@dataclass(frozen=True, slots=True)
class RandomChoices:
    """Choices drawn from `rng`: same seed, same choices, same programs."""

    rng: random.Random

    def integer(self, lo: int, hi: int) -> int:
        return self.rng.randint(lo, hi)


def pick(c: Choices, options: Sequence[T], weights: Sequence[int] | None = None) -> T:
    """One of `options` (each `weights[i]` times as likely as a weight of 1), the first for
    choice 0. The choice is compared with each bound in turn rather than used as an index, so a
    symbolic choice branches instead of being made concrete."""
    weights = weights or (1,) * len(options)
    k = c.integer(0, sum(weights) - 1)
    for option, weight in zip(options[:-1], weights):
        if k < weight:
            return option
        k -= weight
    return options[-1]


@dataclass(frozen=True, slots=True)
class Shape:
    """The bounds of what is generated.

    :param names: the program variables.
    :param literal: literals are in `[-literal, literal]`.
    :param value: valuations bind variables to `[-value, value]`.
    :param aexpr_depth: operator levels above the leaves of an arithmetic expression.
    :param bexpr_depth: connective levels (`not`, `and`, `or`) above the leaves of a condition.
    :param operand_depth: operator levels of a comparison's operands.
    :param stmt_depth: statement levels above the leaf statements (a bounded loop's counter
        statements not counted).
    :param leaves: a program has 1 to `leaves` leaf statements (counters not counted).
    :param loop_depth: loops nest at most this deep.
    :param loop_bound: None: loops `while b do p od` with any condition; an int `B`: every loop
        is `k = 0; while k < N [and b] do p; k = k + 1 od` with `1 <= N <= B` and a counter
        `k` no other statement assigns (`k1` at nesting 1, `k2` at nesting 2, ...), so every
        run ends.
    :param conjuncts: a path condition has at most this many conjuncts.
    :param divisions: whether `/` and `%` occur. Generated stores and path conditions have none
        (`store`, `path_condition`): a reachable state's path condition guards its store's
        divisions (X-A2), a drawn one would not.
    :param procedures: a program declares 0 to `procedures` procedures (`program`).
    :param call_depth: the main statement's calls pass a depth in `[0, call_depth]`.
    :param arrays: the array variables (none of `names` nor of the procedures' locals); with
        some, an expression with an operator level to spare is `b[e]` one time in four, an
        assignment `b[e] = e'` one time in three, and a valuation binds each array's cells
        `CELLS` (others 0).
    :param objects: whether the program has objects (seed 003 §4): the references `REFS` of
        class `Node(val, next)`; an expression with a level to spare reads a `val` one time in
        four, a comparison compares references one time in four, an assignment is an object
        statement (`object_statement`) two times in three, and a valuation is an input heap of the objects
        `OBJECTS` (`heap`).
    :param threads: with some, concurrent programs of at most this many workers, made by
        `generate_threads.program` (seed 003 §5), not by `program`.
    """

    names: tuple[str, ...] = ("x", "y", "z")
    literal: int = 4
    value: int = 6
    aexpr_depth: int = 2
    bexpr_depth: int = 1
    operand_depth: int = 1
    stmt_depth: int = 3
    leaves: int = 6
    loop_depth: int = 3
    loop_bound: int | None = None
    conjuncts: int = 2
    divisions: bool = True
    procedures: int = 0
    call_depth: int = 2
    arrays: tuple[str, ...] = ()
    objects: bool = False
    threads: int = 0


REFS = ("r", "s", "t")
"""The reference variables of a program with objects (none of `Shape.names`, the procedures'
names or locals)."""
OBJECTS = (1, 2, 3)
"""The input objects of a generated heap."""
VAL, NEXT = ArrayVar(".val"), ArrayVar(".next")
"""The maps of the fields of `Node(val, next)`, the one class of generated programs."""


def node_class() -> Procedures:
    """A table declaring `class Node(val, next)` (held by the fields' maps and `New`)."""
    table = Procedures()
    table.classes = (("Node", ("val", "next")),)
    return table


NODE_TABLE = node_class()
"""The declarations every generated program with objects holds (never changed)."""


def reference(c: Choices, table: Procedures, depth: int = 1, nil: bool = True) -> AExpr:
    """A reference: a variable of `REFS`, `nil` (unless not `nil`: the object of a field
    access is a path), or (with `depth` to spare) a path's `next`."""
    kind = c.integer(0, 3 if depth > 0 else 2)
    if kind == 3:
        return Select(ArrayVar(NEXT.name, None, table), reference(c, table, depth - 1, False))
    return Nil() if kind == 2 and nil else Var(pick(c, REFS))


def object_statement(c: Choices, shape: Shape, table: Procedures) -> Stmt:
    """One of `r = new Node`, `<reference>.next = new Node`, `r = <reference>`,
    `<reference>.next = <reference>`, `<reference>.val = e` (seed 003 §4)."""
    kind = c.integer(0, 5) // 2 + c.integer(0, 1)  # a field write, half the time
    if kind == 0 and c.integer(0, 1):
        return New(NEXT.name, "Node", (VAL.name, NEXT.name), None, table,
                   at=reference(c, table, 0, False))
    if kind == 0:
        return New(pick(c, REFS), "Node", (VAL.name, NEXT.name), None, table)
    if kind == 1:
        return Assign(pick(c, REFS), reference(c, table))
    field = NEXT if kind == 2 else VAL
    value = reference(c, table) if kind == 2 else aexpr(c, replace(shape, objects=False), 1)
    target = ArrayVar(field.name, None, table)
    return Assign(field.name, Update(target, reference(c, table, 0, False), value))


def heap(c: Choices, shape: Shape) -> dict[str, Value]:
    """An input heap: each reference nil or one of `OBJECTS`, each object's `next` too (so
    references often alias and lists may be cyclic), its `val` in `[-value, value]`."""
    refs = frozenset((*REFS, NEXT.name))
    return inputs_of(c, shape, (*REFS, NEXT.name, VAL.name), frozenset(), refs)


def inputs_of(c: Choices, shape: Shape, names: Sequence[str], arrays: frozenset[str],
              references: frozenset[str]) -> dict[str, Value]:
    """A valuation of a program's inputs `names`, variables first, then fields' maps (seed 003
    §4-5): a reference (in `references`) nil or one of `OBJECTS`, an array (in `arrays`) its
    cells `CELLS`, a field's map `.f` its cells at `OBJECTS` (references or integers), any
    other variable in `[-value, value]` (`heap` for any program)."""
    values: dict[str, Value] = {}
    for x in sorted(names, key=is_field):
        if is_field(x):
            values[x] = Cells.of({o: _value(c, shape, x in references) for o in OBJECTS})
        elif x in arrays:
            values[x] = Cells.of({i: _value(c, shape, False) for i in CELLS})
        else:
            values[x] = _value(c, shape, x in references)
    return values


def _value(c: Choices, shape: Shape, reference: bool) -> int:
    """A reference (nil or one of `OBJECTS`) or an integer in `[-value, value]`."""
    return c.integer(0, len(OBJECTS)) if reference else c.integer(-shape.value, shape.value)


CELLS = range(-2, 3)
"""The cells of an array a generated valuation may set (the others are 0)."""


# Kinds in the order of their choice (simplest first), with their weights.
AEXPR_LEAVES: tuple[type, ...] = (Int, Var)
AEXPR_KINDS: tuple[type, ...] = (Int, Var, Neg, Add, Sub, Mul, Div, Mod)
AEXPR_WEIGHTS = (1, 1, 2, 1, 1, 1, 1, 1)
BEXPR_LEAVES: tuple[type, ...] = (Bool, Cmp)
BEXPR_KINDS: tuple[type, ...] = (Bool, Cmp, Not, And, Or)
BEXPR_WEIGHTS = (1, 1, 2, 1, 1)
STMT_LEAVES: tuple[type, ...] = (Skip, Fail, Assign, Assert, Assume)
STMT_KINDS: tuple[type, ...] = (Skip, Fail, Assign, Assert, Assume, Seq, If, While)
STMT_WEIGHTS = (1, 1, 2, 2, 1, 1, 1, 1)


def name(c: Choices, shape: Shape) -> str:
    """A variable of `shape.names`."""
    return pick(c, shape.names)


def aexpr(c: Choices, shape: Shape, depth: int | None = None,
          kind: type | None = None) -> AExpr:
    """An arithmetic expression with at most `depth` (default `shape.aexpr_depth`) operator
    levels above its leaves, of class `kind` if given (a compound `kind` needs `depth >= 1`)."""
    depth = shape.aexpr_depth if depth is None else depth
    if kind is None and shape.arrays and depth > 0 and c.integer(0, 3) == 3:
        kind = Select
    if kind is None and shape.objects and depth > 0 and c.integer(0, 3) == 3:
        return Select(ArrayVar(VAL.name, None, NODE_TABLE), reference(c, NODE_TABLE, nil=False))
    if kind is None:
        n = (len(AEXPR_KINDS) - 2 * (not shape.divisions)) if depth > 0 else len(AEXPR_LEAVES)
        kind = pick(c, AEXPR_KINDS[:n], AEXPR_WEIGHTS[:n])
    if kind is Select:
        return Select(ArrayVar(pick(c, shape.arrays)), aexpr(c, shape, depth - 1))
    if kind is Int:
        return Int(c.integer(-shape.literal, shape.literal))
    if kind is Var:
        return Var(name(c, shape))
    if kind is Neg:
        return Neg(aexpr(c, shape, depth - 1))
    if kind is Mul:  # by a literal: `x = x * x` in a loop would square its way past memory
        return Mul(aexpr(c, shape, depth - 1), aexpr(c, shape, 0, Int))
    return kind(aexpr(c, shape, depth - 1), aexpr(c, shape, depth - 1))  # Add, Sub, Div, Mod


def bexpr(c: Choices, shape: Shape, depth: int | None = None,
          kind: type | None = None) -> BExpr:
    """A condition with at most `depth` (default `shape.bexpr_depth`) connective levels above its
    leaves, comparisons of operands of `shape.operand_depth`; of class `kind` if given."""
    depth = shape.bexpr_depth if depth is None else depth
    if kind is None:
        n = len(BEXPR_KINDS) if depth > 0 else len(BEXPR_LEAVES)
        kind = pick(c, BEXPR_KINDS[:n], BEXPR_WEIGHTS[:n])
    if kind is Bool:
        return Bool(c.integer(0, 1) == 0)
    if kind is Cmp and shape.objects and c.integer(0, 3) == 3:
        return Cmp(pick(c, ("==", "!=")), reference(c, NODE_TABLE), reference(c, NODE_TABLE))
    if kind is Cmp:
        op = pick(c, CMP_OPS)
        return Cmp(op, aexpr(c, shape, shape.operand_depth), aexpr(c, shape, shape.operand_depth))
    if kind is Not:
        return Not(bexpr(c, shape, depth - 1))
    return kind(bexpr(c, shape, depth - 1), bexpr(c, shape, depth - 1))  # And, Or


PROCEDURES = ("p", "q")
"""The names of generated procedures."""
LOCALS = ("d", "a", "v")
"""Every generated procedure's locals: the parameters `d` (its depth: read, never assigned) and
`a`, and `v`, declared first by `var v = e` (`e` may read `v`, still 0). They are no global's
names (seed 003 §3 assumes so)."""


@dataclass(frozen=True, slots=True)
class Context:
    """Where a statement is generated: the program's procedures (`count` of them declared in
    `procs`) and whether inside one (then `return`, `var` and the locals may occur)."""

    procs: Procedures
    count: int
    inside: bool


def stmt(c: Choices, shape: Shape, depth: int | None = None, size: int | None = None,
         kind: type | None = None, loops: int = 0, ctx: Context | None = None) -> Stmt:
    """A statement with at most `depth` (default `shape.stmt_depth`) levels above its leaf
    statements and at most `size` leaf statements (drawn from `[1, shape.leaves]` if not given;
    a loop counts as one), of class `kind` if given, inside `loops` nested loops; with a
    context `ctx`, calls among the leaves (and in a procedure `return` and its locals)."""
    depth = shape.stmt_depth if depth is None else depth
    compound = kind in (Seq, If, While)
    if size is None:
        size = c.integer(2 if compound else 1, max(shape.leaves, 2 if compound else 1))
    if kind is None:
        if depth <= 0 or size <= 1:
            leaves = STMT_LEAVES + _calls(ctx)
            kind = pick(c, leaves, STMT_WEIGHTS[:len(STMT_LEAVES)] + (2,) * (len(leaves) - 5))
        else:
            n = len(STMT_KINDS) if loops < shape.loop_depth else len(STMT_KINDS) - 1
            kind = pick(c, STMT_KINDS[len(STMT_LEAVES):n], STMT_WEIGHTS[len(STMT_LEAVES):n])
    inner = replace(shape, names=shape.names + LOCALS) if ctx is not None and ctx.inside else shape
    if kind is Skip:
        return Skip()
    if kind is Fail:
        return Fail()
    if kind is Assign and shape.objects and c.integer(0, 2) != 0:
        return object_statement(c, shape, NODE_TABLE)
    if kind is Assign and shape.arrays and c.integer(0, 2) == 2:
        array = pick(c, shape.arrays)
        return Assign(array, Update(ArrayVar(array), aexpr(c, inner, 1), aexpr(c, inner)))
    if kind is Assign:
        return Assign(pick(c, _targets(shape, ctx)), aexpr(c, inner))
    if kind is Assert:
        return Assert(bexpr(c, inner))
    if kind is Assume:
        return Assume(bexpr(c, inner))
    if kind is Return:
        return Return(aexpr(c, inner))
    if kind is Call:
        return call(c, shape, ctx)
    if kind is While:
        return loop(c, shape, depth, max(1, size - 1), loops, ctx)
    cond = bexpr(c, inner) if kind is If else None
    k = c.integer(1, max(1, size - 1))
    first = stmt(c, shape, depth - 1, k, loops=loops, ctx=ctx)
    second = stmt(c, shape, depth - 1, max(1, size - k), loops=loops, ctx=ctx)
    return Seq(first, second) if cond is None else If(cond, first, second)


def _calls(ctx: Context | None) -> tuple[type, ...]:
    """The leaf statements procedures add: calls, and `return` in a procedure."""
    return () if ctx is None else (Call, Return) if ctx.inside else (Call,)


def _targets(shape: Shape, ctx: Context | None) -> tuple[str, ...]:
    """The variables an assignment may assign: the globals, and in a procedure `a` and `v`."""
    return shape.names + LOCALS[1:] if ctx is not None and ctx.inside else shape.names


def call(c: Choices, shape: Shape, ctx: Context | None) -> Stmt:
    """A call of one of `ctx`'s procedures: its depth argument a literal in
    `[0, shape.call_depth]` in the main statement and `d - 1` in a procedure, so that every
    chain of calls ends; its value assigned to a variable, or dropped."""
    assert ctx is not None
    inside = ctx.inside
    depth: AExpr = Sub(Var("d"), Int(1)) if inside else Int(c.integer(0, shape.call_depth))
    arg = aexpr(c, replace(shape, names=shape.names + LOCALS) if inside else shape)
    target = pick(c, (None, *_targets(shape, ctx)))
    local = target == "v" and c.integer(0, 1) == 1  # `var v = p(...)`
    return Call(pick(c, PROCEDURES[:ctx.count]), (depth, arg), target, None, local, ctx.procs)


def loop(c: Choices, shape: Shape, depth: int, size: int, loops: int,
         ctx: Context | None = None) -> Stmt:
    """A loop whose body has at most `size` leaf statements, in the form `shape.loop_bound`
    says; a procedure's bounded loops count with a local `var` counter (`c1`, ...)."""
    inner = replace(shape, names=shape.names + LOCALS) if ctx is not None and ctx.inside else shape
    if shape.loop_bound is None:
        return While(bexpr(c, inner), stmt(c, shape, depth - 1, size, loops=loops + 1, ctx=ctx))
    local = ctx is not None and ctx.inside
    counter = f"{'c' if local else 'k'}{loops + 1}"
    guard: BExpr = Cmp("<", Var(counter), Int(c.integer(1, shape.loop_bound)))
    if c.integer(0, 1) == 1:
        guard = And(guard, bexpr(c, inner, 0))
    body = stmt(c, shape, depth - 1, size, loops=loops + 1, ctx=ctx)
    step = Assign(counter, Add(Var(counter), Int(1)))
    return Seq(Assign(counter, Int(0), local=local), While(guard, Seq(body, step)))


def program(c: Choices, shape: Shape) -> Stmt:
    """A program of 1 to `shape.leaves` leaf statements, after 0 to `shape.procedures`
    procedure declarations `proc p(d, a) begin var v = e; if d <= 0 then return e' else S fi
    end`: calls pass `d - 1` inside, so every run's calls nest at most `call_depth + 1` deep."""
    count = c.integer(0, min(shape.procedures, len(PROCEDURES)))
    if count == 0:
        return stmt(c, shape)
    procs = Procedures()
    procs.classes = NODE_TABLE.classes if shape.objects else ()
    inside = Context(procs, count, True)
    local = replace(shape, names=shape.names + LOCALS)
    for name_ in PROCEDURES[:count]:
        first = Assign("v", aexpr(c, local), local=True)  # may read `v`: 0 until assigned
        body = If(Cmp("<=", Var("d"), Int(0)), Return(aexpr(c, local)), stmt(c, shape, ctx=inside))
        procs[name_] = declare(name_, ["d", "a"], Seq(first, body), None, procs)
    return link(stmt(c, shape, ctx=Context(procs, count, False)), procs)


def env(c: Choices, shape: Shape, names: Sequence[str] | None = None) -> Env:
    """A valuation of `names` (default `shape.names` and `shape.arrays`; every other variable
    0): an array's cells `CELLS` drawn, the others 0; with objects, an input heap (`heap`)."""
    chosen = shape.names + shape.arrays if names is None else tuple(names)
    values: dict[str, Value] = {k: v for k, v in (heap(c, shape) if shape.objects else {}).items()
                                if names is None or k in chosen}
    for x in chosen:
        if x in values:  # a reference or a field's map: the heap's
            continue
        if x in shape.arrays:
            values[x] = Cells.of({i: c.integer(-shape.value, shape.value) for i in CELLS})
        else:
            values[x] = c.integer(-shape.value, shape.value)
    return Env.of(values)


def store(c: Choices, shape: Shape) -> Store:
    """A symbolic store binding some of `shape.names` to arithmetic expressions and some of
    `shape.arrays` to an update of their input array."""
    s = Store()
    plain = replace(shape, divisions=False)
    for x in shape.names:
        if c.integer(0, 1) == 1:
            s = s.update(x, aexpr(c, plain))
    for a in shape.arrays:
        if c.integer(0, 1) == 1:
            s = s.update(a, Update(ArrayVar(a), aexpr(c, plain, 1), aexpr(c, plain)))  # type: ignore[arg-type]
    return s


def path_condition(c: Choices, shape: Shape) -> PathCondition:
    """A path condition of at most `shape.conjuncts` conditions."""
    plain = replace(shape, divisions=False)
    return PathCondition.of(*(bexpr(c, plain) for _ in range(c.integer(0, shape.conjuncts))))


def sym_state(c: Choices, shape: Shape) -> SymState:
    """A symbolic state `⟨φ, S, p⟩`."""
    return SymState(path_condition(c, shape), store(c, shape), program(c, shape))


def state_satisfied_by(c: Choices, shape: Shape) -> tuple[SymState, Env]:
    """A symbolic state and a valuation `V0` with `V0 ⊨ φ` (each conjunct negated if false)."""
    v = env(c, shape)
    pc = path_condition(c, shape)
    held = PathCondition.of(*(b if beval(v, b) else negate(b) for b in pc.conjuncts()))
    return SymState(held, store(c, shape), program(c, shape)), v
