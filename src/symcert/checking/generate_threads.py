"""The generator of concurrent programs (seed 003 §5): workers spawned by a main statement,
over shared globals and arrays, with per-thread locals, `await`, locks, futures and asserts,
and, in some programs, a shared object and a helper procedure with a precondition.

It drives `generate.py`'s expressions with the same bounded choices (`generate.Choices`), so
the campaign draws programs from `(seed, index)` alone (`RandomChoices`), Hypothesis shrinks
them by shrinking its choices, and choice 0 is the simplest alternative everywhere. A program
is

```
[class Node(val, next)]                           # one program in three
[proc h(k, t) requires b begin S; return e end]   # one program in three
proc w0(k, t) begin S; ...; return e end          # 1 to `shape.threads` workers
...
[r = new Node]; M; ...; f0 = spawn w0(e, e); M; ...; spawn w1(e, e); M; ...; [v = get f0; assert b]
```

with `shape.leaves` statements at most per worker and per part of the main statement. A
thread's statement is one of: an assignment to a local `t = e`, an assignment to a global or an
array cell (`b[e] = e'`), `assert b`, `assume b` (which may block), `await b` (which may wait
for ever: programs deadlock sometimes), a lock `await m == 0 then m = 1 end` and its release
`m = 0`, an atomic `await b then x = e; ... end`, an `if` of those, a loop bounded by
construction (`var c = 0; while c < N do S; c = c + 1 od`, `N <= 2`), `v = get f0` of the first
worker's future (0 until the main statement spawned it: "`get` of a non-future"), and with the
object `r.val = e`, `x = r.val + e`, `assert r.val < e` and `r = new Node`, with the helper a
call `h(e, e)`, `t = h(e, e)` or `x = h(e, e)` (its precondition reads the globals). Every
expression may read `v`, the target of the `get`s, and spawns' arguments read the globals the
running workers write, so each kind of statement meets the others on both sides of a
dependency (checking/independence.py counts them). The main statement may `get` any future its
spawns assigned. Runs end: only the main statement spawns, the helper calls nothing, loops are
bounded.
"""

from __future__ import annotations

from dataclasses import replace

from symcert.checking.generate import VAL, Choices, Shape, aexpr, bexpr, pick
from symcert.lang import threads as static
from symcert.lang.procedures import declare
from symcert.lang.syntax import (
    AExpr, Add, And, ArrayVar, Assert, Assign, Assume, Await, Call, Cmp, Get, If, Int, New,
    Procedures, Return, Select, Seq, Spawn, Stmt, Update, Var, While,
)

SHARED = ("x", "y")
"""The shared integer globals expressions read and assignments write."""
LOCK = "m"
"""The global a generated lock is: `await m == 0 then m = 1 end`, released by `m = 0`."""
LOCALS = ("k", "t")
"""A worker's parameters, its locals (and a loop's counter, declared by `var c = 0`)."""
COUNTER = "c"
"""A worker's loop counter (a local)."""
RESULT = "v"
"""The global a `get` assigns (expressions read it too)."""
OBJECT = "r"
"""The shared reference of a program with objects: `r = new Node` first, then any thread may
write and read `r.val` or point `r` at a new object."""
HELPER = "h"
"""The procedure a worker may call: `proc h(k, t) requires b begin S; return e end`."""

THREAD_SHAPE = Shape(names=SHARED, literal=3, value=3, aexpr_depth=1, bexpr_depth=0, divisions=False,
                     operand_depth=1, leaves=2, arrays=("b",), threads=2)
"""Two workers at most, three statements at most per worker and per part of the main
statement, literals in [-3, 3], inputs in [-3, 3] (`x`, `y` and the cells of `b`)."""


def future(i: int) -> str:
    """The future variable of the i-th worker's spawn."""
    return f"f{i}"


def worker(i: int) -> str:
    """The name of the i-th worker."""
    return f"w{i}"


