"""The bounded symbolic interpreter of seed 004 and its concrete twin (interp.py)."""

from __future__ import annotations

import random
import sys
from typing import Callable

import pytest

from symcert.core.concrete import Env, run_to_end
from symcert.core.state import PathCondition, satisfies
from symcert.engine.ghost import Interpretation
from symcert.lang.parser import parse
from symcert.lang.structure import inputs
from symcert.lang.syntax import Bool, Cmp, Int, Stmt, Var
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
from symcert.seed004.natural import CALL_LIMIT, ENDINGS, RECURSION_LIMIT
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


# ---------------------------------------------------------------------------------------------
# Procedures (seed 003 §3) in both seed-004 interpreters.

FACT = parse("""
proc fact(n) begin
  if n <= 1 then return 1 else var r = fact(n - 1); return n * r fi
end
proc inc(d) begin c = c + d end
assume 0 <= k and k <= 6;
x = fact(k);
inc(3);
assert x >= k and x % 2 == 0 or k < 2
""")
FIB = parse("""
proc fib(n) begin
  if n < 2 then return n else var a = fib(n - 1); var b = fib(n - 2); return a + b fi
end
assume 0 <= k and k <= 7;
x = fib(k)
""")
PARITY = parse("""
proc even(n) begin if n == 0 then return 1 else var r = odd(n - 1); return r fi end
proc odd(n) begin if n == 0 then return 0 else var r = even(n - 1); return r fi end
assume 0 <= k and k <= 8;
e = even(k);
o = odd(k)
""")
GLOBALS = parse("""
proc bump(d) begin c = c + d; calls = calls + 1; return c end
y = bump(x);
z = bump(2);
w = c
""")
SHADOW = parse("""
proc set() begin x = 7 end
proc f(a) begin var x = a; set(); x = x + 1; return x end
x = 1;
y = f(10)
""")
OFF_THE_END = parse("proc f(a) begin b = a + 1 end\nx = 9; x = f(3)")
DISCARD = parse("proc f(a) begin c = a; return a + 1 end\nx = 4; f(x)")
LOOP_RETURN = parse("""
proc root(m) begin
  var i = 0;
  while i <= m do if i * i >= m then return i else i = i + 1 fi od;
  return -1
end
r = root(v)
""")
DOWN = parse("proc down(n) begin if n > 0 then var r = down(n - 1); return r + 1 "
              "else return 0 fi end\nx = down(k)")
FOREVER = parse("proc f(n) begin var r = f(n + 1); return r end\nx = f(0)")
PROCEDURES = (FACT, FIB, PARITY, GLOBALS, SHADOW, OFF_THE_END, DISCARD, LOOP_RETURN)
FUEL = 100_000


def agree(p: Stmt, sigma: Env, n: int = 6, declared: frozenset[str] | None = None) -> Outcome:
    """The twin's outcome at `sigma`, checked against the small-step run (final globals and
    ending, when the behaviour is an ending) and against the symbolic results in ghost mode:
    exactly one result's constraint holds under its ghost, and it means that outcome (M-P3,
    M-P4); no result is left inside a call or with the internal RETURN."""
    outcome = exec_concrete(p, sigma, n, declared)
    ending = ENDINGS.get(outcome.behaviour)
    if ending is not None and declared is None:
        small = run_to_end(sigma, p, FUEL)
        assert small is not None and (small.env, small.ending) == (outcome.env, ending), (
            f"{outcome} but small-step {small}")
    results = exec_symbolic(p, n, Solver(), ghost=sigma, declared=declared)
    assert all(r.locals is None and r.behaviour is not B.RETURN for r in results)
    taken = [r for r in results if r.ghost is not None and satisfies(r.ghost.as_env(), r.pc)]
    assert len(taken) == 1, [str(r) for r in taken]
    assert concretize_result(taken[0], taken[0].ghost.as_env()) == outcome  # type: ignore
    assert over_approximation(p, n, sigma, declared, results)
    assert under_approximation(p, n, sigma, declared, results)
    return outcome


def test_factorial() -> None:
    """`fact` returns k! through k nested frames; the assertion holds (k! is even from 2 on)."""
    for k, fact in enumerate((1, 1, 2, 6, 24, 120, 720)):
        assert agree(FACT, Env.of({"k": k})) == Outcome(B.NORMAL, Env.of({"k": k, "x": fact,
                                                                         "c": 3}))
    assert agree(FACT, Env.of({"k": 7})).behaviour is B.BLOCKED


