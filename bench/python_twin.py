"""An IMP program written as the same Python function, for CrossHair.

    python bench/python_twin.py FILE.imp NAME      # prints the function

`crosshair check --analysis_kind=asserts` analyses a function whose body starts with `assert`
statements, which it takes as preconditions: the program's leading `assume`s become those
(`assert True` when it has none), its inputs the function's integer parameters (every variable
of the program, as IMP's initial store is symbolic), `fail` an `assert False`, `assert` an
`assert`, `/` Python's `//` and `%` its `%` (IMP's are Python's, X-A1). Expressions are printed
by the expression fold with a Python-text algebra; procedures are not written (the bench's
programs have none).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Callable

from symcert.core.algebra import fold_a, fold_b
from symcert.lang.parser import parse
from symcert.lang.structure import children
from symcert.lang.syntax import (
    AExpr, Assert, Assign, Assume, BExpr, Fail, If, Seq, Skip, Stmt, Var, While,
)


class PythonText:
    """The expression fold's algebra of Python source text (fully parenthesised)."""

    def integer(self, ctx: None, value: int) -> str:
        return str(value) if value >= 0 else f"({value})"

    def var(self, ctx: None, name: str) -> str:
        return name

    def neg(self, a: str) -> str:
        return f"(-{a})"

    def add(self, a: str, b: str) -> str:
        return f"({a} + {b})"

    def sub(self, a: str, b: str) -> str:
        return f"({a} - {b})"

    def mul(self, a: str, b: str) -> str:
        return f"({a} * {b})"

    def div(self, a: str, b: str) -> str:
        return f"({a} // {b})"

    def mod(self, a: str, b: str) -> str:
        return f"({a} % {b})"

    def cmp(self, op: str, a: str, b: str) -> str:
        return f"({a} {op} {b})"

    def boolean(self, ctx: None, value: bool) -> str:
        return "True" if value else "False"

    def not_(self, a: str) -> str:
        return f"(not {a})"

    def and_(self, a: str, b: Callable[[], str]) -> str:
        return f"({a} and {b()})"

    def or_(self, a: str, b: Callable[[], str]) -> str:
        return f"({a} or {b()})"


PYTHON_TEXT = PythonText()


def _b(c: BExpr) -> str:
    return fold_b(PYTHON_TEXT, None, c)


def _statements(s: Stmt) -> list[Stmt]:
    """The statements of a sequence, in order (iteratively: sequences can be long)."""
    out: list[Stmt] = []
    todo = [s]
    while todo:
        node = todo.pop()
        if isinstance(node, Seq):
            todo.extend((node.second, node.first))
        else:
            out.append(node)
    return out


def _lines(s: Stmt, indent: str) -> list[str]:
    out: list[str] = []
    for node in _statements(s):
        match node:
            case Skip():
                out.append(f"{indent}pass")
            case Fail():
                out.append(f"{indent}assert False")
            case Assign(x, e):
                out.append(f"{indent}{x} = {fold_a(PYTHON_TEXT, None, e)}")
            case Assert(c) | Assume(c):
                out.append(f"{indent}assert {_b(c)}")
            case If(c, p, q):
                out += [f"{indent}if {_b(c)}:", *_lines(p, indent + "    "),
                        f"{indent}else:", *_lines(q, indent + "    ")]
            case While(c, p):
                out += [f"{indent}while {_b(c)}:", *_lines(p, indent + "    ")]
            case _:
                raise ValueError(f"no Python twin for {type(node).__name__}")
    return out


def variables(s: Stmt | AExpr | BExpr) -> list[str]:
    """Every variable name of the program, sorted."""
    names: set[str] = set()
    todo: list[object] = [s]
    while todo:
        node = todo.pop()
        if isinstance(node, Var):
            names.add(node.name)
        elif isinstance(node, Assign):
            names.add(node.name)
        todo.extend(children(node))  # type: ignore[arg-type]
    return sorted(names)


def to_python(source: str, name: str) -> str:
    """`source` (IMP) as the Python function `name` for `crosshair check
    --analysis_kind=asserts`."""
    program = parse(source)
    body = _statements(program)
    head = []
    while body and isinstance(body[0], Assume):
        head.append(body.pop(0))
    params = ", ".join(f"{x}: int" for x in variables(program))
    lines = [f"def {name}({params}) -> None:"]
    lines += [f"    assert {_b(a.cond)}" for a in head] or ["    assert True"]
    for node in body:
        lines += _lines(node, "    ")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(to_python(Path(sys.argv[1]).read_text(), sys.argv[2]), end="")
