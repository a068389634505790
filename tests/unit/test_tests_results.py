"""`symcert tests` as results to act on: a bug path gives a failing test (or a strict xfail
with the bug as its reason), inputs with objects are written as objects, and a branch no
feasible path takes is "unreachable (proved)", not "never taken"."""

from __future__ import annotations

import json
import runpy

import pytest

from symcert.cli.main import main
from symcert.engine.testgen import generate_tests
from symcert.lang.parser import parse

INFEASIBLE = """if x > 0 then
  if x < 0 then y = 1 else skip fi;
  if x > 5 then assume false else skip fi
else skip fi
"""


def test_an_infeasible_branch_is_proved_unreachable_and_a_blocked_one_never_taken(capsys,
                                                                                tmp_path):
    source = tmp_path / "branches.imp"
    source.write_text(INFEASIBLE)
    assert main(["tests", str(source)]) == 0
    out, err = capsys.readouterr()
    assert f"unreachable (proved): the true branch at {source}:2:3" in err
    assert f"never taken: the true branch at {source}:3:3" in err  # feasible, then blocked
    assert json.loads(out)["unreachable_branches"] == [{"line": 2, "column": 3, "taken": True}]


def test_nothing_is_proved_unreachable_by_a_cut_exploration():
    p = parse("i = 0; while i < n do i = i + 1 od; if i < 0 then y = 1 else skip fi")
    suite = generate_tests(p, 20)
    assert not suite.exhaustive and suite.unreachable == frozenset()


def _generated(path):
    """The test function and the cases of a generated pytest file."""
    module = runpy.run_path(str(path))
    return module["test_path"], module["CASES"]


def test_a_bug_path_gives_a_failing_test_or_a_strict_xfail(capsys, tmp_path):
    """The tests of a bug path fail with the bug (the real pytest run of a generated file,
    with --xfail, is test_testgen's)."""
    source = tmp_path / "ten.imp"
    source.write_text("if x > 7 then assert x != 10 else skip fi")
    assert main(["tests", str(source)]) == 0
    tests = json.loads(capsys.readouterr().out)["tests"]
    assert sorted(str(t["bug"]) for t in tests) == ["None", "None", "assertion `x != 10` fails"]
    assert main(["tests", str(source), "--format", "pytest", "--out", str(tmp_path)]) == 0
    test, cases = _generated(tmp_path / "test_ten.py")
    failures = []
    for case in cases:
        try:
            test(*case)
        except AssertionError as failure:
            failures.append(str(failure).splitlines()[0])
    assert failures == [f"{source}:1:15: bug: assertion `x != 10` fails"]
    assert main(["tests", str(source), "--format", "pytest", "--xfail", "--out",
                 str(tmp_path)]) == 0
    test, cases = _generated(tmp_path / "test_ten.py")
    marked = [c for c in cases if isinstance(c, type(pytest.param()))]
    assert len(marked) == 1 and len(cases) == 3
    assert marked[0].marks[0].kwargs == {"reason": "bug: assertion `x != 10` fails at 1:15",
                                         "strict": True}


def test_inputs_with_objects_are_written_as_objects(capsys, tmp_path):
    source = tmp_path / "node.imp"
    source.write_text("class Node(next, val)\n"
                      "if q != nil then if q.next != nil then assert q.next.val != 3 "
                      "else skip fi else skip fi")
    assert main(["tests", str(source)]) == 0
    tests = json.loads(capsys.readouterr().out)["tests"]
    bug = next(t for t in tests if t["bug"] is not None)
    assert bug["input"] == {"q": "@1"}
    assert bug["heap"]["@1"]["next"] == "@2" and bug["heap"]["@2"]["val"] == 3
    assert main(["tests", str(source), "--format", "pytest", "--xfail", "--out",
                 str(tmp_path)]) == 0
    assert "['q=@1', '@1.next=@2', '@1.val=" in (tmp_path / "test_node.py").read_text()
    test, cases = _generated(tmp_path / "test_node.py")
    failed = []
    for case in cases:  # each replays as recorded; the bug's fails
        values = case.values if isinstance(case, type(pytest.param())) else case
        try:
            test(*values)
        except AssertionError as failure:
            failed.append((values[1], "bug: assertion `q.next.val != 3` fails" in str(failure)))
    assert failed == [("fail", True)]
