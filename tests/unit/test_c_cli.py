"""`symcert run` and `symcert exec` on C programs, task files and folders of tasks, as a user
types them (docs/c.md)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

EX = Path(__file__).resolve().parents[2] / "examples" / "c"


def symcert(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "symcert", *argv], capture_output=True,
                          text=True, timeout=300, check=False)


def test_safe_program_exit_0():
    done = symcert("run", str(EX / "sum_halves.c"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith(f"{EX / 'sum_halves.c'}: no bug: reach_error() is unreachable")


def test_bug_found_and_its_input_replays_with_exec():
    """The bug's input, named by the nondet call's line:column and occurrence, replays."""
    program = str(EX / "sum_halves_buggy.c")
    done = symcert("run", program)
    assert done.returncode == 1, done.stdout + done.stderr
    first, shown = done.stdout.splitlines()[:2]
    assert first == f"{program}:6:58: bug: reach_error() is called"
    name, value = shown.removeprefix("  input:  ").split(" = ")
    assert name == "nondet_8_11[0]" and int(value) < 0 and int(value) % 2 == 1
    replay = symcert("exec", program, "--input", f"{name}={value}")
    assert replay.returncode == 1
    assert replay.stdout.startswith(f"{program}:6:58: reach_error() is called")
    fine = symcert("exec", program, "--input", f"{name}=-2")
    assert fine.returncode == 0 and fine.stdout.startswith("finished")


def test_undefined_behaviour_is_undecided_with_its_place():
    """C-U1: a signed overflow is neither a bug nor safe: exit 3, cause and place."""
    program = str(EX / "overflow_ub.c")
    done = symcert("run", program)
    assert done.returncode == 3, done.stdout + done.stderr
    assert done.stdout.splitlines()[0] == (
        f"{program}:8:13: undecided: undefined behaviour: signed overflow in `x + 1`")
    as_json = symcert("run", program, "--json")
    event = json.loads(as_json.stdout.splitlines()[-1])
    assert (event["verdict"], event["cause"], event["line"]) == ("unknown", "undefined behaviour", 8)


def test_unsupported_c_exit_65_with_caret():
    program = str(EX / "pointer_refused.c")
    done = symcert("run", program)
    assert done.returncode == 65
    assert done.stderr.splitlines()[:3] == [
        f"{program}:5:7: unsupported C: pointers at 5:7",
        "    int *p = &x;",
        "        ^",
    ]


def test_task_file_reports_expected_verdict():
    done = symcert("run", str(EX / "switch_steps_buggy.yml"))
    assert done.returncode == 1
    assert done.stdout.splitlines()[-1] == "  expected verdict: false; symcert: false: correct"


def test_task_without_unreach_call_is_exit_2(tmp_path):
    task = tmp_path / "t.yml"
    task.write_text("format_version: '2.0'\ninput_files: 'a.c'\nproperties:\n"
                    "  - property_file: ../properties/valid-memsafety.prp\n"
                    "    expected_verdict: true\n")
    done = symcert("run", str(task))
    assert done.returncode == 2
    assert "property not supported" in done.stderr


def test_data_model_decides_the_width_of_long(tmp_path):
    """C-I1: `unsigned long` is 32 bits in ILP32 (the bug) and 64 in LP64 (safe)."""
    program = tmp_path / "width.c"
    program.write_text("void reach_error(void) {}\nint main(void) { unsigned long u = 0; "
                       "u = u - 1; if (u == 4294967295UL) reach_error(); return 0; }\n")
    assert symcert("run", str(program), "--data-model", "ILP32").returncode == 1
    assert symcert("run", str(program), "--data-model", "LP64").returncode == 0
    assert symcert("run", str(program)).returncode == 0  # LP64 by default


def test_folder_of_tasks_is_scored(tmp_path):
    """A folder run: a table, SV-COMP's scores (+2 a correct true, +1 a correct false),
    unsupported counted apart."""
    for name in ("sum_halves", "sum_halves_buggy", "pointer_refused"):
        for ext in (".c", ".yml"):
            shutil.copy(EX / (name + ext), tmp_path / (name + ext))
    done = symcert("run", str(tmp_path))
    assert done.returncode == 0, done.stdout + done.stderr
    rows = {line.split()[0]: line.split() for line in done.stdout.splitlines()[1:-1]}
    assert rows["sum_halves.yml"][1:5] == ["true", "true", "correct", "2"]
    assert rows["sum_halves_buggy.yml"][1:5] == ["false", "false", "correct", "1"]
    assert rows["pointer_refused.yml"][2:4] == ["unsupported", "unsupported"]
    assert done.stdout.splitlines()[-1] == (
        "3 tasks: 2 correct, 0 wrong, 0 unknown, 1 unsupported; score 3")


def test_violation_witness_follows_the_nondet_values_in_order(tmp_path):
    """`--witness`: SV-COMP's YAML format 2.0, one `function_return` waypoint per nondet value
    read, in the replay's order, then the target at the failing call."""
    import yaml

    program = tmp_path / "digits.c"
    program.write_text("extern int __VERIFIER_nondet_int(void);\nvoid reach_error(void) {}\n"
                       "int main(void) { int s = 0, i;\n  for (i = 0; i < 3; i++) {\n"
                       "    int v = __VERIFIER_nondet_int();\n    if (v < 0 || v > 9) continue;\n"
                       "    s = s * 10 + v; }\n  if (s == 427) reach_error();\n  return 0; }\n")
    out = tmp_path / "w.yml"
    done = symcert("run", str(program), "--witness", str(out))
    assert done.returncode == 1, done.stdout + done.stderr
    [entry] = yaml.safe_load(out.read_text())
    assert entry["entry_type"] == "violation_sequence"
    assert entry["metadata"]["format_version"] == "2.0"
    assert entry["metadata"]["task"]["specification"] == "G ! call(reach_error())"
    waypoints = [s["segment"][0]["waypoint"] for s in entry["content"]]
    assert [w["constraint"]["value"] for w in waypoints[:-1]] == [
        "\\result == 4", "\\result == 2", "\\result == 7"]
    assert {(w["location"]["line"], w["location"]["column"]) for w in waypoints[:-1]} == {(5, 13)}
    assert waypoints[-1]["type"] == "target" and waypoints[-1]["location"]["line"] == 8


