# crosshair: off
# (its schematic values branch the generation of proof obligations; checked by tests/proofs/)
"""Symbolic terms and path conditions as SMT-LIB 2 text, independent of any prover's API.

The proof obligations of `symcert.checking.obligations` are written in this text, and both provers (z3 and
cvc5) read the same text, so neither prover's Python API shapes what is proved. This module also
holds the schematic values (`SymInt`, `SymBool`) that build such text while the engine's code
runs on them, and the path enumeration (`paths`) that forks when the code branches on one (the
provers that read the text are in `symcert.verify.provers`). A term's variable
`x` is the SMT constant `x` of sort Int: its value is `V0(x)`, the initial value of input `x`
(seed 000, W-D2.2: `⟦S(x)⟧_{V0}`). Integer and boolean literals may hold *schematic* values
(`Schematic`: an integer or boolean standing for an arbitrary one); they translate to their own
SMT text and declare their own constants.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator, Protocol

from symcert.core.algebra import fold_a, fold_b
from symcert.lang.syntax import AExpr, BExpr

_SIMPLE = re.compile(r"[A-Za-z~!@$%^&*_+=<>.?/\-][A-Za-z0-9~!@$%^&*_+=<>.?/\-]*")
_RESERVED = frozenset({"true", "false", "and", "or", "not", "let", "forall", "exists", "ite",
                       "distinct", "par", "_", "!", "as", "Int", "Bool"})
CMP_SMT = {"==": "=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}


class Schematic(Protocol):
    """A value standing for an arbitrary integer or boolean: it knows its SMT text and constants."""

    def smt(self) -> str:
        """This value's SMT-LIB term."""
        ...

    def constants(self) -> Iterable[tuple[str, str]]:
        """The (name, sort) of every SMT constant the term mentions."""
        ...


def symbol(name: str) -> str:
    """An SMT-LIB symbol for `name`: itself when it is a simple symbol, else `|name|`; a field's
    map `.f` is `field!f` (SMT-LIB reserves symbols that start with `.`, and no program name
    has a `!`)."""
    if name[:1] == ".":
        name = "field!" + name[1:]
    if _SIMPLE.fullmatch(name) and name not in _RESERVED:
        return name
    if "|" in name or "\\" in name:
        raise ValueError(f"no SMT-LIB symbol for {name!r}")
    return f"|{name}|"


def numeral(n: int) -> str:
    """An integer literal (SMT-LIB numerals are non-negative)."""
    return str(n) if n >= 0 else f"(- {-n})"


@dataclass
class Script:
    """An SMT-LIB script under construction: the constants its terms declare, hypotheses, a goal.

    `text(goal)` asserts the hypotheses and the *negation* of the goal: the goal is VALID exactly
    when the script is UNSAT.
    """

    logic: str = "ALL"
    sorts: dict[str, str] = field(default_factory=dict)

    def declare(self, name: str, sort: str) -> str:
        """Declare constant `name` of `sort` (once) and return its symbol."""
        old = self.sorts.setdefault(name, sort)
        if old != sort:
            raise ValueError(f"{name} declared as {old} and as {sort}")
        return symbol(name)

    def int_value(self, v: int | Schematic) -> str:
        """An integer literal's value, concrete or schematic."""
        if isinstance(v, bool):
            raise TypeError(f"not an integer: {v!r}")
        if isinstance(v, int):
            return numeral(v)
        return self._schematic(v)

    def bool_value(self, v: bool | Schematic) -> str:
        """A boolean literal's value, concrete or schematic."""
        if isinstance(v, bool):
            return "true" if v else "false"
        return self._schematic(v)

    def _schematic(self, v: Schematic) -> str:
        for name, sort in v.constants():
            self.declare(name, sort)
        return v.smt()

    def aexpr(self, e: AExpr) -> str:
        """`⟦e⟧_{V0}`: an arithmetic term over the inputs."""
        return fold_a(SMT_TEXT, self, e)

    def bexpr(self, b: BExpr) -> str:
        """`⟦b⟧_{V0}`: a formula over the inputs."""
        return fold_b(SMT_TEXT, self, b)

    def conjunction(self, formulas: Iterable[BExpr]) -> str:
        """The conjunction of formulas (`true` when there are none)."""
        return conj(self.bexpr(f) for f in formulas)

    def text(self, hypotheses: Iterable[str], goal: str) -> str:
        """The script: declarations, hypotheses, the negated goal, `(check-sat)`."""
        lines = [f"(set-logic {self.logic})"]
        lines += [f"(declare-const {symbol(n)} {s})" for n, s in sorted(self.sorts.items())]
        lines += [f"(assert {h})" for h in hypotheses if h != "true"]
        lines.append(f"(assert (not {goal}))")
        lines.append("(check-sat)")
        return "\n".join(lines) + "\n"


