"""Each report format of `symcert run` (text, json, sarif, junit), as the `symcert` command
writes it, with each option that changes what it says: `--trace` (the replay step by step: text
lines, a JSON `trace`, SARIF code flows), `--all-bugs` (every failing assertion, the others then
proved), and `--no-infer` (a loop no longer proved by an inferred invariant: undecided within
the state budget). The SARIF code flows once were tested on an event built by hand while
`run DIR --trace --format sarif` dropped `--trace`."""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree as ET

import jsonschema
import pytest

ROOT = Path(__file__).resolve().parents[2]
SARIF = jsonschema.Draft4Validator(json.loads(
    (ROOT / "docs" / "schema" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8")))
EVENTS = jsonschema.Draft202012Validator(json.loads(
    (ROOT / "docs" / "schema" / "events.json").read_text(encoding="utf-8")))

TWO = "if x > 0 then assert x > 5 else skip fi;\nassert x != -3;\nassert x * 0 == 0\n"
"""Two assertions that fail for different inputs (1:15 for x = 1, 2:1 for x = -3), one that
holds."""
LOOP = "assume n >= 0; i = 0; while i < n do i = i + 1 od; assert i == n\n"
"""Proved by an inferred invariant within 2,500 states; undecided by exploration alone."""
BUDGET = ("--max-states", "2500")


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("reports")
    (d / "loop.imp").write_text(LOOP)
    (d / "two.imp").write_text(TWO)
    return d


@functools.cache
def symcert(*argv: str) -> tuple[int, str]:
    """`symcert ARGV` in a process of its own: its exit code and standard output."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SYMCERT_")}
    done = subprocess.run([sys.executable, "-m", "symcert", *argv], capture_output=True,
                          text=True, env={**env, "SYMCERT_PROGRESS_SECONDS": "0"}, timeout=300)
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr, done.stderr
    return done.returncode, done.stdout


def events(out: str) -> list[dict]:
    found = [json.loads(line) for line in out.splitlines()]
    for event in found:
        EVENTS.validate(event)
    return found


def sarif(folder: Path, *options: str) -> dict[Path, list[dict]]:
    """The SARIF results of `run FOLDER --format sarif` with `options`, by program."""
    code, out = symcert("run", str(folder), "--format", "sarif", *BUDGET, *options)
    log = json.loads(out)
    SARIF.validate(log)
    assert log["runs"][0]["invocations"][0]["exitCode"] == code == 1
    by_file: dict[Path, list[dict]] = {}
    for result in log["runs"][0]["results"]:
        uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        by_file.setdefault(Path(uri), []).append(result)
    return by_file


def junit(folder: Path, *options: str) -> dict[str, ET.Element]:
    """The JUnit test suites of `run FOLDER --format junit` with `options`, by program name."""
    code, out = symcert("run", str(folder), "--format", "junit", *BUDGET, *options)
    assert code == 1
    return {Path(s.get("name")).name: s for s in ET.fromstring(out)}


def region(result: dict) -> tuple[int, int]:
    """Where a result (or, given a location, that location) is: line and column."""
    r = result.get("locations", [result])[0]["physicalLocation"]["region"]
    return r["startLine"], r["startColumn"]


def test_text_trace_shows_the_replay_of_the_bug(folder):
    two = folder / "two.imp"
    code, plain = symcert("run", str(two), *BUDGET)
    assert code == 1 and f"{two}:1:15: bug:" in plain and "trace:" not in plain
    code, traced = symcert("run", str(two), *BUDGET, "--trace")
    lines = [line.strip() for line in traced.splitlines()]
    start = lines.index("trace:")
    assert lines[start + 1:start + 3] == [f"{two}:1:1  if x > 0  -> true",
                                          f"{two}:1:15  assert x > 5  -> fails"]


def test_text_all_bugs_reports_each_failing_assertion_and_the_table_each_program(folder):
    two = folder / "two.imp"
    _, first = symcert("run", str(two), *BUDGET)
    _, every = symcert("run", str(two), *BUDGET, "--all-bugs")
    assert [line.split(": bug:")[0] for line in first.splitlines() if ": bug:" in line] == [
        f"{two}:1:15"]
    assert [line.split(": bug:")[0] for line in every.splitlines() if ": bug:" in line] == [
        f"{two}:1:15", f"{two}:2:1"]
    code, table = symcert("run", str(folder), *BUDGET, "--all-bugs")
    assert code == 1
    assert [line.split(": bug:")[0] for line in table.splitlines() if ": bug:" in line] == [
        f"{two}:1:15", f"{two}:2:1"]
    assert "input: x = -3" in table
    assert table.splitlines()[-1] == "2 programs: 1 with a bug, 1 undecided; worst exit code 1"


def test_text_table_of_a_folder_says_what_inference_proved(folder):
    _, inferred = symcert("run", str(folder), *BUDGET)
    _, explored = symcert("run", str(folder), *BUDGET, "--no-infer")
    row = {line.split()[0]: line.split()[1:3] for line in inferred.splitlines()
           if line.startswith(str(folder))}
    assert row[str(folder / "loop.imp")] == ["safe", "0"]
    row = {line.split()[0]: line.split()[1:3] for line in explored.splitlines()
           if line.startswith(str(folder))}
    assert row[str(folder / "loop.imp")] == ["undecided", "3"]


@pytest.mark.parametrize("where", ["file", "folder"])
def test_json_trace_and_all_bugs(folder, where):
    target = (str(folder / "two.imp"), "--json") if where == "file" else (str(folder),
                                                                          "--format", "json")
    _, out = symcert("run", *target, *BUDGET)
    bugs = [e for e in events(out) if e["event"] == "bug"]
    assert [(b["line"], b["column"]) for b in bugs] == [(1, 15)] and "trace" not in bugs[0]
    _, out = symcert("run", *target, *BUDGET, "--trace", "--all-bugs")
    bugs = [e for e in events(out) if e["event"] == "bug"]
    assert [(b["line"], b["column"], b["input"]) for b in bugs] == [(1, 15, {"x": 1}),
                                                                    (2, 1, {"x": -3})]
    assert [[(s["line"], s["column"]) for s in b["trace"]] for b in bugs] == [
        [(1, 1), (1, 15)], [(1, 1), (2, 1)]]


def test_sarif_trace_gives_each_bug_its_code_flow(folder):
    two = folder / "two.imp"
    (plain,) = [r for r in sarif(folder)[two] if r["kind"] == "fail"]
    assert "codeFlows" not in plain
    (traced,) = [r for r in sarif(folder, "--trace")[two] if r["kind"] == "fail"]
    steps = traced["codeFlows"][0]["threadFlows"][0]["locations"]
    assert [region(s["location"]) for s in steps] == [(1, 1), (1, 15)]
    assert [s["location"]["message"]["text"] for s in steps] == ["if x > 0", "assert x > 5"]


def test_sarif_all_bugs_fails_each_assertion_and_proves_the_others(folder):
    two = folder / "two.imp"
    first = {region(r): (r["kind"], r["ruleId"]) for r in sarif(folder)[two]}
    assert first == {(1, 15): ("fail", "assertion"), (2, 1): ("open", "undecided"),
                     (3, 1): ("open", "undecided")}
    every = {region(r): (r["kind"], r["ruleId"]) for r in sarif(folder, "--all-bugs")[two]}
    assert every == {(1, 15): ("fail", "assertion"), (2, 1): ("fail", "assertion"),
                     (3, 1): ("pass", "proved")}


def test_sarif_no_infer_leaves_the_loop_undecided(folder):
    loop = folder / "loop.imp"
    (inferred,) = sarif(folder)[loop]
    assert (inferred["kind"], inferred["ruleId"]) == ("pass", "proved")
    (explored,) = sarif(folder, "--no-infer")[loop]
    assert (explored["kind"], explored["ruleId"]) == ("open", "undecided")
    assert "--max-states 2,500" in explored["message"]["text"]


def test_junit_all_bugs_and_no_infer(folder):
    first, every = junit(folder)["two.imp"], junit(folder, "--all-bugs")["two.imp"]
    assert (first.get("tests"), first.get("failures"), first.get("skipped")) == ("3", "1", "2")
    assert (every.get("tests"), every.get("failures"), every.get("skipped")) == ("3", "2", "0")
    assert [c.get("name") for c in every if c.find("failure") is not None] == [
        "1:15 assert x > 5", "2:1 assert x != -3"]
    assert junit(folder)["loop.imp"].get("skipped") == "0"
    explored = junit(folder, "--no-infer")["loop.imp"]
    assert explored.get("skipped") == "1"
    assert "--max-states 2,500" in explored.find("testcase/skipped").get("message")
