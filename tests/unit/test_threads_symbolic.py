"""The symbolic rules of threads (seed 003 §5, engine/threads.py) in the one worklist: each
explored configuration agrees with the concrete run of its schedule (B-X1 to B-X3), deadlocks
are found (B-X4), and every bug is an input and a schedule replayed concretely."""

from __future__ import annotations

import json
import subprocess
import sys
from itertools import islice
from pathlib import Path

import pytest

from symcert.core.concrete import Env
from symcert.core.state import concretize, initial, witness_input
from symcert.core.threads import initial_config, run_schedule
from symcert.engine.explore import run
from symcert.engine.verdict import Budget, Kind, check
from symcert.lang.parser import parse
from symcert.solver.z3backend import solver_for

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "threads" / "issue_two_bugs.imp"

LOCKED = """
proc inc(k) begin
  await m == 0 then m = 1 end;
  var t = c;
  c = t + k;
  m = 0;
  return k
end
c = x; m = 0; f = spawn inc(1); g = spawn inc(2); a = get f; b = get g;
assert c == x + 3 and a + b == 3
"""


def _agrees(p, state) -> bool:
    """The concrete run of `state`'s schedule from its model's input reaches the same threads
    (programs and thread count) and the globals `V∘S`."""
    model = witness_input(state.model or Env(), state.pc)
    *_, (_, last) = run_schedule(initial_config(model, p), state.config.schedule,
                                 len(state.config.schedule))
    names = frozenset(k for k, _ in last.env.bindings) | frozenset(k for k, _ in state.store.bindings)
    programs = [t.prog for t in state.config.threads]
    return (programs == [t.prog for t in last.threads]
            and concretize(model, state.store, names) == last.env)


@pytest.mark.parametrize("text", [
    LOCKED,
    EXAMPLE.read_text(),
    "proc p(a) begin if a > 0 then r = 1 else r = 2 fi; return a / y end\n"
    "f = spawn p(x); await r > 0 then r = r + 10 end; v = get f",
])
def test_each_configuration_is_what_its_schedule_reaches(text):
    """B-X1..B-X3 at every explored state that is not stuck: thread programs and globals agree
    with the concrete configuration the schedule reaches from the model's input."""
    p = parse(text)
    states = [s for s in islice(run([initial(p)], solver=solver_for(p)), 400) if s is not None]
    assert len(states) > 20
    for s in states:
        if s.prog.__class__.__name__ != "Fail":
            assert _agrees(p, s), s.config.schedule


def test_both_bugs_of_the_example_are_found_and_replayed():
    verdict = check(parse(EXAMPLE.read_text()), Budget(20_000, all_bugs=True))
    assert verdict.kind is Kind.BUG and verdict.exhaustive
    found = {w.failing.pos.line: w for w in verdict.bugs}
    assert set(found) == {13, 15}
    assert found[13].failing.deadlock and "deadlock" in found[13].describe()
    lost = found[15].final
    assert lost.env("count") != 3 and len(found[15].interleaving) == lost.steps


def test_the_locked_counter_is_safe():
    verdict = check(parse(LOCKED), Budget(20_000))
    assert verdict.kind is Kind.SAFE and verdict.exhaustive


def test_without_the_lock_the_update_is_lost():
    verdict = check(parse(LOCKED.replace("await m == 0 then m = 1 end;", "")), Budget(20_000))
    assert verdict.kind is Kind.BUG and verdict.bugs[0].final.env("c") != verdict.bugs[0].input("x") + 3


def test_a_bug_that_needs_an_input_and_a_schedule():
    verdict = check(parse("proc w() begin if x == 7 then y = 1 else skip fi end\n"
                          "spawn w(); y = 0; assert y == 0"), Budget(5_000))
    bug = verdict.bugs[0]
    assert verdict.kind is Kind.BUG and bug.input("x") == 7
    ran = [f"{i}: {s}" for i, s in bug.interleaving]  # worker 1's y = 1 after main's y = 0
    assert ran.index("1: y = 1") > ran.index("0: y = 0") and ran[-1] == "0: assert y == 0"


def test_get_of_a_non_future_is_a_bug_for_some_input():
    verdict = check(parse("proc p() begin return 1 end\n"
                          "if x > 0 then f = spawn p() else skip fi; v = get f"), Budget(1_000))
    assert verdict.kind is Kind.BUG and verdict.bugs[0].input("x") <= 0
    assert "non-future" in verdict.bugs[0].describe()


def test_circular_waits_deadlock_and_a_deadlock_free_program_is_safe():
    cycle = ("proc a() begin await y == 1; x = 1 end\nproc b() begin await x == 1; y = 1 end\n"
             "spawn a(); spawn b()")
    assert check(parse(cycle), Budget(1_000)).bugs[0].failing.deadlock
    fine = cycle.replace("await y == 1; x = 1", "x = 1; await y == 1")
    assert check(parse(fine), Budget(1_000)).kind is Kind.SAFE


def test_run_json_carries_the_schedule():
    done = subprocess.run([sys.executable, "-m", "symcert", "run", str(EXAMPLE), "--json"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stdout + done.stderr
    bug = json.loads(done.stdout.splitlines()[0])
    assert bug["event"] == "bug" and bug["schedule"]
    assert [s["thread"] for s in bug["interleaving"]] == bug["schedule"]
    again = subprocess.run([sys.executable, "-m", "symcert", "exec", str(EXAMPLE), "--schedule",
                            ",".join(map(str, bug["schedule"]))],
                           capture_output=True, text=True, timeout=120)
    assert again.returncode == 1 and bug["message"] in again.stdout


def test_the_tree_labels_each_state_with_its_threads_and_each_edge_with_the_stepping_one():
    """`symcert tree` on a configuration: a node lists each unfinished thread's next statement,
    an edge names the thread that stepped; the first fork is between the two workers."""
    from symcert.cli.commands.tree import to_dot

    dot = to_dot(parse((EXAMPLE.parent / "counter_buggy.imp").read_text()), 8)
    assert 'label="t0: a = get f\\nt1: var t = c\\nt2: var t = c"' in dot
    forks = [line for line in dot.splitlines() if line.startswith("  n3 -> ")]
    assert [line.split('label="')[1][:2] for line in forks] == ["t1", "t2"]