class SmtText:
    """The algebra of SMT-LIB text (the expression fold, algebra.py): leaves declare their
    constants in the `Script` under construction."""

    def integer(self, script: Script, value: int | Schematic) -> str:
        return script.int_value(value)

    def var(self, script: Script, name: str) -> str:
        return script.declare(name, "Int")

    def neg(self, a: str) -> str:
        return f"(- {a})"

    def add(self, a: str, b: str) -> str:
        return f"(+ {a} {b})"

    def sub(self, a: str, b: str) -> str:
        return f"(- {a} {b})"

    def mul(self, a: str, b: str) -> str:
        return f"(* {a} {b})"

    def div(self, a: str, b: str) -> str:
        """Floor division, as `Z3Terms.div` (X-A1: SMT-LIB's `div` is Euclidean)."""
        return f"(ite (>= {b} 0) (div {a} {b}) (div (- {a}) (- {b})))"

    def mod(self, a: str, b: str) -> str:
        """Python's `%`, as `Z3Terms.mod` (X-A1)."""
        return f"(ite (>= {b} 0) (mod {a} {b}) (- (mod (- {a}) (- {b}))))"

    def array(self, script: Script, name: str) -> str:
        """An array variable: a constant of SMT-LIB's `(Array Int Int)` (seed 003 §5)."""
        return script.declare(name, "(Array Int Int)")

    def select(self, a: str, i: str) -> str:
        return f"(select {a} {i})"

    def update(self, a: str, i: str, v: str) -> str:
        return f"(store {a} {i} {v})"

    def cmp(self, op: str, a: str, b: str) -> str:
        return f"(not (= {a} {b}))" if op == "!=" else f"({CMP_SMT[op]} {a} {b})"

    def boolean(self, script: Script, value: bool | Schematic) -> str:
        return script.bool_value(value)

    def not_(self, a: str) -> str:
        return f"(not {a})"

    def and_(self, a: str, b: Callable[[], str]) -> str:
        return f"(and {a} {b()})"

    def or_(self, a: str, b: Callable[[], str]) -> str:
        return f"(or {a} {b()})"

    def bind(self, script: Script | Bound, name: str, value: str) -> Bound:
        return Bound(script, name, value)

    def quantifier(self, universal: bool, name: str, lo: str, hi: str,
                   body: Callable[[str], str]) -> str:
        """X-Q1: `(forall ((k Int)) (=> (and (<= lo k) (<= k hi)) b))`, or `exists` with `and`."""
        k = symbol(name)
        within = f"(and (<= {lo} {k}) (<= {k} {hi}))"
        if universal:
            return f"(forall (({k} Int)) (=> {within} {body(k)}))"
        return f"(exists (({k} Int)) (and {within} {body(k)}))"


@dataclass(frozen=True)
class Bound:
    """A script under construction in which a quantifier's variable is bound (X-Q1): reading
    `name` gives its symbol and declares nothing; every other name is the script's."""

    outer: Script | Bound
    name: str
    value: str

    def declare(self, name: str, sort: str) -> str:
        """The bound symbol, or the outer script's constant."""
        return self.value if name == self.name else self.outer.declare(name, sort)

    def int_value(self, v: int | Schematic) -> str:
        """As `Script.int_value`."""
        return self.outer.int_value(v)

    def bool_value(self, v: bool | Schematic) -> str:
        """As `Script.bool_value`."""
        return self.outer.bool_value(v)


SMT_TEXT = SmtText()


def conj(parts: Iterable[str]) -> str:
    """`(and ...)` of SMT terms, simplified for zero or one part."""
    items = [p for p in parts if p != "true"]
    if "false" in items:
        return "false"
    if not items:
        return "true"
    return items[0] if len(items) == 1 else f"(and {' '.join(items)})"


