"""The bug finder on a defined language (seed 002 §6.3): bugs as stuck `bug` constructs found on
the derived semantics, witnesses replayed by the concrete rules along the same labels, SAFE only
when exhaustive, UNKNOWN never a verdict; and `symcert run --lang` reporting it as `symcert run`."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

from symcert.checking.agreement import DERIVED_STATES
from symcert.cli.commands.langrun import bug_report
from symcert.cli import main as cli_main
from symcert.cli.main import main
from symcert.engine.explore import Strategy
from symcert.engine.verdict import Budget, Cause, Kind
from symcert.engine.verdict import check as hand_written_check
from symcert.lang.parser import parse
from symcert.lang.syntax import Int
from symcert.seed002.bugfinder import (
    LangBudget, Language, LangVerdict, ReplayMismatch, check, input_range, replay,
    stuck_condition,
)
from symcert.seed002.rewrite import Engine, computation
from symcert.seed002.semfile import parse_definition
from symcert.seed002.symbolic import sym_initial
from symcert.seed002.terms import App, Id, same
from symcert.solver.z3backend import Sat, Solver

ROOT = Path(__file__).resolve().parents[2]
IMP = Language.load("imp")

# §6.3's `assert`: a rule for `true` only, so `assert false` is stuck; marked `bug`.
STUCK_ASSERT = """module STUCK
data Int [symbolic, result]
data Bool [symbolic, result]
data Id
data Map
syntax AExp ::= Int | Id
              > AExp "+" AExp [seqstrict, left]
syntax BExp ::= Bool
              | AExp "<" AExp [seqstrict]
syntax Stmt ::= "skip"
              | Id "=" AExp [strict(2)]
              | "assert" BExp [strict, bug]
              | "assume" BExp [strict]
              > Stmt ";" Stmt [right]
configuration <k> $PGM:Stmt </k> <env> .Map </env>
var I I1 I2 : Int
var X : Id
var S1 S2 : Stmt
var M : Map
rule [plus] <k> I1 + I2 => I1 +Int I2 ...</k>
rule [lt] <k> I1 < I2 => I1 <Int I2 ...</k>
rule [skip] <k> skip => . ...</k>
rule [seq] <k> S1 ; S2 => S1 ~> S2 ...</k>
rule [assert-true] <k> assert true => . ...</k>
rule [assume] <k> assume true => . ...</k>
rule [lookup] <k> X => lookup(M, X) ...</k> <env> M </env>
rule [assign] <k> X = I => . ...</k> <env> M => update(M, X, I) </env>
"""
STUCK = Language.of(parse_definition(STUCK_ASSERT, "stuck.sem"))

SLOW = {"divsub_rec", "even_odd", "fib_rec", "gcd", "gcd_mod"}
"""The programs whose two checks take more than 5 s with the contracts on (marked slow)."""


ANNOTATED = re.compile(r"\b(invariant|requires|ensures)\b")

PROGRAMS = [(p.stem, p.read_text(), Kind.BUG if p.stem.endswith("_buggy") else Kind.SAFE)
            for p in sorted((ROOT / "examples").glob("*.imp"))
            if not ANNOTATED.search(p.read_text())]
"""Every example, objects included, but those with annotations, whose loops `run --lang`
unrolls without end where `symcert run` takes the invariant transition (their bugs are compared
in test_seed002_annotations.py). The bench programs (up to 10,000 loop turns) are compared
by `bench/derived.py`, contracts off: every verdict agrees (docs/bench.md)."""
OBJECTS = {"alias_nil", "alias_nil_buggy", "list_insert", "list_insert_buggy", "list_reverse",
           "list_reverse_buggy"}
"""The examples with objects (seed 003 §4): `input_range` must keep their input references
off the new objects, or list_insert has a (replayed) bug through an input `next` that is the
new node."""


@pytest.mark.parametrize("name, text, expected", [
    pytest.param(*p, marks=[pytest.mark.slow] if p[0] in SLOW else []) for p in PROGRAMS],
    ids=[p[0] for p in PROGRAMS])
def test_same_verdict_as_symcert_run_on_the_examples(name, text, expected):
    """`run --lang imp` and the hand-written engine agree on every example (procedures, arrays
    and objects included), and each bug's witness replays along its rules."""
    derived = check(IMP, IMP.parse(text), LangBudget(100_000 * DERIVED_STATES), input_range(text))
    assert derived.kind is hand_written_check(parse(text), Budget(100_000)).kind is expected
    for bug in derived.bugs:
        final = replay(IMP, IMP.parse(text), dict(bug.inputs), bug.labels)
        assert all(same(a, b) for a, b in zip(final.cells, bug.final.cells))
        assert computation(IMP.concrete, final)[0].label == "fail"


