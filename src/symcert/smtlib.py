# crosshair: off
"""Symbolic terms and path conditions as SMT-LIB 2 text, independent of any prover's API.

The proof obligations of `symcert.obligations` are written in this text, and both provers (z3 and
cvc5) read the same text, so neither prover's Python API shapes what is proved. A term's variable
`x` is the SMT constant `x` of sort Int: its value is `V0(x)`, the initial value of input `x`
(seed 000, W-D2.2: `⟦S(x)⟧_{V0}`). Integer and boolean literals may hold *schematic* values
(`Schematic`: an integer or boolean standing for an arbitrary one); they translate to their own
SMT text and declare their own constants.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterable, Protocol

from symcert.syntax import Add, AExpr, And, BExpr, Bool, Cmp, Int, Neg, Not, Or, Sub, Var

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
    """An SMT-LIB symbol for `name`: itself when it is a simple symbol, else `|name|`."""
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
        match e:
            case Int(v):
                return self.int_value(v)
            case Var(x):
                return self.declare(x, "Int")
            case Neg(a):
                return f"(- {self.aexpr(a)})"
            case Add(a, b):
                return f"(+ {self.aexpr(a)} {self.aexpr(b)})"
            case Sub(a, b):
                return f"(- {self.aexpr(a)} {self.aexpr(b)})"
        raise TypeError(f"not an arithmetic term: {e!r}")

    def bexpr(self, b: BExpr) -> str:
        """`⟦b⟧_{V0}`: a formula over the inputs."""
        match b:
            case Bool(v):
                return self.bool_value(v)
            case Cmp("!=", l, r):
                return f"(not (= {self.aexpr(l)} {self.aexpr(r)}))"
            case Cmp(op, l, r):
                return f"({CMP_SMT[op]} {self.aexpr(l)} {self.aexpr(r)})"
            case Not(a):
                return f"(not {self.bexpr(a)})"
            case And(l, r):
                return f"(and {self.bexpr(l)} {self.bexpr(r)})"
            case Or(l, r):
                return f"(or {self.bexpr(l)} {self.bexpr(r)})"
        raise TypeError(f"not a formula: {b!r}")

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


def implies(a: str, b: str) -> str:
    """`(=> a b)`."""
    return b if a == "true" else f"(=> {a} {b})"


def equal(a: str, b: str) -> str:
    """`(= a b)`, `true` when the texts coincide."""
    return "true" if a == b else f"(= {a} {b})"


# --- provers: each reads the script text itself ---------------------------------------------

VALID, INVALID, UNKNOWN = "valid", "invalid", "unknown"


@dataclass(frozen=True)
class Verdict:
    """A prover's answer on a script: VALID (UNSAT), INVALID (SAT, with a model) or UNKNOWN."""

    status: str
    seconds: float
    model: dict[str, int | bool] | None = None


def z3_version() -> str:
    """The z3 version (from the z3-solver wheel)."""
    import z3

    return z3.get_full_version()


def cvc5_version() -> str:
    """The cvc5 version (from the cvc5 wheel)."""
    import cvc5

    return str(cvc5.__version__)


def prove_z3(text: str, rlimit: int) -> Verdict:
    """Run z3 on the script text with a resource limit (`rlimit`, deterministic)."""
    import time

    import z3

    s = z3.Solver()
    s.set("random_seed", 0)
    s.set("rlimit", rlimit)
    start = time.perf_counter()
    s.from_string(text)
    answer = s.check()
    seconds = time.perf_counter() - start
    if answer == z3.unsat:
        return Verdict(VALID, seconds)
    if answer == z3.sat:
        m = s.model()
        values: dict[str, int | bool] = {}
        for d in m.decls():
            v = m.get_interp(d)
            if z3.is_int_value(v):
                values[d.name()] = v.as_long()
            elif z3.is_true(v) or z3.is_false(v):
                values[d.name()] = z3.is_true(v)
        return Verdict(INVALID, seconds, values)
    return Verdict(UNKNOWN, seconds)


def prove_cvc5(text: str, rlimit: int) -> Verdict:
    """Run cvc5 on the script text through its own SMT-LIB parser, with `rlimit-per`."""
    import time

    import cvc5

    tm = cvc5.TermManager()
    s = cvc5.Solver(tm)
    s.setOption("produce-models", "true")
    s.setOption("rlimit-per", str(rlimit))
    s.setOption("seed", "0")
    sm = cvc5.SymbolManager(tm)
    parser = cvc5.InputParser(s, sm)
    parser.setStringInput(cvc5.InputLanguage.SMT_LIB_2_6, text, "obligation")
    answer = ""
    start = time.perf_counter()
    while True:
        cmd = parser.nextCommand()
        if cmd.isNull():
            break
        answer = cmd.invoke(s, sm).strip() or answer
    seconds = time.perf_counter() - start
    if answer == "unsat":
        return Verdict(VALID, seconds)
    if answer == "sat":
        values: dict[str, int | bool] = {}
        for t in sm.getDeclaredTerms():
            v = s.getValue(t)
            name = t.getSymbol()
            if v.isIntegerValue():
                values[name] = int(v.getIntegerValue())
            elif v.isBooleanValue():
                values[name] = v.getBooleanValue()
        return Verdict(INVALID, seconds, values)
    return Verdict(UNKNOWN, seconds)