def test_division_by_zero_is_a_bug_but_no_answer_to_unreach_call(tmp_path):
    """A zero divisor is a bug of its own kind (exit 1), not a call of reach_error(): a task's
    answer stays unknown."""
    program = tmp_path / "div.c"
    program.write_text("extern int __VERIFIER_nondet_int(void);\nvoid reach_error(void) {}\n"
                       "int main(void) { int d = __VERIFIER_nondet_int(); int q = 10 / d;\n"
                       "  if (q > 100) reach_error(); return 0; }\n")
    task = tmp_path / "div.yml"
    task.write_text("format_version: '2.0'\ninput_files: 'div.c'\nproperties:\n"
                    "  - property_file: ../properties/unreach-call.prp\n"
                    "    expected_verdict: true\noptions:\n  language: C\n  data_model: ILP32\n")
    done = symcert("run", str(task))
    assert done.returncode == 1
    assert "division by zero" in done.stdout.splitlines()[0]
    assert done.stdout.splitlines()[-1] == "  expected verdict: true; symcert: unknown: unknown"


@pytest.mark.slow
def test_every_example_task_is_answered_as_expected():
    """examples/c as a folder of tasks: no wrong verdict, every expected verdict given."""
    done = symcert("run", str(EX), "--timeout", "120")
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[-1] == (
        "11 tasks: 9 correct, 0 wrong, 1 unknown, 1 unsupported; score 14")
