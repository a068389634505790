"""The printing contract of the parser (no LEMMAS.md ID): printed programs parse back."""

from __future__ import annotations

import sys
from typing import Callable

from symcert.lang.syntax import Stmt


def parse_round_trip(result: Stmt, parse: Callable[..., Stmt]) -> bool:
    """The printed program parses back to the same AST: `parse(str(p)) == p` (without the
    input budgets: `p` itself may have been parsed under raised ones)."""
    return parse(str(result), max_input_bytes=sys.maxsize, max_program_size=sys.maxsize) == result
