"""The bounded symbolic interpreter of seed 004 and its concrete twin (interp.py)."""

from __future__ import annotations

import pytest

from symcert.core.concrete import Env
from symcert.core.state import PathCondition, satisfies
from symcert.engine.ghost import Interpretation
from symcert.lang.parser import parse
from symcert.lang.syntax import Bool, Cmp, Int, Var
from symcert.seed004.interp import (
    Behaviour,
    Outcome,
    SymEnv,
    SymResult,
    concretize_result,
    exec_concrete,
    exec_symbolic,
    existentially_quantify,
    input_of,
    maybe_sat,
    over_approximation,
    under_approximation,
)
from symcert.solver.z3backend import Sat, Solver

B = Behaviour
# The seed's loop example, with `+` for `*` (IMP has no product).
SUM = parse("y = 1; while x > 1 do y = y + x; x = x - 1 od")


def behaviours(results: tuple[SymResult, ...]) -> list[Behaviour]:
    return sorted((r.behaviour for r in results), key=lambda b: b.value)


def test_normal_assignment_both_engines() -> None:
    """`y = x - 1` ends normally with y = x - 1, concretely and symbolically."""
    p = parse("y = x - 1")
    assert exec_concrete(p, Env.of({"x": 5}), 3) == Outcome(B.NORMAL, Env.of({"x": 5, "y": 4}))
    (r,) = exec_symbolic(p, 3)
    assert r.behaviour is B.NORMAL and str(r.pc) == "(y#1 == x + -1)"
    assert concretize_result(r, Env.of({"x": 5, "y#1": 4})) == Outcome(B.NORMAL,
                                                                       Env.of({"x": 5, "y": 4}))


def test_unbound_var_when_nothing_is_declared() -> None:
    """Reading an undeclared variable before assigning it is UNBOUND_VAR, in the state reached."""
    p = parse("y = 2; z = w + 1; y = 7")
    none: frozenset[str] = frozenset()
    assert exec_concrete(p, Env(), 1, none) == Outcome(B.UNBOUND_VAR, Env.of({"y": 2}))
    (r,) = exec_symbolic(p, 1, declared=none)
    assert r.behaviour is B.UNBOUND_VAR and r.env == SymEnv((("y", "y#1"),))
    # By default the inputs are declared: the same program reads w = 0.
    assert exec_concrete(p, Env(), 1) == Outcome(B.NORMAL, Env.of({"y": 7, "z": 1}))


def test_unbound_var_in_conditions_is_strict() -> None:
    """A condition reads all its variables: `true or u > 0` with u unbound is UNBOUND_VAR."""
    p = parse("if true or u > 0 then x = 1 else x = 2 fi")
    none: frozenset[str] = frozenset()
    assert exec_concrete(p, Env(), 1, none).behaviour is B.UNBOUND_VAR
    assert behaviours(exec_symbolic(p, 1, declared=none)) == [B.UNBOUND_VAR]


def test_fail_and_failed_assert() -> None:
    """`fail` and a false `assert` end with FAIL in the state before them."""
    assert exec_concrete(parse("x = 1; fail; x = 2"), Env(), 1) == Outcome(B.FAIL,
                                                                           Env.of({"x": 1}))
    p = parse("assert x > 0; y = 1")
    assert exec_concrete(p, Env.of({"x": 0}), 1).behaviour is B.FAIL
    assert exec_concrete(p, Env.of({"x": 1}), 1) == Outcome(B.NORMAL, Env.of({"x": 1, "y": 1}))
    results = exec_symbolic(p, 1)
    assert [(r.behaviour, str(r.pc)) for r in results] == [
        (B.FAIL, "(not x > 0)"), (B.NORMAL, "(x > 0) and (y#1 == 1)")]