def disj(parts: Iterable[str]) -> str:
    """`(or ...)` of SMT terms, simplified for zero or one part."""
    items = [p for p in parts if p != "false"]
    if "true" in items:
        return "true"
    if not items:
        return "false"
    return items[0] if len(items) == 1 else f"(or {' '.join(items)})"


def purified(a: str, b: str, q: str, r: str) -> str:
    """The definition of the names `q` of `a / b` and `r` of `a % b` in the solver's purified
    translation (`z3terms.definition`, X-A1): `b ≠ 0 ⇒ a = b·q + r`, with `0 ≤ r < b` for
    `b > 0` and `b < r ≤ 0` for `b < 0` (Python's floor division and modulo)."""
    return (f"(=> (not (= {b} 0)) (and (= {a} (+ (* {b} {q}) {r})) "
            f"(ite (> {b} 0) (and (<= 0 {r}) (< {r} {b})) (and (< {b} {r}) (<= {r} 0)))))")


def implies(a: str, b: str) -> str:
    """`(=> a b)`."""
    return b if a == "true" else f"(=> {a} {b})"


def equal(a: str, b: str) -> str:
    """`(= a b)`, `true` when the texts coincide."""
    return "true" if a == b else f"(= {a} {b})"


# --- schematic values -------------------------------------------------------------------------


class SchematicError(Exception):
    """A schematic value was branched on outside an obligation's generation."""


@dataclass(frozen=True, eq=False)
class SymInt:
    """An integer standing for an arbitrary one: a constant or an arithmetic term over them."""

    op: str
    args: tuple[object, ...]

    def smt(self) -> str:
        """Its SMT-LIB term."""
        if self.op == "const":
            return symbol(str(self.args[0]))
        if self.op == "num":
            return numeral(int(self.args[0]))  # type: ignore[call-overload]
        return f"({self.op} {' '.join(_smt(a) for a in self.args)})"

    def constants(self) -> Iterator[tuple[str, str]]:
        """The SMT constants it mentions."""
        if self.op == "const":
            yield str(self.args[0]), "Int"
        for a in self.args:
            if isinstance(a, (SymInt, SymBool)):
                yield from a.constants()

    def value(self, model: dict[str, int | bool]) -> int:
        """Its value under a prover's model (absent constants read 0)."""
        if self.op == "const":
            return int(model.get(str(self.args[0]), 0))
        if self.op == "num":
            return int(self.args[0])  # type: ignore[call-overload]
        vals = [a.value(model) if isinstance(a, SymInt) else int(a) for a in self.args]  # type: ignore[call-overload]
        return -vals[0] if len(vals) == 1 else vals[0] + vals[1] if self.op == "+" else vals[0] - vals[1]

    def __add__(self, other: object) -> SymInt:
        return SymInt("+", (self, _lift(other)))

    def __radd__(self, other: object) -> SymInt:
        return SymInt("+", (_lift(other), self))

    def __sub__(self, other: object) -> SymInt:
        return SymInt("-", (self, _lift(other)))

    def __rsub__(self, other: object) -> SymInt:
        return SymInt("-", (_lift(other), self))

    def __neg__(self) -> SymInt:
        return SymInt("-", (self,))

    def _cmp(self, op: str, other: object) -> SymBool | bool:
        if not isinstance(other, (int, SymInt)) or isinstance(other, bool):
            return NotImplemented
        a, b = self.smt(), _smt(_lift(other))
        if a == b and op in ("=", "<=", ">="):
            return True
        return SymBool(op, (self, _lift(other)))

    def __eq__(self, other: object) -> SymBool | bool:  # type: ignore[override]
        return self._cmp("=", other)

    def __ne__(self, other: object) -> SymBool | bool:  # type: ignore[override]
        result = self._cmp("=", other)
        return result if result is NotImplemented else _negate(result)

    def __lt__(self, other: object) -> SymBool | bool:
        return self._cmp("<", other)

    def __le__(self, other: object) -> SymBool | bool:
        return self._cmp("<=", other)

    def __gt__(self, other: object) -> SymBool | bool:
        return self._cmp(">", other)

    def __ge__(self, other: object) -> SymBool | bool:
        return self._cmp(">=", other)

    def __hash__(self) -> int:
        return hash(self.smt())

    def __bool__(self) -> bool:
        return bool(self != 0)

    def __repr__(self) -> str:
        return self.smt()