def program(c: Choices, shape: Shape = THREAD_SHAPE) -> Stmt:
    """A concurrent program: 1 to `shape.threads` workers, each spawned once by the main
    statement, which may bind its future and `get` it; statically checked (lang/threads.py)."""
    count = c.integer(1, max(1, shape.threads))
    procs = Procedures()
    objects, helper = c.integer(0, 2) == 2, c.integer(0, 2) == 2
    if objects:
        procs.classes = (("Node", ("val", "next")),)
    if helper:
        body = Seq(_simple(c, shape, _inner(shape), procs=procs if objects else None),
                   Return(aexpr(c, _inner(shape))))
        procs[HELPER] = declare(HELPER, list(LOCALS), body, None, procs,
                                requires=bexpr(c, _inner(shape), kind=Cmp))
    bound = [c.integer(0, 1) == 0 or i == 0 for i in range(count)]  # the first has a future
    for i in range(count):
        body = _block(c, shape, inside=True, gets=(future(0),) if i > 0 else (), procs=procs)
        if c.integer(0, 1):
            body = Seq(body, Return(aexpr(c, _inner(shape))))
        procs[worker(i)] = declare(worker(i), list(LOCALS), body, None, procs)
    parts: list[Stmt] = [_new(procs)] if objects else []
    if c.integer(0, 2) == 2:
        parts.append(_block(c, shape, inside=False, gets=(), procs=procs))
    for i in range(count):
        args = tuple(aexpr(c, replace(shape, aexpr_depth=0)) for _ in LOCALS)
        parts.append(Spawn(worker(i), args, future(i) if bound[i] else None, None, procs))
        if c.integer(0, 2) == 2:
            parts.append(_block(c, shape, inside=False, gets=(), procs=procs))
    futures = tuple(future(i) for i in range(count) if bound[i])
    parts.append(_block(c, shape, inside=False, gets=futures, procs=procs))
    if c.integer(0, 1):  # the end: a result got, then checked
        parts += [Get(RESULT, pick(c, futures)), Assert(bexpr(c, _outer(shape), kind=Cmp))]
    main = parts[-1]
    for part in reversed(parts[:-1]):
        main = Seq(part, main)
    static.check(main, procs)
    return main


def _outer(shape: Shape) -> Shape:
    """The shape of the main statement's expressions: the shared globals and `get`'s target."""
    return replace(shape, names=shape.names + (RESULT,))


def _inner(shape: Shape) -> Shape:
    """The shape of a worker's expressions: the shared globals, `get`'s target and its
    locals."""
    return replace(shape, names=shape.names + (RESULT,) + LOCALS)


def _new(procs: Procedures) -> New:
    """`r = new Node`."""
    return New(OBJECT, "Node", (VAL.name, ".next"), None, procs)


def _val(procs: Procedures) -> AExpr:
    """`r.val`."""
    return Select(ArrayVar(VAL.name, None, procs), Var(OBJECT))


def _block(c: Choices, shape: Shape, inside: bool, gets: tuple[str, ...],
           procs: Procedures) -> Stmt:
    """1 to `shape.leaves` statements of a worker (`inside`) or of the main statement; `gets`:
    the futures a `get` may read; `procs`: the table, whose class (if any) and helper (if any)
    the statements may use."""
    out = [statement(c, shape, inside, gets, 1, procs) for _ in range(c.integer(1, shape.leaves))]
    block = out[-1]
    for s in reversed(out[:-1]):
        block = Seq(s, block)
    return block


STATEMENTS = {"assign": 3, "assert": 2, "await": 2, "lock": 1, "unlock": 1, "atomic": 1,
              "array": 2, "local": 2, "get": 1, "if": 1, "loop": 1, "field": 2, "new": 1,
              "call": 2, "assume": 1}
"""The kinds of a thread's statement, simplest first, with their weights (locals, loops: in
workers only; `get` where a future may be read; `field` and `new` in a program with
objects; `call` in one with the helper)."""