def test_loop_limit_is_checked_before_the_test() -> None:
    """With limit 3, x = 3 runs 2 iterations (normal), x = 4 runs 3 and stops at the limit,
    although its loop test would now be false (seed 004, Fig. 4 WHILE-LIMIT)."""
    assert exec_concrete(SUM, Env.of({"x": 3}), 3) == Outcome(B.NORMAL, Env.of({"x": 1, "y": 6}))
    assert exec_concrete(SUM, Env.of({"x": 4}), 3) == Outcome(B.LOOP_LIMIT,
                                                              Env.of({"x": 1, "y": 10}))
    assert exec_concrete(SUM, Env.of({"x": 4}), 4).behaviour is B.NORMAL
    assert exec_concrete(SUM, Env.of({"x": 0}), 0).behaviour is B.LOOP_LIMIT


def test_loop_limit_symbolically_matches_the_seed_example() -> None:
    """Three normal results (0, 1, 2 iterations) and one LOOP_LIMIT result, as in the seed."""
    results = exec_symbolic(SUM, 3, Solver())
    assert behaviours(results) == [B.LOOP_LIMIT, B.NORMAL, B.NORMAL, B.NORMAL]
    (limit,) = [r for r in results if r.behaviour is B.LOOP_LIMIT]
    assert str(limit.pc) == ("(x > 1) and (x + -1 > 1) and (x + -2 > 1) "
                             "and (y#6 == x + 1 + (x + -1) + (x + -2)) and (x#7 == x + -3)")
    assert limit.exists == frozenset({"x"})


def test_nested_loops_count_iterations_per_entry() -> None:
    """The inner loop's counter restarts at each entry: 2 x 2 iterations fit limit 3 (a loop
    with 2 iterations is tested 3 times), although the inner body runs 4 times in all."""
    p = parse("i = 0; while i < 2 do j = 0; while j < 2 do s = s + 1; j = j + 1 od; "
              "i = i + 1 od")
    assert exec_concrete(p, Env(), 3) == Outcome(B.NORMAL, Env.of({"i": 2, "j": 2, "s": 4}))
    (r,) = exec_symbolic(p, 3, Solver())
    assert r.behaviour is B.NORMAL
    assert exec_concrete(p, Env(), 2) == Outcome(B.LOOP_LIMIT, Env.of({"i": 0, "j": 2, "s": 2}))


def test_assignments_introduce_fresh_variables() -> None:
    """Each assignment binds a variable new on its path (M-F1): `#k` counts the assignments."""
    (r,) = exec_symbolic(parse("x = x + 1; y = x; x = y + x"), 1, eliminate=False)
    assert r.env == SymEnv((("x", "x#3"), ("y", "y#2")))
    assert [str(c) for c in r.pc.conjuncts()] == ["x#1 == x + 1", "y#2 == x#1", "x#3 == y#2 + x#1"]
    assert r.exists == frozenset({"x", "x#1"})
    assert r.fresh == 3


def test_quantifier_elimination_by_the_one_point_rule() -> None:
    """A defined overwritten variable is substituted away; an input joins the prefix; a variable
    the constraint does not mention is simply dropped (M-Q1)."""
    (r,) = exec_symbolic(parse("x = 1; x = x + 1"), 1)
    assert str(r.pc) == "(x#2 == 2)" and r.exists == frozenset()
    (r,) = exec_symbolic(parse("x = 1; x = x + 1"), 1, eliminate=False)
    assert str(r.pc) == "(x#1 == 1) and (x#2 == x#1 + 1)" and r.exists == frozenset({"x#1"})
    (r,) = exec_symbolic(parse("x = x + 1"), 1)
    assert str(r.pc) == "(x#1 == x + 1)" and r.exists == frozenset({"x"})
    (r,) = exec_symbolic(parse("x = 5"), 1)
    assert str(r.pc) == "(x#1 == 5)" and r.exists == frozenset()


