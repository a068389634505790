"""Procedures (seed 003 §3): declarations `P(ū) :: S`, their scope rules, the static checks of
a program's calls, and printing a program with its declarations.

A variable in a procedure is *local* when it is a parameter or declared with `var` anywhere in
the body (its scope is the whole body, as in Python); every other variable is global. A frame
holds all the locals of its procedure from the call on: the parameters bound to the arguments,
the `var`-declared ones to 0 until assigned. Every procedure has a value (falling off its end
returns 0), so any call may be used as a value.

The parser builds one table of procedures per program (`Procedures`) and every `Call` and
`Proc` holds it (linking): a call's procedure is `call.procs[call.name]`, which `check`
guarantees is declared with as many parameters as the call has arguments.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Iterator

from symcert.lang import annotations, objects
from symcert.lang.errors import KindError, NamingError, SourceError, plural, quote
from symcert.lang.structure import children, variables
from symcert.lang.syntax import (
    ArrayVar, Assign, Await, BExpr, Call, If, Invoke, New, Node, Pos, Proc, Procedures, Return, Seq, Spawn,
    Stmt, Var, While,
    array_write,
    show_stmt,
)


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
            case Await(_, body):  # threads: its atomic body
                yield s
                todo.append(body)
            case _:
                yield s


def declare(name: str, params: list[str], body: Stmt, pos: Pos | None,
            procs: Procedures, requires: BExpr | None = None,
            ensures: BExpr | None = None) -> Proc:
    """The declaration of procedure `name` in the table `procs`, with its locals and its
    contract; a repeated parameter is an error."""
    seen: set[str] = set()
    for p in params:
        if p in seen:
            raise SourceError(f"procedure {quote(name)} has the parameter {quote(p)} twice", pos)
        seen.add(p)
    declared = {s.name for s in statements(body) if isinstance(s, (Assign, New)) and s.local}
    declared |= {s.target for s in statements(body)
                 if isinstance(s, (Call, Invoke)) and s.local and s.target is not None}
    return Proc(name, tuple(params), body, frozenset(params) | declared, pos, procs, requires,
                ensures)


def check(main: Stmt, procs: Procedures, calls: list[Call]) -> None:
    """The static rules: every call names a declared procedure with as many arguments as it has
    parameters, and `return` and `var` appear only in procedures (SourceError otherwise).
    Records the program's global variables in `procs`."""
    for c in calls:
        proc = procs.get(c.name)
        where = c.pos or Pos(1, 1)
        if proc is None:
            known = ", ".join(procs) or "none"
            raise SourceError(f"unknown procedure {quote(c.name)} (procedures declared: "
                              f"{known}; macros are defined before use)", where, NamingError)
        if len(c.args) != len(proc.params):
            raise SourceError(f"procedure {quote(c.name)} takes "
                              f"{plural(len(proc.params), 'argument')}, {len(c.args)} given",
                              where, KindError)
    for s in statements(main):
        if isinstance(s, Return):
            raise SourceError("`return` outside a procedure", s.pos or Pos(1, 1))
        if isinstance(s, (Assign, Call, New)) and s.local:
            raise SourceError("`var` outside a procedure (the main statement's variables are "
                              "global)", s.pos or Pos(1, 1))
    annotations.check(main, procs)
    check_kinds(main, procs)
    procs.checked = (main, objects.references(main, procs))
    procs.globals = variables(main).union(*(variables(q.body) - q.locals for q in procs.values()))


def check_kinds(main: Stmt, procs: Procedures) -> None:
    """Each name is an integer or an array (seed 003 §5), program-wide: a name subscripted
    anywhere is an array, and using it as an integer (read, assigned, passed, a parameter or a
    local) is an error at the later of the two uses (SourceError)."""
    first: dict[str, tuple[bool, Pos]] = {}  # a name's first use: (as an array?, where)
    uses = [(q.pos or Pos(1, 1), False, x) for q in procs.values() for x in q.params]
    for root in [main, *(q.body for q in procs.values())]:
        uses += _uses(root)
    for where, is_array, x in sorted(uses, key=lambda u: (u[0].line, u[0].column)):
        seen = first.setdefault(x, (is_array, where))
        if seen[0] != is_array:
            kinds = ("an integer", "an array") if is_array else ("an array", "an integer")
            raise SourceError(f"{quote(x)} is {kinds[0]} (at {seen[1].line}:{seen[1].column}) "
                              f"but is used here as {kinds[1]}; a name is one or the other, "
                              "and arrays are global, never parameters or locals", where, KindError)


