# crosshair: off
"""z3 terms as the expression fold's algebra (algebra.py), and z3's array models read back as
`Cells`: the half of the solver that speaks z3's term language (z3backend.py decides).

z3 is imported at the first use of one of its names, as in z3backend.py (start-up).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from symcert.core.concrete import Cells, Env, Value
from symcert.core.terms import COMPARE

if TYPE_CHECKING:
    import z3
else:
    class _Z3:
        """Stands for the z3 module until its first use (z3backend._Z3)."""

        def __getattr__(self, name: str) -> Any:
            global z3
            import z3 as module

            z3 = module
            return getattr(module, name)

    z3 = _Z3()


class Z3Terms:
    """The algebra of z3 terms (the expression fold, algebra.py): a variable is the z3 integer
    constant of its name, an array the z3 array `Int → Int` of its name in the initial state,
    read by `Select`, written by `Store` (so `V(e) = V(e') ⇒ V(a[e]) = V(a[e'])`: B-A1)."""

    def integer(self, ctx: None, value: int) -> z3.ArithRef:
        return z3.IntVal(value)

    def var(self, ctx: None, name: str) -> z3.ArithRef:
        return z3.Int(name)

    def neg(self, a: z3.ArithRef) -> z3.ArithRef:
        return -a

    def add(self, a: z3.ArithRef, b: z3.ArithRef) -> z3.ArithRef:
        return a + b

    def sub(self, a: z3.ArithRef, b: z3.ArithRef) -> z3.ArithRef:
        return a - b

    def mul(self, a: z3.ArithRef, b: z3.ArithRef) -> z3.ArithRef:
        return a * b

    def div(self, a: z3.ArithRef, b: z3.ArithRef) -> z3.ArithRef:
        """Python's floor division (X-A1): z3's `/` on integers is SMT-LIB's `div`, Euclidean
        (the remainder is never negative), which is the floor for `b > 0` only; for `b < 0`,
        `a // b == (-a) // (-b)`. At `b == 0` the term is z3's unconstrained `div`, never read:
        the guard excludes it (X-A2)."""
        return z3.If(b >= 0, a / b, (-a) / (-b))

    def mod(self, a: z3.ArithRef, b: z3.ArithRef) -> z3.ArithRef:
        """Python's `%`, with the sign of `b` (X-A1): `a % b == -((-a) % (-b))` for `b < 0`."""
        return z3.If(b >= 0, a % b, -((-a) % (-b)))

    def array(self, ctx: None, name: str) -> z3.ArrayRef:
        return z3.Array(name, z3.IntSort(), z3.IntSort())
    select = staticmethod(lambda a, i: z3.Select(a, i))
    update = staticmethod(lambda a, i, v: z3.Store(a, i, v))

    def cmp(self, op: str, a: z3.ArithRef, b: z3.ArithRef) -> z3.BoolRef:
        return COMPARE[op](a, b)  # type: ignore[no-any-return]

    def boolean(self, ctx: None, value: bool) -> z3.BoolRef:
        return z3.BoolVal(value)

    def not_(self, a: z3.BoolRef) -> z3.BoolRef:
        return z3.Not(a)

    def and_(self, a: z3.BoolRef, b: Callable[[], z3.BoolRef]) -> z3.BoolRef:
        return z3.And(a, b())

    def or_(self, a: z3.BoolRef, b: Callable[[], z3.BoolRef]) -> z3.BoolRef:
        return z3.Or(a, b())

    def bind(self, ctx: None, name: str, value: z3.ArithRef) -> None:
        """The bound variable is the z3 constant of its name, as `var` reads it (no program
        variable has that name: lang/quantifiers.py)."""
        return ctx

    def quantifier(self, universal: bool, name: str, lo: z3.ArithRef, hi: z3.ArithRef,
                   body: Callable[[z3.ArithRef], z3.BoolRef]) -> z3.BoolRef:
        """X-Q1: `∀k. lo ≤ k ≤ hi → b`, or `∃k. lo ≤ k ≤ hi ∧ b`."""
        k = z3.Int(name)
        within = z3.And(lo <= k, k <= hi)
        if universal:
            return z3.ForAll([k], z3.Implies(within, body(k)))
        return z3.Exists([k], z3.And(within, body(k)))


