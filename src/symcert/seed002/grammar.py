# crosshair: off
# (lark makes its input concrete: the parsers are tested on examples and generated programs)
"""The parsers a definition's syntax gives (seed 002 Fig. 1): programs and rule terms.

From the productions of each sort, grouped by priority (K's `>`: the first group binds
tightest) and associativity (`left`, `right`), a lark grammar is generated: sort `S` has one
nonterminal per group, `S_i` deriving the productions of group `i` and `S_{i-1}`; an argument
of sort `S` at the edge of a production of group `i` is `S_i` on its associative side and
`S_{i-1}` elsewhere, one enclosed by terminals (`if _ then _ else _ fi`) or at the only edge (a
prefix operator) is the top of its sort. Data subsorts give literals: an Int is a decimal
number, an Id a name (`[A-Za-z_][A-Za-z0-9_]*`), a Bool `true` or `false`.

- Programs: LALR with lark's basic lexer, terms built by callbacks during the reductions (no
  parse tree, no recursion however deep the program), each constructor with the line and
  column of its first token (`App.pos`, for the bug finder's messages); `#` starts a comment.
- Rule terms (in `.sem` files): the same nonterminals plus the declared variables (one
  terminal per sort, so that `I1` lexes as an Int variable), data operations (`+Int`,
  `<=Int`, `notBool`, `andBool`, `==Bool`, `lookup(M, X)`, `update(M, X, I)`, `select(A, I)`,
  `store(A, I, V)`, `lookupArray(R, X)`, `updateArray(R, X, A)`, `field(F)`, ...), cells
  `<c> … </c>` with `=>`, `~>`, `.` and `...`, and `requires`; Earley, since a term may belong
  to several sorts (an Id variable is also an AExp).
"""

from __future__ import annotations

import json
import re
from typing import Any, Callable, Iterable

from lark import Lark, Token, Transformer

from symcert.lang.syntax import Bool, Int
from symcert.seed002.terms import (
    ARRAY, ARRAYS, BOOL, DATA_OPS, EMPTY_ARRAYS, EMPTY_MAP, ID, INT, MAP, App, Id, Op, Variable,
)

NAME_RE = r"/[A-Za-z_][A-Za-z0-9_]*/"

_DATA_GRAMMAR = r"""
?d_int: d_int_sum
?d_int_sum: d_int_sum "+Int" d_int_prod -> op_plus_int
          | d_int_sum "-Int" d_int_prod -> op_minus_int
          | d_int_prod
?d_int_prod: d_int_prod "*Int" d_int_atom -> op_times_int
           | d_int_prod "/Int" d_int_atom -> op_div_int
           | d_int_prod "%Int" d_int_atom -> op_mod_int
           | d_int_atom
?d_int_atom: INT -> lit_int
           | "lookup" "(" d_map "," d_id ")" -> op_lookup
           | "lookupIn" "(" d_map "," d_map "," d_id ")" -> op_lookup_in
           | "select" "(" d_array "," d_int ")" -> op_select
           | "(" d_int ")"
           @int_vars@
?d_bool: d_bool "orBool" d_bool_and -> op_or_bool
       | d_bool_and
?d_bool_and: d_bool_and "andBool" d_bool_not -> op_and_bool
           | d_bool_not
?d_bool_not: "notBool" d_bool_not -> op_not_bool
           | d_bool_cmp
?d_bool_cmp: d_int "<Int" d_int -> op_lt_int
           | d_int "<=Int" d_int -> op_le_int
           | d_int ">Int" d_int -> op_gt_int
           | d_int ">=Int" d_int -> op_ge_int
           | d_int "==Int" d_int -> op_eq_int
           | d_int "=/=Int" d_int -> op_ne_int
           | d_bool_atom "==Bool" d_bool_atom -> op_eq_bool
           | d_bool_atom "=/=Bool" d_bool_atom -> op_ne_bool
           | d_id "==Id" d_id -> op_eq_id
           | d_id "=/=Id" d_id -> op_ne_id
           | d_bool_atom
?d_bool_atom: "true" -> lit_true
            | "false" -> lit_false
            | "(" d_bool ")"
            @bool_vars@
?d_id: NAME -> lit_id
     | "field" "(" d_id ")" -> op_field
     @id_vars@
?d_map: ".Map" -> lit_map
      | "update" "(" d_map "," d_id "," d_int ")" -> op_update
      | "updateBound" "(" d_map "," d_id "," d_int ")" -> op_update_bound
      | "updateFree" "(" d_map "," d_map "," d_id "," d_int ")" -> op_update_free
      @map_vars@
?d_array: "store" "(" d_array "," d_int "," d_int ")" -> op_store
        | "lookupArray" "(" d_arrays "," d_id ")" -> op_lookup_array
        @array_vars@
?d_arrays: ".Arrays" -> lit_arrays
         | "updateArray" "(" d_arrays "," d_id "," d_array ")" -> op_update_array
         @arrays_vars@
"""

