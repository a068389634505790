# crosshair: off
# (lark makes its input concrete, so CrossHair has nothing to search: Hypothesis round trips test it)
"""IMP source text to AST (seed 000, Fig. 1), with errors that point at the spot.

The LALR parser applies its callbacks while it reduces, so no parse tree is built and no
recursion happens in the parser itself, however deep the input nests. Nesting deeper than
`MAX_DEPTH` is rejected with a ParseError, since every later pass recurses over expressions.
The parser is `lalr.py`, lark's stand-alone one, generated from grammar.lark by
`tools/make_parser.py` (a test keeps the two in step): start-up imports no lark, analyses no
grammar and needs no cache (docs/bench.md, "Start-up").

Budgets keep a hostile input from exhausting the machine; going over one is a LimitError
(a ParseError, exit 65) that names the limit and, for the first two, the option that raises it:
- `max_input_bytes` (default `MAX_INPUT_BYTES`): the size of the source in bytes;
- `max_program_size` (default `MAX_PROGRAM_SIZE`): the syntax nodes the parser holds at once,
  that is the program and its macro bodies after expansion (and a call's arguments until the
  call replaces them), counted as trees as they are built and before an expansion is made, so
  a macro that doubles its body 25 times stops at the limit, not after 2^25 statements;
- `MAX_DIGITS`: the digits of an integer literal (CPython converts them in quadratic time).
"""

from __future__ import annotations

import functools
import os
import sys
from typing import Any

from symcert.lang import annotations, macros, procedures, quantifiers
from symcert.lang.errors import (
    MAX_INPUT_BYTES, MAX_PROGRAM_SIZE, KindError, LimitError, NamingError as Naming, ParseError,
    SourceError, error_at, plural, quote, too_large,
)
from symcert.lang.lalr import Lark, Lark_StandAlone, Token, Transformer, UnexpectedInput
from symcert.lang.parse_errors import translate
from symcert.lang.syntax import (
    AExpr, Add, And, ArrayVar, Assert, Assign, Assume, BExpr, Bool, Call, Cmp, Div, Fail, If,
    Int, Mod, Mul, Neg, New, Nil, Not, Or, Pos, Procedures, Quant, Return, Select, Seq, Skip,
    Stmt, Sub, Update, Var, While,
    field_map, seq_of, spine,
)
from symcert.lang.structure import levels
from symcert.lang.methods import MethodRules
from symcert.lang.threads import ThreadRules
from symcert.spec.printing import parse_round_trip
from symcert.spec.switch import CONTRACTS, icontract

MAX_DEPTH = 10_000
MAX_DIGITS = 100_000

sys.set_int_max_str_digits(max(MAX_DIGITS, sys.get_int_max_str_digits()))
sys.setrecursionlimit(max(sys.getrecursionlimit(), 8 * MAX_DEPTH))

_TOO_DEEP = (f"the program nests deeper than {MAX_DEPTH} levels here: each operator, `not`, "
             "unary `-` and `if` or `while` adds a level, so a chain such as `a and b and c` "
             "of n operators nests n levels")


def _at(children: list[Any]) -> Pos | None:
    """The position of the first child: a keyword token or a node."""
    first = children[0]
    return _tpos(first) if isinstance(first, Token) else first.pos


def _tpos(tok: Token) -> Pos:
    return Pos(tok.line or 0, tok.column or 0)


