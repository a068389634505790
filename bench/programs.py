"""The benchmark programs, written in the subset of IMP that both symcert and PyWiSE parse.

PyWiSE (wise-se 0.0.7) reads `a - 1` only with spaces (its `NUM` token takes a leading `-`),
parses `a - b + c` as `a - (b + c)`, and has no `!=` and no unary minus. `to_common` prints a
symcert AST in that subset: every binary arithmetic operation parenthesized, `a != b` as
`not (a == b)`, `-a` as `(0 - a)`. Both tools then run the very same file.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from symcert.lang.parser import parse
from symcert.lang.structure import children
from symcert.lang.syntax import (
    Add,
    And,
    Assert,
    Assign,
    Assume,
    Bool,
    Call,
    Cmp,
    Div,
    Fail,
    If,
    Int,
    Mod,
    Mul,
    Neg,
    New,
    Nil,
    Not,
    Or,
    Select,
    Seq,
    Skip,
    Sub,
    Update,
    Var,
    While,
)

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Program:
    """A benchmark program: its name, what it is for, its common-subset source and the verdict
    both tools must reach ("bug" or "safe")."""

    name: str
    kind: str
    source: str
    expect: str


def _a(e: object) -> str:
    match e:
        case Int(v):
            return str(v) if v >= 0 else f"(0 - {-v})"
        case Var(x):
            return x
        case Neg(a):
            return f"(0 - {_a(a)})"
        case Add(l, r):
            return f"({_a(l)} + {_a(r)})"
        case Sub(l, r):
            return f"({_a(l)} - {_a(r)})"
    raise TypeError(f"not an arithmetic expression: {e!r}")


def _b(b: object) -> str:
    match b:
        case Bool(v):
            return "true" if v else "false"
        case Cmp("!=", l, r):
            return f"not ({_a(l)} == {_a(r)})"
        case Cmp(op, l, r):
            return f"{_a(l)} {op} {_a(r)}"
        case Not(a):
            return f"not ({_b(a)})"
        case And(l, r):
            return f"({_b(l)}) and ({_b(r)})"
        case Or(l, r):
            return f"({_b(l)}) or ({_b(r)})"
    raise TypeError(f"not a boolean expression: {b!r}")


def _s(s: object) -> str:
    match s:
        case Skip():
            return "skip"
        case Fail():
            return "fail"
        case Assign(x, e):
            return f"{x} = {_a(e)}"
        case Assert(c):
            return f"assert {_b(c)}"
        case Seq(p, q):
            return f"{_s(p)};\n{_s(q)}"
        case If(c, p, q):
            return f"if {_b(c)} then\n{_s(p)}\nelse\n{_s(q)}\nfi"
        case While(c, p):
            return f"while {_b(c)} do\n{_s(p)}\nod"
    raise TypeError(f"not a statement: {s!r}")


def _in_common(source: str) -> bool:
    """Whether `source` stays in the common subset: PyWiSE's IMP has no `*`, `/` or `%`, no
    procedures, `assume`, arrays or objects, so the case studies written with them (gcd_mod,
    divmod, power, mean; fact_rec, fib_rec, ackermann, divsub_rec, even_odd; swap, array_max,
    binsearch; list_insert, list_reverse, alias_nil) are symcert's alone (bench/crosshair_peer.py
    and bench/heap_peer.py run them against CrossHair)."""
    todo: list[object] = [parse(source)]
    while todo:
        node = todo.pop()
        if isinstance(node, (Mul, Div, Mod, Call, Assume, Select, Update, New, Nil)):
            return False
        todo.extend(children(node))  # type: ignore[arg-type]
    return True


def to_common(source: str) -> str:
    """`source` (symcert IMP) reprinted in the subset PyWiSE parses, with the same meaning."""
    return _s(parse(source)) + "\n"


def ifs(n: int) -> str:
    """`n` sequential, independent ifs: 2^n feasible paths, no loop."""
    return "c = 0;\n" + ";\n".join(f"if x{k} > {k} then c = c + 1 else skip fi"
                                     for k in range(n)) + f";\nassert c <= {n}"


def counting(n: int) -> str:
    """A loop counting up to the input, bounded by `n` iterations; safe."""
    return (f"i = 0; s = 0;\nwhile i < m and i < {n} do i = i + 1; s = s + 2 od;\n"
            f"assert s == i + i")


def bug_after(n: int) -> str:
    """A bug reached only by the path that runs the loop exactly `n` times."""
    return f"i = 0;\nwhile i < m do i = i + 1 od;\nassert i != {n}"


TIGHT = """\
if x + x + x - y == 1000004 then
  if y + y - x == 7 then
    if x > 0 then fail else skip fi
  else skip fi
else skip fi"""
"""A bug behind a tight linear system: x = 400003, y = 200005 is its only solution."""

NESTED = """\
i = 0; c = 0;
while i < a and i < 8 do
  j = 0;
  while j < b and j < 8 do j = j + 1; c = c + 1 od;
  i = i + 1
od;
assert c <= 64"""
"""Nested input-bounded loops (safe): the inner bound is the same on every outer iteration."""

DOUBLING = """\
n = 0;
while n < 60 do x = x + x; n = n + 1 od;
assert x != 0 - 1152921504606846976"""
"""A bug behind 60 doublings (x = -1): `x = x + x` makes a term whose tree has 2^60 leaves,
so a tool that walks terms as trees never reaches the assert."""

MILLION = """\
i = 0; c = 0;
while i < n do
""" + ";\n".join(f"  if x{k} > i then c = c + 1 else c = c - 1 fi" for k in range(12)) + """;
  i = i + 1
od"""
"""The million-state run: a loop around a dozen branches, never exhausted."""


def programs(quick: bool = False) -> list[Program]:
    """The benchmark suite (`quick`: the small cases only)."""
    out = [Program(f"case:{p.stem}", "case study", to_common(p.read_text()),
                   "bug" if p.stem.endswith("_buggy") else "safe")
           for p in sorted((ROOT / "examples").glob("*.imp")) if _in_common(p.read_text())]
    out.append(Program("ifs12", "4,096 paths, loop-free", to_common(ifs(12)), "safe"))
    for n in (100,) if quick else (100, 1000, 10000):
        out.append(Program(f"count{n}", f"counting loop, {n:,} iterations",
                           to_common(counting(n)), "safe"))
    for n in (100,) if quick else (100, 1000):
        out.append(Program(f"bug{n}", f"bug after exactly {n:,} iterations",
                           to_common(bug_after(n)), "bug"))
    out.append(Program("tight", "bug behind a tight linear constraint", to_common(TIGHT), "bug"))
    out.append(Program("nested", "nested loops, 8 x 8", to_common(NESTED), "safe"))
    out.append(Program("double60", "bug behind 60 doublings of x", to_common(DOUBLING), "bug"))
    return out
