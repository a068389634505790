"""Syntax errors a user can act on: lark's exception turned into a `ParseError` with file, line,
column and caret, what was expected in words, and a hint for the mistakes people make
(declarations after the main statement, clauses out of order, a keyword used as a name, a call
used as an expression, a quantifier without parentheses, a `;` that ends a statement)."""

from __future__ import annotations

from symcert.lang.errors import (
    ParseError, call_in_expression, describe_char, end_of_input, error_at, quote,
)
from symcert.lang.lalr import (
    Lark, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken,
)

_FRIENDLY = {
    "NAME": "a variable",
    "INT": "an integer",
    "CMP_OP": "a comparison",
    "IS": "a comparison",  # `e is C` (methods.py) is one more
    "QUANTIFIER": "a quantifier",
    "$END": "end of input",
}


_WORDS = {"INVARIANT": (), "REQUIRES": (), "ENSURES": (), "GET": ("NEW",),
          "SPAWN": ("SKIP", "NEW"), "AWAIT": ("SKIP",)}
"""The words that are keywords only where they are syntax (grammar.lark's `name`), each with
the tokens whose expectation beside a variable's marks a place where it is syntax: a
statement's start (`skip`) or the right of `x =` (`new`). Where a variable is expected and
none of those is, the word is a variable's name and the list of what was expected leaves it
out (`a variable` covers it)."""


def _expected(names: set[str], grammar: Lark) -> str:
    shown = set()
    for name in names:
        if name in _WORDS and "NAME" in names and not names.intersection(_WORDS[name]):
            continue
        if name in _FRIENDLY:
            shown.add(_FRIENDLY[name])
            continue
        pattern = grammar.get_terminal(name).pattern
        shown.add(f"`{pattern.value}`" if pattern.type == "str" else name)
    return ", ".join(sorted(shown))


def translate(err: UnexpectedInput, text: str, filename: str, grammar: Lark) -> ParseError:
    """Turn lark's exception into a ParseError with a message a user can act on; `grammar`
    names the terminals that were expected."""
    if not text.strip():
        return error_at(text, filename, 1, 1, "empty program; expected a statement")
    if isinstance(err, UnexpectedCharacters):
        ch = text[err.pos_in_stream]
        message = f"unexpected character {describe_char(ch)}"
        if ch.isalpha():
            message += " (a variable's name is made of ASCII letters, digits and `_`)"
        return error_at(text, filename, err.line, err.column, message)
    assert isinstance(err, (UnexpectedToken, UnexpectedEOF))
    expected = set(err.expected)
    if isinstance(err, UnexpectedToken) and err.interactive_parser is not None:
        expected = set(err.interactive_parser.accepts())
    token = err.token if isinstance(err, UnexpectedToken) else None
    if token is None or token.type == "$END":
        (line, column), found, offset = end_of_input(text), "end of input", len(text)
    else:
        line, column, found = token.line, token.column, quote(token)
        offset = token.start_pos
    message = f"unexpected {found}; expected {_expected(expected, grammar)}"
    if token is not None and token.type in ("MACRO", "PROC"):
        message += " (macros and procedures are declared before the main statement)"
    elif token is not None and token.type == "REQUIRES" and "BEGIN" in expected:
        message = ("a procedure has one `requires` clause: join its conditions with `and`"
                   if "ENSURES" in expected else "write `requires` before `ensures`: `proc "
                   "f(x) requires P ensures Q begin ... end`")
    elif token is not None and token.type == "ENSURES" and "BEGIN" in expected:
        message = "a procedure has one `ensures` clause: join its conditions with `and`"
    elif token is not None and token.type in _WORDS and "NAME" in expected:
        message = (f"{quote(token)} cannot name a procedure, macro or class: there it is "
                   "a keyword (it may name variables, fields and parameters)")
    elif token is not None and token.type != "NAME" and token.isidentifier() \
            and "NAME" in expected:
        message += f" ({quote(token)} is a keyword, not a variable)"
    elif token is not None and call_in_expression(text[:offset], str(token), expected):
        message += " (calls are not expressions: assign the result first, `y = f(..)`)"
    elif token is not None and token.type == "QUANTIFIER":
        message += (" (a quantifier in an operand of `and`, `or`, `not` or `==>` is written "
                    "in parentheses: `x > 0 and (forall k in 0 .. n :: a[k] > 0)`)")
    elif text[:offset].rstrip().endswith(("forall", "exists")):
        message += " (a quantifier reads `forall k in lo .. hi :: b`)"
    elif text[:offset].rstrip().endswith(";"):
        message += " (`;` separates statements, it does not end them)"
    return error_at(text, filename, line or 1, column or 1, message)
