"""IMP abstract syntax (seed 000, Fig. 1), plus `!=`, unary minus, `* / %`, `assert`, `assume`,
the calls, `return` and `var` of procedures (seed 003 §3; declarations in procedures.py), and
arrays (seed 003 §5): the statement `a[e] = e'` is the assignment `a = Update(ArrayVar(a), e,
e')` of seed 003 §5's functional view; objects (seed 003 §4) reuse it: `x.f = e` is the
assignment `.f = Update(ArrayVar(.f), x, e)` to the map of field `f`, and `x = new C` is `New`.
The expressions are in expressions.py (re-exported).

Every node is a frozen, slotted dataclass. Source positions live in a `pos` field that is
excluded from comparison, so `parse(str(p)) == p` is a meaningful round-trip property.
`str(node)` prints concrete IMP syntax that parses back to the same node.

Sequences are right-nested (`s1; (s2; s3)`), so a program of 100,000 statements is a long
right spine: `Seq` compares, hashes and prints along that spine with loops, not recursion.

Symbolic terms reuse these nodes and share subterms: after `x = x + x` runs n times the term
of `x` is a DAG of n nodes whose tree has 2^n leaves. Compound expressions therefore hash their
top `HASH_DEPTH` levels only, equality compares each pair of shared nodes once, and every walk
over terms (evaluation, variables, translation, printing) visits each shared node once
(sharing.py). Nothing is cached in a node: a hash stored at construction would be a symbolic
value under CrossHair, which it cannot run (contracts/README.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator, Union

from symcert.lang.expressions import (  # re-exported: the syntax is expressions and statements
    ARITY, BINARY, CMP_OPS, DIVISIONS, AExpr, Add, And, ArrayExpr, ArrayVar, BExpr, Bool, Cmp,
    Div, FIELD, Int, Mod, Mul, Neg, Nil, Not, Or, Pos, Quant, Select, Sub, Update, Var,
    field_map, field_of, is_field, operands, show_aexpr,
)
from symcert.lang.calls import CLASS, Invoke, class_tag  # re-exported


class Procedures(dict[str, "Proc"]):
    """A program's procedures by name, and `globals`: every variable the program uses as a
    global (set by `check`), so that `only_local` names the variables that are never global."""

    globals: frozenset[str] = frozenset()
    tagged: bool = False  # objects carry their class `.class` (methods.py)
    classes: tuple[tuple[str, tuple[str, ...]], ...] = ()
    checked: tuple[Stmt, frozenset[str]] | None = None  # `check`'s main and its references

    def only_local(self) -> frozenset[str]:
        """The variables that are local wherever they occur (seed 003 §3 assumes all locals are)."""
        return frozenset().union(*(q.locals for q in self.values())) - self.globals


# ---------------------------------------------------------------------------------------------
# Statements  stmt ::= skip | fail | VAR = aexpr | stmt; stmt | if .. fi | while .. od | assert
#                    | assume | [var] VAR = NAME(aexpr, ...) | NAME(aexpr, ...) | return aexpr
#                    | var VAR = aexpr


@dataclass(frozen=True, slots=True)
class Skip:
    """`skip`: the finished program."""

    pos: Pos | None = field(default=None, compare=False, repr=False)

    def __str__(self) -> str:
        return "skip"


@dataclass(frozen=True, slots=True)
class Fail:
    """`fail`: the error statement; a state about to run it is stuck (W-F9).

    `origin` is the statement this `fail` replaced, if any: an `assert` whose condition is
    false or, when `by_zero`, a statement that divided by zero (X-A2). `origin` only serves
    error reports (`what`); `by_zero` takes part in equality, so that the failing successors of
    `assert 1 / y > 0` (the assertion's, the division's) are two states, as they are two rules.
    With threads (threads.py), `deadlock` marks the state where every unfinished thread is
    blocked (`origin`: the first blocked statement; `blocked`: each unfinished thread's number
    and the statement it waits at), and a `get` as `origin` got a non-future.
    """

    pos: Pos | None = field(default=None, compare=False, repr=False)
    origin: Stmt | None = field(default=None, compare=False, repr=False)
    by_zero: bool = field(default=False, repr=False)
    deadlock: bool = field(default=False, repr=False)
    blocked: tuple[tuple[int, Stmt], ...] = field(default=(), compare=False, repr=False)
    why: str = field(default="", repr=False)  # a method call's failure (methods.py)

    def __str__(self) -> str:
        return "fail"

    def what(self) -> str:
        """What went wrong, for a bug report."""
        if self.why:
            return self.why
        if self.deadlock:
            waits = self.blocked or ((0, self.origin),)  # type: ignore[assignment]
            return "deadlock: every unfinished thread is blocked: " + ", ".join(
                f"thread {i}{f' at {s.pos.line}:{s.pos.column}' if s.pos else ''} "
                f"(`{_condition(s)}`)" for i, s in waits)
        if isinstance(self.origin, Get):
            return f"`get` of a non-future in `{self.origin}`"
        if self.by_zero and self.origin is not None:
            shown = self.origin if isinstance(self.origin, Assign) else _condition(self.origin)
            return f"{_undefined(self.origin)} in `{shown}`"
        if isinstance(self.origin, Assert):
            return f"assertion `{self.origin.cond}` fails"
        if isinstance(self.origin, Call):
            return f"precondition of {self.origin.name} does not hold"
        if isinstance(self.origin, While):
            return (f"invariant `{self.origin.invariant()}` "
                    + ("does not hold after an iteration" if self.origin.entered
                       else "does not hold on entry"))
        return "`fail` reached"


@dataclass(frozen=True, slots=True)
class Assign:
    """`name = expr`, or `var name = expr` (`local`), which declares `name` a local variable of
    the procedure it is in (seed 003 §3; procedures.py)."""

    name: str
    expr: AExpr | Update
    pos: Pos | None = field(default=None, compare=False, repr=False)
    local: bool = False

    def __str__(self) -> str:
        written = array_write(self)
        if written is not None and is_field(self.name):  # `x.f = e` (seed 003 §4)
            target = Select(written.array, written.index)
            return f"{target} = {show_aexpr(written.value)}"
        if written is not None:
            return f"{self.name}[{show_aexpr(written.index)}] = {show_aexpr(written.value)}"
        return f"{'var ' if self.local else ''}{self.name} = {show_aexpr(self.expr)}"  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class Call:
    """`name(args)`, `target = name(args)` or `var target = name(args)` (`local`): a call of
    procedure `name` by value (seed 003 §3), its value assigned to `target` when there is one.
    `procs` is the program's table of procedures, shared by all its calls (procedures.py)."""

    name: str
    args: tuple[AExpr, ...]
    target: str | None = None
    pos: Pos | None = field(default=None, compare=False, repr=False)
    local: bool = False
    procs: Procedures = field(default_factory=Procedures, compare=False, repr=False)
    ctor: bool = field(default=False, compare=False, repr=False)  # `new C(ē)`'s init: unprinted

    def __str__(self) -> str:
        call = f"{self.name}({', '.join(map(show_aexpr, self.args))})"
        if self.target is None:
            return call
        return f"{'var ' if self.local else ''}{self.target} = {call}"


