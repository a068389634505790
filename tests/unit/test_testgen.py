"""Test generation (`engine.testgen`, `symcert tests`): one replayed input per leaf, coverage
measured by concrete runs, checked here against the concrete interpreter on sampled inputs."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path

import pytest

from symcert.cli.main import main
from symcert.core.concrete import Env, run_to_end
from symcert.engine.testgen import generate_tests, replay_test
from symcert.lang.parser import parse, parse_file

EX = Path(__file__).resolve().parents[2] / "examples"
MIN3 = parse((EX / "min3_buggy.imp").read_text())


def _ending(program, env, fuel=10_000):
    """(how the concrete run ends, the branches it took): the interpreter's own account."""
    last, path, _ = replay_test(program, env, fuel)
    final = run_to_end(env, program, fuel)
    return final, path


@pytest.mark.parametrize("example", sorted(EX.glob("*.imp")), ids=lambda p: p.stem)
def test_each_test_replays_as_recorded_and_inputs_are_distinct(example):
    program = parse_file(example)
    suite = generate_tests(program, 1_000)
    assert suite.tests
    for t in suite.tests:
        assert run_to_end(t.input, program, t.steps + 1) == t.final
    assert len({t.input for t in suite.tests}) == len(suite.tests)
    assert len({t.path + ((None, t.final.where),) for t in suite.tests}) == len(suite.tests)
    if suite.exhaustive:  # every branch of an exhaustively explored case study
        assert suite.coverage.branches == suite.coverage.all_branches


def test_every_sampled_input_follows_the_path_of_a_generated_test():
    """Exhaustive on a loop-free program: the tests' paths are all the program's paths."""
    suite = generate_tests(MIN3, 1_000)
    assert suite.exhaustive
    recorded = {(t.path, t.final.ending, t.final.where) for t in suite.tests}
    for a, b, c in itertools.product(range(-2, 3), repeat=3):
        final, path = _ending(MIN3, Env.of({"a": a, "b": b, "c": c}))
        assert (path, final.ending, final.where) in recorded


def test_coverage_is_what_the_replays_reached():
    program = parse("if x < 0 then if x > 0 then y = 1 else y = 2 fi else skip fi;\n"
                    "while 0 < x do x = x - 1 od")
    suite = generate_tests(program, 1_000)
    cov = suite.coverage
    assert not suite.exhaustive  # the loop over an input has unboundedly many paths
    inner = next(p for p, _ in cov.all_branches if p.column == 15)
    assert (inner, True) not in cov.branches and (inner, False) in cov.branches
    assert len(cov.all_branches) == 6 and len(cov.branches) == 5
    unreached = cov.all_statements - cov.statements
    assert [(p.line, p.column) for p in unreached] == [(1, 29)]  # y = 1
    reached = set()
    for t in suite.tests:
        reached |= replay_test(program, t.input, t.steps)[2]
    assert reached == cov.statements


def test_a_cut_exploration_says_so(capsys):
    code = main(["tests", str(EX / "countdown_buggy.imp"), "--max-states", "30"])
    out, err = capsys.readouterr()
    assert code == 0 and json.loads(out)["exhaustive"] is False
    assert "cut by the state budget (--max-states 30)" in err


def test_the_pytest_file_runs_and_catches_a_changed_program(tmp_path, capsys):
    assert main(["tests", str(EX / "gcd_buggy.imp"), "--max-states", "2000", "--format",
                 "pytest", "--xfail", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    written = tmp_path / "test_gcd_buggy.py"
    assert f"written to {written}" in out and "end at a failing statement" in out
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(written)]
    done = subprocess.run(command, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout
    count = sum(1 for line in written.read_text().splitlines() if line.startswith("    ({"))
    bugs = sum(1 for line in written.read_text().splitlines()
               if line.startswith("    pytest.param("))
    assert f"{count} passed, {bugs} xfailed" in done.stdout and bugs > 0
    written.write_text(written.read_text().replace("x = x - y", "x = x - y - 1"))
    assert subprocess.run(command, capture_output=True, text=True).returncode == 1


def test_integers_beyond_a_thousand_digits_are_written_exactly(tmp_path, capsys):
    big = 7 * 10**1_500 + 3
    source = tmp_path / "big.imp"
    source.write_text(f"if x == {big} then fail else skip fi")
    assert main(["tests", str(source)]) == 0
    failing = [t for t in json.loads(capsys.readouterr().out)["tests"] if t["ending"] == "fail"]
    assert failing and int(failing[0]["input"]["x"], 16) == big
    assert main(["tests", str(source), "--format", "pytest", "--xfail", "--out",
                 str(tmp_path)]) == 0
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           str(tmp_path / "test_big.py")], capture_output=True, text=True)
    assert done.returncode == 0 and "1 passed, 1 xfailed" in done.stdout, done.stdout


def test_the_time_budget_stops_test_generation(tmp_path, capsys):
    source = tmp_path / "forever.imp"
    source.write_text("while 0 < x do x = x + x od")
    warm = tmp_path / "warm.imp"
    warm.write_text("skip")
    assert main(["tests", str(warm)]) == 0  # its imports, before the budget below
    capsys.readouterr()
    assert main(["tests", str(source), "--timeout", "0.5"]) == 3
    out, err = capsys.readouterr()
    assert out == "" and "no tests written" in err and "--timeout 0.5 s" in err


FALLS_OFF = parse("""proc bump(a) begin
  if a > 0 then y = a else y = 0 - a fi
end
r = bump(x);
if y > 5 then fail else skip fi
""")
"""A procedure whose body ends without `return`: it returns 0 from its last `skip`, a state
inside a frame that is no leaf."""


def test_the_tests_are_the_ends_of_the_runs_when_a_procedure_falls_off_its_end():
    """One test per leaf of `run` (finished outside every frame, or stuck), and nothing for the
    `skip` that ends the procedure's body inside its frame: the concrete run of each test's
    input ends after exactly its steps."""
    from symcert.core.concrete import is_stuck
    from symcert.core.state import initial
    from symcert.engine.explore import Strategy, run_n
    from symcert.lang.syntax import Skip
    from symcert.solver.z3backend import solver_for

    states = [s for s in run_n([initial(FALLS_OFF)], 1000, Strategy.BFS, solver_for(FALLS_OFF))
              if s is not None]
    assert any(isinstance(s.prog, Skip) and s.frame is not None for s in states)
    leaves = [s for s in states
              if isinstance(s.prog, Skip) and s.frame is None or is_stuck(s.prog)]
    suite = generate_tests(FALLS_OFF, 1000)
    assert suite.exhaustive and len(leaves) == 4  # a > 0 or not, times y > 5 or not
    assert sorted(t.steps for t in suite.tests) == sorted(s.depth for s in leaves)
    for t in suite.tests:
        assert run_to_end(t.input, FALLS_OFF, t.steps) == t.final
