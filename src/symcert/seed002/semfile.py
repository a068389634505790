# crosshair: off
# (lark makes its input concrete: the reader is tested on examples and planted errors)
"""The `.sem` definition format (languages/README.md here) read into a `Definition` (seed 002 §3).

A file is a sequence of declarations, each starting on a new line with its keyword: `module`,
`data`, `syntax`, `var`, `configuration`, `rule`, `endmodule`; `//` starts a comment. The
declarations other than rules are read with a fixed LALR grammar; rule bodies with the Earley
grammar generated from the syntax (grammar.py), so that rules are written in the language's own
concrete syntax, as in K. Every error is a `DefinitionError` (a ParseError: exit 65) at a line
and column of the file, with the line and a caret.
"""

from __future__ import annotations

import bisect
import os
import re
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from lark import Lark, Token, Tree
from lark.exceptions import GrammarError, UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from symcert.core.state import TRUE_PC
from symcert.lang.errors import ParseError, describe_char, error_at, quote
from symcert.seed002.definition import (
    Cell, DataSort, Definition, DefinitionError, KPattern, Production, Rule, check_sorts,
    rule_problem, strictness_rules,
)
from symcert.seed002.grammar import Syntax, program_parser, rule_parser
from symcert.seed002.terms import (
    ARRAY, ARRAYS, DATA_SORTS, EMPTY_ARRAYS, EMPTY_MAP, K, MAP, App, Variable,
)

SHIPPED = resources.files("symcert.seed002").joinpath("languages")
"""The shipped definitions, package data read through importlib.resources (`imp` names
`symcert/seed002/languages/imp.sem`)."""

KEYWORDS = ("module", "endmodule", "data", "syntax", "var", "configuration", "rule")
_DECL = re.compile(r"^[ \t]*(" + "|".join(KEYWORDS) + r")\b", re.M)
_COMMENT = re.compile(r'"(?:[^"\\\n]|\\.)*"|//[^\n]*')
_RULE_HEAD = re.compile(r"rule\s*\[\s*([A-Za-z0-9_.-]+)\s*\]")

_OUTER = r"""
start: module | endmodule | data | syntax | var | config
module: "module" NAME
endmodule: "endmodule"
data: "data" NAME [attrs]
syntax: "syntax" NAME "::=" alt (SEP alt)*
alt: item+ [attrs]
item: STRING | NAME
attrs: "[" attr ("," attr)* "]"
attr: NAME ["(" [ARG ("," ARG)*] ")"]
var: "var" NAME+ ":" NAME
config: "configuration" cell+
cell: CELL_OPEN init CELL_CLOSE
init: "$PGM" ":" NAME -> pgm
    | CONST -> constant
SEP: "|" | ">"
STRING: /"(?:[^"\\\n]|\\.)*"/
NAME: /[A-Za-z_][A-Za-z0-9_']*/
ARG: /[A-Za-z0-9_-]+/
CONST: /\.[A-Za-z][A-Za-z0-9]*/
CELL_OPEN: /<[A-Za-z][A-Za-z0-9-]*>/
CELL_CLOSE: /<\/[A-Za-z][A-Za-z0-9-]*>/
%ignore /[ \t\r\n\f]+/
"""

_ATTRIBUTES = ("strict", "seqstrict", "left", "right", "non-assoc", "bracket", "label", "bug")
_DATA_ATTRIBUTES = ("symbolic", "result")


@dataclass(frozen=True, slots=True)
class _Decl:
    keyword: str
    start: int
    text: str


class _Reader:
    """One `.sem` source being read: its text, positions, and what has been declared."""

    def __init__(self, text: str, filename: str) -> None:
        self.text = text
        self.filename = filename
        self.lines = [0] + [m.end() for m in re.finditer(r"\n", text)]
        self.outer = Lark(_OUTER, parser="lalr", lexer="contextual", maybe_placeholders=True)

    def pos(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self.lines, offset)
        return line, offset - self.lines[line - 1] + 1

    def error(self, offset: int, message: str) -> DefinitionError:
        line, column = self.pos(offset)
        return error_at(self.text, self.filename, line, column, message,
                        DefinitionError)  # type: ignore[return-value]

    def syntax_error(self, err: UnexpectedInput, start: int, what: str) -> DefinitionError:
        offset = start + (err.pos_in_stream or 0)
        if isinstance(err, UnexpectedCharacters):
            ch = self.text[offset] if offset < len(self.text) else ""
            return self.error(offset, f"unexpected character {describe_char(ch)} in {what}")
        if isinstance(err, UnexpectedToken) and err.token.type != "$END":
            expected = sorted({_friendly(e) for e in err.expected})
            hint = f"; expected {', '.join(expected)}" if len(expected) <= 6 else ""
            return self.error(start + err.token.start_pos,
                              f"unexpected {quote(err.token)} in {what}{hint}")
        return self.error(start + len(self.text[start:].rstrip()),
                          f"unexpected end of {what}")


