"""Terms of a language definition (seed 002 §3): `T_Σ(Var)` and the data algebra `D`.

A term is one of
- `App(label, args)`: a constructor of the language's syntax (a production) applied to terms.
  Non-data constructors are free (the remark ♠ in the proof of Lemma 1), so matching them is
  syntactic; `HOLE` is K's `□` in a frozen evaluation context;
- data: an Int is an arithmetic term of `core.terms` (`Int(3)`, or over symbolic values
  `Var("a")`: `D^sym`, §4.2), a Bool a formula of `core.terms` (`Bool(True)`, `Cmp(...)`), an
  identifier an `Id`, a map a `MapValue`, an array (seed 003 §5, a map ℤ → ℤ) a
  `core.concrete.Cells` or, over symbolic values, an update sequence of `core.terms`
  (`ArrayVar("a")` under `Update`s), the arrays of a program an `ArraysValue`, a formula of sort
  Fol a `core.state.PathCondition`;
- `Variable(name, sort, accepts)`: a variable of `Var`, matching the terms whose sort is in
  `accepts` (the sort and its subsorts; heating and cooling variables accept fewer, §2);
- `Op(name, args)`: a data operation of `DATA_OPS` applied to terms (rules only; it is
  evaluated when a rule instantiates its right-hand side or condition).

The `k` cell holds a computation `C1 ↷ C2 ↷ …`: a persistent cons list `KSeq` (None is `·`),
so a step that touches its head shares the rest. Data operations are the symbolic algebra of the
expression fold (`core.terms.TERMS`: constant-folding smart constructors), so on constants they
compute the value (`D`) and on symbolic values the term (`D^sym`): one table serves both.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from symcert.core.concrete import NO_CELLS, Cells, beval
from symcert.core.state import PathCondition
from symcert.core.terms import TERMS, Formula
from symcert.lang.syntax import (
    Add, And, ArrayVar, Bool, Cmp, Div, Int, Mod, Mul, Neg, Not, Or, Select, Sub, Update, Var,
)
from symcert.solver.z3backend import Sat

INT, BOOL, ID, MAP, FOL, K = "Int", "Bool", "Id", "Map", "Fol", "K"
ARRAY, ARRAYS = "Array", "Arrays"
DATA_SORTS = (INT, BOOL, ID, MAP, ARRAY, ARRAYS)
"""The built-in data sorts a definition may declare (Σ^Data); Fol is added by the derivation."""

_INT_CLASSES = (Int, Var, Neg, Add, Sub, Mul, Div, Mod, Select)
_BOOL_CLASSES = (Bool, Cmp, Not, And, Or)
_ARRAY_CLASSES = (Cells, ArrayVar, Update)


@dataclass(frozen=True, slots=True)
class Variable:
    """A variable of a rule, of sort `sort`, matching a term whose sort is in `accepts`."""

    name: str
    sort: str
    accepts: frozenset[str]

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True, eq=False)
class App:
    """A constructor of the syntax applied to its arguments. Equality is `same` (iterative):
    the dataclass's own would recurse as deep as the program. `pos`, the (line, column) in the
    program where the construct starts (None in rules), is not part of the term: `same` and
    matching ignore it."""

    label: str
    args: tuple[Any, ...] = ()
    pos: tuple[int, int] | None = field(default=None, compare=False, repr=False)


HOLE = App("□")
"""K's `□`: the place of the argument being evaluated in a frozen context (§2)."""


@dataclass(frozen=True, slots=True)
class Id:
    """An identifier (data sort Id)."""

    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class MapValue:
    """A finite map `Id ↦ Int` (data sort Map), bindings sorted by name."""

    bindings: tuple[tuple[str, Any], ...] = ()

    def lookup(self, name: str) -> Any:
        """The value bound to `name`; 0 when there is none (a total store, as symcert's)."""
        for k, v in self.bindings:
            if k == name:
                return v
        return Int(0)

    def binds(self, name: str) -> bool:
        """Whether `name` is bound."""
        return any(k == name for k, _ in self.bindings)

    def update(self, name: str, value: Any) -> MapValue:
        """The map with `name` bound to `value`."""
        rest = [(k, v) for k, v in self.bindings if k != name]
        return MapValue(tuple(sorted([*rest, (name, value)], key=lambda kv: kv[0])))

    def __str__(self) -> str:
        return ", ".join(f"{k} ↦ {show_data(v)}" for k, v in self.bindings) or ".Map"