Z3 = Z3Terms()


class Purified(Z3Terms):
    """`Z3Terms` with each `/` and `%` by a non-literal divisor named (purification, X-A1):
    `a / b` is the term `!div(a, b)` and `a % b` is `!mod(a, b)`, applications of two
    uninterpreted functions, defined where a query uses them by `definition(a, b)`. z3 then
    never sees its own `div`/`mod` of a symbolic divisor nested in `ite`s: asserting
    `x = 3 % (1 % x)` unrolled nine times took it minutes in one call that neither its resource
    limit nor an interrupt stopped. An application is the name of its term: the same operands
    give the same name, and nothing needs to be remembered beside the term. A literal divisor
    keeps `Z3Terms`' translation (linear; z3 decides it well)."""

    def div(self, a: z3.ArithRef, b: z3.ArithRef) -> z3.ArithRef:
        return super().div(a, b) if z3.is_int_value(b) else _named()[0](a, b)

    def mod(self, a: z3.ArithRef, b: z3.ArithRef) -> z3.ArithRef:
        return super().mod(a, b) if z3.is_int_value(b) else _named()[1](a, b)


PURIFIED = Purified()
_NAMES: list[z3.FuncDeclRef] = []


def _named() -> list[z3.FuncDeclRef]:
    """The uninterpreted functions `!div`, `!mod` : Int × Int → Int (no IMP name starts so)."""
    if not _NAMES:
        _NAMES.extend(z3.Function(name, z3.IntSort(), z3.IntSort(), z3.IntSort())
                      for name in ("!div", "!mod"))
    return _NAMES


def definition(a: z3.ArithRef, b: z3.ArithRef) -> z3.BoolRef:
    """The defining constraint of `q = !div(a, b)` and `r = !mod(a, b)` (X-A1, Python's floor
    semantics, as `smtlib.purified` states it): `b ≠ 0 ⇒ a = b·q + r ∧ (0 ≤ r < b if b > 0,
    b < r ≤ 0 if b < 0)`. Unconstrained at `b = 0`, as the plain translation is: no path reads
    a division by zero (the guard, X-A2)."""
    div, mod = _named()
    q, r = div(a, b), mod(a, b)
    return z3.Implies(b != 0, z3.And(a == b * q + r,
                                     z3.If(b > 0, z3.And(0 <= r, r < b), z3.And(b < r, r <= 0))))


def definition_text(a: str, b: str, q: str, r: str) -> str:
    """`definition` of the integer constants `a`, `b`, its names replaced by the constants `q`,
    `r`, as z3 prints it on one line (X-A1 compares it with `smtlib.purified`)."""
    x, y = z3.Int(a), z3.Int(b)
    div, mod = _named()
    named = z3.substitute(definition(x, y), (div(x, y), z3.Int(q)), (mod(x, y), z3.Int(r)))
    return " ".join(named.sexpr().split())


def ranges(translate: Callable[[Any], Any], c: Any, classes: int, references: frozenset[str],
           read: frozenset[str]) -> list[z3.BoolRef]:
    """What the inputs the conjunct `c` reads range over: an input reference (among `read`,
    or a cell of a map of references) is nil or an input object, `>= 0` (seed 003 §4); with
    `classes` declared classes, an object `i > 0` whose class `.class[i]` it reads is of one of
    them, `0 <= .class[i] < classes` (B-O4)."""
    from symcert.lang.structure import reads
    from symcert.lang.syntax import CLASS, ArrayVar, Var, is_field

    cells = reads([c]) if classes or references else []
    low = [translate(Var(x)) >= 0 for x in read if not is_field(x)]
    low += [z3.Select(translate(ArrayVar(a)), translate(i)) >= 0 for a, i in cells
            if a in references]
    classed = [(translate(i), z3.Select(translate(ArrayVar(a)), translate(i)))
               for a, i in cells if a == CLASS and classes]
    return low + [z3.Implies(i > 0, z3.And(k >= 0, k < classes)) for i, k in classed]


