"""Users' errors. Contract violations (icontract.ViolationError) are the engine's bugs, not these."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any, ClassVar

EXIT_OK = 0
EXIT_BUG = 1
EXIT_USAGE = 2
EXIT_UNDECIDED = 3
EXIT_DATA = 65

EXCERPT_WIDTH = 80

MAX_INPUT_BYTES = 8_000_000
"""The parser's default budget on a source's UTF-8 bytes (`--max-input-bytes`)."""
MAX_PROGRAM_SIZE = 2_500_000
"""The parser's default budget on the syntax nodes it holds at once (`--max-program-size`)."""


class SymcertError(Exception):
    """Base of every error a user can cause; the CLI prints it and exits with `exit_code`."""

    exit_code = EXIT_DATA


def _visible(ch: str) -> str:
    """One column for `ch`: a tab as a space, a control character as its symbol (U+2400...),
    any other invisible one as U+FFFD."""
    if ch == "\t":
        return " "
    if ch.isprintable():
        return ch
    code = ord(ch)
    return chr(0x2400 + code) if code < 0x20 else "\u2421" if code == 0x7F else "\ufffd"


def excerpt(line: str, column: int, width: int = EXCERPT_WIDTH) -> tuple[str, int]:
    """At most `width` characters of `line` around the 1-based `column`, with `…` where cut and
    invisible characters made visible, and the 0-based offset of that column in the excerpt."""
    at = min(max(column - 1, 0), len(line))
    lo = max(0, min(at - width // 2, len(line) - width))
    hi = min(len(line), lo + width)
    shown = "".join(map(_visible, line[lo:hi]))
    if lo > 0:
        shown, at = "…" + shown, at - lo + 1
    return shown + ("…" if hi < len(line) else ""), at


@dataclass
class ParseError(SymcertError):
    """A syntax error at a 1-based line and column, shown with an excerpt of the line (at most
    EXCERPT_WIDTH characters around the spot) and a caret."""

    filename: str
    line: int
    column: int
    message: str
    source_line: str
    kind: ClassVar[str] = "syntax error"

    def __str__(self) -> str:
        shown, at = excerpt(self.source_line, self.column)
        return (
            f"{self.filename}:{self.line}:{self.column}: {self.kind}: {self.message}\n"
            f"  {shown}\n  {' ' * at}^"
        )


class LimitError(ParseError):
    """An input over one of the parser's limits, at the spot where it goes over; the message
    names the limit and, when there is one, the option that raises it."""

    kind = "limit exceeded"


class NamingError(ParseError):
    """A name used where it means nothing, or declared twice: an unknown procedure, class or
    field, a second declaration, a macro's variable that is not its parameter."""

    kind = "name error"


class KindError(ParseError):
    """A value used as what it is not: an array as an integer, a reference as an integer, a
    macro as a value, a call with the wrong number of arguments, an expression as a macro's
    argument where it must be a variable."""

    kind = "type error"


class SourceError(Exception):
    """An error found while the parser reduces (a misused macro or procedure, a bad literal, a
    budget), at a position of the source; `parser.parse` turns it into a ParseError of class
    `kind` quoting the source line."""

    def __init__(self, message: str, pos: Any, kind: type[ParseError] = ParseError) -> None:
        super().__init__(message)
        self.message, self.pos, self.kind = message, pos, kind


class InputError(SymcertError):
    """A malformed command-line input such as `--input x=abc`."""

    exit_code = EXIT_USAGE


# --- how the parser words its errors ---------------------------------------------------------


def cut(text: str, width: int = 40) -> str:
    """`text`, or its first `width - 1` characters and `…`."""
    return text if len(text) <= width else text[:width - 1] + "…"


def plural(n: int, noun: str, nouns: str | None = None) -> str:
    """`n` with thousands separators and `noun`, or `nouns` (default: `noun` + "s") unless
    `n` is 1: `1 state`, `12,000 states`."""
    return f"{n:,} {noun if n == 1 else nouns or noun + 's'}"


def quote(text: object) -> str:
    """`text` in backquotes, cut to 40 characters."""
    return f"`{cut(str(text))}`"


_CONTROL_NAMES = ("NUL SOH STX ETX EOT ENQ ACK BEL BS HT LF VT FF CR SO SI DLE DC1 DC2 DC3 DC4 "
                  "NAK SYN ETB CAN EM SUB ESC FS GS RS US").split()


def describe_char(ch: str) -> str:
    """A character as a message shows it: `x`, or U+0000 (NUL) when it cannot be seen."""
    if ch.isprintable() and not ch.isspace():
        return f"`{ch}`"
    code = ord(ch)
    name = (_CONTROL_NAMES[code] if code < 0x20 else "DEL" if code == 0x7F
            else unicodedata.name(ch, ""))
    return f"U+{code:04X}" + (f" ({name})" if name else "")


def line_text(text: str, line: int) -> str:
    """Line `line` (1-based) of `text`, without its line break."""
    start = 0
    for _ in range(line - 1):
        start = text.find("\n", start) + 1
        if start == 0:
            return ""
    end = text.find("\n", start)
    return text[start:end if end >= 0 else len(text)].rstrip("\r")


def end_of_input(text: str) -> tuple[int, int]:
    """Where a message about the end of `text` points: at a trailing `;` (which is not a
    terminator), else just past the last character that is not white space."""
    body = text.rstrip()
    at = len(body) - 1 if body.endswith(";") else len(body)
    start = body.rfind("\n", 0, at) + 1
    return body.count("\n", 0, at) + 1, at - start + 1


CALL_IN_EXPRESSION = re.compile(r"(?:^|[;\n]|\bdo|\bthen|\belse|\bbegin)\s*(?:var\s+)?"
                                r"[A-Za-z_]\w*\s*=\s*[A-Za-z_]\w*\s*\([^;=]*\)\s*$")


def call_in_expression(before: str, token: str, expected: set[str]) -> bool:
    """Whether a syntax error at `token` after the text `before` is a call used as a value:
    `(` after a name where no call may stand (`if f(1) > 0`), or an operator after the call of
    an assignment (`x = f(1) + 1`). Calls are statements (seed 003 §3), never expressions."""
    if token == "(":  # right after a name that ended an operand
        return "PLUS" in expected and bool(re.search(r"[A-Za-z_]\w*\s*$", before))
    return "SEMICOLON" in expected and bool(CALL_IN_EXPRESSION.search(before))


def error_at(text: str, filename: str, line: int, column: int, message: str,
             kind: type[ParseError] = ParseError) -> ParseError:
    """The error of `kind` at `line`:`column` of `text`, quoting that line."""
    return kind(filename, line, column, message, line_text(text, line))


def too_large(head: bytes, filename: str, limit: int) -> LimitError:
    """The error for an input longer than `limit` bytes, of which `head` are the first."""
    before = head.decode("utf-8", errors="replace")
    line_start = before.rfind("\n") + 1
    return LimitError(filename, before.count("\n") + 1, len(before) - line_start + 1,
                      f"the input is longer than the limit of {limit:,} bytes, which it reaches "
                      "here; raise it with --max-input-bytes N",
                      before[line_start:].rstrip("\r"))
