"""What `symcert` tells a user, through the command a user types: `exec --json` on
threads, traces that say what fails, deadlocks that name every blocked thread, JUnit and SARIF
with schedules, nil in an `await`, plurals, `exhaustive` beside `undecided`, certificates whose
every obligation is generated again, and the futures' internal names kept out of sight."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

ROOT = Path(__file__).resolve().parents[2]
THREADS = ROOT / "examples" / "threads"


def symcert(*argv: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """`symcert ARGV...` as a user runs it (the console script's entry point)."""
    return subprocess.run([sys.executable, "-c", "from symcert.cli.main import entry; entry()",
                           *argv], capture_output=True, text=True, cwd=cwd, timeout=300)


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


@pytest.mark.parametrize("schedule", [(), ("--schedule", "0,0,0,1,1,1,2,2,2")])
def test_exec_json_runs_a_program_with_threads(schedule):
    """`exec --json` of a program with threads ends in a `done` event with its schedule."""
    done = symcert("exec", "--json", str(THREADS / "counter_buggy.imp"), *schedule)
    assert done.returncode in (0, 1), done.stderr
    event = json.loads(done.stdout)
    assert event["event"] == "done" and event["verdict"] in ("finished", "failed")
    if schedule:
        assert event["schedule"][:9] == [0, 0, 0, 1, 1, 1, 2, 2, 2]
    assert [s["thread"] for s in event["interleaving"]] == event["schedule"]
    assert "internal error" not in done.stderr


def test_exec_json_of_a_deadlock_and_of_a_bad_schedule():
    """A deadlock is a failed run with cause `deadlock`; a schedule naming a thread that cannot
    step is a usage error (exit 2), as an `error` event."""
    dead = symcert("exec", "--json", "--schedule", "0,0,0,0,0,1,2",
                   str(THREADS / "philosophers_buggy.imp"))
    event = json.loads(dead.stdout)
    assert dead.returncode == 1 and event["verdict"] == "failed"
    assert event["cause"] == "deadlock" and (event["line"], event["column"]) == (16, 1)
    bad = symcert("exec", "--json", "--schedule", "0,7", str(THREADS / "counter.imp"))
    assert bad.returncode == 2 and json.loads(bad.stdout)["event"] == "error"


def test_a_deadlock_names_every_blocked_thread_and_where_it_waits():
    out = symcert("run", str(THREADS / "philosophers_buggy.imp")).stdout
    assert ("bug: deadlock: every unfinished thread is blocked: thread 0 at 16:1 "
            "(`await eaten == 2`), thread 1 at 6:3 (`await fork[r] == 0`), "
            "thread 2 at 6:3 (`await fork[r] == 0`)") in out


def test_junit_names_a_deadlock_case_and_both_reports_carry_the_schedule(tmp_path):
    """JUnit's case of a bug at an `await` says what and where (not `16:1 fail`); JUnit and
    SARIF both carry the schedule that replays a bug of threads."""
    program = str(THREADS / "philosophers_buggy.imp")
    junit = symcert("run", "--format", "junit", program, str(THREADS / "counter_buggy.imp"))
    root = ET.fromstring(junit.stdout.split("\n", 1)[1])
    names = [c.get("name") for c in root.iter("testcase")]
    assert "16:1 deadlock: await eaten == 2" in names and "12:1 assert c == 2" in names
    failures = list(root.iter("failure"))
    assert all("; schedule: 0," in f.get("message", "") for f in failures)
    assert all(f.text and f.text.startswith("interleaving") for f in failures)
    sarif = json.loads(symcert("run", "--format", "sarif", program).stdout)
    [result] = [r for r in sarif["runs"][0]["results"] if r["kind"] == "fail"]
    assert result["ruleId"] == "deadlock"
    assert result["properties"]["schedule"] == [0, 0, 0, 0, 0, 1, 2]
    assert len(result["properties"]["interleaving"]) == 7


def test_a_nil_dereference_in_an_await_is_called_so(tmp_path):
    program = write(tmp_path, "p.imp", "class C(val)\nq = nil;\nawait q.val == 1\n")
    for command in ("run", "exec"):
        out = symcert(command, program).stdout
        assert "null dereference in `await q.val == 1`" in out and "division" not in out


def test_a_trace_says_what_fails_at_its_failing_step(tmp_path):
    """A broken precondition and a failing invariant are named as such in a trace (`run
    --trace`, `exec --trace`, and the JSON trace the language server reads)."""
    tri = write(tmp_path, "tri.imp", "proc tri(n) requires n >= 0 ensures result >= 0 begin\n"
                "  if n == 0 then return 0 else r = tri(n - 1); return r + n fi\nend\n"
                "x = tri(k - 2)\n")
    out = symcert("run", "--trace", tri).stdout
    assert "x = tri(k - 2)  -> fails: precondition of tri does not hold" in out
    assert "field of nil" not in out
    bug = json.loads(symcert("run", "--trace", "--json", tri).stdout.splitlines()[0])
    assert bug["trace"][-1]["failure"] == "precondition of tri does not hold"
    loop = write(tmp_path, "inv.imp", "assume n >= 0;\ni = 0; s = 0;\n"
                 "while i < n invariant s <= i do s = s + i; i = i + 1 od;\nassert s >= 0\n")
    out = symcert("exec", "--trace", "--input", "n=4", loop).stdout
    assert ("while i < n  -> fails: invariant `s <= i` does not hold after an iteration"
            in out)


def test_exec_counts_its_steps_in_words(tmp_path):
    one = write(tmp_path, "one.imp", "x = 1\n")
    assert symcert("exec", one).stdout.strip() == "finished after 1 step: x = 1"
    many = write(tmp_path, "many.imp", "i = 0; while i < 5000 do i = i + 1 od\n")
    assert symcert("exec", "--no-accelerate", many).stdout.strip() == \
        "finished after 15,003 steps: i = 5000"
    assert symcert("exec", many).stdout.strip() == ("finished after 15,003 steps (15,000 of them "
                                                    "in checked jumps over loop iterations, "
                                                    "T-A1): i = 5000")


def test_exhaustive_is_never_claimed_beside_undecided(tmp_path):
    """A run whose contracts are too weak is undecided: its `done` event is not exhaustive."""
    program = write(tmp_path, "p.imp", "proc tri(n) requires n >= 0 ensures result >= 0 begin\n"
                    "  if n == 0 then return 0 else r = tri(n - 1); return r + n fi\nend\n"
                    "assume k >= 0;\nx = tri(k);\nassert x != 5\n")
    done = json.loads(symcert("run", "--json", program).stdout.splitlines()[-1])
    assert done["verdict"] == "undecided" and done["exhaustive"] is False


def test_futures_values_are_not_shown_as_variables(tmp_path):
    """`$k`, where a thread's returned value waits for `get`, is no program name: not in
    `exec`'s final state (text, JSON) nor in the tests `symcert tests` writes."""
    program = write(tmp_path, "fut.imp", "proc p(n) begin return n * 2 end\n"
                    "f = spawn p(5);\nv = get f;\nassert v == 10\n")
    assert symcert("exec", program).stdout.splitlines()[-1] == \
        "finished after 4 steps: f = 1, v = 10"
    assert json.loads(symcert("exec", "--json", program).stdout)["final"] == {"f": 1, "v": 10}
    out = tmp_path / "tests"
    assert symcert("tests", "--format", "pytest", "--out", str(out), program).returncode == 0
    written = (out / "test_fut.py").read_text()
    assert "$" not in written.split("CASES = [", 1)[1]
    ran = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          str(out)], capture_output=True, text=True, timeout=300)
    assert ran.returncode == 0, ran.stdout


