"""`symcert run DIR|FILE...` and its reports: the summary table and the worst exit code, SARIF
2.1.0 validated against the official schema (docs/schema/), JUnit XML, one process a program."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from xml.etree import ElementTree as ET

import jsonschema
import pytest

from symcert.cli.commands.batch import programs, run_all, worst
from symcert.cli.commands.reports import Outcome
from symcert.cli.commands.reports import junit, sarif
from symcert.cli.main import main, parse_args

ROOT = Path(__file__).resolve().parents[2]
EX = ROOT / "examples"
SARIF = jsonschema.Draft4Validator(json.loads(
    (ROOT / "docs" / "schema" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8")))
EVENTS = jsonschema.Draft202012Validator(json.loads(
    (ROOT / "docs" / "schema" / "events.json").read_text(encoding="utf-8")))


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    """A safe program, a buggy one and one with a type error, in a folder and a subfolder."""
    d = tmp_path_factory.mktemp("progs")
    shutil.copy(EX / "isqrt.imp", d / "a_safe.imp")
    (d / "sub").mkdir()
    shutil.copy(EX / "isqrt_buggy.imp", d / "sub" / "b_buggy.imp")
    (d / "c_bad.imp").write_text("y = a[1];\na = 3\n")
    (d / "notes.txt").write_text("not a program")
    return d


@pytest.fixture(scope="module")
def outcomes(folder) -> list[Outcome]:
    args = parse_args(["run", str(folder), "--no-infer"])
    return list(run_all(args, programs([str(folder)])))


def test_a_folder_is_its_imp_files_in_order(folder):
    assert [Path(p).relative_to(folder).as_posix() for p in programs([str(folder)])] == [
        "a_safe.imp", "c_bad.imp", "sub/b_buggy.imp"]


def test_each_program_is_checked_with_its_own_events(outcomes):
    assert [o.exit_code for o in outcomes] == [0, 65, 1]
    for o in outcomes:
        for event in o.events:
            EVENTS.validate(event)
    assert outcomes[2].bugs[0]["input"] == {"x": 1}


def test_the_worst_exit_code_wins():
    assert worst([0, 3, 1]) == 1 and worst([0, 3]) == 3 and worst([1, 65, 3]) == 65
    assert worst([0, 70, 65]) == 70 and worst([0, 0]) == 0 and worst([]) == 0


def test_sarif_validates_and_has_a_result_per_bug_and_per_assertion(outcomes):
    log = sarif(outcomes, worst([o.exit_code for o in outcomes]))
    SARIF.validate(log)
    results = log["runs"][0]["results"]
    bugs = [r for r in results if r["kind"] == "fail"]
    assert len(bugs) == 1 and bugs[0]["ruleId"] == "assertion" and bugs[0]["level"] == "error"
    region = bugs[0]["locations"][0]["physicalLocation"]["region"]
    assert (region["startLine"], region["startColumn"]) == (12, 3)
    assert bugs[0]["properties"]["input"] == {"x": 1} and "x = 1" in bugs[0]["message"]["text"]
    proved = [r for r in results if r["ruleId"] == "proved"]
    assert len(proved) == 2 and all(r["kind"] == "pass" for r in proved)  # isqrt's 2 asserts
    assert all(r["level"] == "none" for r in results if r["kind"] != "fail")  # SARIF §3.27.10
    assert [r["ruleId"] for r in results].count("undecided") == 1  # the buggy one's other
    (note,) = log["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert note["properties"]["kind"] == "type error"
    assert log["runs"][0]["invocations"][0]["exitCode"] == 65


def test_sarif_gives_a_code_flow_when_a_bug_has_a_trace():
    bug = {"schema": "1.4", "event": "bug", "file": "p.imp", "line": 3, "column": 1,
           "message": "`fail` reached", "cause": "fail", "input": {"x": 2}, "replay_steps": 2,
           "path_condition": "x == 2", "states": 3, "stack": [],
           "trace": [{"step": 1, "line": 1, "column": 1, "kind": "if",
                      "statement": "if x == 2", "branch": True, "failed": False,
                      "changes": {}, "depth": 0, "stack": []},
                     {"step": 2, "line": 3, "column": 1, "kind": "assert",
                      "statement": "assert x != 2", "branch": None, "failed": True,
                      "changes": {}, "depth": 0, "stack": []}]}
    done = {"schema": "1.4", "event": "done", "verdict": "bug", "exhaustive": False,
            "inferred_invariants": [], "summaries": [], "bounded": None, "reason": None, "cause": None,
            "states": 3, "strategy": "bfs", "seconds": 0.1, "solver_queries": 1,
            "solver_seconds": 0.0}
    EVENTS.validate(bug)
    log = sarif([Outcome("p.imp", 1, (bug, done), "")], 1)
    SARIF.validate(log)
    flow = log["runs"][0]["results"][0]["codeFlows"][0]["threadFlows"][0]["locations"]
    assert [f["location"]["physicalLocation"]["region"]["startLine"] for f in flow] == [1, 3]


def test_junit_has_a_test_case_per_assertion(outcomes):
    suites = ET.fromstring(junit(outcomes))
    by_name = {s.get("name"): s for s in suites}
    safe, bad, buggy = (by_name[o.file] for o in outcomes)
    assert safe.get("tests") == "2" and safe.get("failures") == "0"
    assert bad.find("testcase/error").get("type") == "type error"
    failing = buggy.find("testcase/failure/..")
    assert failing.get("name") == "12:3 assert x < s"
    assert "x = 1" in failing.find("failure").get("message")
    assert buggy.get("skipped") == "1"


def test_run_over_a_folder_prints_a_table_and_exits_with_the_worst_code(capsys, folder):
    code = main(["run", str(folder / "a_safe.imp"), str(folder / "sub"), "--no-infer"])
    out = capsys.readouterr().out.splitlines()
    assert code == 1
    assert out[0].endswith("b_buggy.imp:12:3: bug: assertion `x < s` fails (input: x = 1)")
    assert out[1].split() == ["program", "verdict", "exit", "states", "seconds"]
    assert out[2].split()[1:3] == ["safe", "0"] and out[3].split()[1:3] == ["bug", "1"]
    assert out[-1] == "2 programs: 1 safe, 1 with a bug; worst exit code 1"