@dataclass(frozen=True, eq=False)
class SymBool:
    """A boolean standing for an arbitrary one; branching on it forks the generation."""

    op: str
    args: tuple[object, ...]

    def smt(self) -> str:
        """Its SMT-LIB term."""
        if self.op == "const":
            return symbol(str(self.args[0]))
        return f"({self.op} {' '.join(_smt(a) for a in self.args)})"

    def constants(self) -> Iterator[tuple[str, str]]:
        """The SMT constants it mentions."""
        if self.op == "const":
            yield str(self.args[0]), "Bool"
        for a in self.args:
            if isinstance(a, (SymInt, SymBool)):
                yield from a.constants()

    def value(self, model: dict[str, int | bool]) -> bool:
        """Its truth value under a prover's model (absent constants read false)."""
        if self.op == "const":
            return bool(model.get(str(self.args[0]), False))
        if self.op == "not":
            return not _value(self.args[0], model)
        a, b = (_value(x, model) for x in self.args)
        return {"=": a == b, "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[self.op]

    def __bool__(self) -> bool:
        if not _ACTIVE:
            raise SchematicError(f"branch on the schematic boolean {self.smt()}")
        return _ACTIVE[-1].decide(self)

    def __hash__(self) -> int:
        return hash(self.smt())

    def __repr__(self) -> str:
        return self.smt()


def _lift(v: object) -> SymInt:
    return v if isinstance(v, SymInt) else SymInt("num", (v,))


def _smt(v: object) -> str:
    if isinstance(v, (SymInt, SymBool)):
        return v.smt()
    if isinstance(v, bool):
        return "true" if v else "false"
    return numeral(int(v))  # type: ignore[call-overload]


def _value(v: object, model: dict[str, int | bool]) -> int | bool:
    return v.value(model) if isinstance(v, (SymInt, SymBool)) else v  # type: ignore[return-value]


def _negate(b: SymBool | bool) -> SymBool | bool:
    if isinstance(b, bool):
        return not b
    return b.args[0] if b.op == "not" else SymBool("not", (b,))  # type: ignore[return-value]


def sint(name: str) -> SymInt:
    """A schematic integer constant."""
    return SymInt("const", (name,))


def sbool(name: str) -> SymBool:
    """A schematic boolean constant."""
    return SymBool("const", (name,))


class _Path:
    """The branch decisions of one run of the generator: a prefix to replay, then `True`s."""

    def __init__(self, prefix: tuple[bool, ...]) -> None:
        self.prefix = prefix
        self.taken: list[bool] = []
        self.facts: list[str] = []
        self.memo: dict[str, bool] = {}
        self.constants: set[tuple[str, str]] = set()

    def decide(self, b: SymBool) -> bool:
        text = b.smt()
        if text in self.memo:
            return self.memo[text]
        i = len(self.taken)
        d = self.prefix[i] if i < len(self.prefix) else True
        self.taken.append(d)
        self.memo[text] = d
        self.memo[_smt(_negate(b))] = not d
        self.facts.append(text if d else _smt(_negate(b)))
        self.constants.update(b.constants())
        return d


_ACTIVE: list[_Path] = []


Branch = tuple[str, tuple[str, ...], frozenset[tuple[str, str]], object]


def paths(build: Callable[[], object]) -> list[Branch]:
    """Run `build` once per path through the branches it takes on schematic values.

    :return: per path: a name (a digest of its branch conditions), the conditions (SMT), the constants
        they mention, and `build`'s result.
    """
    out: list[Branch] = []
    todo: list[tuple[bool, ...]] = [()]
    while todo:
        prefix = todo.pop()
        path = _Path(prefix)
        _ACTIVE.append(path)
        try:
            result = build()
        finally:
            _ACTIVE.pop()
        for i in range(len(prefix), len(path.taken)):
            todo.append(tuple(path.taken[:i]) + (not path.taken[i],))
        # Named by its set of branch conditions, not by their order, which may follow the
        # iteration order of a frozenset of names (string hashing varies between processes).
        key = hashlib.sha1("\n".join(sorted(path.facts)).encode()).hexdigest()[:8]
        out.append((key if path.facts else "", tuple(path.facts), frozenset(path.constants),
                    result))
    return sorted(out, key=lambda r: r[0])