def arrays(main: Stmt) -> frozenset[str]:
    """The array variables of the program whose main statement is `main` (its procedures'
    included)."""
    roots = [main, *(q.body for q in table_of(main).values())]
    return frozenset(x for root in roots for _, is_array, x in _uses(root) if is_array)


def references(main: Stmt) -> frozenset[str]:
    """The variables and fields' maps of the program whose main statement is `main` that hold
    references (seed 003 §4, `objects.references`)."""
    table = table_of(main)
    if table.checked is not None and table.checked[0] is main:
        return table.checked[1]
    return objects.references(main, table)


def _uses(root: Stmt) -> list[tuple[Pos, bool, str]]:
    """Every use of a name in `root`: where, whether as an array, the name."""
    out: list[tuple[Pos, bool, str]] = []
    todo: list[Node] = [root]
    while todo:
        node = todo.pop()
        where = node.pos or Pos(1, 1)
        if isinstance(node, (Var, ArrayVar)):
            out.append((where, isinstance(node, ArrayVar), node.name))
        elif isinstance(node, Assign) and array_write(node) is None:
            out.append((where, False, node.name))
        elif isinstance(node, Call) and node.target is not None:
            out.append((where, False, node.target))
        todo.extend(children(node))
    return out


def link(main: Stmt, procs: Procedures) -> Stmt:
    """Check a program built in code (the generator's, tests'): its calls, in the main statement
    and the bodies, must all hold `procs`; `check`'s rules apply. Returns `main`."""
    calls = [s for q in [main, *(d.body for d in procs.values())] for s in statements(q)
             if isinstance(s, Call)]
    assert all(c.procs is procs for c in calls), "a call holds another program's table"
    check(main, procs, calls)
    return main


def called(p: Stmt) -> list[Proc]:
    """The procedures the main statement `p` may call, transitively, in the table's order."""
    table = table_of(p)
    seen: set[str] = set()
    todo = [p]
    while todo:
        for s in statements(todo.pop()):
            if isinstance(s, Call) and s.name not in seen:
                seen.add(s.name)
                todo.append(table[s.name].body)
    return [q for q in table.values() if q.name in seen]


def allocates(p: Stmt) -> bool:
    """Whether the program whose main statement is `p` has an `x = new C` (seed 003 §4)."""
    return any(isinstance(s, New) for root in [p, *(q.body for q in table_of(p).values())]
               for s in statements(root))


def classes_of(p: Stmt) -> int:
    """The number of classes an input object's class ranges over: the program's classes when
    its objects carry their class (methods.py), else 0."""
    table = table_of(p)
    return len(table.classes) if table.tagged else 0


def table_of(p: Stmt) -> Procedures:
    """The procedures and classes of the program whose main statement is `p`: held by a parsed
    program's sequences, by its calls, else by its `new`s, else by its fields' maps (a program
    built in code may hold its classes in a table of their own); empty if none holds one.
    One walk, which a parsed sequence, or the continuation of one (the engine's `Seq(p', q)`
    holds `q`), ends at once."""
    todo: list[Node] = [p]
    found: dict[type, Procedures] = {}
    while todo:
        node = todo.pop()
        if isinstance(node, (Call, Spawn)):
            return node.procs
        if isinstance(node, (Seq, New, ArrayVar)) and isinstance(node.decl, Procedures):
            if isinstance(node, Seq):
                return node.decl
            found.setdefault(type(node), node.decl)
        if isinstance(node, Seq):
            todo += (node.first, node.second)  # the continuation first
        else:
            todo.extend(reversed(children(node)))
    return found.get(New, found.get(ArrayVar, Procedures()))


def show_program(p: Stmt) -> str:
    """The program as IMP source: its classes, the declarations of the procedures it calls,
    then `p`."""
    table = table_of(p)
    classes = []
    bare = any("." in name for name in table)  # methods tag the program by themselves
    for name, fields in table.classes:
        methods = [q for q in table.values() if q.name.startswith(name + ".")]
        block = "".join(
            "\n" + _indent(str(replace(q, name=q.name[len(name) + 1:], params=q.params[1:])))
            for q in methods)
        classes.append(f"class {name}({', '.join(fields)})"
                       + (f" begin{block}\nend" if methods or table.tagged and not bare else ""))
    procs = [str(q) for q in table.values() if "." not in q.name]
    return "\n".join(classes + procs + [show_stmt(p)])


def _indent(text: str) -> str:
    return "\n".join("  " + line for line in text.split("\n"))
