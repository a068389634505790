"""Dijkstra's guarded commands (seed002/languages/gcl.sem): a nondeterministic language with no
hand-written engine; its examples give their verdicts with witnesses that the concrete rules
replay along the same rule labels, the nondeterministic choice included."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from symcert.cli.main import main
from symcert.engine.verdict import Kind
from symcert.seed002.bugfinder import LangBudget, Language, check, replay
from symcert.seed002.rewrite import Engine, computation, initial, is_final, reachable, store
from symcert.seed002.terms import same

ROOT = Path(__file__).resolve().parents[2]
GCL = Language.load("gcl")
EXAMPLES = sorted((ROOT / "examples" / "gcl").glob("*.gcl"))


def _program(name: str):
    path = ROOT / "examples" / "gcl" / f"{name}.gcl"
    return GCL.parse(path.read_text(), str(path))


def test_there_are_correct_and_buggy_examples():
    names = {p.stem for p in EXAMPLES}
    assert names == {"countdown", "countdown_buggy", "gcd", "gcd_buggy", "max", "max_buggy",
                     "sign", "sign_buggy"}


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_each_example_gives_its_verdict_with_a_replayed_witness(path):
    program = GCL.parse(path.read_text(), str(path))
    v = check(GCL, program, LangBudget(50_000))
    if not path.stem.endswith("_buggy"):
        assert v.kind is Kind.SAFE and v.exhaustive
        return
    assert v.kind is Kind.BUG
    (bug,) = v.bugs
    final = replay(GCL, program, dict(bug.inputs), bug.labels)
    assert final is not None and all(same(a, b) for a, b in zip(final.cells, bug.final.cells))
    assert Engine(GCL.concrete).step(final) == []
    assert computation(GCL.concrete, final)[0].label in ("assert_", "abort")


def test_max_buggy_needs_the_second_choice():
    """The witness has x == y + 1, where both guards hold, and its path picks the second."""
    bug = check(GCL, _program("max_buggy")).bugs[0]
    assert bug.input("x") == bug.input("y") + 1
    assert "pick-right" in bug.labels and "pick-left" not in bug.labels
    # the first choice, from the same input, ends normally: the bug needs the choice
    start = initial(GCL.concrete, _program("max_buggy"), dict(bug.inputs))
    endings = {("done" if is_final(GCL.concrete, c) else computation(GCL.concrete, c)[0].label)
               for c in reachable(GCL.concrete, start, 10_000)
               if not Engine(GCL.concrete).step(c)}
    assert endings == {"done", "assert_", "$when(_,_)"}  # `$when(false, …)`: a blocked choice


def test_countdown_buggy_overshoots_only_by_the_step_of_two_at_one():
    bug = check(GCL, _program("countdown_buggy")).bugs[0]
    assert bug.input("x") in (1, 3, 5)
    assert store(GCL.concrete, bug.final)["x"].value == -1


def test_sign_buggy_aborts_at_zero():
    bug = check(GCL, _program("sign_buggy")).bugs[0]
    assert bug.input("x") == 0 and bug.failing.label == "abort"
    assert bug.describe(GCL.concrete) == "stuck at `abort` after rule [when]"


def test_do_with_no_enabled_guard_ends_and_if_aborts():
    start = initial(GCL.concrete, GCL.parse("do x > 0 -> x := x - 1 od; if x > 0 -> skip fi"),
                    {"x": 2})
    ends = [c for c in reachable(GCL.concrete, start, 1_000) if not Engine(GCL.concrete).step(c)]
    heads = sorted(computation(GCL.concrete, c)[0].label for c in ends)
    # blocked: `do`'s exit at x = 2 and x = 1, its loop body at x = 0, `if`'s body at x = 0
    assert heads == ["$when(_,_)"] * 4 + ["abort"]


def test_cli_on_a_gcl_program_and_a_syntax_error(capsys, tmp_path, monkeypatch):
    """The `abort` that an `if` with no enabled guard steps to stands at that `if` (2:1)."""
    monkeypatch.chdir(ROOT)
    assert main(["run", "--lang", "gcl", "examples/gcl/sign_buggy.gcl"]) == 1
    assert capsys.readouterr().out.splitlines()[:3] == [
        "examples/gcl/sign_buggy.gcl:2:1: bug: stuck at `abort` after rule [when]",
        "  input:  x = 0",
        "  replay: the concrete rules of GCL, run from this input along the same 22 rules, "
        "reach the stuck configuration"]
    assert main(["run", "--lang", "gcl", "--json", "examples/gcl/sign_buggy.gcl"]) == 1
    bug = json.loads(capsys.readouterr().out.splitlines()[0])
    assert len(bug.pop("rules")) == 22
    assert bug == {"schema": "1.4", "event": "bug", "cause": "stuck",
                   "file": "examples/gcl/sign_buggy.gcl", "line": 2, "column": 1,
                   "message": "stuck at `abort` after rule [when]", "input": {"x": 0},
                   "replay_steps": 22, "path_condition": "(not x > 0) and (not x < 0)",
                   "states": 68}
    bad = tmp_path / "bad.gcl"
    bad.write_text("if x > 0 -> skip\n[] x := 1 fi\n")
    assert main(["run", "--lang", "gcl", str(bad)]) == 65
    err = capsys.readouterr().err
    assert err.startswith(f"{bad}:2:6: syntax error: unexpected `:=`")
    assert err.splitlines()[1:] == ["  [] x := 1 fi", "       ^"]