def _friendly(terminal: str) -> str:
    return {"NAME": "a name", "STRING": "a quoted terminal", "SEP": "`|` or `>`",
            "CELL_OPEN": "a cell `<name>`", "CELL_CLOSE": "a closing `</name>`",
            "INT": "an integer", "$END": "end of declaration", "ARG": "an argument",
            "LSQB": "`[`", "RSQB": "`]`", "LPAR": "`(`", "RPAR": "`)`", "COLON": "`:`",
            "COMMA": "`,`"}.get(
        terminal, "a variable" if terminal.startswith("VAR_") else f"`{terminal.lower()}`")


def _declarations(r: _Reader) -> list[_Decl]:
    """The declarations of the file, comments blanked (offsets kept)."""
    clean = _COMMENT.sub(lambda m: m.group() if m.group().startswith('"')
                         else " " * len(m.group()), r.text)
    starts = [(m.start(1), m.group(1)) for m in _DECL.finditer(clean)]
    first = starts[0][0] if starts else len(clean)
    stray = re.search(r"\S", clean[:first])
    if stray:
        raise r.error(stray.start(), "expected a declaration (`module`, `data`, `syntax`, "
                                     "`var`, `configuration` or `rule`) at the start of a line")
    ends = [s for s, _ in starts[1:]] + [len(clean)]
    return [_Decl(k, s, clean[s:e]) for (s, k), e in zip(starts, ends)]


def parse_definition(text: str, filename: str = "<definition>") -> Definition:
    """Read a language definition in the `.sem` format.

    :param text: the whole source.
    :param filename: the name used in error messages.
    :raises DefinitionError: at the line and column of the first problem.
    """
    r = _Reader(text, filename)
    decls = _declarations(r)
    name = "L"
    data: dict[str, DataSort] = {}
    syntax_decls: list[tuple[_Decl, Tree]] = []
    var_decls: list[tuple[_Decl, Tree]] = []
    config: tuple[_Decl, Tree] | None = None
    rules: list[_Decl] = []
    for d in decls:
        if d.keyword == "rule":
            rules.append(d)
            continue
        try:
            tree = r.outer.parse(d.text).children[0]
        except UnexpectedInput as err:
            raise r.syntax_error(err, d.start, f"a `{d.keyword}` declaration") from None
        if d.keyword == "module":
            name = str(tree.children[0])
        elif d.keyword == "data":
            data_sort = _data(r, d, tree)
            if data_sort.name in data:
                raise r.error(d.start, f"data sort {data_sort.name} is declared twice")
            data[data_sort.name] = data_sort
        elif d.keyword == "syntax":
            syntax_decls.append((d, tree))
        elif d.keyword == "var":
            var_decls.append((d, tree))
        elif d.keyword == "configuration":
            if config is not None:
                raise r.error(d.start, "a second configuration")
            config = (d, tree)
    sorts = list(dict.fromkeys(str(t.children[0]) for _, t in syntax_decls))
    for (d, t) in syntax_decls:
        if str(t.children[0]) in data:
            raise r.error(d.start + t.children[0].start_pos,
                          f"{t.children[0]} is a data sort: its syntax is built in")
    productions, subsorts = _productions(r, syntax_decls, sorts, data)
    if config is None:
        raise r.error(len(text), "the definition has no `configuration` (say which cells a "
                                 "configuration has: `configuration <k> $PGM:Stmt </k> ...`)")
    cells, pgm = _configuration(r, config, sorts, data, productions)
    variables = _variables(r, var_decls, sorts, data, subsorts)
    partial = Definition(name, tuple(data.values()), tuple(sorts), tuple(subsorts),
                         tuple(productions), cells, (), pgm, filename=filename)
    problem = check_sorts(partial)
    if problem:
        raise r.error(config[0].start, problem)
    _check_strictness(r, partial)
    syntax = Syntax(sorts, data, subsorts, productions)
    try:
        program_parser(syntax, pgm)
        earley = rule_parser(syntax, {v.name: v for v in variables.values()})
    except GrammarError as err:
        where = syntax_decls[0][0].start if syntax_decls else 0
        raise r.error(where, f"the productions are ambiguous: {err}") from None
    parsed: list[Rule] = []
    for d in rules:
        rule = _rule(r, d, partial, earley)
        if any(p.label == rule.label for p in parsed):
            raise r.error(d.start, f"rule label [{rule.label}] is used twice")
        parsed.append(rule)
    return Definition(name, tuple(data.values()), tuple(sorts), tuple(subsorts),
                      tuple(productions), cells, tuple(parsed) + strictness_rules(partial), pgm,
                      filename=filename)