_OP_ALIASES = {
    "plus_int": "+Int", "minus_int": "-Int", "times_int": "*Int", "div_int": "/Int",
    "mod_int": "%Int", "lt_int": "<Int", "le_int": "<=Int", "gt_int": ">Int", "ge_int": ">=Int",
    "eq_int": "==Int", "ne_int": "=/=Int", "not_bool": "notBool", "and_bool": "andBool",
    "or_bool": "orBool", "eq_bool": "==Bool", "ne_bool": "=/=Bool", "eq_id": "==Id",
    "ne_id": "=/=Id", "lookup": "lookup", "update": "update", "select": "select",
    "store": "store", "lookup_array": "lookupArray", "update_array": "updateArray",
    "lookup_in": "lookupIn", "update_bound": "updateBound", "update_free": "updateFree",
    "field": "field",
}
assert set(_OP_ALIASES.values()) <= DATA_OPS.keys()

_DATA_NT = {INT: "d_int_atom", BOOL: "d_bool_atom", ID: "d_id", MAP: "d_map",
            ARRAY: "d_array", ARRAYS: "d_arrays"}
_DATA_TOP = {INT: "d_int", BOOL: "d_bool", ID: "d_id", MAP: "d_map", ARRAY: "d_array",
             ARRAYS: "d_arrays"}
_PROGRAM_DATA = {INT: "p_int", BOOL: "p_bool", ID: "p_id", MAP: "p_none", ARRAY: "p_none",
                 ARRAYS: "p_none"}
_PROGRAM_DATA_GRAMMAR = """
?p_int: INT -> lit_int
?p_id: NAME -> lit_id
?p_bool: "true" -> lit_true
       | "false" -> lit_false
p_none: "\\u0000"
"""
"""A program writes no Map nor array: an auxiliary production taking one is never parsed."""


def _var_terminal(sort: str) -> str:
    """The terminal of the variables of `sort`."""
    return "VAR_" + re.sub(r"\W", "_", sort.upper())


def _nt(sorts: list[str], sort: str, group: int) -> str:
    return f"s{sorts.index(sort)}_{group}"


