"""`symcert tree`: the execution tree as DOT."""

from __future__ import annotations

from pathlib import Path

import re

from symcert.cli.commands.tree import to_dot
from symcert.cli.main import main
from symcert.lang.parser import parse
from symcert.lang.syntax import Cmp, If, Int, Skip, Stmt, Var

EX = Path(__file__).resolve().parents[2] / "examples"


def test_tree_has_one_node_per_state_and_marks_stuck_and_pruned():
    dot = to_dot(parse("if x < 0 then if x > 0 then fail else skip fi else assert x != 3 fi"), 100)
    nodes = re.findall(r"^  n(\d+) \[label=", dot, re.M)
    edges = re.findall(r"^  n(\d+) -> n(\d+)", dot, re.M)
    assert len(nodes) == len(edges) + 1  # a tree
    assert dot.count("UNSAT") == 1  # x < 0 and x > 0
    assert dot.count(", color=red") == 1  # the failing assert x != 3, reachable with x == 3
    assert 'label="x != 3"' in dot and 'label="not x != 3"' in dot


def test_tree_is_bounded(capsys):
    assert main(["tree", "--max-states", "7", f"{EX}/countdown_buggy.imp"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("digraph symcert {") and out.rstrip().endswith("}")
    assert len(re.findall(r"^  n\d+ \[label=", out, re.M)) == 7


def nested_ifs(depth: int) -> Stmt:
    """`if x > d-1 then ... if x > 0 then skip else skip fi ... else skip fi`, built directly
    (parsing it checks the printing round trip, slow at this depth with contracts on)."""
    program: Stmt = Skip()
    for i in range(depth):
        program = If(Cmp(">", Var("x"), Int(i)), program, Skip())
    return program


def test_tree_of_a_deeply_nested_program_never_prints_a_nested_statement(monkeypatch):
    """A node's label is the first line of its statement, computed without printing the nested
    statement (printing it was cubic in the depth: 46 s at depth 1,600, over 300 s at 3,000).
    The work is watched, not timed: no `if` is printed whole while the tree is drawn."""
    def printed_whole(stmt: If) -> str:
        raise AssertionError(f"a tree label printed the whole nested statement at {stmt.cond}")

    monkeypatch.setattr(If, "__str__", printed_whole)
    dot = to_dot(nested_ifs(1000), 200)
    assert 'n0 [label="if x > 999 then"];' in dot
    assert 'label="x > 999"' in dot and 'label="not x > 999"' in dot
    assert dot.rstrip().endswith("}")


def test_labels_are_first_lines():
    from symcert.cli.commands.tree import label

    program = parse("while i < n do if i > 2 then i = i + 1 else skip fi od")
    assert label(program) == "while i < n do" == str(program).splitlines()[0]
    assert label(program.body) == "if i > 2 then" == str(program.body).splitlines()[0]
    assert label(parse("assert x != 3")) == "assert x != 3"


def test_only_the_ends_of_runs_are_drawn_final_when_a_procedure_falls_off_its_end():
    """A final node (double circle) is a finished state outside every frame: the `skip` that
    ends a procedure's body without `return` is drawn as an ordinary node, as are the states of
    the run after it."""
    program = parse("proc bump(a) begin if a > 0 then y = a else y = 0 - a fi end\n"
                    "r = bump(x); if y > 5 then fail else skip fi")
    dot = to_dot(program, 200)
    finals = re.findall(r'^  n\d+ \[label="(.*)", peripheries=2\];', dot, re.M)
    stuck = re.findall(r"^  n\d+ \[.*color=red", dot, re.M)
    inner = re.findall(r'^  n\d+ \[label="skip"\];', dot, re.M)
    assert finals == ["skip", "skip"] and len(stuck) == 2  # y > 5 or not, for a > 0 or not
    assert len(inner) == 2  # the end of bump's body, once per branch of its `if`
