"""What the C front end gives the engine: a program of symcert's syntax tree whose failing
statements carry C positions (`CPos`) saying what they stand for: `reach_error()` called, an
`assert` failing, or undefined behaviour (lemma C-U1), which is never a bug of `unreach-call`.
"""

from __future__ import annotations

from dataclasses import dataclass

from symcert.lang.syntax import Pos, Stmt


@dataclass(frozen=True, slots=True)
class CPos(Pos):
    """The C position of a statement that may fail, and what its failure means: `event` for a
    report (`reach_error() is called`, ``signed overflow in `x + 1` ``) and whether it is
    undefined behaviour (C-U1) rather than the property's violation."""

    event: str = ""
    undefined: bool = False
    file: str = ""
    """The file of the position when it is not the program's own (an included header)."""


@dataclass(frozen=True)
class CProgram:
    """A translated C program: the main statement (globals set, then `main()` called) of a
    program whose procedures are the C functions, the data model it was read with, and the
    nondet call sites (`nondet_L_C`, the input array of the call at line L, column C, whose
    cell k is the value of its k-th call)."""

    main: Stmt
    data_model: str
    nondet_sites: tuple[str, ...]


def describe(failing: object) -> str:
    """What a `fail` statement reached means, for a report: a C event (`reach_error() is
    called`, `undefined behaviour: signed overflow in ...`) or IMP's own words."""
    event, undefined = failure_of(getattr(failing, "pos", None))
    if event:
        return f"undefined behaviour: {event}" if undefined else event
    return failing.what()  # type: ignore[attr-defined, no-any-return]


def failure_of(pos: object) -> tuple[str, bool]:
    """What a failing statement at `pos` means: its event (or "" for a plain IMP `fail`) and
    whether it is undefined behaviour."""
    if isinstance(pos, CPos):
        return pos.event, pos.undefined
    return "", False