def test_the_examples_with_objects_are_compared():
    """The six object examples are among the compared ones, and their references are known."""
    compared = {name for name, _, _ in PROGRAMS}
    assert OBJECTS <= compared
    texts = dict((name, text) for name, text, _ in PROGRAMS)
    assert all(input_range(texts[n]).references >= {"head"} for n in OBJECTS if "list" in n)


def test_a_null_dereference_is_a_bug_at_its_statement():
    """Reading or writing a field of nil steps to `fail` ([get-nil], [put-nil]): a bug, its
    witness replayed, placed where the field access stands."""
    text = "class Node(val, next)\nx = new Node;\ny = x.next;\ny.val = 1"
    v = check(IMP, IMP.parse(text), solver=input_range(text))
    assert v.kind is Kind.BUG
    (bug,) = v.bugs
    assert bug.labels[-1] == "put-nil" and bug.failing.pos == (4, 1)
    text = "class Node(val, next)\nassume p != nil;\nz = p.next.val"
    (bug,) = check(IMP, IMP.parse(text), solver=input_range(text)).bugs
    assert bug.labels[-1] == "get-nil" and bug.input("p") > 0
    assert str(bug.condition).endswith("(p.next == 0)")  # the input's `.next` all 0: nil


def test_a_stuck_assert_is_a_bug_with_a_replayed_witness():
    """§6.3: the instances of `assert x < 10` with `x >= 10` are stuck although the symbolic
    configuration steps along [assert-true] for the others."""
    program = STUCK.parse("y = x + 1; assert y < 10")
    v = check(STUCK, program)
    assert v.kind is Kind.BUG and v.exit_code == 1
    (bug,) = v.bugs
    assert bug.input("x") + 1 >= 10
    assert bug.describe(STUCK.concrete) == "stuck at `assert false` after rule [cool-assert_-1]"
    assert Engine(STUCK.concrete).step(bug.final) == []
    assert str(bug.condition) == "(not x + 1 < 10)"


def test_a_stuck_assume_is_not_a_bug_and_the_program_is_safe():
    v = check(STUCK, STUCK.parse("assume x < 10; assert x < 11; skip"))
    assert v.kind is Kind.SAFE and v.exhaustive and v.exit_code == 0


def test_stuck_condition_is_none_when_an_unconditional_rule_matches():
    engine = Engine(STUCK.symbolic, Solver())
    start = sym_initial(STUCK.symbolic, STUCK.parse("assert x < 1"))
    assert stuck_condition(STUCK, engine, start) is None  # heating applies to every instance


class _Unknown:
    """A solver that decides nothing."""

    stats = Solver().stats

    def check(self, pc, parent_model=None):
        return Sat.UNKNOWN, None


def test_unknown_is_never_a_verdict():
    """Remark 1 keeps the path; the stuck formula is UNKNOWN: undecided, not bug nor safe."""
    program = IMP.parse("if x > 0 then fail else skip fi")
    v = check(IMP, program, solver=_Unknown())
    assert v.kind is Kind.UNDECIDED and v.exhaustive and v.reason.cause is Cause.SOLVER
    assert v.exit_code == 3


def test_the_state_budget_leaves_it_undecided():
    v = check(IMP, IMP.parse("while x > 0 do x = x - 1 od; assert x <= 0"), LangBudget(50))
    assert v.kind is Kind.UNDECIDED and not v.exhaustive and v.reason.cause is Cause.STATES


