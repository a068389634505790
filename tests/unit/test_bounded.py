"""The bounded claim T-B1: an undecided breadth-first check says how deep it is complete, "no
assertion fails on any path of at most N steps", and what spent its budget."""

from __future__ import annotations

import json

import pytest

from symcert.cli.main import main
from symcert.engine.explore import Strategy
from symcert.engine.verdict import Budget, Kind, check
from symcert.lang.parser import parse

COUNTDOWN = "i = 0;\nwhile i < n do i = i + 1 od;\nassert i != 30"


@pytest.mark.parametrize("states", [5, 20, 60, 100])
def test_the_claimed_depth_is_below_the_shallowest_bug(states):
    """The claim is true: the bug BFS finds with a larger budget needs more steps than the
    depth claimed with a smaller one."""
    p = parse(COUNTDOWN)
    small = check(p, Budget(states))
    assert small.kind is Kind.UNDECIDED and small.bound is not None
    found = check(p, Budget(10_000)).witness
    assert found is not None and small.bound.steps < found.final.steps
    assert small.bound.consumers[0] == ("the loop at 2:1", small.bound.consumers[0][1])


def test_the_claim_grows_with_the_budget():
    p = parse(COUNTDOWN)
    depths = [check(p, Budget(n)).bound.steps for n in (10, 40, 80)]
    assert depths == sorted(depths) and depths[0] < depths[-1]


def test_no_claim_without_breadth_first_order_or_with_a_decided_verdict():
    p = parse(COUNTDOWN)
    assert check(p, Budget(50, Strategy.DFS)).bound is None
    assert check(parse("x = 1; assert x == 1")).bound is None
    assert check(p, Budget(10_000)).bound is None  # the bug is found


def test_calls_are_named_as_consumers():
    p = parse("proc f(k) begin if k > 0 then r = f(k - 1) else r = 0 fi; return r end\n"
              "x = f(m);\nassert x == 0")
    bound = check(p, Budget(200)).bound
    assert bound is not None and bound.consumers[0][0] == "calls of f"


def test_the_cli_states_the_claim_in_text_and_json(capsys, tmp_path):
    path = tmp_path / "countdown.imp"
    path.write_text(COUNTDOWN)
    assert main(["run", "--no-infer", "--max-states", "40", str(path)]) == 3
    out = capsys.readouterr().out
    claim = next(line for line in out.splitlines() if "no assertion fails" in line)
    assert claim.startswith("  no assertion fails on any path of at most ")
    assert "steps (the budget went to the loop at 2:1: " in claim
    assert main(["run", "--json", "--no-infer", "--max-states", "40", str(path)]) == 3
    done = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert done["bounded"]["steps"] >= 1 and "the loop at 2:1" in done["bounded"]["consumers"]