@dataclass(frozen=True, slots=True)
class Return:
    """`return expr`: ends the running procedure with the value of `expr` (seed 003 §3)."""

    expr: AExpr
    pos: Pos | None = field(default=None, compare=False, repr=False)

    def __str__(self) -> str:
        return f"return {show_aexpr(self.expr)}"


@dataclass(frozen=True, slots=True)
class New:
    """`name = new cls`, or `var name = new cls` (`local`, in a procedure): a new object of class
    `cls` (seed 003 §4's object creation), distinct from every other object, each of its
    `fields` (their maps' names, `.f`) set to 0 / nil.
    With `at`, `at.f = new cls`: `name` is the map `.f` of the field written, `at` the path of
    the object whose field gets the new object; a nil `at` fails (`target`).
    New objects are numbered -1, -2, ... along a run (`ALLOC` counts them), input objects are
    positive and nil is 0, so B-T4's freshness holds by construction."""

    name: str
    cls: str
    fields: tuple[str, ...]
    pos: Pos | None = field(default=None, compare=False, repr=False)
    decl: object = field(default=None, compare=False, repr=False)
    """The program's table of declarations (its classes), as `ArrayVar.decl`."""
    local: bool = False
    at: AExpr | None = None
    init: tuple[AExpr, ...] | None = None  # `new C(ē)`'s arguments (printing; B-O3)

    @property
    def target(self) -> AExpr | None:
        """The field written, `at.f` (`Select` of the map `.f`), or None for a variable."""
        return None if self.at is None else Select(ArrayVar(self.name, decl=self.decl), self.at)

    def __str__(self) -> str:
        target = self.target
        made = f"new {self.cls}" + ("" if self.init is None else
                                    f"({', '.join(map(show_aexpr, self.init))})")
        if target is not None:
            return f"{target} = {made}"
        return f"{'var ' if self.local else ''}{self.name} = {made}"