def _lit(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


class Syntax:
    """The productions of a definition, read for parsing: `sorts` (the syntax sorts),
    `data` (declared data sorts), `subsorts` and `productions` (definition.Production)."""

    def __init__(self, sorts: Iterable[str], data: Iterable[str], subsorts: Iterable[tuple[str, str]],
                 productions: Iterable[Any]) -> None:
        self.sorts = list(sorts)
        self.data = set(data)
        self.subsorts = list(subsorts)
        self.productions = list(productions)
        self.groups = {s: 1 + max((p.group for p in self.productions if p.sort == s),
                                  default=0) for s in self.sorts}

    def top(self, sort: str, rules: bool) -> str:
        """The nonterminal of all terms of `sort`."""
        if sort in self.data:
            return _DATA_TOP[sort] if rules else _PROGRAM_DATA[sort]
        return _nt(self.sorts, sort, self.groups[sort] - 1)

    def grammar(self, rules: bool, var_sorts: dict[str, list[str]] | None = None) -> str:
        """The lark grammar of programs (rules False) or of rule bodies."""
        out: list[str] = []
        for s in self.sorts:
            for g in range(self.groups[s]):
                alts = [self._alt(p, rules) for p in self.productions
                        if p.sort == s and p.group == g]
                if g == 0:
                    alts += self._atoms(s, rules, var_sorts or {})
                else:
                    alts.append(_nt(self.sorts, s, g - 1))
                out.append(f"?{_nt(self.sorts, s, g)}: " + "\n    | ".join(alts or ['"\\u0000"']))
        if rules:
            tops = [self.top(s, True) for s in self.sorts] + [_DATA_TOP[d] for d in
                                                               sorted(self.data)]
            out.append("?kitem: " + " | ".join(tops))
            data = _DATA_GRAMMAR
            for k, d in (("int", INT), ("bool", BOOL), ("id", ID), ("map", MAP),
                         ("array", ARRAY), ("arrays", ARRAYS)):
                data = data.replace(f"@{k}_vars@", f"| {_var_terminal(d)} -> var"
                                    if d in (var_sorts or {}) else "")
            out.append(data)
            out.append('start: cell+ ["requires" d_bool]\n'
                       'cell: CELL_OPEN [body] [DOTS] CELL_CLOSE\n'
                       'body: side ["=>" side]\n'
                       'side: kitem ("~>" kitem)* -> items\n'
                       '    | "." -> empty\n'
                       'DOTS: "..."\n'
                       'CELL_OPEN.5: /<[A-Za-z][A-Za-z0-9-]*>/\n'
                       'CELL_CLOSE.5: /<\\/[A-Za-z][A-Za-z0-9-]*>/')
            for sort, names in (var_sorts or {}).items():
                alternation = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
                out.append(f"{_var_terminal(sort)}.3: /(?:{alternation})(?![A-Za-z0-9_'])/")
            out.append(r'%ignore /[ \t\r\n\f]+/')
        else:
            out.append(_PROGRAM_DATA_GRAMMAR)
            out.append(r'%ignore /[ \t\r\n\f]+/')
            if not any(t and "#" in x for p in self.productions for t, x in p.items):
                out.append(r"%ignore /#[^\n]*/")
        out.append(f"NAME: {NAME_RE}")
        out.append("INT: /[0-9]+/")
        return "\n".join(out) + "\n"

    def _alt(self, p: Any, rules: bool) -> str:
        n = len(p.items)
        both = not p.items[0][0] and not p.items[-1][0] and n > 1
        parts = []
        for j, (terminal, text) in enumerate(p.items):
            if terminal:
                parts.append(_lit(text))
                continue
            edge = "left" if j == 0 else "right" if j == n - 1 else None
            if text != p.sort or edge is None or not both:
                nt = self.top(text, rules) if (text != p.sort or edge is None) \
                    else _nt(self.sorts, p.sort, p.group)
            else:
                nt = _nt(self.sorts, p.sort, p.group if p.assoc == edge else max(p.group - 1, 0))
            parts.append(nt)
        index = self.productions.index(p)
        return " ".join(parts) + f" -> p{index}"

    def _atoms(self, s: str, rules: bool, var_sorts: dict[str, list[str]]) -> list[str]:
        out: list[str] = []
        for sub, sup in self.subsorts:
            if sup != s:
                continue
            if sub in self.data:
                if rules:
                    out.append(_DATA_NT[sub] if sub != BOOL else "d_bool_atom")
                else:
                    out.append(_PROGRAM_DATA[sub])
            else:
                out.append(self.top(sub, rules))
        if rules and s in var_sorts:
            out.append(f"{_var_terminal(s)} -> var")
        return out


_LITERALS: dict[str, Callable[..., Any]] = {
    "lit_int": lambda c: Int(int(c[0])),
    "lit_id": lambda c: Id(str(c[0])),
    "lit_true": lambda c: Bool(True),
    "lit_false": lambda c: Bool(False),
    "lit_map": lambda c: EMPTY_MAP,
    "lit_arrays": lambda c: EMPTY_ARRAYS,
}


def _builder(syntax: Syntax, variables: dict[str, Variable]) -> dict[str, Callable[..., Any]]:
    """The callbacks that turn the parse results of rule terms into terms."""
    calls = dict(_LITERALS)
    for i, p in enumerate(syntax.productions):
        calls[f"p{i}"] = (lambda c: c[0]) if p.bracket else \
            (lambda c, label=p.label: App(label, tuple(c)))
    calls["var"] = lambda c: variables[str(c[0])]
    for alias, name in _OP_ALIASES.items():
        calls[f"op_{alias}"] = lambda c, name=name: Op(name, tuple(c))
    return calls


Located = tuple[Any, tuple[int, int]]
"""A program's term while it is parsed, with the (line, column) of its first token."""


def _at(c: list[Any]) -> tuple[int, int]:
    """Where a reduction starts: its first child's position (all tokens are kept)."""
    first = c[0]
    return (first.line, first.column) if isinstance(first, Token) else first[1]


def _program_builder(syntax: Syntax) -> dict[str, Callable[..., Located]]:
    """The callbacks that turn the reductions of a program into located terms; the parser
    keeps every token, so that a construct starting with a keyword starts at the keyword."""
    calls: dict[str, Callable[..., Any]] = {
        name: lambda c, fn=fn: (fn(c), _at(c)) for name, fn in _LITERALS.items()}
    for i, p in enumerate(syntax.productions):
        calls[f"p{i}"] = (lambda c: (next(x[0] for x in c if not isinstance(x, Token)), _at(c))) \
            if p.bracket else (lambda c, label=p.label: _construct(label, c))
    calls["start"] = lambda c: c[0][0]
    return calls


def _construct(label: str, c: list[Any]) -> Located:
    pos = _at(c)
    return App(label, tuple(x[0] for x in c if not isinstance(x, Token)), pos), pos


def program_parser(syntax: Syntax, start: str) -> Lark:
    """The LALR parser of programs whose top is of sort `start` (terms built while parsing)."""
    text = syntax.grammar(False) + f"start: {syntax.top(start, False)}\n"
    build = Transformer()
    for name, fn in _program_builder(syntax).items():
        setattr(build, name, fn)
    return Lark(text, parser="lalr", lexer="basic", transformer=build, keep_all_tokens=True,
                maybe_placeholders=False)


def rule_parser(syntax: Syntax, variables: dict[str, Variable]) -> tuple[Lark, Transformer]:
    """The Earley parser of rule bodies (cells and `requires`) and the transformer to terms."""
    by_sort: dict[str, list[str]] = {}
    for v in variables.values():
        by_sort.setdefault(v.sort, []).append(v.name)
    text = syntax.grammar(True, by_sort)
    build = Transformer()
    for name, fn in _builder(syntax, variables).items():
        setattr(build, name, fn)
    return Lark(text, parser="earley", lexer="basic", maybe_placeholders=True), build