def test_a_certificate_whose_engine_obligations_are_edited_is_invalid(tmp_path):
    """Every engine obligation replaced by `(assert false)` (trivially UNSAT) is refused:
    check-certificate generates them again and compares; cvc5 prints no warning."""
    program = write(tmp_path, "sum.imp", "assume n >= 0;\ni = 0;\n"
                    "while i < n invariant i <= n do i = i + 1 od;\nassert i == n\n")
    cert = tmp_path / "sum.json"
    assert symcert("prove", "--certificate", str(cert), program).returncode == 0
    ok = symcert("check-certificate", str(cert), program)
    assert ok.returncode == 0 and "valid:" in ok.stdout and ok.stderr == ""
    data = json.loads(cert.read_text())
    for o in data["obligations"]:
        if o["group"] == "engine":
            o["smtlib"] = "(assert false)\n(check-sat)\n"
    cert.write_text(json.dumps(data))
    bad = symcert("check-certificate", str(cert), program)
    assert bad.returncode == 1 and "invalid:" in bad.stdout and "engine obligation" in bad.stdout
    assert "set-logic" not in bad.stderr
    data["obligations"] = [o for o in data["obligations"] if o["group"] != "engine"]
    cert.write_text(json.dumps(data))
    dropped = symcert("check-certificate", str(cert), program)
    assert dropped.returncode == 1 and "lacks the engine obligation" in dropped.stdout


def test_cvc5_reads_a_script_without_set_logic_quietly(capfd):
    from symcert.prove.provers import VALID, prove_cvc5

    assert prove_cvc5("(assert false)\n(check-sat)\n", 1_000_000).status == VALID
    assert "set-logic" not in capfd.readouterr().err


@pytest.mark.parametrize("source, expected", [
    ("result = 0; i = 0; while i < 3 do result = result + i; i = i + 1 od; assert result == 3\n",
     0),
    ("proc f(x) requires result >= 0 ensures result == x + 1 begin var r = x + 1; return r end\n"
     "result = 2;\ny = f(result);\nassert y == 3\n", 0),
    ("proc f(x) ensures result == x + 1 begin result = x; return result + 1 end\n"
     "result = f(3);\nassert result == 5\n", 1),
])
def test_result_is_an_ordinary_name_outside_ensures(tmp_path, source, expected):
    """`result` means the returned value inside `ensures` only; elsewhere a program's own
    variable, read, written and a call's target, under `run` and `prove`."""
    program = write(tmp_path, "p.imp", source)
    for command in ("run", "prove"):
        done = symcert(command, program)
        assert done.returncode == expected, done.stdout + done.stderr