ALLOC = FIELD + "new"
"""The global that holds the last new object (0 before the first): `new` is a keyword, so no
field's map has this name."""


def allocation(s: New, last: int) -> list[Assign]:
    """The assignments `x = new C` makes after `last` was the last new object: the counter,
    every field of the object `last - 1` to 0, then `x`; each semantics runs them in order with
    its own assignment rule, in one step (seed 003 §4).
    `y.f = new C` writes the field first, `.f = (.f with last - 1 ↦ 0 when C has f)[y ↦ last
    - 1]`, then the counter and C's other fields: `y` is evaluated before anything changes, as
    Java does (JLS §15.26.1: `y`, then `new C`), and where it is nil the step fails before it
    changes anything."""
    k = Int(last - 1)
    resets = [Assign(f, Update(ArrayVar(f), k, Int(class_tag(s) if f == CLASS else 0)))
              for f in s.fields]
    if s.at is None:
        return [Assign(ALLOC, k)] + resets + [Assign(s.name, k)]
    written = next((r.expr for r in resets if r.name == s.name), ArrayVar(s.name, decl=s.decl))
    return ([Assign(s.name, Update(written, s.at, k)), Assign(ALLOC, k)]  # type: ignore[arg-type]
            + [r for r in resets if r.name != s.name])


@dataclass(frozen=True, slots=True)
class If:
    """`if cond then then_ else else_ fi`."""

    cond: BExpr
    then_: Stmt
    else_: Stmt
    pos: Pos | None = field(default=None, compare=False, repr=False)
    call: object = field(default=None, compare=False, repr=False)  # a dispatch's call (methods.py)

    def __str__(self) -> str:
        return show_stmt(self)


@dataclass(frozen=True, slots=True)
class While:
    """`while cond invariant I1 ... invariant Ik do body od`: `invariants` are the clauses
    `I1 ... Ik` (none: a plain loop), whose conjunction is the loop's invariant. Every semantics
    checks it at each evaluation of the loop's head, that is on entry and after each iteration,
    as an assertion; the invariant transition (T-I1, engine/invariants.py) uses it instead of
    unrolling. `entered` tells the head reached after an iteration from the head reached anew,
    for the report of a failing check only (not compared)."""

    cond: BExpr
    body: Stmt
    pos: Pos | None = field(default=None, compare=False, repr=False)
    invariants: tuple[BExpr, ...] = ()
    entered: bool = field(default=False, compare=False, repr=False)

    def __str__(self) -> str:
        return show_stmt(self)

    def invariant(self) -> BExpr:
        """The conjunction of the clauses (`true` for a plain loop)."""
        if not self.invariants:
            return Bool(True)
        result = self.invariants[0]
        for clause in self.invariants[1:]:
            result = And(result, clause, result.pos)
        return result