def find_language(name: str) -> Traversable:
    """The `.sem` file a name stands for: a path, or a shipped language (`imp`, `gcl`)."""
    path = Path(name)
    if path.suffix == ".sem" or path.exists():
        return path
    return SHIPPED.joinpath(f"{name}.sem")


def load(path: str | os.PathLike[str] | Traversable) -> Definition:
    """Read and parse a `.sem` file (a path, or a shipped one from `find_language`)."""
    source = Path(path) if isinstance(path, (str, os.PathLike)) else path
    return parse_definition(source.read_text(encoding="utf-8"), str(source))


def _data(r: _Reader, d: _Decl, tree: Tree) -> DataSort:
    name_tok = tree.children[0]
    if str(name_tok) not in DATA_SORTS:
        raise r.error(d.start + name_tok.start_pos,
                      f"unknown data sort {name_tok}: the built-in data sorts are "
                      f"{', '.join(DATA_SORTS)}")
    attrs = _attrs(r, d, tree.children[1], _DATA_ATTRIBUTES)
    if "symbolic" in attrs and str(name_tok) in (MAP, ARRAYS):
        raise r.error(d.start + name_tok.start_pos,
                      f"{name_tok} cannot be symbolic: a left-hand side may match an "
                      "environment, which seed 002 §4.3 forbids for symbolically extensible "
                      "sorts")
    return DataSort(str(name_tok), "symbolic" in attrs, "result" in attrs)


