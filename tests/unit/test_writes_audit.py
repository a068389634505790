"""What a step writes, outside the reduction (the audit after the reduction's wrong verdict): the havoc of the invariant and
contract transitions (T-I1, T-S1: `annotations.written`, `contracts.writes`) and state merging
(T-M1) on programs with threads. The havoc now counts `get`'s and `spawn`'s targets and an
`await`'s body; a procedure whose body runs a statement of threads is never summarised (its
verification ran outside a configuration and stopped on the `await`, exit 70); merging never
touches a configuration (it stopped on a `get`, exit 70). Each program below has a bug that
`run` and `prove` now report and replay."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from symcert.engine import contracts
from symcert.lang.annotations import written
from symcert.lang.parser import parse
from symcert.lang.procedures import table_of

AWAIT_IN_CONTRACT = """proc q() requires true ensures g == 0 begin
  g = 0; i = 0;
  while i < 1 invariant g == 0 do await true then g = 1 end; i = i + 1 od
end
q();
assert g == 0
"""
GET_IN_CONTRACT = """proc p() begin return 1 end
proc q() requires true ensures v == 0 begin
  v = 0; i = 0;
  while i < 1 invariant v == 0 do v = get f; i = i + 1 od
end
f = spawn p();
q();
assert v == 0
"""
MERGED = """proc p() begin return 1 end
f = spawn p();
if x > 0 then y = 1 else y = 2 fi;
v = get f;
assert v == 0
"""
CASES = {"await-in-contract": (AWAIT_IN_CONTRACT, "invariant `g == 0`", ()),
         "get-in-contract": (GET_IN_CONTRACT, "invariant `v == 0`", ()),
         "merge": (MERGED, "assertion `v == 0` fails", ("--merge",))}


def test_written_counts_the_statements_of_threads():
    """`x = get f`, `f = spawn p()` and the body of `await b then S end` write."""
    p = parse("proc p() begin return 1 end\nproc w() begin await true then a = 1; b[0] = 2 end;"
              " v = get f end\nf = spawn p();\nspawn w()")
    body = table_of(p)["w"].body
    found = written(body)
    assert found.variables >= {"a", "v"} and "b" in found.arrays
    assert "f" in written(p).variables


def test_a_procedure_with_statements_of_threads_is_not_summarised():
    q = table_of(parse(AWAIT_IN_CONTRACT))["q"]
    assert contracts.contracted(q) and not contracts.summarisable(q)


def symcert(*args: str) -> subprocess.CompletedProcess[str]:
    command = Path(sys.executable).with_name("symcert")
    return subprocess.run([str(command), *args], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("command", ["run", "prove"])
def test_the_bug_is_reported_not_an_internal_error(case, command, tmp_path):
    text, message, options = CASES[case]
    prog = tmp_path / f"{case}.imp"
    prog.write_text(text)
    done = symcert(command, str(prog), *options)
    assert done.returncode == 1 and message in done.stdout, done.stdout + done.stderr