def test_fibonacci_two_calls_per_frame() -> None:
    """Two recursive calls in one frame, each result in a local of its own."""
    for k, fib in enumerate((0, 1, 1, 2, 3, 5, 8, 13)):
        assert agree(FIB, Env.of({"k": k})) == Outcome(B.NORMAL, Env.of({"k": k, "x": fib}))


def test_mutual_recursion() -> None:
    """`even` and `odd` call each other."""
    for k in range(9):
        assert agree(PARITY, Env.of({"k": k})) == Outcome(
            B.NORMAL, Env.of({"k": k, "e": 1 - k % 2, "o": k % 2}))


def test_global_side_effects_persist() -> None:
    """A procedure's assignments to globals are seen after the call, and by the next call."""
    sigma = Env.of({"x": 5, "c": 10, "calls": 1})
    assert agree(GLOBALS, sigma) == Outcome(B.NORMAL, Env.of(
        {"x": 5, "c": 17, "calls": 3, "y": 15, "z": 17, "w": 17}))


def test_var_shadows_a_global() -> None:
    """`var x` is f's own x: the global x is untouched by f's assignments, though `set`, which
    has no local x, assigns the global while f runs."""
    assert agree(SHADOW, Env()) == Outcome(B.NORMAL, Env.of({"x": 7, "y": 11}))


def test_falling_off_the_end_returns_zero() -> None:
    """A body without `return` gives 0 to the target (x = 9 is overwritten)."""
    assert agree(OFF_THE_END, Env()) == Outcome(B.NORMAL, Env.of({"b": 4}))
    (r,) = exec_symbolic(OFF_THE_END, 1)
    assert r.env.get("x") is not None and "x#" in str(r.pc) and str(r.pc).count("== 0") == 1


def test_call_statement_discards_the_value() -> None:
    """`f(x)` runs f's side effects and assigns nothing in the caller."""
    assert agree(DISCARD, Env()) == Outcome(B.NORMAL, Env.of({"x": 4, "c": 4}))


def test_return_ends_the_procedure_from_inside_a_loop() -> None:
    """`return i` leaves the loop and the body: `return -1` runs only when the loop ends; a
    loop limit hit inside the call is the program's behaviour."""
    for v, root in ((-2, -1), (0, 0), (1, 1), (2, 2), (4, 2), (5, 3), (9, 3), (10, 4)):
        assert agree(LOOP_RETURN, Env.of({"v": v})) == Outcome(B.NORMAL,
                                                                Env.of({"v": v, "r": root}))
    assert agree(LOOP_RETURN, Env.of({"v": 9}), 2) == Outcome(B.LOOP_LIMIT, Env.of({"v": 9}))


def test_division_by_zero_in_an_argument_or_a_return_fails() -> None:
    """X-A2 in a call's argument and in `return`'s expression; arguments go left to right, so
    the first argument's division fails before the second reads an unbound variable."""
    p = parse("proc f(a, b) begin return a + b end\nx = 5; x = f(1, 10 / y)")
    assert agree(p, Env.of({"y": 0})) == Outcome(B.FAIL, Env.of({"x": 5}))
    assert agree(p, Env.of({"y": 3})) == Outcome(B.NORMAL, Env.of({"x": 4, "y": 3}))
    assert behaviours(exec_symbolic(p, 1)) == [B.FAIL, B.NORMAL]
    q = parse("proc g(a) begin c = a; return 10 / a end\nx = g(y)")
    assert agree(q, Env.of({"y": 0})) == Outcome(B.FAIL, Env.of({"c": 0}))
    assert agree(q, Env.of({"y": 3})) == Outcome(B.NORMAL, Env.of({"c": 3, "x": 3, "y": 3}))
    u = parse("proc h(a, b) begin return a end\nx = h(1 / y, u)")
    only_y = frozenset({"y"})
    assert agree(u, Env.of({"y": 0}), declared=only_y).behaviour is B.FAIL
    assert agree(u, Env.of({"y": 1}), declared=only_y) == Outcome(B.UNBOUND_VAR,
                                                                   Env.of({"y": 1}))
    assert behaviours(exec_symbolic(u, 1, declared=only_y)) == [B.FAIL, B.UNBOUND_VAR]


def test_a_finished_call_leaves_no_local_in_the_results() -> None:
    """The callee's variables are eliminated on the way back to the main statement: a result's
    constraint is over the inputs and the globals' fresh variables only."""
    (r,) = exec_symbolic(parse("proc f(a) begin var t = a + 1; return t * 2 end\ny = f(x)"), 1)
    assert str(r.pc) == "(y#5 == (x + 1) * 2)" and r.exists == frozenset()
    for r in exec_symbolic(FACT, 6, Solver()):
        assert all(v.partition("#")[0] in {"k", "c", "x"} for v in r.symbolic_vars()), str(r)