def definitions(term: z3.ExprRef) -> list[z3.BoolRef]:
    """The definitions of every named division in `term` (`Purified`), once per pair of
    operands: a walk of the term's DAG, each shared node visited once."""
    if not _NAMES:  # no division named yet
        return []
    div, mod = _NAMES
    names = {div.get_id(), mod.get_id()}
    seen: set[int] = set()
    pairs: dict[tuple[int, int], tuple[z3.ArithRef, z3.ArithRef]] = {}
    todo = [term]
    while todo:
        t = todo.pop()
        if t.get_id() in seen or not z3.is_app(t):
            continue
        seen.add(t.get_id())
        args = t.children()
        if t.decl().get_id() in names:
            pairs.setdefault((args[0].get_id(), args[1].get_id()), (args[0], args[1]))
        todo.extend(args)
    return [definition(a, b) for a, b in pairs.values()]


LAMBDA_WINDOW = 4096
"""The widest range of indices at which `cells` reads an array model given as a `lambda`."""


def cells(value: z3.ExprRef | z3.FuncInterp) -> Cells:
    """A model's array (seed 003 §5): stores over `K(Int, d)`, any `d`, or entries and else.
    With quantifiers (X-Q1) z3 may give an array as a `lambda` (`If(0 <= k, 5, 6)`), which no
    `Cells` is in general: it is read at every index from one below the least integer its body
    mentions to one above the greatest (or around each when they are over `LAMBDA_WINDOW`
    apart), its default the value above them. Exact where the path condition's reads fall
    there; a witness is replayed concretely in any case, and a model is never taken for a
    proof."""
    if isinstance(value, z3.FuncInterp):
        return Cells.of({k.as_long(): v.as_long() for k, v in reversed(value.as_list()[:-1])},
                        value.else_value().as_long())
    cells: dict[int, int] = {}
    while z3.is_store(value):  # the outermost store of a cell wins
        value, index, stored = value.children()
        cells.setdefault(index.as_long(), stored.as_long())
    if z3.is_K(value):
        return Cells.of(cells, value.arg(0).as_long())
    assert z3.is_quantifier(value) and value.is_lambda(), \
        f"an array model of an unexpected shape: {value}"
    return _lambda_cells(value, cells)


def _lambda_cells(value: z3.QuantifierRef, over: dict[int, int]) -> Cells:
    """`cells` of an array given as a lambda, under the stores `over` (which win)."""
    found: set[int] = set()
    todo, seen = [value.body()], set()
    while todo:
        t = todo.pop()
        if t.get_id() in seen:
            continue
        seen.add(t.get_id())
        if z3.is_int_value(t):
            found.add(t.as_long())
        todo.extend(t.children())
    lo, hi = (min(found) - 1, max(found) + 1) if found else (0, 0)
    points = (range(lo, hi + 2) if hi - lo <= LAMBDA_WINDOW
              else sorted({c + d for c in found for d in (-1, 0, 1)} | {hi + 1}))

    def at(i: int) -> int:
        v = z3.simplify(z3.Select(value, z3.IntVal(i)))
        return v.as_long() if z3.is_int_value(v) else 0

    read = {i: at(i) for i in points}
    default = read.pop(hi + 1)
    return Cells.of({**read, **over}, default)


def model_env(model: z3.ModelRef, names: frozenset[str],
              decls: dict[str, z3.FuncDeclRef]) -> Env:
    """The values of the constants `names` in a z3 model, integers and arrays (absent ones
    read 0, as z3's model completion would give), through z3's C API one constant at a time
    (the Python wrappers cost more than small queries); a name's integer constant first,
    then its array (static kinds). `decls` keeps each name's integer constant between calls."""
    ctx, m, z3core = model.ctx.ref(), model.model, z3.z3core
    values: dict[str, Value] = {}
    for name in names:
        decl = decls.get(name)
        if decl is None:
            decl = decls[name] = z3.Int(name).decl()
        v = z3core.Z3_model_get_const_interp(ctx, m, decl.ast)
        if v and z3core.Z3_get_ast_kind(ctx, v) == z3.Z3_NUMERAL_AST:
            values[name] = int(z3core.Z3_get_numeral_string(ctx, v))
        elif not v:
            array = z3.Array(name, z3.IntSort(), z3.IntSort()).decl()
            if z3core.Z3_model_has_interp(ctx, m, array.ast):
                values[name] = cells(model[array])
    return Env.of(values)
