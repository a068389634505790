"""Three front doors, one verdict: `exec` replays what `run` reports with
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
    assert (f"assertion `x % 2 != 0` fails after {bug['replay_steps']:,} steps "
            f"({bug['jumped_steps']:,} of them in jumps over loop iterations, T-A1, each confirmed by concrete runs") in ran.stdout
    event = json.loads(symcert("exec", str(prog), "--json").stdout)
    assert (event["verdict"], event["steps"], event["jumped_steps"]) == (
        "failed", bug["replay_steps"], bug["jumped_steps"])
    slow = symcert("exec", str(prog), "--no-accelerate", "--max-steps", "1000")
    assert slow.returncode == 3 and "step budget (--max-steps 1,000) ran out" in slow.stdout


SUM = "assume n >= 0; i = 0; s = 0; while i < n do s = s + i; i = i + 1 od; assert s >= 0\n"


def test_prove_proves_and_certifies_what_run_proves_by_inference(tmp_path: Path) -> None:
    """The plain sum loop and the README's counting loop: `run` proves them with inferred
    invariants, so does `prove`, whose certificate `check-certificate` accepts."""
    for k, text in enumerate((SUM, "assume n >= 0; i = 0; while i < n do i = i + 1 od; "
                                   "assert i == n\n")):
        prog, cert = tmp_path / f"p{k}.imp", tmp_path / f"p{k}.json"
        prog.write_text(text)
        assert symcert("run", str(prog)).returncode == 0
        proved = symcert("prove", str(prog), "--certificate", str(cert))
        assert proved.returncode == 0, proved.stdout + proved.stderr
        assert "PROVED" in proved.stdout and "with the loop invariant inferred" in proved.stdout
        checked = symcert("check-certificate", str(cert), str(prog))
        assert checked.returncode == 0 and "valid" in checked.stdout, checked.stdout


def test_prove_uses_invariants_guessed_from_concrete_runs(tmp_path: Path) -> None:
    """The summation's closed form is beyond Spacer's linear arithmetic: `run` proves it with
    a guessed invariant, and `prove` now does too (it explored its whole budget before)."""
    prog = tmp_path / "sum.imp"
    prog.write_text("assume n >= 0; i = 0; s = 0; while i < n do s = s + i; i = i + 1 od; "
                    "assert s == n * (n - 1) / 2\n")
    proved = symcert("prove", str(prog), "--max-states", "5000")
    assert proved.returncode == 0, proved.stdout + proved.stderr
    assert "i * i == i + 2 * s" in proved.stdout


def test_the_language_server_gives_runs_verdict(tmp_path: Path) -> None:
    """The editor's check of the sum loop is `run`'s: proved with an inferred invariant, not
    "undecided" for want of inference (it ran with `--all-bugs` before)."""
    import asyncio

    from symcert.cli import server
    from symcert.cli.findings import Settings

    found = asyncio.run(server.check(SUM, Settings(), str(tmp_path)))
    assert [(f.code, f.verdict) for f in found] == [("proved", "proved")], found