EMPTY_MAP = MapValue()


@dataclass(frozen=True, slots=True)
class ArraysValue:
    """The arrays of a program (data sort Arrays): every identifier is bound, those written (or
    given as input) in `bindings`, sorted by name, every other `a` to its input array, lazily:
    the array of 0s (a concrete run), or with `symbolic` the symbolic array `a` (§6.3's
    `a ↦ symInt(a)` for arrays, seed 003 §5: read-before-written arrays are inputs)."""

    bindings: tuple[tuple[str, Any], ...] = ()
    symbolic: bool = False

    def lookup(self, name: str) -> Any:
        """The array bound to `name`."""
        for k, v in self.bindings:
            if k == name:
                return v
        return ArrayVar(name) if self.symbolic else NO_CELLS

    def update(self, name: str, value: Any) -> ArraysValue:
        """The arrays with `name` bound to `value`."""
        rest = [(k, v) for k, v in self.bindings if k != name]
        return ArraysValue(tuple(sorted([*rest, (name, value)], key=lambda kv: kv[0])),
                           self.symbolic)

    def __str__(self) -> str:
        shown = ", ".join(f"{k} ↦ {show_data(v)}" for k, v in self.bindings)
        return shown or (".Arrays" if not self.symbolic else ".Arrays (inputs)")


EMPTY_ARRAYS = ArraysValue()


@dataclass(frozen=True, slots=True)
class KSeq:
    """A computation `head ↷ rest` (rest None: nothing after `head`)."""

    head: Any
    rest: KSeq | None = None


def kseq(items: tuple[Any, ...] | list[Any], rest: KSeq | None = None) -> KSeq | None:
    """`items[0] ↷ … ↷ items[-1] ↷ rest`."""
    for item in reversed(items):
        rest = KSeq(item, rest)
    return rest


def kitems(k: KSeq | None) -> Iterator[Any]:
    """The computations of `k`, first first."""
    while k is not None:
        yield k.head
        k = k.rest


@dataclass(frozen=True, slots=True, eq=False)
class Op:
    """A data operation of `DATA_OPS` applied to terms (in rules only)."""

    name: str
    args: tuple[Any, ...]


def data_sort(t: object) -> str | None:
    """The data sort of a data value, or None when `t` is not data."""
    if isinstance(t, _INT_CLASSES):
        return INT
    if isinstance(t, _BOOL_CLASSES):
        return BOOL
    if isinstance(t, Id):
        return ID
    if isinstance(t, MapValue):
        return MAP
    if isinstance(t, _ARRAY_CLASSES):
        return ARRAY
    if isinstance(t, ArraysValue):
        return ARRAYS
    if isinstance(t, PathCondition):
        return FOL
    return None


def is_constant(t: object) -> bool:
    """Whether `t` is a constant of sort Int or Bool (a literal)."""
    return isinstance(t, (Int, Bool))


def same(a: object, b: object) -> bool:
    """Syntactic equality of two terms (iterative; data compared by value)."""
    todo = [(a, b)]
    while todo:
        x, y = todo.pop()
        if x is y:
            continue
        if isinstance(x, App):
            if not (isinstance(y, App) and x.label == y.label and len(x.args) == len(y.args)):
                return False
            todo.extend(zip(x.args, y.args))
        elif isinstance(x, (KSeq, Op)) or isinstance(y, (App, KSeq, Op)):
            if type(x) is not type(y):
                return False
            if isinstance(x, KSeq):
                todo.extend(((x.head, y.head), (x.rest, y.rest)))  # type: ignore[union-attr]
            else:
                if x.name != y.name or len(x.args) != len(y.args):  # type: ignore[union-attr]
                    return False
                todo.extend(zip(x.args, y.args))  # type: ignore[union-attr]
        elif type(x) is not type(y) or x != y:
            return False
    return True


def subterms(t: object) -> Iterator[object]:
    """Every subterm of `t` (itself included), preorder, iteratively; data values are leaves."""
    todo = [t]
    while todo:
        x = todo.pop()
        yield x
        if isinstance(x, (App, Op)):
            todo.extend(reversed(x.args))
        elif isinstance(x, KSeq):
            todo.extend((x.rest, x.head) if x.rest is not None else (x.head,))


def variables(t: object) -> list[Variable]:
    """The variable occurrences of `t`, left to right (a variable occurring twice is listed
    twice: linearity, §4.3.1)."""
    return [x for x in subterms(t) if isinstance(x, Variable)]