@dataclass(frozen=True, slots=True)
class Assert:
    """`assert cond`: steps to `skip` when cond holds and to `fail` otherwise.

    It behaves as PyWiSE's `if cond then skip else fail fi`, in the same single step.
    """

    cond: BExpr
    pos: Pos | None = field(default=None, compare=False, repr=False)

    def __str__(self) -> str:
        return f"assert {self.cond}"


@dataclass(frozen=True, slots=True)
class Assume:
    """`assume cond`: steps to `skip` when cond holds; otherwise no rule applies and the run is
    *blocked*, neither finished nor stuck, never a bug (X-U1). Symbolically it has the one
    successor `φ ∧ cond`."""

    cond: BExpr
    pos: Pos | None = field(default=None, compare=False, repr=False)

    def __str__(self) -> str:
        return f"assume {self.cond}"


@dataclass(frozen=True, slots=True)
class Spawn:
    """`spawn name(args)`, or `target = spawn name(args)` (seed 003 §5's spawn rule): a new
    thread runs procedure `name` with the arguments' values (call by value, seed 003 §3), and
    `target` is bound to the new thread's future (threads.py)."""

    name: str
    args: tuple[AExpr, ...]
    target: str | None = None
    pos: Pos | None = field(default=None, compare=False, repr=False)
    procs: Procedures = field(default_factory=Procedures, compare=False, repr=False)

    def __str__(self) -> str:
        spawn = f"spawn {self.name}({', '.join(map(show_aexpr, self.args))})"
        return spawn if self.target is None else f"{self.target} = {spawn}"


@dataclass(frozen=True, slots=True)
class Get:
    """`target = get future` (seed 003 §5's futures): blocks until the thread of `future` has
    returned, then assigns its value to `target`."""

    target: str
    future: str
    pos: Pos | None = field(default=None, compare=False, repr=False)

    def __str__(self) -> str:
        return f"{self.target} = get {self.future}"


@dataclass(frozen=True, slots=True)
class Await:
    """`await cond` or `await cond then body end`: blocks until `cond` holds, then runs `body`
    in the same atomic step as the test (Owicki and Gries's `await`); `await cond` is
    `await cond then skip end`. `body` has no `await`, `spawn`, `get`, call or loop."""

    cond: BExpr
    body: Stmt = field(default_factory=lambda: Skip())
    pos: Pos | None = field(default=None, compare=False, repr=False)

    def __str__(self) -> str:
        return show_stmt(self)


@dataclass(frozen=True, slots=True, eq=False)
class Seq:
    """`first; second`, right-nested; equality walks the right spine iteratively and the hash
    looks at its first two statements only (a spine of 100,000 statements is never recursed)."""

    first: Stmt
    second: Stmt
    pos: Pos | None = field(default=None, compare=False, repr=False)
    decl: object = field(default=None, compare=False, repr=False)
    """In a parsed program: the program's table of declarations (`procedures.table_of` reads
    it without walking the program), as a field's map holds it; None elsewhere."""

    def __hash__(self) -> int:
        second = self.second
        return hash((Seq, self.first, second.first if isinstance(second, Seq) else second))

    def __eq__(self, other: object) -> bool:
        a: object = self
        b: object = other
        while isinstance(a, Seq) and isinstance(b, Seq):
            if a is b:
                return True
            if a.first != b.first:
                return False
            a, b = a.second, b.second
        if isinstance(a, Seq) or isinstance(b, Seq):
            return False
        return a == b

    def __str__(self) -> str:
        return show_stmt(self)


Stmt = Union[Skip, Fail, Assign, Seq, If, While, Assert, Assume, Call, Return, New, Spawn, Get,
             Await]
Node = Union[AExpr, BExpr, ArrayExpr, Stmt]


def array_write(s: Stmt) -> Update | None:
    """The update of `a[i] = e` (`Assign(a, Update(ArrayVar(a), i, e))`), None for any other
    statement."""
    if isinstance(s, Assign) and isinstance(s.expr, Update):
        return s.expr
    return None