class _Build(ThreadRules, MethodRules, Transformer[Token, Stmt]):
    """Builds AST nodes during the LALR reductions; remembers which literals were parenthesized
    and counts the nodes built against the program-size budget."""

    def __init__(self) -> None:
        super().__init__()
        self.parenthesized: set[int] = set()
        self.macros: dict[str, macros.Macro] = {}
        self.procs = Procedures()
        self.calls: list[Call] = []
        self.size = 0
        self.max_size = 0

    def reset(self, max_size: int = 0) -> None:
        """Forget the last parse; the next one may build `max_size` nodes and gets a new table
        of procedures (the last program's calls keep theirs)."""
        self.parenthesized.clear()
        self.macros.clear()
        self.procs, self.calls = Procedures(), []
        self.size, self.max_size = 0, max_size
        self.tagged = False

    def _grow(self, nodes: int, where: Pos | None) -> None:
        """Count `nodes` more nodes (fewer when negative), or stop at the budget."""
        self.size += nodes
        if self.size > self.max_size:
            raise SourceError(f"the program grows beyond the limit of {self.max_size:,} syntax "
                               "nodes here (macro expansions included); raise it with "
                               "--max-program-size N", where or Pos(1, 1), LimitError)

    def start(self, c: list[Any]) -> Stmt:
        main = self.lower(c[-1])
        self.check_program(main)
        quantifiers.check(main, self.procs)
        return main

    def macro(self, c: list[Any]) -> None:
        name, params, body = c[1], [str(t) for t in c[2:-1] if t is not None], c[-1]
        self._fresh(name)
        self.macros[str(name)] = macros.define(str(name), params, body, _tpos(name), MAX_DEPTH,
                                               _TOO_DEEP)

    def proc(self, c: list[Any]) -> None:
        name, body, contract = c[1], c[-1], annotations.contract(c)
        params = [str(t) for t in c[2:] if isinstance(t, Token) and t.type == "NAME"]
        self._fresh(name)
        self.procs[str(name)] = procedures.declare(str(name), params, body, _tpos(name),
                                                   self.procs, **contract)

    def new(self, c: list[Any]) -> Stmt:
        self._grow(1, _at(c))
        return New(sys.intern(str(c[0])), str(c[2]), self._fields(c[2]), _at(c), self.procs)

    def field_new(self, c: list[Any]) -> Stmt:
        """`x.f = new C` (seed 003 §4): `New` of the map of `f`, written at `x`."""
        target: Select = self._path_expr(c[0])  # type: ignore[assignment]
        self._grow(1, target.pos)
        field = target.array.name  # type: ignore[union-attr]
        return New(field, str(c[2]), self._fields(c[2]), target.pos, self.procs, at=target.index)

    def _fields(self, cls: Token) -> tuple[str, ...]:
        """The maps of the fields of class `cls`, declared before."""
        fields = dict(self.procs.classes).get(str(cls))
        if fields is None:
            known = ", ".join(name for name, _ in self.procs.classes) or "none"
            raise SourceError(f"unknown class {quote(cls)} (classes declared: {known}; a class "
                              "is declared before it is used)", _tpos(cls), Naming)
        return tuple(map(field_map, fields))

    def local_new(self, c: list[Any]) -> Stmt:
        made = self.new(c[1:])
        assert isinstance(made, New)
        return New(made.name, made.cls, made.fields, _at(c), self.procs, local=True)

    def path(self, c: list[Token]) -> list[Token]:
        """`x.f.g`, as its names: a read of a field, a field written, or a method's receiver
        and name (methods.py)."""
        return c

    def path_read(self, c: list[Any]) -> AExpr:
        return self._path_expr(c[0])

    def _path_expr(self, c: list[Token]) -> AExpr:
        """`x.f.g`: reads of the fields' maps (seed 003 §4), each field declared in a class."""
        self._grow(2 * len(c) - 1, _tpos(c[0]))
        declared = {f for _, fields in self.procs.classes for f in fields}
        result: AExpr = Var(sys.intern(str(c[0])), _tpos(c[0]))
        for tok in c[1:]:
            if str(tok) not in declared:
                raise SourceError(f"unknown field {quote(tok)} (fields declared: "
                                  f"{', '.join(sorted(declared)) or 'none'}; a class is "
                                  "declared before it is used)", _tpos(tok), Naming)
            where = _tpos(tok)
            result = Select(ArrayVar(sys.intern(field_map(str(tok))), where, self.procs),
                            result, result.pos)
        return result

    def field_assign(self, c: list[Any]) -> Stmt:
        """`x.f = e`: the assignment of the map of `f` updated at `x` (seed 003 §4)."""
        target: Select = self._path_expr(c[0])  # type: ignore[assignment]
        self._grow(1, target.pos)
        name = target.array.name  # type: ignore[union-attr]
        return Assign(name, Update(target.array, target.index, c[1], target.pos), target.pos)

    def nil(self, c: list[Token]) -> AExpr:
        self._grow(1, _tpos(c[0]))
        return Nil(_tpos(c[0]))

    def _fresh(self, name: Token) -> None:
        """A macro or procedure may be declared once."""
        for kind, table in (("macro", self.macros), ("procedure", self.procs)):
            if name in table:
                raise SourceError(f"{kind} {quote(name)} is already defined", _tpos(name), Naming)

    def call(self, c: list[Any]) -> Stmt:
        name, args = str(c[0]), [a for a in c[1:] if a is not None]
        where = _tpos(c[0])
        macro = self.macros.get(name)
        if macro is None:
            return self._call(name, args, None, where, False)
        if len(args) != len(macro.params):
            raise SourceError(f"macro {quote(name)} takes {plural(len(macro.params), 'argument')}, "
                              f"{len(args)} given", where, KindError)
        self._grow(macros.growth(macro, args), where)
        return macros.expand(macro, args, name, where)

    def call_assign(self, c: list[Any]) -> Stmt:
        return self._call(str(c[1]), c[2:], sys.intern(str(c[0])), _tpos(c[0]), False)

    def local_call(self, c: list[Any]) -> Stmt:
        return self._call(str(c[2]), c[3:], sys.intern(str(c[1])), _tpos(c[0]), True)

    def _call(self, name: str, args: list[Any], target: str | None, where: Pos,
              local: bool) -> Stmt:
        """A call of procedure `name`, checked against the declarations at the end (`start`)."""
        if name in self.macros:
            raise SourceError(f"{quote(name)} is a macro, which has no value", where, KindError)
        self._grow(1, where)
        call = Call(name, tuple(a for a in args if a is not None), target, where, local,
                    self.procs)
        self.calls.append(call)
        return call

    def local(self, c: list[Any]) -> Stmt:
        self._grow(1, _at(c))
        return Assign(sys.intern(str(c[1])), c[2], _at(c), local=True)

    def return_(self, c: list[Any]) -> Stmt:
        self._grow(1, _at(c))
        return Return(c[1], _at(c))

    def seq(self, c: list[Stmt]) -> Stmt:
        self._grow(len(c) - 1, c[0].pos)
        return seq_of([s for child in c for s in spine(child)],  # a macro call may be a Seq
                      self.procs)

    def skip(self, c: list[Any]) -> Stmt:
        self._grow(1, _at(c))
        return Skip(_at(c))

    def fail(self, c: list[Any]) -> Stmt:
        self._grow(1, _at(c))
        return Fail(_at(c))

    def assert_(self, c: list[Any]) -> Stmt:
        self._grow(1, _at(c))
        return Assert(c[1], _at(c))

    def assume(self, c: list[Any]) -> Stmt:
        self._grow(1, _at(c))
        return Assume(c[1], _at(c))

    def assign(self, c: list[Any]) -> Stmt:
        self._grow(1, _at(c))
        return Assign(sys.intern(str(c[0])), c[1], _at(c))

    def array_assign(self, c: list[Any]) -> Stmt:
        self._grow(3, _at(c))  # the assignment, its update and the array
        name, where = sys.intern(str(c[0])), _at(c)
        return Assign(name, Update(ArrayVar(name, where), c[1], c[2], where), where)

    def if_(self, c: list[Any]) -> Stmt:
        self._grow(1, _at(c))
        return If(c[1], c[2], c[3], _at(c))

    def while_(self, c: list[Any]) -> Stmt:
        self._grow(1, _at(c))
        return While(c[1], c[-1], _at(c), tuple(c[3:-1:2]))

    def or_(self, c: list[BExpr]) -> BExpr:
        self._grow(len(c) - 1, c[0].pos)
        result = c[0]
        for r in c[1:]:
            result = Or(result, r, result.pos)
        return result

    def and_(self, c: list[BExpr]) -> BExpr:
        self._grow(len(c) - 1, c[0].pos)
        result = c[0]
        for r in c[1:]:
            result = And(result, r, result.pos)
        return result

    def implies(self, c: list[Any]) -> BExpr:
        """`a ==> b`, read as `not a or b` (and printed so: the round trip holds on ASTs)."""
        self._grow(2, c[0].pos)
        return Or(Not(c[0], c[0].pos), c[2], c[0].pos)

    def quantifier(self, c: list[Any]) -> BExpr:
        """`forall k in lo .. hi :: b` or `exists k in lo .. hi :: b` (X-Q1): the head
        `forall k in` is one token, so that a program may still call a variable `forall`."""
        head, lo, hi, body = c
        word, var, _ = str(head).split()
        self._grow(1, _tpos(head))
        return Quant(word == "forall", sys.intern(var), lo, hi, body, _tpos(head))

    def not_(self, c: list[BExpr]) -> BExpr:
        self._grow(1, _at(c))
        return Not(c[1], _at(c))

    def true(self, c: list[Any]) -> BExpr:
        self._grow(1, _at(c))
        return Bool(True, _at(c))

    def false(self, c: list[Any]) -> BExpr:
        self._grow(1, _at(c))
        return Bool(False, _at(c))

    def compare(self, c: list[Any]) -> BExpr:
        self._grow(1, _at(c))
        return Cmp(str(c[1]), c[0], c[2], _at(c))

    def arith(self, c: list[Any]) -> AExpr:
        self._grow(len(c) // 2, c[0].pos)
        result = c[0]
        for i in range(1, len(c), 2):
            op, right = c[i], c[i + 1]
            result = _ARITH[op](result, right, _tpos(op))
        return result

    def neg(self, c: list[Any]) -> AExpr:
        operand = c[1]
        if isinstance(operand, Int) and operand.value >= 0 and id(operand) not in self.parenthesized:
            return Int(-operand.value, _at(c))
        self._grow(1, _at(c))
        return Neg(operand, _at(c))

    def int_(self, c: list[Token]) -> AExpr:
        self._grow(1, _tpos(c[0]))
        return Int(int(c[0]), _tpos(c[0]))

    def var(self, c: list[Token]) -> AExpr:
        self._grow(1, _tpos(c[0]))
        return Var(sys.intern(str(c[0])), _tpos(c[0]))

    def select(self, c: list[Any]) -> AExpr:
        self._grow(2, _tpos(c[0]))
        return Select(ArrayVar(sys.intern(str(c[0])), _tpos(c[0])), c[1], _tpos(c[0]))

    def word(self, c: list[Token]) -> Token:
        """A word that is a keyword only where it is syntax (`get`, `await`, ...), used as a
        name: the NAME token it stands for."""
        return Token.new_borrow_pos("NAME", str(c[0]), c[0])

    def paren(self, c: list[AExpr]) -> AExpr:
        self.parenthesized.add(id(c[0]))
        return c[0]


_ARITH = {"+": Add, "-": Sub, "*": Mul, "/": Div, "%": Mod}
"""The binary arithmetic operators by their token (all left-associative)."""


def _literal(tok: Token) -> Token:
    """The lexer's check of an integer token: digits only, at most MAX_DIGITS of them."""
    if not tok.isdigit():  # the grammar lets a digit-led word such as `1e3` through as one token
        raise SourceError(f"{quote(tok)} is not a number, and a variable's name starts with a "
                           "letter or `_`", _tpos(tok))
    if len(tok) > MAX_DIGITS:
        raise SourceError(f"an integer literal of {len(tok)} digits is over the limit of "
                           f"{MAX_DIGITS} digits", _tpos(tok), LimitError)
    return tok


_BUILD = _Build()


@functools.cache
def _grammar() -> Lark:
    """The LALR parser (lalr.py: LALR, lark's basic lexer, no placeholders), loaded on first
    use with the callbacks that build the AST."""
    return Lark_StandAlone(transformer=_BUILD, lexer_callbacks={"INT": _literal})


def _too_deep(root: Any) -> Pos | None:
    """The position of a node nested deeper than MAX_DEPTH in `root`, if there is one."""
    for depth, level in enumerate(levels(root), 1):
        if depth > MAX_DEPTH:
            return level[0].pos or Pos(1, 1)
    return None


@icontract.ensure(lambda result: parse_round_trip(result, parse),
                  "printing round trip: parse(str(p)) == p", enabled=CONTRACTS)
def parse(text: str, filename: str = "<input>", *, max_input_bytes: int = MAX_INPUT_BYTES,
          max_program_size: int = MAX_PROGRAM_SIZE) -> Stmt:
    """Parse IMP source text into a program.

    :param text: the whole source; all of it must be consumed. A leading byte-order mark is
        skipped.
    :param filename: the name used in error messages.
    :param max_input_bytes: the most UTF-8 bytes `text` may have (the CLI's
        `--max-input-bytes`).
    :param max_program_size: the most syntax nodes the parser may hold: the program and its
        macro bodies after expansion (the CLI's `--max-program-size`).
    :raises ParseError: on any syntax error, with line, column and the offending line; a
        LimitError when the input goes over a budget.
    """
    encoded = text.encode("utf-8", errors="surrogatepass")
    if len(encoded) > max_input_bytes:
        raise too_large(encoded[:max_input_bytes], filename, max_input_bytes)
    text = text.removeprefix("\ufeff")
    _BUILD.reset(max_program_size)
    try:
        program: Stmt = _grammar().parse(text)
    except UnexpectedInput as err:
        raise translate(err, text, filename, _grammar()) from None
    except SourceError as err:
        raise error_at(text, filename, err.pos.line, err.pos.column, err.message,
                     err.kind) from None
    finally:
        _BUILD.reset()
    where = _too_deep(program)
    if where is not None:
        raise error_at(text, filename, where.line, where.column, _TOO_DEEP)
    return program


def parse_file(path: str | os.PathLike[str], *, max_input_bytes: int = MAX_INPUT_BYTES,
               max_program_size: int = MAX_PROGRAM_SIZE) -> Stmt:
    """Read and parse an IMP file (see `parse_bytes`); no more than `max_input_bytes + 1`
    bytes are read."""
    name = os.fspath(path)
    with open(name, "rb") as f:
        data = f.read(max_input_bytes + 1)
    return parse_bytes(data, name, max_input_bytes=max_input_bytes,
                       max_program_size=max_program_size)


def parse_bytes(data: bytes, filename: str, *, max_input_bytes: int = MAX_INPUT_BYTES,
                max_program_size: int = MAX_PROGRAM_SIZE) -> Stmt:
    """Parse the bytes of an IMP source (see `parse` for the budgets): more than
    `max_input_bytes` is a LimitError, non-UTF-8 bytes a ParseError at their position."""
    if len(data) > max_input_bytes:
        raise too_large(data[:max_input_bytes], filename, max_input_bytes)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        before = data[: err.start].decode("utf-8", errors="replace")
        line = before.count("\n") + 1
        column = len(before) - (before.rfind("\n") + 1) + 1
        raise error_at(data.decode("utf-8", errors="replace"), filename, line, column,
                     f"the file is not valid UTF-8 (byte 0x{data[err.start]:02x})") from None
    return parse(text, filename, max_input_bytes=max_input_bytes,
                 max_program_size=max_program_size)
