"""X-Q1's concrete rule: a quantifier costs one step of a run's budget per value of its range
evaluated, so `exec` judges it within `--max-steps` and a huge range stops with the budget; a
bug of a quantified assertion names its failing value in `--json` (`fails_at`)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import jsonschema
import pytest

from symcert.core.concrete import Env, OutOfSteps, State, costed, run_to_end, trace
from symcert.core.replays import ended
from symcert.lang.parser import parse

SCHEMA = json.loads((Path(__file__).resolve().parents[2] / "docs" / "schema" / "events.json")
                    .read_text(encoding="utf-8"))
PROGRAM = "assume n >= 0;\nassert forall k in 0 .. n - 1 :: a[k] == 0\n"


def symcert(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "symcert", *args], capture_output=True,
                          text=True, timeout=120)


def test_a_step_costs_one_and_one_per_value():
    p = parse(PROGRAM)
    states = list(trace(State(Env.of({"n": 7}), p), 2))  # `assume`, then `skip; ...`
    after_assume = states[-1]
    assert costed(states[0], 100)[1] == 1
    assert costed(after_assume, 100)[1] == 1 + 7
    with pytest.raises(OutOfSteps):
        costed(after_assume, 7)  # the statement and 7 values need 8


def test_a_run_stops_before_a_quantifier_the_budget_cannot_pay():
    p = parse(PROGRAM)
    states = list(trace(State(Env.of({"n": 10**7}), p), 1000))
    assert len(states) == 3 and not ended(states[-1], 1000)
    assert run_to_end(Env.of({"n": 10**7}), p, 1000) is None
    assert run_to_end(Env.of({"n": 997}), p, 1000) is not None  # 2 + (1 + 997) steps
    assert run_to_end(Env.of({"n": 998}), p, 1000) is None


def test_exec_stops_a_huge_range_with_the_budget_fast(tmp_path):
    path = tmp_path / "huge.imp"
    path.write_text(PROGRAM)
    start = time.perf_counter()
    done = symcert("exec", str(path), "--input", "n=10000000", "--max-steps", "1000")
    assert time.perf_counter() - start < 20
    assert done.returncode == 3, done.stdout + done.stderr
    assert "stopped: the step budget (--max-steps 1,000) ran out" in done.stdout
    done = symcert("exec", str(path), "--input", "n=10000000", "--max-steps", "1000", "--json")
    last = json.loads(done.stdout.splitlines()[-1])
    assert done.returncode == 3 and last["verdict"] == "undecided" and last["cause"] == "steps"


def test_exec_judges_a_quantifier_within_the_budget(tmp_path):
    path = tmp_path / "small.imp"
    path.write_text(PROGRAM)
    done = symcert("exec", str(path), "--input", "n=10", "--input", "a[3]=4")
    assert done.returncode == 1 and "assertion `forall k in 0 .. n - 1 :: a[k] == 0` fails" \
        in done.stdout, done.stdout + done.stderr
    done = symcert("exec", str(path), "--input", "n=10", "--max-steps", "12")
    assert done.returncode == 3, done.stdout  # 2 steps to the `assert`, then 1 + 10 > 10 left
    done = symcert("exec", str(path), "--input", "n=10", "--max-steps", "13")
    assert done.returncode == 0 and "finished" in done.stdout, done.stdout


def test_the_json_bug_event_names_the_failing_value(tmp_path):
    """`run --json` and `prove --json`: the bug event's `fails_at` is the first failing `k`,
    the one a concrete evaluation of the replay's final state finds (X-Q1)."""
    path = tmp_path / "prefix.imp"
    path.write_text("assume n == 4 and a[0] == 0 and a[1] == 0 and a[2] == 7;\n"
                    "assert forall k in 0 .. n - 1 :: a[k] == 0\n")
    for command in ("run", "prove"):
        done = symcert(command, str(path), "--json")
        events = [json.loads(line) for line in done.stdout.splitlines()]
        for event in events:
            jsonschema.Draft202012Validator(SCHEMA).validate(event)
        bug = next(e for e in events if e["event"] == "bug")
        assert done.returncode == 1 and bug["fails_at"] == [{"variable": "k", "value": 2}], \
            done.stdout
    path.write_text("assume n == 4;\nassert n != 4\n")
    bug = json.loads(symcert("run", str(path), "--json").stdout.splitlines()[0])
    assert bug["event"] == "bug" and "fails_at" not in bug