# --- the data operations (Σ^Data) ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DataOp:
    """A data operation: its argument and result sorts, how K writes it (`name`), how the seed
    writes it (`symbol`), and its interpretation, which receives the evaluation context (the
    solver, for `unsat`) and the argument values."""

    name: str
    args: tuple[str, ...]
    result: str
    fn: Callable[..., Any]
    symbol: str
    infix: bool = True


def _cmp(op: str) -> Callable[..., Formula]:
    return lambda ctx, a, b: TERMS.cmp(op, a, b)


def _eq_bool(ctx: object, a: Formula, b: Formula) -> Formula:
    """`a = b` on Bool: `a` against a constant is `a` or `¬a`, else `(a ∧ b) ∨ (¬a ∧ ¬b)`."""
    if isinstance(b, Bool):
        return a if b.value else TERMS.not_(a)
    if isinstance(a, Bool):
        return _eq_bool(ctx, b, a)
    return TERMS.or_(TERMS.and_(a, lambda: b),
                     lambda: TERMS.and_(TERMS.not_(a), lambda: TERMS.not_(b)))


def _eq_id(ctx: object, a: Id, b: Id) -> Formula:
    return Bool(a == b)


def _conj_fol(ctx: object, psi: PathCondition, b: Formula) -> PathCondition:
    """`ψ ∧ b`, simplified in `D^sym` (§4.2): `ψ ∧ true` is `ψ`."""
    if isinstance(b, Bool) and b.value:
        return psi
    return psi.extend(b)


def _unsat(ctx: Any, phi: PathCondition) -> Formula:
    """The sound `unsat` of §4.2: true only when the solver answers UNSAT (or a conjunct is
    the constant false); UNKNOWN counts as satisfiable (Remark 1). As `engine.explore` does, a
    model of `phi`'s parent (kept in `ctx.models`) that satisfies its last conjunct decides it
    without the solver, and is otherwise passed to it (constraint independence)."""
    if isinstance(phi.last, Bool):
        return Bool(not phi.last.value)
    if phi.length == 0:
        return Bool(False)
    if ctx is None or getattr(ctx, "solver", None) is None:
        raise ValueError("unsat needs a solver: run the derived definition with symbolic.step")
    models = getattr(ctx, "models", None)
    if models is not None and models.get(phi) is not None:
        return Bool(False)  # `ψ ∧ true` is `ψ`, found satisfiable when it was made
    parent = models.get(phi.parent) if models is not None else None
    if parent is not None and beval(parent, phi.last):
        models.put(phi, parent)
        return Bool(False)
    answer, model = ctx.solver.check(phi, parent)
    if models is not None and model is not None:
        models.put(phi, model)
    return Bool(answer is Sat.UNSAT)


def _select(ctx: object, a: Any, i: Any) -> Any:
    """`a[i]` (seed 003 §5): a concrete array's cell, else `core.terms.select` (B-H3)."""
    if isinstance(a, Cells) and isinstance(i, Int):
        return Int(a(i.value))
    return TERMS.select(a, i)


def _store(ctx: object, a: Any, i: Any, v: Any) -> Any:
    """`a` with cell `i` set to `v` (B-A1): a concrete array, else an update sequence."""
    if isinstance(a, Cells) and isinstance(i, Int) and isinstance(v, Int):
        return a.set(i.value, v.value)
    return TERMS.update(a, i, v)


