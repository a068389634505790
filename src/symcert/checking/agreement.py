"""Agreement of the derived IMP engine with the hand-written one (seed 002 against Fig. 7): an
independent checker for W-T3.1 and W-T2.2/W-T2.3.

The derived engine is seed 002's: the rules of the shipped `imp.sem` (concrete, Def. 2) and
`L^sym` derived from them (§4.3), run by `seed002.rewrite`; the hand-written engine is seed 000's
`core.concrete` (Fig. 2), `engine.explore.expand` (Fig. 3) and `engine.verdict.check`. For a
program without macros (procedures, arrays and objects included) and an input `V`, `compare`
computes four outcomes (how the run ends, normally, at `fail` or blocked by `assume`, and the
final store of the program's global variables without zeros, arrays and fields' maps `.f` as
their cells):

1. the hand-written concrete run from `V`;
2. the derived concrete run from `V` (the rules of `L`);
3. the hand-written symbolic path that `V` follows: from `⟨true, id, p⟩`, each `expand` step
   goes to the successor whose path condition `V` satisfies; its store concretised by `V`;
4. the derived symbolic path that `V` follows in `L^sym`, its configuration valued by `V`
   (`seed002.simulation.valuate`);

and, optionally, the two verdicts (`engine.verdict.check`, `seed002.bugfinder.check`).

*Modulo path splitting.* The derived semantics splits paths more finely than the hand-written
one: a short-circuit `and` (and `or`) steps on its first operand ([and-true], [and-false]), so
`if b1 and b2 then …` has three derived paths (`b1 ∧ b2`, `b1 ∧ ¬b2`, `¬b1`) where the
hand-written engine has two (`b1 and b2`, its negation), and heating/cooling adds steps. The
trees therefore differ in shape, path count and state count; what must agree is *pointwise*:
for every input, the leaf it follows in each tree (outcomes 3 and 4, both equal to 1 and 2),
and the verdicts when both checks are decided (the derived check gets `DERIVED_STATES` times the
state budget, its configurations being finer steps). Counts are never compared. Symbolic paths
follow `V` without a solver: `L^sym` runs with a solver that decides nothing (every rule whose
matcher exists applies, Remark 1) and `V` picks the successor.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from symcert.core.concrete import Ending, Env, Value, beval, head, run_to_end
from symcert.core.state import PathCondition, concretize, initial as sym_state
from symcert.engine.explore import expand
from symcert.engine.verdict import Budget, Kind
from symcert.engine.verdict import check as hand_written_check
from symcert.lang.expressions import is_field
from symcert.lang.procedures import show_program
from symcert.lang.structure import variables
from symcert.lang.syntax import Fail, Skip, Stmt
from symcert.seed002.bugfinder import LangBudget, Language
from symcert.seed002.bugfinder import check as derived_check
from symcert.seed002.rewrite import Config, Engine, initial, program_ids
from symcert.seed002.simulation import Semantics, valuate
from symcert.seed002.symbolic import sym_initial
from symcert.seed002.terms import App, kitems
from symcert.solver.z3backend import Sat, solver_for

__all__ = ["Agreement", "Outcome", "compare", "imp"]

DERIVED_STATES = 40
"""The derived check's state budget, as a multiple of the hand-written one's (and `run --lang`'s
default budget, as a multiple of `run`'s: `cli.commands.options.DERIVED_STATES`)."""
DERIVED_STEPS = 20
"""The derived runs' steps, as a multiple of the hand-written ones' (heating, cooling, lookups:
an IMP step is several rule steps)."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a run ended and its final store (non-zero bindings, sorted; an array's binding its
    `Cells`, unless all its cells are 0)."""

    ending: Ending
    store: tuple[tuple[str, Value], ...]

    def __str__(self) -> str:
        return f"{self.ending.value} {Env(self.store)}"


@dataclass(frozen=True, slots=True)
class Agreement:
    """The outcomes of one program on one input (None: out of fuel), and the verdicts (None:
    not asked)."""

    program: str
    inputs: Env
    hand_concrete: Outcome | None
    derived_concrete: Outcome | None
    hand_symbolic: Outcome | None
    derived_symbolic: Outcome | None
    hand_verdict: Kind | None = None
    derived_verdict: Kind | None = None

    @property
    def disagreement(self) -> str | None:
        """What differs, or None when the engines agree (module docstring)."""
        named = {"hand-written concrete": self.hand_concrete,
                 "derived concrete": self.derived_concrete,
                 "hand-written symbolic": self.hand_symbolic,
                 "derived symbolic": self.derived_symbolic}
        known = {k: v for k, v in named.items() if v is not None}
        if len(set(known.values())) > 1:
            return "; ".join(f"{k}: {v}" for k, v in known.items())
        decided = (Kind.BUG, Kind.SAFE)
        if self.hand_verdict in decided and self.derived_verdict in decided \
                and self.hand_verdict is not self.derived_verdict:
            return (f"verdicts: hand-written {self.hand_verdict.value}, "  # type: ignore[union-attr]
                    f"derived {self.derived_verdict.value}")  # type: ignore[union-attr]
        return None

    @property
    def agree(self) -> bool:
        """Whether nothing differs."""
        return self.disagreement is None


class _Undecided:
    """A solver that decides nothing: `unsat` is never true, every matching rule applies."""

    def check(self, pc: Any, parent_model: Any = None) -> tuple[Sat, None]:
        return Sat.UNKNOWN, None


_IMP: list[Language] = []


def imp() -> Language:
    """The shipped IMP definition and its derivation (loaded once)."""
    if not _IMP:
        _IMP.append(Language.load("imp"))
    return _IMP[0]


def compare(program: Stmt, inputs: Env, fuel: int = 20_000,
            max_states: int | None = None) -> Agreement:
    """The four outcomes of `program` on `inputs` and, with `max_states`, the two verdicts.

    :param program: an IMP program without macros (`checking.generate.program`).
    :param inputs: the input `V`.
    :param fuel: steps of each run (the derived runs get `DERIVED_STEPS` times as many).
    :param max_states: the hand-written check's state budget (None: verdicts not compared).
    """
    lang = imp()
    text = show_program(program)
    term = lang.parse(text)
    names = program_ids(term) + sorted(x for x in variables(program) if is_field(x))
    values = {x: inputs(x) for x in names}
    sem = Semantics(Engine(lang.concrete), Engine(lang.symbolic, _Undecided()))
    final = run_to_end(inputs, program, fuel)
    hand = None if final is None else Outcome(final.ending, _nonzero(
        {x: final.env(x) for x in names}))
    derived = _derived_concrete(sem, term, values, fuel * DERIVED_STEPS)
    agreement = Agreement(text, inputs, hand, derived, _hand_symbolic(program, inputs, names, fuel),
                          _derived_symbolic(sem, term, Env.of(values), fuel * DERIVED_STEPS))
    if max_states is None:
        return agreement
    h = hand_written_check(program, Budget(max_states)).kind
    d = derived_check(lang, term, LangBudget(max_states * DERIVED_STATES),
                      solver_for(program)).kind
    return Agreement(text, inputs, hand, derived, agreement.hand_symbolic,
                     agreement.derived_symbolic, h, d)


def _nonzero(values: dict[str, Value]) -> tuple[tuple[str, Value], ...]:
    return Env.of(values).bindings


def _outcome(lang: Language, cfg: Config) -> Outcome:
    """How a stuck configuration of `L` ended, and its store: the environment's integers
    (an array's name there is 0) and the arrays (fields' maps `.f` among them)."""
    d = lang.concrete
    k = list(kitems(cfg.cells[d.cell_index["k"]]))
    store = _nonzero({**{x: v.value for x, v in cfg.cells[d.cell_index["env"]].bindings},
                      **dict(cfg.cells[d.cell_index["arrays"]].bindings)})
    if not k:
        return Outcome(Ending.NORMAL, store)
    first = k[0]
    label = first.label if isinstance(first, App) else None
    return Outcome(Ending.FAIL if label in d.bug_labels else Ending.BLOCKED, store)


def _derived_concrete(sem: Semantics, term: Any, values: dict[str, int],
                      fuel: int) -> Outcome | None:
    cfg = initial(sem.concrete.d, term, values)
    for _ in range(fuel):
        steps = sem.concrete.step(cfg)
        if not steps:
            return _outcome(imp(), cfg)
        cfg = steps[0].target
    return None


def _derived_symbolic(sem: Semantics, term: Any, inputs: Env, fuel: int) -> Outcome | None:
    """The `L^sym` path that `inputs` follows, its last configuration valued by `inputs`."""
    cfg = sym_initial(sem.symbolic.d, term)
    for _ in range(fuel):
        phi = cfg.cells[sem.cells]
        follow = [t.target for t in sem.symbolic.step(cfg)
                  if _new_conjuncts_hold(inputs, t.target.cells[sem.cells], phi)]
        if not follow:
            return _outcome(imp(), valuate(sem, cfg, inputs))
        cfg = follow[0]
    return None


def _new_conjuncts_hold(inputs: Env, phi: PathCondition, parent: PathCondition) -> bool:
    """`V ⊨ φ'` given `V ⊨ φ` and `φ'` extending `φ` (W-L2.2): only the new conjuncts are
    evaluated, so following a path is linear in its length."""
    node: PathCondition | None = phi
    while node is not None and node.length > parent.length:
        if node.last is not None and not beval(inputs, node.last):
            return False
        node = node.parent
    return True


def _hand_symbolic(program: Stmt, inputs: Env, names: list[str], fuel: int) -> Outcome | None:
    """The `expand` path that `inputs` follows, its store concretised by `inputs`."""
    state = sym_state(program)
    for _ in range(fuel):
        follow = [s for s in expand(state) if _new_conjuncts_hold(inputs, s.pc, state.pc)]
        if not follow:
            env = concretize(inputs, state.store, frozenset(names))
            ending = Ending.NORMAL if isinstance(state.prog, Skip) and state.frame is None \
                else Ending.FAIL if isinstance(head(state.prog), Fail) else Ending.BLOCKED
            return Outcome(ending, _nonzero(env.as_dict()))
        state = follow[0]
    return None
