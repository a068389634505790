"""The syntax of threads (seed 003 §5): the parser's callbacks for `spawn`, `get` and `await`,
and their static rules.

- `spawn p(e1, ..., en)` and `f = spawn p(e1, ..., en)`: `p` is a declared procedure taking `n`
  arguments.
- A future is a name that some `f = spawn ...` assigns. It is global, never a parameter nor a
  local, and is used only as a spawn's target and as the operand of `get`: any other use (read
  in an expression, assigned otherwise, a get's target) is an error, and so is `get x` of a name
  no spawn assigns ("a get of a non-future" where it can be told statically). A future that
  holds no thread yet is 0: a `get` of it is a bug at run time.
- The body of `await b then S end` has no `await`, `spawn`, `get`, call, `return`, loop nor
  `assume`: it runs in one atomic step, which it cannot block.

Errors are SourceErrors at the offending statement (exit 65, with a caret).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, Iterator

from symcert.lang import procedures
from symcert.lang.errors import SourceError, quote
from symcert.lang.lalr import Token
from symcert.lang.structure import children
from symcert.lang.syntax import (
    Procedures,
    Assign, Assume, Await, Call, Get, New, Node, Pos, Return, Spawn, Stmt, Var, While,
)


def _tpos(tok: Token) -> Pos:
    return Pos(tok.line or 0, tok.column or 0)


class ThreadRules:
    """The parser's callbacks for the thread statements (a base of parser.py's builder, which
    provides `procs` and `_grow`)."""

    if TYPE_CHECKING:
        procs: Procedures
        calls: list[Call]

        def _grow(self, nodes: int, where: Pos | None) -> None: ...

    def check_program(self, main: Stmt) -> None:
        """The static rules of procedures (procedures.check), then those of threads."""
        procedures.check(main, self.procs, self.calls)
        check(main, self.procs)

    def spawn(self, c: list[Any]) -> Stmt:
        return self._spawn(c[1], c[2:], None, _tpos(c[0]))

    def spawn_assign(self, c: list[Any]) -> Stmt:
        return self._spawn(c[2], c[3:], sys.intern(str(c[0])), _tpos(c[0]))

    def _spawn(self, name: Token, args: list[Any], target: str | None,
               where: Pos | None = None) -> Stmt:
        where = where or _tpos(name)
        self._grow(1, where)
        return Spawn(str(name), tuple(a for a in args if a is not None), target, where,
                     self.procs)

    def get(self, c: list[Any]) -> Stmt:
        self._grow(1, _tpos(c[0]))
        return Get(sys.intern(str(c[0])), sys.intern(str(c[2])), _tpos(c[0]))

    def await_(self, c: list[Any]) -> Stmt:
        self._grow(1, _tpos(c[0]))
        return Await(c[1], pos=_tpos(c[0]))

    def await_then(self, c: list[Any]) -> Stmt:
        self._grow(1, _tpos(c[0]))
        return Await(c[1], c[2], _tpos(c[0]))


def check(main: Stmt, procs: Procedures) -> None:
    """The static rules of threads (module docstring) over the program `main` with `procs`."""
    roots = [main, *(q.body for q in procs.values())]
    spawns = [s for root in roots for s in procedures.statements(root) if isinstance(s, Spawn)]
    for s in spawns:
        proc = procs.get(s.name)
        if proc is None:
            raise SourceError(f"unknown procedure {quote(s.name)} (procedures declared: "
                              f"{', '.join(procs) or 'none'})", s.pos or Pos(1, 1))
        if len(s.args) != len(proc.params):
            raise SourceError(f"procedure {quote(s.name)} takes {len(proc.params)} "
                              f"argument(s), {len(s.args)} given", s.pos or Pos(1, 1))
    futures = {s.target for s in spawns if s.target is not None}
    for q in procs.values():
        for x in sorted(q.locals & futures):
            raise SourceError(f"{quote(x)} is a future (a spawn assigns it), so it is global: "
                              f"it may not be a parameter or a local of {quote(q.name)}",
                              q.pos or Pos(1, 1))
    for root in roots:
        for s in procedures.statements(root):
            if isinstance(s, Await):
                _atomic(s.body)
        for where, x, ok in _future_uses(root):
            if x in futures and not ok:
                raise SourceError(f"{quote(x)} is a future: it is assigned only by `spawn` and "
                                  "read only by `get`", where)
            if ok == "get" and x not in futures:
                raise SourceError(f"`get` of a non-future: no `spawn` assigns {quote(x)}",
                                  where)


def _atomic(body: Stmt) -> None:
    """An `await`'s body runs in one step: no `await`, `spawn`, `get`, call, `return`, loop or
    `assume`."""
    for s in procedures.statements(body):
        if isinstance(s, (Await, Spawn, Get, Call, Return, While, Assume)):
            what = {Await: "`await`", Spawn: "`spawn`", Get: "`get`", Call: "a call",
                    Return: "`return`", While: "a loop", Assume: "`assume`"}[type(s)]
            raise SourceError(f"{what} inside `await ... then ... end`: its body runs in one "
                              "atomic step (no await, spawn, get, call, return, loop or "
                              "assume)",
                              s.pos or Pos(1, 1))


def _future_uses(root: Stmt) -> Iterator[tuple[Pos, str, str]]:
    """Each use of a name that may concern futures: where, the name, and how (`spawn` for a
    spawn's target, `get` for a get's operand, "" for any other use)."""
    todo: list[Node] = [root]
    while todo:
        node = todo.pop()
        where = node.pos or Pos(1, 1)
        match node:
            case Spawn(target=str(x)):
                yield where, x, "spawn"
            case Get(x, f):
                yield where, x, ""
                yield where, f, "get"
            case Var(x) | Assign(x) | New(x):
                yield where, x, ""
            case Call(target=str(x)):
                yield where, x, ""
        todo.extend(children(node))