def test_depth_first_finds_the_same_bug():
    program = IMP.parse((ROOT / "examples" / "min3_buggy.imp").read_text())
    v = check(IMP, program, LangBudget(strategy=Strategy.DFS))
    assert v.kind is Kind.BUG and v.bugs[0].input("a") > v.bugs[0].input("b") > \
        v.bugs[0].input("c")


def test_all_bugs_reports_each_stuck_computation_once():
    """The same assertion failing in each turn of a loop is one bug; two assertions are two."""
    program = IMP.parse("i = 0; while i < 3 do assert x > i; i = i + 1 od")
    v = check(IMP, program, LangBudget(all_bugs=True))
    assert v.kind is Kind.BUG and v.exhaustive and len(v.bugs) == 1
    v = check(STUCK, STUCK.parse("assert x < 5; assert 5 < x"), LangBudget(all_bugs=True))
    assert v.exhaustive and sorted(b.input("x") >= 5 for b in v.bugs) == [False, True]


def test_a_bug_the_concrete_rules_do_not_reach_is_never_reported():
    """A planted mismatch: L without [assert-false] under the L^sym derived with it."""
    concrete = IMP.concrete
    without = replace(concrete, rules=tuple(r for r in concrete.rules
                                            if r.label != "assert-false"))
    planted = Language(without, IMP.symbolic)
    with pytest.raises(ReplayMismatch):
        check(planted, IMP.parse("assert x > 0"))


def test_a_definition_without_bug_constructs_is_refused():
    text = STUCK_ASSERT.replace("[strict, bug]", "[strict]")
    with pytest.raises(Exception, match="no production is marked `bug`"):
        Language.of(parse_definition(text, "nobug.sem"))


# --- the command line ------------------------------------------------------------------------


