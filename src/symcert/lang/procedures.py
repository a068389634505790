"""Procedures (seed 003 §3): declarations `P(ū) :: S`, their scope rules, the static checks of
a program's calls, and printing a program with its declarations.

A variable in a procedure is *local* when it is a parameter or declared with `var` anywhere in
the body (its scope is the whole body, as in Python); every other variable is global. A frame
holds all the locals of its procedure from the call on: the parameters bound to the arguments,
the `var`-declared ones to 0 until assigned. Every procedure has a value (falling off its end
returns 0), so any call may be used as a value.

The parser builds one table of procedures per program and every `Call` holds it (linking):
a call's procedure is `call.procs[call.name]`, which `check` guarantees is declared with as
many parameters as the call has arguments.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator

from symcert.lang.errors import SourceError, quote
from symcert.lang.syntax import Assign, Call, If, Pos, Return, Seq, Stmt, While, show_stmt


@dataclass(frozen=True, slots=True)
class Proc:
    """`proc name(params) begin body end`; `locals` are its parameters and `var` names."""

    name: str
    params: tuple[str, ...]
    body: Stmt
    locals: frozenset[str]
    pos: Pos | None = field(default=None, compare=False, repr=False)

    def __str__(self) -> str:
        return f"proc {self.name}({', '.join(self.params)}) begin\n{show_stmt(self.body, '  ')}\nend"


def statements(p: Stmt) -> Iterator[Stmt]:
    """Every simple statement of `p`, the branches and loop bodies included, in source order."""
    todo = [p]
    while todo:
        s = todo.pop()
        match s:
            case Seq(first, second):
                todo += (second, first)
            case If(_, s1, s2):
                yield s
                todo += (s2, s1)
            case While(_, body):
                yield s
                todo.append(body)
            case _:
                yield s


def declare(name: str, params: list[str], body: Stmt, pos: Pos) -> Proc:
    """The declaration of procedure `name`, with its locals; a repeated parameter is an error."""
    seen: set[str] = set()
    for p in params:
        if p in seen:
            raise SourceError(f"procedure {quote(name)} has the parameter {quote(p)} twice", pos)
        seen.add(p)
    declared = {s.name for s in statements(body) if isinstance(s, Assign) and s.local}
    declared |= {s.target for s in statements(body)
                 if isinstance(s, Call) and s.local and s.target is not None}
    return Proc(name, tuple(params), body, frozenset(params) | declared, pos)


def check(main: Stmt, procs: dict[str, Proc], calls: list[Call]) -> None:
    """The static rules: every call names a declared procedure with as many arguments as it has
    parameters, and `return` and `var` appear only in procedures (SourceError otherwise)."""
    for c in calls:
        proc = procs.get(c.name)
        where = c.pos or Pos(1, 1)
        if proc is None:
            known = ", ".join(procs) or "none"
            raise SourceError(f"unknown procedure {quote(c.name)} (procedures declared: "
                              f"{known}; macros are defined before use)", where)
        if len(c.args) != len(proc.params):
            raise SourceError(f"procedure {quote(c.name)} takes {len(proc.params)} argument(s), "
                              f"{len(c.args)} given", where)
    for s in statements(main):
        if isinstance(s, Return):
            raise SourceError("`return` outside a procedure", s.pos or Pos(1, 1))
        if isinstance(s, (Assign, Call)) and s.local:
            raise SourceError("`var` outside a procedure (the main statement's variables are "
                              "global)", s.pos or Pos(1, 1))


def table_of(p: Stmt) -> dict[str, Proc]:
    """The procedures of the program whose main statement is `p` (empty if it calls none)."""
    for s in statements(p):
        if isinstance(s, Call):
            return s.procs
    return {}


def show_program(p: Stmt) -> str:
    """The program as IMP source: the declarations of the procedures it calls, then `p`."""
    return "\n".join([str(q) for q in table_of(p).values()] + [show_stmt(p)])