def statement(c: Choices, shape: Shape, inside: bool, gets: tuple[str, ...],
              depth: int, procs: Procedures | None = None) -> Stmt:
    """One statement of a thread (module docstring), with `depth` levels of `if` to spare;
    `procs`: the program's table (its class and helper, if any)."""
    names = _inner(shape) if inside else _outer(shape)
    objects = procs is not None and bool(procs.classes)
    helper = procs is not None and HELPER in procs
    kinds = [k for k in STATEMENTS if (inside or k not in ("local", "loop"))
             and (gets or k != "get") and (depth > 0 or k not in ("if", "loop"))
             and (objects or k not in ("field", "new")) and (helper or k != "call")]
    kind = pick(c, kinds, [STATEMENTS[k] for k in kinds])
    if kind == "assign":
        return Assign(pick(c, shape.names), aexpr(c, names))
    if kind == "assert":
        return Assert(bexpr(c, names, kind=Cmp))
    if kind == "await":
        return Await(bexpr(c, names, kind=Cmp))
    if kind == "lock":
        return Await(Cmp("==", Var(LOCK), Int(0)), Assign(LOCK, Int(1)))
    if kind == "unlock":
        return Assign(LOCK, Int(0))
    if kind == "atomic":
        body = [_simple(c, shape, names, procs=procs if objects else None)
                for _ in range(c.integer(1, 2))]
        return Await(bexpr(c, names, kind=Cmp),
                     body[0] if len(body) == 1 else Seq(body[0], body[1]))
    if kind == "array":
        return _simple(c, shape, names, array=True)
    if kind == "local":
        return Assign(LOCALS[1], aexpr(c, names))
    if kind == "get":
        return Get(RESULT, pick(c, gets))
    if kind == "field":
        assert procs is not None
        return _field(c, shape, names, procs)
    if kind == "new":
        assert procs is not None
        return _new(procs)
    if kind == "call":
        assert procs is not None
        args = tuple(aexpr(c, replace(names, aexpr_depth=0)) for _ in LOCALS)
        target = pick(c, (None,) + ((LOCALS[1],) if inside else ()) + shape.names)
        return Call(HELPER, args, target, None, False, procs)
    if kind == "assume":
        return Assume(bexpr(c, names, kind=Cmp))
    if kind == "if":
        return If(bexpr(c, names), statement(c, shape, inside, gets, depth - 1, procs),
                  statement(c, shape, inside, gets, depth - 1, procs))
    bound = Cmp("<", Var(COUNTER), Int(c.integer(1, 2)))
    body = Seq(statement(c, shape, inside, gets, depth - 1, procs),
               Assign(COUNTER, Add(Var(COUNTER), Int(1))))
    guard = And(bound, bexpr(c, names, 0)) if c.integer(0, 1) else bound
    return Seq(Assign(COUNTER, Int(0), local=True), While(guard, body))


def _field(c: Choices, shape: Shape, names: Shape, procs: Procedures) -> Stmt:
    """`r.val = e`, `r.val = r.val + e`, `x = r.val + e` or `assert r.val < e`."""
    kind = c.integer(0, 3)
    e = aexpr(c, names)
    if kind == 0:
        return Assign(VAL.name, Update(ArrayVar(VAL.name, None, procs), Var(OBJECT), e))
    if kind == 1:
        return Assign(VAL.name, Update(ArrayVar(VAL.name, None, procs), Var(OBJECT),
                                       Add(_val(procs), e)))
    if kind == 2:
        return Assign(pick(c, shape.names), Add(_val(procs), e))
    return Assert(Cmp("<", _val(procs), e))


def _simple(c: Choices, shape: Shape, names: Shape, array: bool = False,
            procs: Procedures | None = None) -> Stmt:
    """An assignment to a shared global or (`array`, or one time in three) an array cell, or
    (given `procs` with a class, one time in four) a write of `r.val`."""
    if procs is not None and not array and c.integer(0, 3) == 3:
        return _field(c, shape, names, procs)
    if array or (shape.arrays and c.integer(0, 2) == 2):
        a = pick(c, shape.arrays)
        index = aexpr(c, replace(names, aexpr_depth=0, arrays=()))
        return Assign(a, Update(ArrayVar(a), index, aexpr(c, names)))
    return Assign(pick(c, shape.names), aexpr(c, names))

