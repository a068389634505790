"""`symcert tree`: the execution tree as DOT."""

from __future__ import annotations

from pathlib import Path

import re

from symcert.cli import main
from symcert.commands.tree import to_dot
from symcert.parser import parse

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
