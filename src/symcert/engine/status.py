"""The bug finder's status messages (seed 000, Fig. 8) and `has_bug`'s answers (Fig. 10)."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Union

from symcert.core.state import SymState


@dataclass(frozen=True, slots=True)
class Pending:
    """A state was explored and is not an error state."""

    state: SymState


@dataclass(frozen=True, slots=True)
class BugFound:
    """A stuck state was reached; valid whenever its path condition is satisfiable (W-D3.2)."""

    state: SymState


@dataclass(frozen=True, slots=True)
class Finished:
    """Exploration is exhaustive: every reachable state has been reported."""


Status = Union[Pending, BugFound, Finished]


class Answer(enum.Enum):
    """The verdict of `has_bug` (Fig. 10), with UNKNOWN for a budget that ran out."""

    YES = "yes"
    NO = "no"
    UNKNOWN = "unknown"
