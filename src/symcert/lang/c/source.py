"""Reading C: a `.i` file (already preprocessed) as it is, a `.c` file through pcpp (a C99
preprocessor in pure Python), then pycparser. No system compiler is needed.

`.c` files: `#include` of a header that is not beside the file is dropped (SV-COMP's tasks
include only the C library's headers, whose functions symcert knows by name: `assert`,
`abort`, `exit`; pycparser's fake libc headers are not used, so `assert(c)` stays a call) and a
short prelude declares the C library's integer typedefs (`size_t`, ...) for the data model.
`.i` files: the line markers (`# 12 "x.c"`) are blanked so that positions are the `.i` file's
own lines, and the GCC extensions SV-COMP's files contain (`__attribute__((…))`,
`__extension__`, `__restrict`, `__inline`, `__const`, `__asm__(…)` labels) are blanked in place,
so every column stays where it was. Anything pycparser cannot read is a `ParseError` with the
line, a caret and pycparser's words; a construct outside the subset is `UnsupportedC`.
"""

from __future__ import annotations

import io
import re
from typing import Any

from symcert.lang.c.types import DataModel
from symcert.lang.errors import ParseError, line_text

_BLANKED_GROUP = re.compile(r"\b(__attribute__|__attribute|__asm__|__asm|asm)\s*\(")
_WORDS = {"__extension__": "", "__restrict__": "", "__restrict": "", "__inline__": "inline",
          "__inline": "inline", "__const": "const", "__volatile__": "volatile",
          "__signed__": "signed", "__volatile": "volatile"}
_WORD = re.compile(r"\b(" + "|".join(sorted(_WORDS, key=len, reverse=True)) + r")\b")
_LINE_MARKER = re.compile(r"^[ \t]*#[^\n]*", re.MULTILINE)
_PRELUDE_TYPES = ("typedef int __builtin_va_list; typedef double _Float32, _Float64, _Float128, "
                  "_Float32x, _Float64x;")


class UnsupportedC(ParseError):
    """A construct of C outside the subset symcert reads (docs/c.md), at its position."""

    kind = "unsupported C"


def unsupported(text: str, filename: str, coord: Any, what: str) -> UnsupportedC:
    """The error for `what` at pycparser's `coord` (line and column of `text`)."""
    line = getattr(coord, "line", 1) or 1
    column = getattr(coord, "column", 1) or 1
    return UnsupportedC(filename, line, column, f"{what} at {line}:{column}",
                        line_text(text, line))


def _blank(text: str, start: int, end: int) -> str:
    """`text` with `[start, end)` turned to spaces (newlines kept)."""
    return text[:start] + re.sub(r"[^\n]", " ", text[start:end]) + text[end:]


def _closing(text: str, i: int) -> int:
    """The index of the parenthesis that closes the one at `i`, or -1."""
    depth = 0
    for j in range(i, len(text)):
        depth += {"(": 1, ")": -1}.get(text[j], 0)
        if depth == 0:
            return j
    return -1


_ASSERT_BODY = re.compile(r"\s*if\s*\(")
_ASSERT_ELSE = re.compile(r"\s*;\s*else\s+(__assert_fail\s*\(.*\))\s*;\s*$", re.DOTALL)


def assert_statements(text: str) -> str:
    """`text` with each GNU statement expression of glibc's `assert` macro,
    `({ if (c) ; else __assert_fail (…); })`, written as the expression
    `((c) ? (void) 0 : __assert_fail (…))`, which means the same. Another statement expression
    is left as it is (pycparser then refuses it: never a mis-parse)."""
    at = 0
    while (start := text.find("({", at)) >= 0:
        end = _closing(text, start)
        at = start + 2
        if end < 0:
            break
        inner = text[start + 2:end]
        if not inner.rstrip().endswith("}"):
            continue
        inner = inner.rstrip()[:-1]
        head = _ASSERT_BODY.match(inner)
        if head is None:
            continue
        close = _closing(inner, head.end() - 1)
        rest = _ASSERT_ELSE.match(inner, close + 1) if close > 0 else None
        if rest is None:
            continue
        cond = inner[head.end() - 1:close + 1]
        text = text[:start] + f"({cond} ? (void) 0 : {rest.group(1)})" + text[end + 1:]
    return text


def strip_gnu(text: str) -> str:
    """`text` with SV-COMP's GCC extensions blanked in place (positions unchanged): a group
    `__attribute__((…))` or `__asm__(…)`, and `__extension__`, `__restrict` (their words)."""
    at = 0
    while (m := _BLANKED_GROUP.search(text, at)) is not None:
        depth, i = 0, m.end() - 1
        while i < len(text):
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            if depth == 0:
                break
            i += 1
        text = _blank(text, m.start(), i + 1)
        at = i + 1
    text = _WORD.sub(lambda w: _WORDS[w.group(1)].ljust(len(w.group(1))), text)
    return assert_statements(text)


def preprocess(text: str, filename: str) -> str:
    """The C after pcpp (a `.c` file): macros expanded, includes of absent headers dropped,
    `#line` directives kept so that positions stay the file's."""
    from pcpp import Preprocessor  # type: ignore[import-untyped]
    from pcpp.preprocessor import Action, OutputDirective  # type: ignore[import-untyped]

    class _Reader(Preprocessor):  # type: ignore[misc]
        def on_include_not_found(self, is_malformed: bool, is_system_include: bool,
                                 curdir: str, includepath: str) -> None:
            raise OutputDirective(Action.IgnoreAndRemove)

        def on_error(self, file: str, line: int, msg: str) -> None:
            raise ParseError(filename, line, 1, f"preprocessor: {msg}", line_text(text, line))

    pp = _Reader()
    pp.line_directive = "#line"
    pp.parse(text, filename)
    out = io.StringIO()
    pp.write(out)
    return out.getvalue()


def prelude(model: DataModel) -> str:
    """The C library's integer typedefs for `model`, on one line (a `.c` file's prelude)."""
    size = "unsigned long" if model.long_bits == 64 else "unsigned int"
    return (f"typedef {size} size_t; typedef long ssize_t; typedef long ptrdiff_t; "
            f"typedef int wchar_t; {_PRELUDE_TYPES}\n")


def parse_c(text: str, filename: str, model: DataModel) -> Any:
    """pycparser's syntax tree of the C program `text` (a `.i` file when `filename` ends so,
    else a `.c` file to preprocess).

    :raises ParseError: when pycparser cannot read it.
    """
    from pycparser import c_parser  # type: ignore[import-untyped]

    if filename.endswith(".i"):
        body = _LINE_MARKER.sub(lambda m: " " * len(m.group(0)), text)
        source = "#line 1\n" + _PRELUDE_TYPES + "\n#line 1\n" + strip_gnu(body)
    else:
        source = ("#line 1\n" + prelude(model) + "#line 1\n"
                  + strip_gnu(preprocess(text, filename)))
    try:
        return c_parser.CParser().parse(source, filename)
    except Exception as err:  # pycparser's ParseError: "file:line:col: message"
        m = re.match(r"^(?:.*?):(\d+):(\d+): (.*)$", str(err), re.DOTALL)
        line, column, message = ((int(m.group(1)), int(m.group(2)), m.group(3)) if m
                                 else (1, 1, str(err)))
        raise ParseError(filename, max(line, 1), max(column, 1), f"C: {message}",
                         line_text(text, max(line, 1))) from None
