"""`assume b` (X-U1): a run whose `b` is false is blocked, neither finished nor a bug;
symbolically the statement has the one successor `φ ∧ ⟦b⟧`, so every reported bug's input
satisfies every assumption on its path."""

from __future__ import annotations

from symcert.cli.main import main
from symcert.core.concrete import Ending, Env, State, is_stuck, run_to_end, step
from symcert.core.state import initial
from symcert.engine.explore import expand
from symcert.engine.prove import prove
from symcert.engine.verdict import Budget, Kind, check
from symcert.lang.parser import parse
from symcert.lang.syntax import Assume, Cmp, Int, Skip, Var
from symcert.seed004.interp import exec_symbolic
from symcert.seed004.natural import Behaviour, exec_concrete
from symcert.solver.z3backend import Solver

BOUNDED = "assume 0 <= k and k <= 6;\nassert k * k != 25\n"


def test_parse_and_print_round_trip():
    p = parse("assume x > 0; y = 1")
    assert p.first == Assume(Cmp(">", Var("x"), Int(0)))
    assert parse(str(p)) == p and str(p.first) == "assume x > 0"


def test_a_false_assumption_blocks_the_concrete_run():
    p = parse("assume x > 0; y = 1")
    blocked = State(Env.of({"x": 0}), p)
    assert step(blocked) is None and not is_stuck(blocked.prog)
    final = run_to_end(Env.of({"x": 0}), p, 10)
    assert final is not None and final.ending is Ending.BLOCKED and "blocked" in str(final)
    final = run_to_end(Env.of({"x": 1}), p, 10)
    assert final is not None and final.ending is Ending.NORMAL and final.env("y") == 1


def test_one_symbolic_successor_that_assumes_the_condition():
    (t,) = expand(initial(parse("assume x > 0")))
    assert t.prog == Skip() and t.pc.conjuncts() == (Cmp(">", Var("x"), Int(0)),)
    # dividing in the condition adds the successor that divides by zero (X-A2)
    ok, by_zero = expand(initial(parse("assume 10 / x > 1")))
    assert ok.prog == Skip() and is_stuck(by_zero.prog) and by_zero.prog.by_zero


def test_the_bug_found_satisfies_the_assumption():
    """Without the assumption both 5 and -5 square to 25; with it only k = 5 is a bug."""
    verdict = check(parse(BOUNDED), Budget(1_000))
    assert verdict.kind is Kind.BUG and verdict.witness is not None
    assert verdict.witness.input("k") == 5


def test_an_assumption_can_make_a_program_safe():
    p = parse("assume k > 10; assert k > 5")
    assert check(p, Budget(1_000)).kind is Kind.SAFE
    assert prove(p, 1_000, solver=Solver()).verdict.kind is Kind.SAFE
    assert check(parse("assert k > 5"), Budget(1_000)).kind is Kind.BUG


def test_seed004_blocks_too():
    p = parse("assume x > 0; y = 1")
    assert exec_concrete(p, Env.of({"x": 0}), 1).behaviour is Behaviour.BLOCKED
    assert exec_concrete(p, Env.of({"x": 2}), 1).behaviour is Behaviour.NORMAL
    behaviours = sorted(r.behaviour.value for r in exec_symbolic(p, 1, Solver()))
    assert behaviours == ["blocked", "normal"]


def test_cli_exec_says_blocked_and_run_reports_the_assumed_input(capsys, tmp_path):
    prog = tmp_path / "bounded.imp"
    prog.write_text(BOUNDED)
    code = main(["exec", str(prog), "--input", "k=9"])
    assert code == 0
    assert capsys.readouterr().out == (f"{prog}:1:1: blocked: the assumption `0 <= k and k <= 6`"
                                       " is false after 0 steps: k = 9\n")
    code = main(["run", str(prog)])
    assert code == 1 and "input:  k = 5" in capsys.readouterr().out
