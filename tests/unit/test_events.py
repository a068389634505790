"""The JSON events of `--json` (`run`, `prove`, `exec`, `oracle`): each one valid against
docs/schema/events.json and versioned, path conditions in IMP's syntax, errors as events, cause
codes beside the prose, `seconds` counting the whole command."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from symcert.cli.commands.events import SCHEMA_VERSION
from symcert.cli.main import main
from symcert.lang.parser import parse

ROOT = Path(__file__).resolve().parents[2]
EX = ROOT / "examples"
SCHEMA = json.loads((ROOT / "docs" / "schema" / "events.json").read_text(encoding="utf-8"))
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def events(capsys, *argv: str) -> tuple[int, list[dict]]:
    """The exit code and the events of a command, each checked against the schema."""
    code = main(list(argv))
    out = capsys.readouterr().out
    found = [json.loads(line) for line in out.splitlines()]
    for event in found:
        VALIDATOR.validate(event)
        assert event["schema"] == SCHEMA_VERSION
    return code, found


def test_the_schema_is_a_valid_draft_2020_12_schema():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["properties"]["schema"]["const"] == SCHEMA_VERSION


def test_the_schema_rejects_an_event_that_breaks_it():
    bad = {"schema": SCHEMA_VERSION, "event": "bug", "file": "p.imp", "line": 1, "column": 1,
           "message": "m", "cause": "oops", "input": {}, "replay_steps": 0,
           "path_condition": "true", "states": 1}
    assert not VALIDATOR.is_valid(bad)
    assert VALIDATOR.is_valid({**bad, "cause": "assertion"})


def test_a_heap_bug_prints_its_path_condition_in_imp_syntax(capsys):
    code, found = events(capsys, "run", str(EX / "list_insert_buggy.imp"), "--json")
    assert code == 1 and [e["event"] for e in found] == ["bug", "done"]
    bug = found[0]
    assert bug["cause"] == "assertion" and bug["input"]["head"] == "@1"
    pc = bug["path_condition"]
    conjuncts = pc[1:-1].split(") and (")
    assert "(true)" not in pc and len(conjuncts) == len(set(conjuncts))
    assert "head != nil" in conjuncts and "!= 0" not in pc
    assert "[-1 :=" not in pc and "new#1 := nil" in pc  # the path's new object, its next nil


def test_an_integer_path_condition_parses_back_as_imp(capsys):
    _, found = events(capsys, "run", str(EX / "isqrt_buggy.imp"), "--json")
    pc = found[0]["path_condition"]
    assert parse(f"assume {pc}; skip")  # IMP's own syntax


@pytest.mark.parametrize("source, kind", [
    ("x = 1;\n", "syntax error"),
    ("y = a[1];\na = 3\n", "type error"),
    ("x = g(1)\n", "name error"),
])
def test_errors_are_events_under_json(capsys, tmp_path, source, kind):
    path = tmp_path / "p.imp"
    path.write_text(source)
    for command in ("run", "prove", "exec", "oracle", "tests"):
        code, found = events(capsys, command, str(path), "--json")
        assert code == 65 and len(found) == 1
        assert found[0]["event"] == "error" and found[0]["kind"] == kind
        assert found[0]["file"] == str(path) and found[0]["exit_code"] == 65


def test_prove_json_gives_the_verdict_and_the_counterexample(capsys):
    code, found = events(capsys, "prove", str(EX / "isqrt.imp"), "--json")
    assert code == 0 and found[-1]["verdict"] == "proved" and found[-1]["obligations"] > 0
    code, found = events(capsys, "prove", str(EX / "isqrt_buggy.imp"), "--json")
    assert code == 1 and found[0]["event"] == "bug" and found[0]["input"] == {"x": 1}
    assert found[-1]["verdict"] == "bug"


def test_exec_json_gives_the_ending_the_final_state_and_the_inputs(capsys):
    code, found = events(capsys, "exec", str(EX / "isqrt_buggy.imp"), "--input", "x=1",
                         "--input", "zz=3", "--json")
    (done,) = found
    assert code == 1 and done["verdict"] == "failed" and done["cause"] == "assertion"
    assert (done["line"], done["column"]) == (12, 3) and done["unused_inputs"] == ["zz"]
    code, found = events(capsys, "exec", str(EX / "list_insert.imp"), "--input", "head=@1",
                         "--json")
    assert code == 0 and found[0]["verdict"] == "finished" and "@1" in found[0]["heap"]
    assert found[0]["defaulted_inputs"] == ["v"]


def test_exec_json_names_the_budget_that_ran_out(capsys, tmp_path):
    path = tmp_path / "loop.imp"
    path.write_text("x = 0;\nwhile true do x = x + 1 od\n")
    code, found = events(capsys, "exec", str(path), "--max-steps", "30", "--no-accelerate",
                         "--json")
    assert code == 3 and found[0]["cause"] == "steps" and found[0]["steps"] == 30


def test_oracle_json_gives_one_event_per_check(capsys):
    code, found = events(capsys, "oracle", str(EX / "min3.imp"), "--runs", "3", "--json")
    checks = [e for e in found if e["event"] == "check"]
    assert code == 0 and len(checks) == 6 and all(c["held"] for c in checks)
    assert found[-1] == {**found[-1], "event": "done", "verdict": "held", "cause": None}


def test_seconds_cover_the_whole_budget_that_ran_out(capsys, tmp_path):
    path = tmp_path / "loop.imp"
    path.write_text("x = 0;\nwhile true do x = x + 1 od\n")
    code, found = events(capsys, "run", str(path), "--json", "--no-infer", "--timeout", "0.5")
    assert code == 3 and found[-1]["cause"] == "time" and found[-1]["seconds"] >= 0.5


def test_tests_json_is_a_versioned_document(capsys, tmp_path):
    path = tmp_path / "p.imp"
    path.write_text("if x < 0 then x = 0 - x else skip fi")
    assert main(["tests", str(path), "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["schema"] == SCHEMA_VERSION and len(document["tests"]) == 2