def test_call_limit_on_unbounded_recursion() -> None:
    """A recursion that never ends stops at CALL_LIMIT in both interpreters, with no Python
    RecursionError, in the state before the call too deep (nothing assigned)."""
    assert exec_concrete(FOREVER, Env(), 1) == Outcome(B.CALL_LIMIT, Env())
    assert [r.behaviour for r in exec_symbolic(FOREVER, 1, ghost=Env())] == [B.CALL_LIMIT]
    assert run_to_end(Env(), FOREVER, 5_000) is None  # the small-step run does not end either


def test_call_limit_bound() -> None:
    """`down(k)` makes k + 1 nested calls: CALL_LIMIT of them run, one more is cut; depth
    CALL_LIMIT + 5 gives CALL_LIMIT, no exception. Symbolically on a literal argument, with a
    solver (one feasible path, whose tests the elimination folds to `true`)."""
    assert exec_concrete(DOWN, Env.of({"k": CALL_LIMIT - 1}), 1) == Outcome(
        B.NORMAL, Env.of({"k": CALL_LIMIT - 1, "x": CALL_LIMIT - 1}))
    for k in (CALL_LIMIT, CALL_LIMIT + 5):
        assert exec_concrete(DOWN, Env.of({"k": k}), 1) == Outcome(B.CALL_LIMIT,
                                                                   Env.of({"k": k}))
    for k, expected in ((CALL_LIMIT - 1, f"({{x ↦ x#{4 * CALL_LIMIT}}} | (x#{4 * CALL_LIMIT} "
                                         f"== {CALL_LIMIT - 1}))_normal"),
                        (CALL_LIMIT, "({} | true)_call-limit"),
                        (CALL_LIMIT + 5, "({} | true)_call-limit")):
        p = parse(f"proc down(n) begin if n > 0 then var r = down(n - 1); return r + 1 "
                  f"else return 0 fi end\nx = down({k})")
        assert [str(r) for r in exec_symbolic(p, 1, Solver(), ghost=Env())] == [expected]


def _deepest_stack(run: Callable[[], object]) -> int:
    """How many Python frames deep `run()` goes (profiled)."""
    depth, deepest = 0, 0

    def profile(frame: object, event: str, arg: object) -> None:
        nonlocal depth, deepest
        if event == "call":
            depth += 1
            deepest = max(deepest, depth)
        elif event == "return":
            depth -= 1

    sys.setprofile(profile)
    try:
        run()
    finally:
        sys.setprofile(None)
    return deepest


def test_deep_calls_in_nested_statements_stay_within_the_recursion_limit() -> None:
    """Both interpreters recurse in Python per call and per statement level: measured on a call
    61 statements deep in its body, a level of calls costs at most 3 + 2 × 61 frames, so
    CALL_LIMIT + 1 levels fit in the recursion limit; the concrete twin runs them all."""
    nested = 60

    def program(levels: int) -> Stmt:
        call = "var r = f(n - 1)"
        for _ in range(nested):
            call = f"if true then {call} else skip fi"
        return parse(f"proc f(n) begin if n > 0 then {call} else skip fi; return r end\n"
                     f"x = f({levels})")

    for run in (lambda p: exec_concrete(p, Env(), 1), lambda p: exec_symbolic(p, 1, Solver())):
        low, high = (_deepest_stack(lambda: run(program(d))) for d in (4, 12))
        per_level = (high - low) / 8
        assert per_level <= 5 + 2 * nested  # the `if n > 0` is one more level
        assert low + per_level * (CALL_LIMIT + 1) < RECURSION_LIMIT // 2
    assert exec_concrete(program(CALL_LIMIT + 5), Env(), 1).behaviour is B.CALL_LIMIT


def test_procedures_cross_check_on_generated_inputs() -> None:
    """For random inputs of every procedure program: the twin agrees with the small-step run
    and with the ghost results (`agree`), and every result the solver finds a model for means,
    under it, the twin's outcome from the input the model gives (M-P2)."""
    rng = random.Random(4)
    solver = Solver()
    for p in PROCEDURES:
        names = sorted(inputs(p))
        for _ in range(6):
            agree(p, Env.of({x: rng.randint(-3, 9) for x in names}))
        for r in exec_symbolic(p, 6, solver):
            answer, model = solver.check(r.pc)
            if answer is Sat.SAT and model is not None:
                sigma = input_of(model, inputs(p))
                assert concretize_result(r, model) == exec_concrete(p, sigma, 6), str(r)
