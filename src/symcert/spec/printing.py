"""The printing contract of the parser (no lemma ID): printed programs parse back."""

from __future__ import annotations

import sys
from typing import Callable

from symcert.lang.procedures import show_program, table_of
from symcert.lang.syntax import Stmt


def parse_round_trip(result: Stmt, parse: Callable[..., Stmt]) -> bool:
    """The printed program, its procedures' declarations first, parses back to the same AST:
    `parse(str(p)) == p` and each procedure's body too (without the input budgets: `p` itself
    may have been parsed under raised ones)."""
    again = parse(show_program(result), max_input_bytes=sys.maxsize, max_program_size=sys.maxsize)
    return again == result and table_of(again) == table_of(result)