DATA_OPS: dict[str, DataOp] = {op.name: op for op in (
    DataOp("+Int", (INT, INT), INT, lambda c, a, b: TERMS.add(a, b), "+Int"),
    DataOp("-Int", (INT, INT), INT, lambda c, a, b: TERMS.sub(a, b), "-Int"),
    DataOp("*Int", (INT, INT), INT, lambda c, a, b: TERMS.mul(a, b), "*Int"),
    DataOp("/Int", (INT, INT), INT, lambda c, a, b: TERMS.div(a, b), "/Int"),
    DataOp("%Int", (INT, INT), INT, lambda c, a, b: TERMS.mod(a, b), "%Int"),
    DataOp("<Int", (INT, INT), BOOL, _cmp("<"), "<Int"),
    DataOp("<=Int", (INT, INT), BOOL, _cmp("<="), "≤Int"),
    DataOp(">Int", (INT, INT), BOOL, _cmp(">"), ">Int"),
    DataOp(">=Int", (INT, INT), BOOL, _cmp(">="), "≥Int"),
    DataOp("==Int", (INT, INT), BOOL, _cmp("=="), "="),
    DataOp("=/=Int", (INT, INT), BOOL, _cmp("!="), "≠"),
    DataOp("notBool", (BOOL,), BOOL, lambda c, a: TERMS.not_(a), "¬", infix=False),
    DataOp("andBool", (BOOL, BOOL), BOOL, lambda c, a, b: TERMS.and_(a, lambda: b), "∧Bool"),
    DataOp("orBool", (BOOL, BOOL), BOOL, lambda c, a, b: TERMS.or_(a, lambda: b), "∨Bool"),
    DataOp("==Bool", (BOOL, BOOL), BOOL, _eq_bool, "="),
    DataOp("=/=Bool", (BOOL, BOOL), BOOL, lambda c, a, b: TERMS.not_(_eq_bool(c, a, b)), "≠"),
    DataOp("==Id", (ID, ID), BOOL, _eq_id, "="),
    DataOp("=/=Id", (ID, ID), BOOL, lambda c, a, b: Bool(a != b), "≠"),
    DataOp("lookup", (MAP, ID), INT, lambda c, m, x: m.lookup(x.name), "lookup", infix=False),
    DataOp("update", (MAP, ID, INT), MAP, lambda c, m, x, v: m.update(x.name, v), "update",
           infix=False),
    DataOp("lookupIn", (MAP, MAP, ID), INT,
           lambda c, m1, m2, x: (m1 if m1.binds(x.name) else m2).lookup(x.name), "lookupIn",
           infix=False),
    DataOp("updateBound", (MAP, ID, INT), MAP,
           lambda c, m, x, v: m.update(x.name, v) if m.binds(x.name) else m, "updateBound",
           infix=False),
    DataOp("updateFree", (MAP, MAP, ID, INT), MAP,
           lambda c, m1, m2, x, v: m2 if m1.binds(x.name) else m2.update(x.name, v),
           "updateFree", infix=False),
    DataOp("select", (ARRAY, INT), INT, _select, "select", infix=False),
    DataOp("store", (ARRAY, INT, INT), ARRAY, _store, "store", infix=False),
    DataOp("lookupArray", (ARRAYS, ID), ARRAY, lambda c, m, x: m.lookup(x.name), "lookupArray",
           infix=False),
    DataOp("updateArray", (ARRAYS, ID, ARRAY), ARRAYS, lambda c, m, x, v: m.update(x.name, v),
           "updateArray", infix=False),
    DataOp("field", (ID,), ID, lambda c, f: Id("." + f.name), "field", infix=False),
    DataOp("∧Fol", (FOL, BOOL), FOL, _conj_fol, "∧"),
    DataOp("unsat", (FOL,), BOOL, _unsat, "unsat", infix=False),
)}
"""Σ^Data with its interpretation: Int's and Bool's operations are `core.terms.TERMS`'s; `/Int`
and `%Int` are Python's floor division and modulo (X-A1), total on terms (the rules' conditions
keep a zero divisor away); `lookup` of an unbound identifier is 0; a procedure's scope
`τ ∪ σ` (seed 003 §3) reads `lookupIn(τ, σ, x)` (`τ`'s binding of `x` if any, else `σ`'s) and
writes `updateBound(τ, x, v)` and `updateFree(τ, σ, x, v)` (the one that binds `x`, `τ`
first); `select` and `store` are
`core.terms`'s on update sequences (B-A1, B-H3), and compute on concrete arrays; `field(f)` is
the name `.f` of field `f`'s map, an array no program can name (seed 003 §4, `lang.syntax`'s)."""

EQUALITY = {INT: "==Int", BOOL: "==Bool", ID: "==Id"}
"""The equality `_=_` of each data sort (§4.3: assumed to exist for all data sorts)."""


def result_sort(op: Op) -> str:
    """The sort of an operation's result."""
    return DATA_OPS[op.name].result


def show_data(v: object) -> str:
    """A data value as text (terms through `core.terms.show`)."""
    if isinstance(v, _INT_CLASSES + _BOOL_CLASSES):
        from symcert.core.terms import show

        return show(v)  # type: ignore[arg-type]
    if isinstance(v, Cells):
        return "[" + ", ".join([f"{i} ↦ {x}" for i, x in v.cells] + [f"* ↦ {v.default}"]) + "]"
    return str(v)
