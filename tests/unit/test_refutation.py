"""Xverdict names what it tried (defect 9): through the `symcert` command."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest


def symcert(*argv: str, timeout: float = 240) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "symcert", *argv], capture_output=True,
                          text=True, timeout=timeout, stdin=subprocess.DEVNULL)


WRONG_INVARIANT = """assume n >= 0;
i = 0; s = 0;
while i < n invariant s <= i do s = s + i; i = i + 1 od;
assert s >= 0
"""
BROKEN_REQUIRES = """proc tri(k) requires k >= 0 ensures result >= 0 begin
  if k == 0 then return 0 else skip fi;
  x = tri(k - 2);
  return x + k
end
assume k >= 0;
y = tri(k)
"""
WRONG_ENSURES = """proc f(k) requires k >= 0 ensures result > 0 begin
  return k
end
assume k >= 0;
x = f(k)
"""


@pytest.mark.parametrize("command", ["run", "prove"])
@pytest.mark.parametrize("text, line, what", [
    (WRONG_INVARIANT, 3, "invariant `s <= i` does not hold"),
    (BROKEN_REQUIRES, 3, "precondition of tri does not hold"),
])
def test_an_annotation_a_run_breaks_is_a_replayed_bug(tmp_path: Path, command: str, text: str,
                                                     line: int, what: str) -> None:
    """The invariant's counterexample to induction (i = 2, s = 2) and the body's broken
    `requires` (k = 1) were "maybe unreachable"; a run from the inputs breaks each: exit 1,
    and `exec` of the reported input fails at the same line."""
    prog = tmp_path / "p.imp"
    prog.write_text(text)
    done = symcert(command, str(prog), "--json")
    assert done.returncode == 1, done.stdout + done.stderr
    bug = json.loads(done.stdout.splitlines()[0])
    assert (bug["event"], bug["line"]) == ("bug", line) and what in bug["message"]
    inputs = [f"--input={x}={v}" for x, v in bug["input"].items()]
    ran = symcert("exec", str(prog), "--json", *inputs)
    assert ran.returncode == 1
    assert json.loads(ran.stdout)["line"] == line


@pytest.mark.parametrize("command", ["run", "prove"])
def test_a_wrong_ensures_no_run_fails_says_what_was_searched(tmp_path: Path,
                                                            command: str) -> None:
    """A wrong `ensures` is no failing run (the concrete semantics does not check it): the
    verdict stays undecided, says no run of the program fails, and names the search."""
    prog = tmp_path / "p.imp"
    prog.write_text(WRONG_ENSURES)
    done = symcert(command, str(prog), "--json")
    assert done.returncode == 3, done.stdout + done.stderr
    end = json.loads(done.stdout.splitlines()[-1])
    assert end["cause"] == "contract"
    assert "no run of the program as written fails" in end["reason"]
    assert [t["method"] for t in end["tried"]] == ["probe", "sampling", "unrolled"] or \
        [t["method"] for t in end["tried"]] == ["probe", "sampling", "replay", "unrolled"]
    assert end["tried"][-1]["outcome"] == "exhaustive, no failure"


def test_an_undecided_verdict_names_each_method_and_its_end(tmp_path: Path) -> None:
    """A loop beyond the budget: the text and the `done` event name the probe, the sampled
    runs, Spacer's end, the guesses and the exploration, in order."""
    prog = tmp_path / "p.imp"
    prog.write_text("i = 0; while i < n do i = i + 1 od; assert i != 1000000\n")
    done = symcert("run", str(prog), "--max-states", "3000", "--json")
    assert done.returncode == 3, done.stdout + done.stderr
    tried = json.loads(done.stdout.splitlines()[-1])["tried"]
    methods = [t["method"] for t in tried]
    assert methods[:3] == ["probe", "sampling", "spacer"] and methods[-1] == "exploration"
    assert "guesses" in methods
    assert tried[0]["outcome"] == "state budget ran out"
    assert tried[-1] == {"method": "exploration", "outcome": "state budget ran out",
                         "spent": "3,000 states"}
    text = symcert("run", str(prog), "--max-states", "3000").stdout
    assert "\n  tried: the probe's exploration (2,000 states): state budget ran out; " \
           "sampled concrete runs: no run fails; z3's Spacer" in text
