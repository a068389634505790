"""`prove` and `tests` on programs with threads (seed 003 §5): obligations at every explored
configuration for every thread and for the deadlock (B-X4), over the reduced exploration
(B-X5); every counterexample and every test is an input and a schedule replayed on the
concrete configurations (`core.threads`)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import jsonschema
import pytest

from symcert.cli.main import main
from symcert.core.concrete import Ending
from symcert.core.threads import deadlocked, initial_config, run_schedule, stuck_at
from symcert.engine.por import reducing
from symcert.engine.prove import prove
from symcert.engine.testgen import generate_tests
from symcert.engine.verdict import Kind
from symcert.lang.parser import parse
from symcert.solver.z3backend import Solver

ROOT = Path(__file__).resolve().parents[2]
THREADS = ROOT / "examples" / "threads"
SCHEMA = json.loads((ROOT / "docs" / "schema" / "events.json").read_text(encoding="utf-8"))

WORKER_ONLY = "proc w(k) begin assert k != 7 end\nspawn w(x)"
"""An assertion that only a spawned worker runs: thread 0 has none."""

WAITS_FOR_INPUT = "proc w() begin await x > 0 end\nspawn w()"
"""A deadlock exactly where `x <= 0`: the worker waits for ever once the main thread ends."""


def _program(name: str):
    return parse((THREADS / f"{name}.imp").read_text())


def _end(p, input_env, schedule):
    """The configuration the schedule reaches from the input, and its failure or deadlock."""
    *_, (_, last) = run_schedule(initial_config(input_env, p), schedule, len(schedule))
    return last, stuck_at(last.threads) or deadlocked(last)


@pytest.mark.parametrize("name", ["counter", "peterson"])
def test_the_correct_studies_are_proved(name):
    """PROVED after an ended reduced exploration, every obligation (the asserts of every
    thread, the deadlocks) UNSAT."""
    proof = prove(_program(name), 10_000)
    assert proof.verdict.kind is Kind.SAFE and proof.verdict.exhaustive
    assert proof.obligations > 0 and not proof.undecided


@pytest.mark.parametrize("name, line", [("counter_buggy", 12), ("peterson_buggy", 9)])
def test_a_buggy_study_gives_a_counterexample_replayed_with_its_schedule(name, line):
    p = _program(name)
    proof = prove(p, 10_000)
    assert proof.verdict.kind is Kind.BUG
    found = proof.verdict.witness
    schedule = found.bug.config.schedule
    last, failing = _end(p, found.input, schedule)
    assert failing == found.failing and failing.pos.line == line and not failing.deadlock
    assert [i for i, _ in found.interleaving] == list(schedule) and last == found.final


def test_a_deadlock_is_a_counterexample():
    p = _program("philosophers_buggy")
    proof = prove(p, 10_000)
    found = proof.verdict.witness
    assert proof.verdict.kind is Kind.BUG and found.failing.deadlock
    last, failing = _end(p, found.input, found.bug.config.schedule)
    assert failing is not None and failing.deadlock and last == found.final


def test_an_assertion_only_a_worker_runs_is_proved_or_refuted_in_the_worker():
    """Obligations read every thread, not thread 0's program alone: the worker's assertion
    fails for `x = 7`, and holds once the main thread rules 7 out."""
    proof = prove(parse(WORKER_ONLY), 1_000)
    assert proof.verdict.kind is Kind.BUG
    assert proof.verdict.witness.input("x") == 7 and proof.verdict.witness.failing.pos.line == 1
    fixed = prove(parse(WORKER_ONLY.replace("spawn", "assume x != 7; spawn")), 1_000)
    assert fixed.verdict.kind is Kind.SAFE and fixed.obligations == 1


def test_a_deadlock_the_solver_cannot_decide_is_undecided():
    p = parse(WAITS_FOR_INPUT)
    proof = prove(p, 1_000)
    assert proof.verdict.kind is Kind.BUG and proof.verdict.witness.input("x") <= 0
    unknown = prove(p, 1_000, solver=Solver(rlimit=1))  # every query UNKNOWN
    assert unknown.verdict.kind is Kind.UNDECIDED and unknown.verdict.exit_code == 3
    (ob,) = unknown.undecided
    assert ob.state.prog.deadlock and "a deadlock (a thread waits at `await x > 0`)" in str(ob)


def test_every_interleaving_gives_the_same_verdicts():
    """`--por off`: the full exploration, more states, the same verdicts."""
    with reducing(False):
        full = prove(_program("counter_buggy"), 10_000)
        safe = prove(_program("counter"), 10_000)
    reduced = prove(_program("counter"), 10_000)
    assert full.verdict.kind is Kind.BUG and full.verdict.witness.failing.pos.line == 12
    assert safe.verdict.kind is Kind.SAFE and safe.verdict.stats.states > reduced.verdict.stats.states


def _run_cli(capsys, *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().out


def test_prove_exit_codes_and_the_schedule_shown(capsys):
    """0 proved, 1 a counterexample with its schedule and interleaving (text and JSON), which
    `exec --schedule` replays to the same failure, 3 a budget that ran out."""
    code, out = _run_cli(capsys, "prove", str(THREADS / "counter.imp"))
    assert code == 0 and "PROVED: every assertion holds for all inputs and schedules" in out
    buggy = str(THREADS / "counter_buggy.imp")
    code, out = _run_cli(capsys, "prove", buggy)
    assert code == 1 and "  schedule: " in out and "    thread 2 at 5:3: c = t + 1" in out
    code, out = _run_cli(capsys, "prove", buggy, "--json")
    for line in out.splitlines():  # the events, schedule and interleaving included
        jsonschema.validate(json.loads(line), SCHEMA)
    bug = json.loads(out.splitlines()[0])
    assert code == 1 and [s["thread"] for s in bug["interleaving"]] == bug["schedule"]
    code, out = _run_cli(capsys, "exec", buggy, "--schedule", ",".join(map(str, bug["schedule"])))
    assert code == 1 and bug["message"] in out
    code, out = _run_cli(capsys, "prove", buggy, "--max-states", "5")
    assert code == 3 and "the state budget (5 states) ran out" in out


def test_a_certificate_of_threads_is_written_and_outside_the_wp_calculus(capsys, tmp_path):
    """The engine's obligations are path conditions, a certificate holds them; the wp calculus
    knows no threads, so `check-certificate` re-proves them and stays undecided (exit 3)."""
    cert = tmp_path / "cert.json"
    program = str(THREADS / "counter.imp")
    assert _run_cli(capsys, "prove", program, "--certificate", str(cert))[0] == 0
    assert json.loads(cert.read_text())["outside_wp"].startswith("threads")
    code, out = _run_cli(capsys, "check-certificate", str(cert), program)
    assert code == 3 and "2 of its 2 engine obligations UNSAT for both provers" in out


@pytest.mark.parametrize("name", ["input_and_schedule_buggy", "philosophers_buggy"])
def test_each_test_is_an_input_and_a_schedule_that_replay_to_its_end(name):
    p = _program(name)
    suite = generate_tests(p, 10_000)
    assert suite.exhaustive and suite.tests and not suite.unreachable
    assert len({(t.input, t.schedule) for t in suite.tests}) == len(suite.tests)
    for t in suite.tests:
        last, failing = _end(p, t.input, t.schedule)
        assert last.steps == t.steps == len(t.schedule) and last.env == t.final.env
        if failing is None:
            assert t.final.ending is Ending.NORMAL and all(u.finished for u in last.threads)
        else:
            assert (t.final.ending, t.final.where, t.failure) == (Ending.FAIL, failing.pos,
                                                                   failing.what())
    assert any(t.failure for t in suite.tests) and any(not t.failure for t in suite.tests)


def test_the_bug_that_needs_an_input_and_a_schedule_has_its_test():
    suite = generate_tests(_program("input_and_schedule_buggy"), 10_000)
    (bug,) = [t for t in suite.tests if t.failure]
    assert bug.input("x") == 13 and bug.final.where.line == 10


def test_tests_json_carries_the_schedule_and_the_pytest_file_replays_it(capsys, tmp_path):
    program = str(THREADS / "counter_buggy.imp")
    code, out = _run_cli(capsys, "tests", program, "--json")
    tests = json.loads(out)["tests"]
    assert code == 0 and all(t["schedule"] for t in tests)
    assert {t["ending"] for t in tests} == {"normal", "fail"}
    code = main(["tests", program, "--format", "pytest", "--out", str(tmp_path)])
    assert code == 0 and "each test is an input and a schedule" in capsys.readouterr().out
    spec = importlib.util.spec_from_file_location("generated", tmp_path / "test_counter_buggy.py")
    generated = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generated)
    cases = [c.values if hasattr(c, "values") else c for c in generated.CASES]
    assert [list(c[1]) for c in cases] == [t["schedule"] for t in tests]
    for case in cases:
        if case[2] == "normal":
            generated.test_schedule(*case)
        else:
            with pytest.raises(AssertionError, match="bug: assertion `c == 2` fails"):
                generated.test_schedule(*case)
    normal = next(c for c in cases if c[2] == "normal")
    lost = next(c for c in cases if c[2] == "fail")
    with pytest.raises(AssertionError):  # a normal ending under the lost update's schedule
        generated.test_schedule(normal[0], lost[1], *normal[2:])
