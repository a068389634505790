"""Three front doors, one verdict (issue 40, defect 8): `exec` replays what `run` reports with
the same jumps, `prove` uses the invariants `run` infers and certifies them, the language
server gives `run`'s verdicts. Each through the `symcert` command a user types."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def symcert(*argv: str, timeout: float = 240) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "symcert", *argv], capture_output=True,
                          text=True, timeout=timeout, stdin=subprocess.DEVNULL)


def test_exec_replays_a_deep_witness_of_run_with_the_same_jumps(tmp_path: Path) -> None:
    """`run` reports a bug 5,000,009 steps deep; `exec` of its input replays it by default
    within the 1,000,000-step budget, with the same steps and jumps (T-A1), in text and JSON;
    `--no-accelerate` steps one at a time and stops at its budget."""
    prog = tmp_path / "deep.imp"
    prog.write_text("x = 0; while x < 3333336 do x = x + 2 od; assert x % 2 != 0\n")
    found = symcert("run", str(prog), "--max-states", "100", "--json")
    assert found.returncode == 1, found.stdout + found.stderr
    bug = json.loads(found.stdout.splitlines()[0])
    assert bug["event"] == "bug" and bug["replay_steps"] == 5_000_009
    ran = symcert("exec", str(prog))
    assert ran.returncode == 1, ran.stdout + ran.stderr
    assert (f"assertion `x % 2 != 0` fails after {bug['replay_steps']} steps "
            f"({bug['jumped_steps']:,} of them in checked jumps") in ran.stdout
    event = json.loads(symcert("exec", str(prog), "--json").stdout)
    assert (event["verdict"], event["steps"], event["jumped_steps"]) == (
        "failed", bug["replay_steps"], bug["jumped_steps"])
    slow = symcert("exec", str(prog), "--no-accelerate", "--max-steps", "1000")
    assert slow.returncode == 3 and "step budget (--max-steps 1,000) ran out" in slow.stdout
