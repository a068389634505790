# crosshair: off
"""The only module that imports z3: satisfiability of path conditions, three-valued.

`Sat` is SAT, UNSAT or UNKNOWN (WiSE's `Inductive sat`). The UNKNOWN policy, written once:
an UNKNOWN path condition is kept during exploration (M-S1: unknown counts as maybe), is never
reported as a bug (no model, so no replay) and makes a run that meets it undecided rather than
safe only when it stands behind a possible bug (W-T3.8: never a false YES, never a false NO).
Results are deterministic: a fixed random seed and a resource limit instead of wall-clock time.
"""

from __future__ import annotations

import enum
import time
from dataclasses import dataclass, field

import z3

from symcert.concrete import Env
from symcert.symbolic import PathCondition
from symcert.syntax import Add, AExpr, And, BExpr, Bool, Cmp, Int, Neg, Not, Or, Sub, Var
from symcert.terms import free_vars

DEFAULT_RLIMIT = 5_000_000


class Sat(enum.Enum):
    """A solver's answer."""

    SAT = "sat"
    UNSAT = "unsat"
    UNKNOWN = "unknown"


@dataclass
class SolverStats:
    """What the solver was asked and how long z3 took."""

    queries: int = 0
    cache_hits: int = 0
    z3_seconds: float = 0.0
    unknown: int = 0


@dataclass
class Solver:
    """Decides path conditions with z3, caching translations and answers.

    :param rlimit: z3's resource limit per query (deterministic, unlike a timeout).
    """

    rlimit: int = DEFAULT_RLIMIT
    stats: SolverStats = field(default_factory=SolverStats)
    _terms: dict[object, z3.ExprRef] = field(default_factory=dict, repr=False)
    _answers: dict[PathCondition, tuple[Sat, Env | None]] = field(default_factory=dict,
                                                                   repr=False)

    def __post_init__(self) -> None:
        self._z3 = z3.Solver()
        self._z3.set("random_seed", 0)
        self._z3.set("rlimit", self.rlimit)

    def check(self, pc: PathCondition) -> tuple[Sat, Env | None]:
        """Decide `pc`; on SAT also return a model over its free variables (missing ones 0)."""
        cached = self._answers.get(pc)
        if cached is not None:
            self.stats.cache_hits += 1
            return cached
        self.stats.queries += 1
        conjuncts = pc.conjuncts()
        if any(isinstance(c, Bool) and not c.value for c in conjuncts):
            answer: tuple[Sat, Env | None] = (Sat.UNSAT, None)
        else:
            start = time.perf_counter()
            s = self._z3
            s.push()
            try:
                for c in conjuncts:
                    s.add(self.translate(c))
                result = s.check()
                if result == z3.sat:
                    names = set().union(*(free_vars(c) for c in conjuncts)) if conjuncts else set()
                    model = s.model()
                    values = {x: model.eval(z3.Int(x), model_completion=True).as_long()
                              for x in names}
                    answer = (Sat.SAT, Env.of(values))
                elif result == z3.unsat:
                    answer = (Sat.UNSAT, None)
                else:
                    self.stats.unknown += 1
                    answer = (Sat.UNKNOWN, None)
            finally:
                s.pop()
                self.stats.z3_seconds += time.perf_counter() - start
        self._answers[pc] = answer
        return answer

    def translate(self, t: AExpr | BExpr) -> z3.ExprRef:
        """The z3 term for a symbolic term (cached)."""
        cached = self._terms.get(t)
        if cached is not None:
            return cached
        result = self._translate(t)
        self._terms[t] = result
        return result

    def _translate(self, t: AExpr | BExpr) -> z3.ExprRef:
        tr = self.translate
        match t:
            case Int(v):
                return z3.IntVal(v)
            case Var(x):
                return z3.Int(x)
            case Neg(a):
                return -tr(a)
            case Add(a, b):
                return tr(a) + tr(b)
            case Sub(a, b):
                return tr(a) - tr(b)
            case Bool(v):
                return z3.BoolVal(v)
            case Not(a):
                return z3.Not(tr(a))
            case And(a, b):
                return z3.And(tr(a), tr(b))
            case Or(a, b):
                return z3.Or(tr(a), tr(b))
            case Cmp(op, a, b):
                x, y = tr(a), tr(b)
                return {"==": x == y, "!=": x != y, "<": x < y, "<=": x <= y,
                        ">": x > y, ">=": x >= y}[op]
        raise TypeError(f"not a term: {t!r}")