def _run(capsys, *argv):
    code = main(["run", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_cli_reports_a_bug_at_its_line_and_column_with_its_input(capsys, monkeypatch):
    """The stuck `fail` stands where the `assert` it was rewritten from stands (12:3), in text
    and in JSON, as `symcert run` reports the same bug."""
    monkeypatch.chdir(ROOT)
    code, out, _ = _run(capsys, "--lang", "imp", "examples/isqrt_buggy.imp")
    assert code == 1
    assert out.splitlines()[:3] == [
        "examples/isqrt_buggy.imp:12:3: bug: stuck at `fail` after rule [assert-false]",
        "  input:  x = 1",
        "  replay: the concrete rules of IMP, run from this input along the same 67 rules, "
        "reach the stuck configuration"]
    code, out, _ = _run(capsys, "--lang", "imp", "--json", "examples/isqrt_buggy.imp")
    bug = json.loads(out.splitlines()[0])
    rules = bug.pop("rules")
    assert code == 1 and len(rules) == 67 and rules[-1] == "assert-false"
    assert bug == {"schema": "1.4", "event": "bug", "cause": "stuck",
                   "file": "examples/isqrt_buggy.imp", "line": 12, "column": 3,
                   "message": "stuck at `fail` after rule [assert-false]", "input": {"x": 1},
                   "replay_steps": 67, "path_condition": "(0 <= x) and (x <= 40) and "
                   "(not 1 < x) and (0 <= x) and (not x < 1)", "states": 113}


def test_cli_default_budget_is_the_agreements(capsys, monkeypatch):
    """`run --lang` without `--max-states` has `DERIVED_STATES` times `run`'s budget, as the
    agreement check and the bench give the derived engine: count10000's 540,061 configurations
    fit (80,008 states for `run`); an explicit `--max-states` is taken as it is."""
    assert cli_main.DERIVED_STATES == DERIVED_STATES
    seen = []
    monkeypatch.setattr("symcert.seed002.bugfinder.LangCheck.run",
                        lambda self, observer=None: seen.append(self.budget.max_states)
                        or LangVerdict(Kind.SAFE, True, 0, 0.0))
    monkeypatch.chdir(ROOT)
    assert _run(capsys, "--lang", "imp", "examples/min3.imp")[0] == 0
    assert _run(capsys, "--lang", "imp", "--max-states", "7", "examples/min3.imp")[0] == 0
    assert seen == [cli_main.DEFAULT_MAX_STATES * DERIVED_STATES, 7]


def test_cli_shows_an_array_input_as_its_cells(capsys, monkeypatch):
    """An array in a bug's input shows the cells its path condition reads, as `symcert run`
    shows them (swap_buggy: the two indices equal, the cell they share), in text and JSON."""
    monkeypatch.chdir(ROOT)
    code, out, _ = _run(capsys, "--lang", "imp", "--json", "examples/swap_buggy.imp")
    bug = json.loads(out.splitlines()[0])
    cells = {k: v for k, v in bug["input"].items() if k.startswith("a[")}
    assert code == 1 and bug["line"] == 6 and bug["input"]["i"] == bug["input"]["j"]
    assert list(cells) == [f"a[{bug['input']['i']}]"]
    code, out, _ = _run(capsys, "--lang", "imp", "examples/swap_buggy.imp")
    assert code == 1 and re.fullmatch(r"  input:  a\[(-?\d+)\] = -?\d+, i = \1, j = \1",
                                      out.splitlines()[1])


def test_a_program_built_without_positions_is_reported_by_file():
    """A term built by a library caller has no positions: the report names the file alone."""
    program = App("assert_", (App("_<_", (Id("x"), Int(10))),))
    (bug,) = check(STUCK, program).bugs
    assert bug.failing.pos is None
    assert bug_report(bug, STUCK, "p.stuck", False, 1).splitlines()[0] == \
        "p.stuck: bug: stuck at `assert false` after rule [cool-assert_-1]"
    event = json.loads(bug_report(bug, STUCK, "p.stuck", True, 1))
    assert (event["line"], event["column"]) == (None, None)


def test_cli_safe_json_and_budget(capsys, tmp_path):
    code, out, _ = _run(capsys, "--lang", "imp", str(ROOT / "examples" / "min3.imp"))
    assert code == 0 and "no bug: no input reaches a stuck `bug` construct" in out
    code, out, _ = _run(capsys, "--lang", "imp", "--json", str(ROOT / "examples" / "isqrt_buggy.imp"))
    events = [json.loads(line) for line in out.splitlines()]
    assert code == 1 and [e["event"] for e in events] == ["bug", "done"]
    assert events[0]["input"] == {"x": events[0]["input"]["x"]} and events[1]["verdict"] == "bug"
    assert events[0]["replay_steps"] == len(events[0]["rules"])
    code, out, _ = _run(capsys, "--lang", "imp", "--max-states", "20",
                        str(ROOT / "examples" / "gcd.imp"))
    assert code == 3 and "undecided: the state budget (--max-states 20) ran out" in out
    sem = tmp_path / "stuck.sem"
    sem.write_text(STUCK_ASSERT)
    prog = tmp_path / "p.stuck"
    prog.write_text("assert x < 3")
    code, out, _ = _run(capsys, "--lang", str(sem), str(prog))
    assert code == 1 and "bug: stuck at `assert false`" in out and "input:  x = " in out


def test_cli_bad_program_bad_definition(capsys, tmp_path):
    prog = tmp_path / "bad.imp"
    prog.write_text("x = 1;\ny = ;\n")
    code, _, err = _run(capsys, "--lang", "imp", str(prog))
    assert code == 65 and err.startswith(f"{prog}:2:5: syntax error: unexpected `;`")
    assert err.splitlines()[1:] == ["  y = ;", "      ^"]
    sem = tmp_path / "broken.sem"
    sem.write_text(STUCK_ASSERT.replace("rule [skip]", "rule [skip] <k> skip => . ...</k> requires Q\nrule [x]"))
    code, _, err = _run(capsys, "--lang", str(sem), str(prog))
    assert code == 65 and "broken.sem:" in err and "definition error" in err
    code, _, err = _run(capsys, "--lang", str(tmp_path / "none.sem"), str(prog))
    assert code == 65 and "none.sem: cannot read the definition" in err
    code, _, err = _run(capsys, "--lang", "imp", "--max-program-size", "3",
                        str(ROOT / "examples" / "min3.imp"))
    assert code == 65 and "limit exceeded" in err and "--max-program-size" in err
