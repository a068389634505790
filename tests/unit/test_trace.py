"""Traces (`engine.trace`, `run --trace`, `exec --trace`): read off the concrete replay, with
calls, returns and the call stack; a bug inside a procedure names its stack."""

from __future__ import annotations

import functools
import json
from pathlib import Path

from symcert.cli.main import main
from symcert.core.concrete import Cells
from symcert.engine.bugfinder import Witness
from symcert.engine.testgen import replay_test
from symcert.engine.trace import call_stack, walk, where
from symcert.engine.verdict import check
from symcert.lang.parser import parse, parse_file
from symcert.lang.procedures import references
from symcert.lang.syntax import Stmt

EX = Path(__file__).resolve().parents[2] / "examples"


@functools.cache
def _witness(name: str) -> tuple[Stmt, Witness]:
    p = parse_file(str(EX / f"{name}.imp"))
    found = check(p).witness
    assert found is not None
    return p, found

NESTED = """proc pop(n) begin
  var r = n - 1;
  assert r > 0;
  return r
end
proc twice(m) begin
  var a = pop(m);
  var b = pop(a);
  return b
end
y = twice(x)
"""


def test_a_bug_in_a_procedure_names_its_stack_and_its_trace_the_calls(capsys, tmp_path):
    prog = tmp_path / "nested.imp"
    prog.write_text(NESTED)
    assert main(["run", "--trace", str(prog)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == (f"{prog}:3:3: bug: assertion `r > 0` fails in pop, called from 7:3, "
                      "in twice, called from 11:1")
    trace = out[out.index("  trace:") + 1:]
    assert trace[0] == f"    {prog}:11:1  y = twice(x)  -> call twice(m = 0)"
    assert trace[1] == f"      {prog}:7:3  var a = pop(m)  -> call pop(n = 0)"
    assert trace[2] == f"        {prog}:2:3  var r = n - 1  -> r = -1"
    assert trace[3] == f"        {prog}:3:3  assert r > 0  -> fails"


def test_the_json_trace_lists_calls_and_returns_with_the_stack(capsys, tmp_path):
    prog = tmp_path / "nested.imp"
    prog.write_text(NESTED)
    prog.write_text(NESTED.replace("y = twice(x)", "assume x >= 2; y = twice(x)"))
    assert main(["run", "--json", "--trace", str(prog)]) == 1
    bug = json.loads(capsys.readouterr().out.splitlines()[0])
    assert bug["input"] == {"x": 2}
    assert bug["stack"] == [{"procedure": "pop", "line": 8, "column": 3},
                            {"procedure": "twice", "line": 11, "column": 16}]
    kinds = [(s["kind"], [f["procedure"] for f in s["stack"]]) for s in bug["trace"]]
    assert kinds == [("assume", []), ("call", ["twice"]), ("call", ["pop", "twice"]),
                     ("assign", ["pop", "twice"]), ("assert", ["pop", "twice"]),
                     ("return", ["twice"]), ("call", ["pop", "twice"]),
                     ("assign", ["pop", "twice"]), ("assert", ["pop", "twice"])]
    assert bug["trace"][5]["changes"] == {"a": 1}
    assert bug["trace"][-1]["failed"] and bug["trace"][-1]["branch"] is False


def test_exec_traces_the_run_and_names_the_stack_of_its_failure(capsys, tmp_path):
    prog = tmp_path / "nested.imp"
    prog.write_text(NESTED)
    assert main(["exec", "--trace", "--input", "x=2", str(prog)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert f"        {prog}:4:3  return r  -> return to twice: a = 1" in out
    assert out[-1].startswith(f"{prog}:3:3: assertion `r > 0` fails in pop, called from 8:3, "
                              "in twice, called from 11:1")


def test_the_branches_of_a_trace_are_those_the_condition_gives():
    """Read off the configurations, a trace's branches agree with evaluating each condition
    (testgen.replay_test), on loops, arrays and objects."""
    for name in ("array_max_buggy", "list_insert_buggy", "binsearch_buggy"):
        p, found = _witness(name)
        steps = list(walk(p, found.input, found.final.steps, references(p)))
        branches = tuple((s.pos, s.branch) for s in steps if s.kind in ("if", "while"))
        assert branches == replay_test(p, found.input, found.final.steps)[1]
        assert steps[-1].failed and not any(s.failed for s in steps[:-1])


def test_the_changes_of_a_trace_rebuild_the_final_globals():
    """Applying each step's writes to the input gives the replay's final variables and cells
    (a program without procedures: every write is a global's)."""
    for name in ("array_max_buggy", "binsearch_buggy", "swap_buggy"):
        p, found = _witness(name)
        values = dict(found.input.labelled())
        for s in walk(p, found.input, found.final.steps):
            values.update((c.name, c.value) for c in s.changes)
        final = dict(found.final.env.labelled())
        assert {k: v for k, v in values.items() if v} == {k: v for k, v in final.items() if v}


def test_fields_are_traced_as_objects():
    p = parse("class Node(next)\nx = new Node; x.next = p; p.next = x")
    from symcert.core.concrete import Env

    steps = list(walk(p, Env.of({"p": 1, ".next": Cells.of({1: 0})}), 10, references(p)))
    assert [[(c.name, c.value) for c in s.changes] for s in steps] == [
        [("x", "new#1")], [("new#1.next", "@1")], [("@1.next", "new#1")]]


def test_the_call_stack_is_empty_in_the_main_statement():
    p = parse(NESTED)
    from symcert.core.concrete import Env

    assert call_stack(p, Env.of({"x": 5}), 1) != ()
    assert where(call_stack(p, Env.of({"x": 5}), 1)) == "in twice, called from 11:1"
    assert call_stack(p, Env.of({"x": 5}), 1_000) == ()
