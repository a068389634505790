"""The solver's answers (WiSE's `Inductive sat`), its counters, and M-S1 spot-checked where its
fast paths decide (solver/z3backend.py); plain data, no z3."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from symcert.core.concrete import Env, beval
from symcert.core.state import PathCondition
from symcert.spec.switch import lemma


class Sat(enum.Enum):
    """A solver's answer."""

    SAT = "sat"
    UNSAT = "unsat"
    UNKNOWN = "unknown"


@dataclass
class SolverStats:
    """What the solver was asked and how long z3 took.

    `queries` counts the path conditions that went to z3 (`cache_hits` did not); `z3_seconds` is
    the time spent inside z3 on them (push, pop, assert, check, model); `translate_seconds` the
    time spent building z3 terms. `independent` counts queries decided by a conjunct alone.
    """

    queries: int = 0
    cache_hits: int = 0
    z3_seconds: float = 0.0
    unknown: int = 0
    translate_seconds: float = 0.0
    translations: int = 0
    translation_hits: int = 0
    literals: int = 0
    pushes: int = 0
    pops: int = 0
    independent: int = 0
    independent_hits: int = 0
    intervals: int = 0
    isolated: int = 0
    deadlines: int = 0


@lemma("M-S1")
def unsat_spares_parent_model(pc: PathCondition, parent_model: Env | None,
                              result: tuple[Sat, Env | None]) -> bool:
    """M-S1 spot-checked where the fast paths decide: an UNSAT answer must not be refuted by
    the caller's model of `pc.parent` satisfying the new conjunct too (that would be a solution);
    a SAT answer carries a model of the new conjunct."""
    answer, model = result
    last = pc.last
    if last is None:
        return True
    if answer is Sat.UNSAT:
        return parent_model is None or not beval(parent_model, last)
    return answer is not Sat.SAT or (model is not None and beval(model, last))
