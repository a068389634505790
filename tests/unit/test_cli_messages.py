"""What `symcert` tells a user, through the command a user types: `exec --json` on threads,
traces that say what fails, deadlocks that name every blocked thread, JUnit and SARIF with
schedules, nil in an `await`, plurals, `exhaustive` beside `undecided`, certificates whose
every obligation is generated again, the futures' and the havocs' internal names kept out of
sight, the words of this round that still name variables, and clauses out of order named so."""

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
    assert symcert("exec", many).stdout.strip() == (
        "finished after 15,003 steps (15,000 of them in jumps over loop iterations, T-A1, each "
        "confirmed by concrete runs of its first and last iterations and by z3 for every "
        "iteration): i = 5000")


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
    from symcert.verify.provers import VALID, prove_cvc5

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


@pytest.mark.parametrize("source, expected", [
    ("get = 1; spawn = get + 1; assert spawn == 2\n", 0),
    ("invariant = 0; while invariant < 3 do invariant = invariant + 1 od;\n"
     "assert invariant == 3\n", 0),
    ("proc inc(requires, ensures) requires requires >= 0 ensures result == requires + ensures\n"
     "begin return requires + ensures end\n"
     "await = inc(2, 3); assert await == 5;\n"
     "while await > 0 invariant await >= 0 do await = await - 1 od; assert await == 0\n", 0),
    ("proc worker(spawn) begin var await = spawn * 2; return await end\n"
     "class C(get, invariant)\n"
     "get = spawn worker(4);\nrequires = get get;\nawait requires == 8;\n"
     "o = new C; o.get = requires; o.invariant = o.get + 1; assert o.invariant == 10\n", 1),
])
def test_words_of_this_round_name_variables_where_they_are_not_syntax(tmp_path, source,
                                                                       expected):
    """`invariant`, `requires`, `ensures`, `spawn`, `get` and `await` are keywords only where
    they are syntax: a program using them as variables, parameters or fields runs as it did
    before they were added (the last one's assertion fails: 9 != 10)."""
    program = write(tmp_path, "p.imp", source)
    for command in ("run", "exec"):
        done = symcert(command, program)
        assert done.returncode == expected, done.stdout + done.stderr


@pytest.mark.parametrize("source, caret, message", [
    ("proc f(x) ensures result > 0 requires x > 0 begin return x end\ny = f(1)\n", 30,
     "write `requires` before `ensures`: `proc f(x) requires P ensures Q begin ... end`"),
    ("proc f(x) requires x > 0 requires x > 1 begin return x end\ny = f(1)\n", 26,
     "a procedure has one `requires` clause: join its conditions with `and`"),
    ("proc f(x) ensures x > 0 ensures x > 1 begin return x end\ny = f(1)\n", 25,
     "a procedure has one `ensures` clause: join its conditions with `and`"),
    ("proc get() begin skip end\nskip\n", 6,
     "`get` cannot name a procedure, macro or class: there it is a keyword (it may name "
     "variables, fields and parameters)"),
])
def test_clauses_out_of_order_are_named_so(tmp_path, source, caret, message):
    """`ensures` before `requires` (or a clause twice, or a keyword naming a procedure) is an
    error that says what to write, at file:line:col with a caret, exit 65."""
    program = write(tmp_path, "p.imp", source)
    done = symcert("run", program)
    assert done.returncode == 65
    line = source.splitlines()[0]
    assert done.stderr == (f"{program}:1:{caret}: syntax error: {message}\n"
                           f"  {line}\n  {' ' * (caret - 1)}^\n")


HAVOCS = {
    "loop.imp": ("assume n >= 0;\ni = 0; s = 0;\n"
                 "while i < n invariant 0 <= i and i <= n do s = s + 1; i = i + 1 od;\n"
                 "assert i != 3\n", (), "i (after the loop at 3:1) <= n"),
    "array.imp": ("assume n == 5 and k == 4;\ni = 0;\n"
                  "while i < n invariant 0 <= i and i <= n do a[i] = i; i = i + 1 od;\n"
                  "assert a[k] != 4\n", (), "a (after the loop at 3:1)[k] != 4"),
    "call.imp": ("proc tri(n) requires n >= 0 ensures result >= 0 begin\n"
                 "  if n == 0 then return 0 else var r = tri(n - 1); return r + n fi\nend\n"
                 "assume k == 5;\nx = tri(k - 2);\nassert x != 6\n", (),
                 "not result of tri at 5:1 != 6"),
    "merged.imp": ("if x > 0 then y = 1 else y = 2 fi;\nassert y != 2\n", ("--merge",),
                   "y (paths merged at 2:1) == 2"),
}


@pytest.mark.parametrize("name", sorted(HAVOCS))
def test_path_conditions_show_only_the_programs_names(tmp_path, name):
    """A havocked loop's values, a summarised call's value and merged paths' values appear in
    JSON's and SARIF's `path_condition` and in the tree in the program's names (`i (after the
    loop at 3:1)`), never as the engine's symbols (`i#1`, `tri()#1`, `y#m1`)."""
    source, options, shown = HAVOCS[name]
    program = write(tmp_path, name, source)
    done = symcert("run", "--json", *options, program)
    assert done.returncode == 1, done.stdout + done.stderr
    [bug] = [e for e in map(json.loads, done.stdout.splitlines()) if e["event"] == "bug"]
    assert shown in bug["path_condition"] and "#" not in bug["path_condition"]
    sarif = json.loads(symcert("run", "--format", "sarif", *options, program).stdout)
    [result] = sarif["runs"][0]["results"]
    assert "#" not in result["properties"]["path_condition"]
    if not options:
        assert result["properties"]["path_condition"] == bug["path_condition"]
    tree = symcert("tree", program).stdout
    assert "#" not in tree


def test_a_weak_contract_names_the_call_by_its_place(tmp_path):
    """The reason of an undecided verdict names a summarised call's value `result of tri at
    5:1`, not the engine's `tri()#1`."""
    source = (HAVOCS["call.imp"][0].replace("assume k == 5", "assume k >= 2")
              .replace("assert x != 6", "assert x != 7"))  # 7 is no triangular number
    done = symcert("run", write(tmp_path, "p.imp", source))
    assert done.returncode == 3
    assert "calls are summarised with {result of tri at 5:1 = 7}" in done.stdout
