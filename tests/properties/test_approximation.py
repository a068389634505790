"""Over- and under-approximation (seed 004, Properties 1-4) over generated programs and inputs.

The ghost reformulations (M-P3, M-P4) are checked without a solver, on both engines: the seed 004
interpreter (`interp.exec_symbolic`) and the main engine's `run` (`ghost.check_ghost_run`). The
original formulations (M-P1, M-P2) quantify over solutions; they are checked with z3. The
predicates are called explicitly, so these properties hold with the runtime contracts off too.
"""

from __future__ import annotations

from itertools import islice

from hypothesis import assume, given
from hypothesis import strategies as st

from strategies import envs, plain_aexprs, plain_bexprs, programs
from symcert.core.concrete import Env, State, aeval, is_stuck, trace
from symcert.core.state import PathCondition, initial, satisfies
from symcert.engine.explore import Strategy, run
from symcert.engine.ghost import check_ghost_run, ghost_initial
from symcert.lang.structure import children, inputs, with_children
from symcert.lang.syntax import AExpr, BExpr, Cmp, Int, Skip, Stmt, Var
from symcert.seed004.interp import (
    Behaviour,
    Outcome,
    concretize_result,
    exec_concrete,
    exec_symbolic,
    existentially_quantify,
    input_of,
    interpretations_extend,
    over_approximation,
    results_interpreted,
    under_approximation,
)
from symcert.solver.z3backend import Sat, Solver
from symcert.spec.definedness import defined

limits = st.integers(0, 3)
# None: the inputs are declared (the main engine's reading); empty: every read-before-write is
# UNBOUND_VAR.
declarations = st.sampled_from([None, frozenset()])


@given(programs, envs, limits, declarations, st.booleans(), st.booleans())
def test_ghost_over_and_under_approximation(p: Stmt, rho: Env, n: int,
                                            declared: frozenset[str] | None,
                                            eliminate: bool, pruning: bool) -> None:
    """M-P3/M-P4 (and M-I1, M-E1) for the seed 004 interpreter, with and without pruning and
    quantifier elimination."""
    results = exec_symbolic(p, n, Solver() if pruning else None, rho, declared, eliminate)
    assert results_interpreted(results)
    assert interpretations_extend(p, rho, declared, results)
    assert over_approximation(p, n, rho, declared, results)
    assert under_approximation(p, n, rho, declared, results)


@given(programs, envs, limits)
def test_over_approximation_by_solving(p: Stmt, rho: Env, n: int) -> None:
    """M-P1: the concrete outcome from ρ is some result `(σ'|C')_β` under a solution ρ' ⊨ C'
    that agrees with ρ on the inputs and gives `Γ' = ρ'∘σ'` (found by z3, no ghost)."""
    declared = inputs(p)
    outcome = exec_concrete(p, rho, n)
    solver = Solver()
    answers = []
    for r in exec_symbolic(p, n, solver):
        if r.behaviour is not outcome.behaviour:
            continue
        pins = [Cmp("==", Var(x), Int(rho(x))) for x in sorted(declared)]
        pins += [Cmp("==", Var(v), Int(outcome.env(x))) for x, v in r.env.bindings]
        answers.append(solver.check(PathCondition.of(*r.pc.conjuncts(), *pins))[0])
    assume(Sat.UNKNOWN not in answers)
    assert answers.count(Sat.SAT) == 1


@given(programs, limits, declarations)
def test_under_approximation_by_solving(p: Stmt, n: int,
                                        declared: frozenset[str] | None) -> None:
    """M-P2: every result, under a model ρ' ⊨ C' found by z3, is the concrete outcome from the
    input ρ' gives: `i /ρ∘σ ⇓n β/ρ'∘σ'`."""
    bound = inputs(p) if declared is None else declared
    solver = Solver()
    for r in exec_symbolic(p, n, solver, declared=declared):
        answer, model = solver.check(r.pc)
        assert answer is not Sat.UNSAT  # pruning kept only satisfiable results
        if model is not None:
            assert exec_concrete(p, input_of(model, bound), n, declared) \
                == concretize_result(r, model)


@given(programs, envs)
def test_concrete_twin_agrees_with_the_small_step_semantics(p: Stmt, rho: Env) -> None:
    """M-C1: with the inputs declared and a loop limit no run reaches, the natural-semantics
    interpreter ends as the small-step semantics of Fig. 2 does: NORMAL at `skip`, FAIL when
    stuck, with the same variables."""
    rho = input_of(rho, inputs(p))  # only the inputs are bound; others read 0 in Fig. 2
    steps = list(trace(State(rho, p), 400))
    final = steps[-1]
    assume(isinstance(final.prog, Skip) or is_stuck(final.prog))
    behaviour = Behaviour.NORMAL if isinstance(final.prog, Skip) else Behaviour.FAIL
    assert exec_concrete(p, rho, len(steps)) == Outcome(behaviour, final.env)


@given(programs, envs, st.sampled_from(list(Strategy)), st.booleans())
def test_main_engine_ghosts(p: Stmt, rho: Env, strategy: Strategy, pruning: bool) -> None:
    """The main engine with a ghost produces the same states as without, and its ghost states
    are exactly the concrete trace (M-P3, M-P4 without a solver)."""
    solver = Solver() if pruning else None
    plain = list(islice(run([initial(p)], strategy, solver), 80))
    ghosted = list(islice(run([ghost_initial(p, rho)], strategy, solver), 80))
    assert ghosted == plain
    assert check_ghost_run(p, rho, 80, strategy, solver) is None


def _without_x(e: AExpr) -> AExpr:
    """`e` with `x` renamed `y`: a right-hand side for a definition of `x`."""
    if e == Var("x"):
        return Var("y")
    return with_children(e, [_without_x(a) for a in children(e)])  # type: ignore[arg-type, return-value]


@given(st.lists(plain_bexprs, max_size=3), plain_aexprs, st.lists(plain_bexprs, max_size=3),
       st.booleans())
def test_quantifier_elimination_is_equivalent(before: list[BExpr], se: AExpr,
                                              after: list[BExpr], eliminate: bool) -> None:
    """M-Q1: `existentially_quantify("x", C)` is `∃x. C`, by brute force over small values: a
    valuation of y, z solves the result exactly when some value of x solves C (C holds a
    definition `x == se`, so that value is `⟦se⟧`, which the values searched include: a
    product such as `y * 3 * 4` leaves any fixed range)."""
    pc = PathCondition.of(*before, Cmp("==", Var("x"), _without_x(se)), *after)
    new_pc, exists = existentially_quantify("x", pc, frozenset(), eliminate)
    for y in range(-3, 4):
        for z in range(-3, 4):
            base = {"y": y, "z": z}
            value = defined(lambda: aeval(Env.of(base), _without_x(se)))
            searched = [*range(-30, 31), *([] if value is None else [value])]
            solved = any(satisfies(Env.of({**base, "x": w}), pc) for w in searched)
            if "x" in exists:  # kept in the prefix: the ghost holds the witness
                assert new_pc == pc
            else:
                assert satisfies(Env.of(base), new_pc) == solved