def _undefined(s: Stmt) -> str:
    """What may be undefined in the expressions of `s`: a division by zero, a field of nil
    (seed 003 §4), or either."""
    found: set[str] = set()
    todo: list[object] = (list(s.args) if isinstance(s, (Call, Spawn)) else
                          [s.cond] if isinstance(s, Await) else
                          [s.expr] if isinstance(s, (Assign, Return)) else
                          [s.target] if isinstance(s, New) else [_condition(s)])
    while todo:
        e = todo.pop()
        if type(e) in DIVISIONS:
            found.add("division by zero")
        elif type(e) in (Select, Update) and field_of(e.array) is not None:  # type: ignore[union-attr]
            found.add("null dereference")
        todo.extend(operands(e))  # type: ignore[arg-type]
    return " or ".join(sorted(found)) or "division by zero"


def _condition(s: Stmt) -> object:
    """The condition of an `if`, `while`, `assert` or `assume` (the statement itself otherwise)."""
    if isinstance(s, Await):
        return f"await {s.cond}"
    return s.cond if isinstance(s, (If, While, Assert, Assume)) else s


def seq_of(stmts: list[Stmt], decl: object = None) -> Stmt:
    """Fold a non-empty list of statements into a right-nested sequence whose nodes hold
    `decl` (the parser's table of declarations)."""
    result = stmts[-1]
    for s in reversed(stmts[:-1]):
        result = Seq(s, result, s.pos, decl)
    return result


def spine(s: Stmt) -> Iterator[Stmt]:
    """Yield the statements of a right-nested sequence, in order."""
    while isinstance(s, Seq):
        yield s.first
        s = s.second
    yield s


# ---------------------------------------------------------------------------------------------
# Printing statements.


def show_stmt(s: Stmt, indent: str = "") -> str:
    """Print a statement as IMP source, one statement a line, blocks indented."""
    return ";\n".join(_show_simple(t, indent) for t in spine(s)
                       if not (isinstance(t, Call) and t.ctor))


def _show_simple(s: Stmt, indent: str) -> str:
    inner = indent + "  "
    match s:
        case If(call=call) if call is not None:  # a method call's dispatch (methods.py)
            return indent + str(call)
        case If(c, t, e):
            return (
                f"{indent}if {c} then\n{show_stmt(t, inner)}\n"
                f"{indent}else\n{show_stmt(e, inner)}\n{indent}fi"
            )
        case While(c, b, invariants=clauses):
            shown = "".join(f" invariant {i}" for i in clauses)
            return f"{indent}while {c}{shown} do\n{show_stmt(b, inner)}\n{indent}od"
        case Await(c, Skip()):
            return f"{indent}await {c}"
        case Await(c, b):
            return f"{indent}await {c} then\n{show_stmt(b, inner)}\n{indent}end"
        case Seq():  # a sequence nested first in another (the generator builds them)
            return show_stmt(s, indent)
        case _:
            return indent + str(s)


@dataclass(frozen=True, slots=True)
class Proc:
    """`proc name(params) requires P ensures Q begin body end`; `locals` are its parameters
    and `var` names; `procs` is the table of the program it is declared in. The contract is
    optional: `requires` speaks of the parameters and globals at the call, `ensures` of the
    parameters (their values at the call), the globals after it and `RESULT`, the value
    returned (T-S1)."""

    name: str
    params: tuple[str, ...]
    body: Stmt
    locals: frozenset[str]
    pos: Pos | None = field(default=None, compare=False, repr=False)
    procs: Procedures = field(default_factory=Procedures, compare=False, repr=False)
    requires: BExpr | None = None
    ensures: BExpr | None = None

    def __str__(self) -> str:
        contract = "".join(f" {word} {c}" for word, c in (("requires", self.requires),
                                                          ("ensures", self.ensures))
                           if c is not None)
        return (f"proc {self.name}({', '.join(self.params)}){contract} begin\n"
                f"{show_stmt(self.body, '  ')}\nend")
