"""Wrong verdicts of the partial-order reduction (B-X5) that a missing read or write of one
statement kind gave, through the `symcert` command: each program below has a bug only in an
interleaving the reduction pruned while `get`'s write of its target or a call's read
of its callee's `requires` was missing from the steps' footprints (engine/por.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

GET_TARGET = """proc p() begin return 1 end
proc r() begin w = v; assert w == 0 end
v = 0;
f = spawn p();
g = spawn r();
v = get f
"""
"""Thread 2 reads `v`, which `v = get f` writes: the assertion fails when the `get` comes first
(schedule 0,0,0,1,0,2,2)."""

CALL_REQUIRES = """proc q() requires g == 1 begin skip end
proc r() begin g = 1 end
g = 0;
spawn r();
q()
"""
"""The call checks `g == 1`, which thread 1 writes: the precondition fails when the call comes
first."""

CASES = {"get-target": (GET_TARGET, "assertion `w == 0` fails"),
         "call-requires": (CALL_REQUIRES, "precondition of q does not hold")}


def symcert(*args: str) -> subprocess.CompletedProcess[str]:
    """The `symcert` command installed beside this interpreter."""
    command = Path(sys.executable).with_name("symcert")
    return subprocess.run([str(command), *args], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("command", ["run", "prove"])
@pytest.mark.parametrize("por", ["on", "off"])
def test_the_bug_is_found_and_replayed_with_and_without_reduction(case, command, por, tmp_path):
    """`run` and `prove` report the bug (exit 1) with `--por on` and `--por off`, and `exec`
    replays its schedule to the same failure."""
    text, message = CASES[case]
    prog = tmp_path / f"{case}.imp"
    prog.write_text(text)
    done = symcert(command, str(prog), "--por", por, "--json")
    assert done.returncode == 1, done.stdout + done.stderr
    bug = json.loads(done.stdout.splitlines()[0])
    assert message in bug["message"] and bug["schedule"], bug
    again = symcert("exec", str(prog), "--schedule", ",".join(map(str, bug["schedule"])))
    assert again.returncode == 1 and message in again.stdout, again.stdout + again.stderr


@pytest.mark.parametrize("child", [False, True], ids=["in process", "in a child"])
def test_the_campaign_prints_the_oracles_counts_by_statement_kind(child):
    """`symcert campaign --checks independence --seconds T`: no disagreement, and the claims
    and the pairs seen dependent counted by kind (in a child process too: its counts are sent
    back)."""
    extra = ["--program-timeout", "20"] if child else []
    done = symcert("campaign", "--checks", "independence", "--seconds", "3", "--seed", "1",
                   *extra)
    assert done.returncode == 0 and "no disagreement" in done.stdout, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    head = next(line for line in lines if line.startswith("independence oracle (B-X5): "))
    assert int(head.split(": ")[1].split(" claims")[0].replace(",", "")) > 0
    dependent = next(line for line in lines if "pairs seen dependent" in line)
    assert "get " in dependent and "await-then " in dependent and "spawn " in dependent