def test_existentially_quantify_is_equivalent() -> None:
    """On samples, the eliminated constraint holds exactly when some value of v satisfies the
    original (the value its definition gives)."""
    pc = PathCondition.of(Cmp(">", Var("a"), Int(0)), Cmp("==", Var("v"), Var("a")),
                          Cmp("<", Var("v"), Int(3)))
    new_pc, exists = existentially_quantify("v", pc, frozenset())
    assert exists == frozenset() and "v" not in str(new_pc)
    for a in range(-3, 6):
        witnessed = any(satisfies(Env.of({"a": a, "v": v}), pc) for v in range(-10, 10))
        assert satisfies(Env.of({"a": a}), new_pc) == witnessed


def test_pruning_needs_a_solver_and_keeps_unknown() -> None:
    """An UNSAT branch is pruned with a solver, kept without one and kept on UNKNOWN (M-S1)."""
    p = parse("if x > 0 then if x < 0 then fail else skip fi else skip fi")
    assert behaviours(exec_symbolic(p, 1)) == [B.FAIL, B.NORMAL, B.NORMAL]
    assert behaviours(exec_symbolic(p, 1, Solver())) == [B.NORMAL, B.NORMAL]
    weak = Solver(rlimit=1)
    assert weak.check(PathCondition.of(Cmp(">", Var("x"), Int(0)),
                                       Cmp("<", Var("x"), Int(0))))[0] is Sat.UNKNOWN
    assert behaviours(exec_symbolic(p, 1, weak)) == [B.FAIL, B.NORMAL, B.NORMAL]
    assert weak.stats.unknown > 0


def test_maybe_sat_prunes_constant_false_without_a_solver() -> None:
    """A constant-false conjunct needs no solver; anything else is a maybe without one."""
    assert not maybe_sat(PathCondition.of(Bool(False)), None)
    assert maybe_sat(PathCondition.of(Cmp("<", Var("x"), Var("x"))), None)
    assert not maybe_sat(PathCondition.of(Cmp("<", Var("x"), Var("x"))), Solver())
    assert behaviours(exec_symbolic(parse("if 1 > 2 then fail else skip fi"), 1)) == [B.NORMAL]


def test_ghost_results_extend_the_input() -> None:
    """With a ghost input, every result carries ρ' ⊒ ρ; exactly one satisfies its constraint,
    and it concretizes to the concrete outcome."""
    rho = Env.of({"x": 4})
    results = exec_symbolic(SUM, 3, ghost=rho)
    assert all(r.ghost is not None and r.ghost.extends(Interpretation.of({"x": 4}))
               for r in results)
    taken = [r for r in results if r.ghost and satisfies(r.ghost.as_env(), r.pc)]
    assert len(taken) == 1 and taken[0].ghost is not None
    assert concretize_result(taken[0], taken[0].ghost.as_env()) == exec_concrete(SUM, rho, 3)
    assert input_of(taken[0].ghost.as_env(), frozenset({"x"})) == rho


def test_approximation_predicates_reject_wrong_results() -> None:
    """M-P3 fails when the matching result is missing, M-P4 when a result the ghost satisfies
    concretizes to something else: the postconditions can fail."""
    p, rho = parse("if x > 0 then y = 1 else y = 2 fi"), Env.of({"x": 3})
    results = exec_symbolic(p, 1, ghost=rho)
    assert over_approximation(p, 1, rho, None, results)
    assert under_approximation(p, 1, rho, None, results)
    taken = [r for r in results if r.ghost and satisfies(r.ghost.as_env(), r.pc)]
    others = tuple(r for r in results if r not in taken)
    assert not over_approximation(p, 1, rho, None, others)
    (t,) = taken
    wrong = SymResult(B.FAIL, t.env, t.pc, t.ghost, t.exists, t.fresh)
    assert not under_approximation(p, 1, rho, None, others + (wrong,))


def test_negative_limit_is_rejected() -> None:
    """The loop limit is a natural number."""
    with pytest.raises(Exception, match="n >= 0"):
        exec_concrete(SUM, Env(), -1)
