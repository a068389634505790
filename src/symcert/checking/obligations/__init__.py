# crosshair: off
# (it generates and discharges proof obligations with z3 and cvc5: a checker, not the engine)
"""Proof obligations generated from the engine's own code, discharged by z3 and cvc5.

Each obligation runs the project's functions (`explore.expand`, `explore._feasible`,
`concrete.step`, `symbolic.sym_aeval`/`sym_beval`/`sym_update`/`concretize`, `guards.GUARDS`,
`interp.existentially_quantify`/`maybe_sat`) on a *schematic*
state: integer and boolean literals hold `SymInt`/`SymBool` values that stand for arbitrary ones,
expressions and statements are placeholders (`?e1`, `?P1`), the path condition is the unknown
boolean `?phi`. When the code branches on a schematic value, generation forks and records the
branch taken, so the code's every path yields its own obligation; the results are translated to
SMT-LIB (`symcert.verify.smtlib`) and an obligation is VALID when its negation is UNSAT, for both
provers. The case analysis that turns the obligations into the lemmas is in docs/proofs.md.

`python -m symcert.checking.obligations` replays every obligation and compares with proofs/record.json
(`--write` records anew and regenerates the table in docs/proofs.md).

The package: `common` (the `Obligation`, schematic placeholders and `SymNum`, the branch-forking
`collect`), `expressions` (B-L1, G-M1, W-L2.1), `languages` (G-M1 for the data operations
of a language defined by rewrite rules, seed 002), `rules` (W-L2.3, W-L2.5, W-L2.2 per rule, the
`-by-zero` rules of X-A2 included), `procedures` (the same three lemmas for seed 003 §3's
call, return, local and global assignment in a procedure and `var`), `division` (X-A1, X-A2's guard), `solver_rules`
(M-S1, M-Q1), `arrays` (B-A1, B-H3: seed 003 §5's update of a cell and its resolution along
an update sequence), `rewriting` (G-L2, G-L3 per rule of imp.sem and gcl.sem, seed 002),
`loops` (T-I1: the invariant transition's checks, iteration and exit), `calls` (T-S1: the
contract transition's precondition and summary), `coverage` (`generate`, `missing`),
`counterexamples`, `record` (replay, the proof
record, the table, the command).
"""

from symcert.checking.obligations.arrays import b_a1, b_h3
from symcert.checking.obligations.calls import t_s1
from symcert.checking.obligations.common import (
    EXPR_CASES,
    FRAME_RULES,
    RULES,
    V0,
    Obligation,
)
from symcert.checking.obligations.counterexamples import (
    INSTANCES,
    Instances,
    counterexample,
    instantiate,
)
from symcert.checking.obligations.coverage import generate, missing
from symcert.checking.obligations.division import x_a1, x_a2
from symcert.checking.obligations.expressions import b_l1, g_m1, w_l2_1
from symcert.checking.obligations.languages import g_m1_languages
from symcert.checking.obligations.loops import t_i1
from symcert.checking.obligations.record import (
    dump_record,
    keep_times,
    load_record,
    main,
    problems,
    replay,
    table,
    vacuous,
)
from symcert.checking.obligations.procedures import procedure_rules
from symcert.checking.obligations.rules import statements
from symcert.checking.obligations.solver_rules import m_q1, m_q1_quantify, m_s1, m_s1_maybe_sat

__all__ = [
    "EXPR_CASES", "FRAME_RULES", "INSTANCES", "RULES", "V0", "Instances", "Obligation", "b_a1",
    "b_h3", "b_l1", "counterexample", "dump_record", "g_m1", "g_m1_languages", "generate",
    "instantiate", "keep_times",
    "load_record", "m_q1", "m_q1_quantify", "m_s1", "m_s1_maybe_sat", "main", "missing",
    "problems", "procedure_rules", "replay", "statements", "t_i1", "t_s1", "table", "vacuous",
    "w_l2_1", "x_a1", "x_a2",
]