def _attrs(r: _Reader, d: _Decl, tree: Tree | None,
           allowed: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    out: dict[str, tuple[str, ...]] = {}
    for attr in (tree.children if tree is not None else []):
        key = attr.children[0]
        if str(key) not in allowed:
            raise r.error(d.start + key.start_pos, f"unknown attribute {quote(key)} (known: "
                                                   f"{', '.join(allowed)})")
        out[str(key)] = tuple(str(a) for a in attr.children[1:] if a is not None)
    return out


def _productions(r: _Reader, decls: list[tuple[_Decl, Tree]], sorts: list[str],
                 data: dict[str, DataSort]) -> tuple[list[Production], list[tuple[str, str]]]:
    productions: list[Production] = []
    subsorts: list[tuple[str, str]] = []
    seen: dict[Any, Production] = {}
    for d, tree in decls:
        sort = str(tree.children[0])
        group = 0
        for child in tree.children[1:]:
            if isinstance(child, Token):  # a separator: `>` starts a looser group
                group += child == ">"
                continue
            *items, attrs_tree = child.children
            parsed = []
            for item in items:
                tok = item.children[0]
                if tok.type == "STRING":
                    text = tok[1:-1].encode().decode("unicode_escape")
                    if not text.strip() or any(c.isspace() for c in text):
                        raise r.error(d.start + tok.start_pos,
                                      "a terminal must be non-empty, without spaces")
                    parsed.append((True, text))
                elif str(tok) not in sorts and str(tok) not in data:
                    raise r.error(d.start + tok.start_pos, f"unknown sort {tok}")
                elif str(tok) in (MAP, ARRAY, ARRAYS) and not (
                        parsed and parsed[0][0] and parsed[0][1].startswith("$")):
                    raise r.error(d.start + tok.start_pos, f"a {tok} cannot be written in a "
                                  "program: only an auxiliary production (its first terminal "
                                  "starting with `$`) takes one")
                else:
                    parsed.append((False, str(tok)))
            attrs = _attrs(r, d, attrs_tree, _ATTRIBUTES)
            where = d.start + items[0].children[0].start_pos
            if len(parsed) == 1 and not parsed[0][0]:
                if attrs:
                    raise r.error(where, "a subsort takes no attributes")
                subsorts.append((parsed[0][1], sort))
                continue
            p = _production(r, where, sort, tuple(parsed), attrs, group)
            key = p.items
            if key in seen:
                other = seen[key]
                raise r.error(where, f"ambiguous production: the same items as the production "
                                     f"of {other.sort} at line {other.pos[0]}")
            if any(q.label == p.label for q in productions):
                raise r.error(where, f"ambiguous production: label {p.label} is taken; give one "
                                     "of them a `label(...)`")
            seen[key] = p
            productions.append(p)
    for s in sorts:
        if not any(p.sort == s for p in productions) and not any(sup == s for _, sup in subsorts):
            raise r.error(0, f"sort {s} has no production")
    return productions, subsorts


def _production(r: _Reader, where: int, sort: str, items: tuple[tuple[bool, str], ...],
                attrs: dict[str, tuple[str, ...]], group: int) -> Production:
    label = attrs["label"][0] if attrs.get("label") else f"bracket-{sort}" \
        if "bracket" in attrs else "".join(text if terminal else "_" for terminal, text in items)
    arity = sum(not t for t, _ in items)
    strict_attr = "seqstrict" if "seqstrict" in attrs else "strict" if "strict" in attrs else None
    strict: tuple[int, ...] = ()
    if strict_attr is not None:
        args = attrs[strict_attr]
        if not all(a.isdigit() and 1 <= int(a) <= arity for a in args):
            raise r.error(where, f"`{strict_attr}` names arguments 1 to {arity}")
        strict = tuple(int(a) for a in args) or tuple(range(1, arity + 1))
    assoc = next((a for a in ("left", "right", "non-assoc") if a in attrs), None)
    bracket = "bracket" in attrs
    if bracket and [text for t, text in items if not t] != [sort]:
        raise r.error(where, "a `bracket` production has exactly one argument, of its own sort")
    line, column = r.pos(where)
    return Production(sort, items, label, strict, strict_attr == "seqstrict", assoc, bracket,
                      group, (line, column), "bug" in attrs)


def _configuration(r: _Reader, config: tuple[_Decl, Tree], sorts: list[str],
                   data: dict[str, DataSort],
                   productions: list[Production]) -> tuple[tuple[Cell, ...], str]:
    d, tree = config
    cells: list[Cell] = []
    pgm = None
    for cell in tree.children:
        open_, init, close = cell.children
        name = open_[1:-1]
        if close[2:-1] != name:
            raise r.error(d.start + close.start_pos, f"<{name}> is closed by {close}")
        if any(c.name == name for c in cells):
            raise r.error(d.start + open_.start_pos, f"cell <{name}> is declared twice")
        if init.data == "pgm":
            sort_tok = init.children[0]
            if name != "k":
                raise r.error(d.start + open_.start_pos, "only the <k> cell holds $PGM")
            if str(sort_tok) not in sorts:
                raise r.error(d.start + sort_tok.start_pos, f"unknown sort {sort_tok}")
            pgm = str(sort_tok)
            cells.append(Cell(name, K, "$PGM"))
        elif str(init.children[0]) in (".Map", ".Arrays"):
            sort, empty = (MAP, EMPTY_MAP) if init.children[0] == ".Map" else (ARRAYS, EMPTY_ARRAYS)
            if sort not in data:
                raise r.error(d.start + open_.start_pos, f"`.{sort}` needs `data {sort}`")
            cells.append(Cell(name, sort, empty))
        else:
            const = next((p for p in productions if p.items == ((True, init.children[0]),)), None)
            if const is None:
                raise r.error(d.start + init.children[0].start_pos,
                              f"{init.children[0]} is no constant of the syntax (a production "
                              "of one terminal), nor `.Map` or `.Arrays`")
            cells.append(Cell(name, const.sort, App(const.label)))
    if pgm is None:
        raise r.error(d.start, "the configuration needs a cell `<k> $PGM:Sort </k>`")
    return tuple(cells), pgm


def _variables(r: _Reader, decls: list[tuple[_Decl, Tree]], sorts: list[str],
               data: dict[str, DataSort], subsorts: list[tuple[str, str]]) -> dict[str, Variable]:
    below = Definition("", tuple(data.values()), tuple(sorts), tuple(subsorts), (), (), (), "")
    out: dict[str, Variable] = {}
    for d, tree in decls:
        *names, sort_tok = tree.children
        if str(sort_tok) not in sorts and str(sort_tok) not in data:
            raise r.error(d.start + sort_tok.start_pos, f"unknown sort {sort_tok}")
        for tok in names:
            if str(tok) in out:
                raise r.error(d.start + tok.start_pos, f"variable {tok} is declared twice")
            out[str(tok)] = Variable(str(tok), str(sort_tok), below.below(str(sort_tok)))
    return out


def _check_strictness(r: _Reader, d: Definition) -> None:
    for p in d.productions:
        for i in p.strict:
            if not d.below(p.arg_sorts[i - 1]) & d.result_sorts:
                line = r.lines[p.pos[0] - 1] + p.pos[1] - 1
                raise r.error(line, f"argument {i} of {p.label} is strict, but no subsort of "
                                    f"{p.arg_sorts[i - 1]} is a result: mark a data sort "
                                    "`[result]`")


def _rule(r: _Reader, d: _Decl, defn: Definition, earley: tuple[Lark, Any]) -> Rule:
    head = _RULE_HEAD.match(d.text)
    if head is None:
        raise r.error(d.start, "a rule starts with `rule [label]`")
    label = head.group(1)
    body_start = d.start + head.end()
    parser, build = earley
    try:
        tree = parser.parse(d.text[head.end():])
    except UnexpectedInput as err:
        raise r.syntax_error(err, body_start, "a rule") from None
    *cell_trees, cond_tree = tree.children
    lhs: list[Any] = [None] * len(defn.cells)
    rhs: list[Any] = [None] * len(defn.cells)
    for cell in cell_trees:
        open_, body, dots, close = cell.children
        name = open_[1:-1]
        if close[2:-1] != name:
            raise r.error(body_start + close.start_pos, f"<{name}> is closed by {close}")
        if name not in defn.cell_index:
            raise r.error(body_start + open_.start_pos,
                          f"unknown cell <{name}>; the configuration has "
                          f"{', '.join(f'<{c.name}>' for c in defn.cells)}")
        i = defn.cell_index[name]
        if lhs[i] is not None:
            raise r.error(body_start + open_.start_pos, f"cell <{name}> appears twice")
        if body is None:
            continue
        sides = [_side(s, build) for s in body.children if s is not None]
        if name == "k":
            lhs[i] = KPattern(sides[0], dots is not None)
            rhs[i] = KPattern(sides[1], dots is not None) if len(sides) > 1 else None
        else:
            if dots is not None or any(len(s) != 1 for s in sides):
                raise r.error(body_start + open_.start_pos,
                              f"<{name}> holds one {defn.cells[i].sort}, matched whole: write "
                              "a variable (and `=> ` the new value), or `...` alone")
            lhs[i] = sides[0][0]
            rhs[i] = sides[1][0] if len(sides) > 1 else None
    cond = build.transform(cond_tree) if isinstance(cond_tree, Tree) else cond_tree
    line, column = r.pos(d.start)
    rule = Rule(label, tuple(lhs), tuple(rhs), cond, (line, column))
    problem = rule_problem(defn, rule)
    if problem is not None:
        at = d.text.find("requires") if "condition" in problem else -1
        raise r.error(d.start + (at if at >= 0 else 0), problem)
    return rule


def _side(tree: Tree, build: Any) -> tuple[Any, ...]:
    if tree.data == "empty":
        return ()
    return tuple(build.transform(c) if isinstance(c, Tree) else _leaf(build, c)
                 for c in tree.children)


def _leaf(build: Any, tok: Token) -> Any:
    """A kitem that is a bare token (a variable or literal the grammar inlined)."""
    return build.transform(Tree("var" if tok.type.startswith("VAR_") else "lit_int", [tok]))


# --- programs ----------------------------------------------------------------------------

_PARSERS: dict[int, tuple[Definition, Lark]] = {}


def parse_program(d: Definition, text: str, filename: str = "<input>") -> Any:
    """Parse a program of the language `d` (its `$PGM` sort) into a term.

    :raises ParseError: at the line and column of a syntax error.
    """
    entry = _PARSERS.get(id(d))
    if entry is None or entry[0] is not d:
        syntax = Syntax(d.sorts, (x.name for x in d.data), d.subsorts, d.productions)
        entry = _PARSERS[id(d)] = (d, program_parser(syntax, d.pgm_sort))
    try:
        return entry[1].parse(text)
    except UnexpectedInput as err:
        if isinstance(err, UnexpectedCharacters):
            return _raise(text, filename, err.line, err.column,
                          f"unexpected character {describe_char(text[err.pos_in_stream])}")
        if isinstance(err, UnexpectedToken) and err.token.type != "$END":
            expected = ", ".join(sorted(_friendly(e) for e in err.expected))
            return _raise(text, filename, err.token.line, err.token.column,
                          f"unexpected {quote(err.token)}; expected {expected}")
        line = text.count("\n") + 1
        return _raise(text, filename, line, len(text) - text.rfind("\n"),
                      "unexpected end of input")


def _raise(text: str, filename: str, line: int, column: int, message: str) -> Any:
    raise error_at(text, filename, line, column, message, ParseError)


def initial_cells(d: Definition) -> dict[str, Any]:
    """The initial content of each cell but `k` (`.Map`, `.Arrays`, a constant, or `true` for
    `cnd`)."""
    return {c.name: (TRUE_PC if c.sort == "Fol" else c.init) for c in d.cells if c.name != "k"}
