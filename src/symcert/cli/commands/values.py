"""Printing IMP's values, which are unbounded integers: in full up to `MAX_SHOWN_DIGITS` digits,
and beyond as a summary with the digit count and the first and last digits. A value of 100,001
digits is an ordinary result of a short loop; printing it must neither crash (Python refuses to
convert integers longer than `sys.get_int_max_str_digits()`) nor flood the terminal."""

from __future__ import annotations

import math
import sys
from typing import Any, Callable

MAX_SHOWN_DIGITS = 1_000
EDGE = 4  # digits shown at each end of a summary
_LOG10_2 = math.log10(2)


def digits(n: int) -> int:
    """How many decimal digits `|n|` has, computed without converting it to text."""
    n = abs(n)
    if n < 10:
        return 1
    estimate = int((n.bit_length() - 1) * _LOG10_2) + 1  # the count, or one less
    return estimate + 1 if n >= 10 ** estimate else estimate


def _shown_limit() -> int:
    limit = sys.get_int_max_str_digits()
    return min(MAX_SHOWN_DIGITS, limit) if limit else MAX_SHOWN_DIGITS


def show_int(n: int) -> str:
    """`str(n)`, or `<an integer of 100,001 digits: 1000…0000>` beyond the limit."""
    count = digits(n)
    if count <= _shown_limit():
        return str(n)
    sign = "-" if n < 0 else ""
    lead = abs(n) // 10 ** (count - EDGE)
    tail = abs(n) % 10**EDGE
    return f"<an integer of {count:,} digits: {sign}{lead}…{tail:0{EDGE}d}>"


def json_int(n: int) -> int | str:
    """`n` as a JSON number, or as the string `show_int` gives beyond the limit."""
    return n if digits(n) <= _shown_limit() else show_int(n)


def text(obj: Any, render: Callable[[Any], str] = str) -> str:
    """`render(obj)` for a term, a path condition or a state, or a note when it holds an integer
    that Python refuses to convert to text (more than `sys.get_int_max_str_digits()` digits)."""
    try:
        return render(obj)
    except ValueError as err:
        if "integer string conversion" not in str(err):
            raise
        return (f"<not shown: holds an integer of more than "
                f"{sys.get_int_max_str_digits():,} digits>")
