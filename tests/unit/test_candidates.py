"""Candidate inputs (engine/candidates.py): a bug beyond exploration is reported only when its
concrete run fails (W-T3.5's replay with no symbolic path); a candidate that does not replay is
discarded, never a bug."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema

from symcert.verify import guesses
from symcert.verify.inference import InferringCheck
from symcert.cli.main import main
from symcert.core.concrete import Cells, Ending, Env, run_to_end
from symcert.engine.bugfinder import Witness
from symcert.engine.candidates import Candidate, Discarded, Source, replay, shrink_replayed
from symcert.engine.verdict import Budget, Kind
from symcert.lang.parser import parse
from symcert.solver import horn

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "docs" / "schema" / "events.json").read_text(encoding="utf-8"))

COPY = parse("i = 0; while i < 20000 do b[i] = a[i]; i = i + 1 od; assert b[19999] == 0")
"""A copy loop of 20,000 iterations over input arrays: its bug lies 100,000 steps deep, far
beyond a probe of a few hundred states and beyond every sampled run's `STEPS`."""


def _no_answer(p, **_):
    return horn.Unknown("planted: no answer")


def test_a_copy_bug_beyond_exploration_is_replayed_from_a_sampled_input(monkeypatch):
    """The sampled runs stop unfinished; the cells next to the literal 20000 give `a[19999]` a
    value; the replay of such a run's input fails at the assert, which is then a bug."""
    monkeypatch.setattr(guesses, "SAMPLE_SECONDS", 0.2)
    monkeypatch.setattr(horn, "infer", _no_answer)
    monkeypatch.setattr(guesses, "guess", lambda p, samples, seconds: None)
    verdict = InferringCheck(COPY, Budget(300), seconds=60.0).run()
    assert verdict.kind is Kind.BUG
    found = verdict.witness
    assert found.found_by == "sampling" and found.final.steps > 100_000
    value = found.input("a")
    assert isinstance(value, Cells) and value(19999) != 0
    end = run_to_end(found.input, COPY, found.final.steps)  # the reference semantics again
    assert end is not None and end.ending is Ending.FAIL and end.where == found.failing.pos


def test_a_planted_counterexample_that_does_not_replay_is_discarded(monkeypatch):
    """A CHC solver that proposes a wrong failing input: the input's run ends normally, so it is
    no bug; the check stays undecided and says why."""
    safe = parse("assume n >= 0; x = 0; while x < n do x = x + 1 od; assert x == n")
    monkeypatch.setattr(horn, "infer", lambda p, **_: horn.Unsafe(Env.of({"n": 3}), 0.0))
    monkeypatch.setattr(guesses, "guess", lambda p, samples, seconds: None)
    check = InferringCheck(safe, Budget(300))
    verdict = check.run()
    assert verdict.kind is Kind.UNDECIDED and not verdict.bugs
    assert ("the input {n = 3} from the CHC solver's counterexample does not replay to a "
            "failure: its concrete run ends normally after") in verdict.reason.message


def test_an_abstract_failure_beyond_the_transitions_replay_is_replayed_longer(monkeypatch):
    """A weak invariant (planted past both provers) lets T-I1 fail at the assert; the model's
    input needs 120,000 steps to fail, more than `invariants.confirm` replays, so the check
    replays it again as a candidate, on the program without the invariant, and it fails."""
    from symcert.verify import inductive
    from symcert.lang.annotations import loops

    class Accepted:
        accepted = True

    p = parse("assume n == 40000; i = 0; while i < n do i = i + 1 od; assert i != n")
    weak = parse("assert i >= 0").cond
    monkeypatch.setattr(horn, "infer", lambda q, **_: horn.Safe(tuple(
        horn.LoopInvariant(k, w.pos, weak) for k, w in enumerate(loops(q))), 0.0))
    monkeypatch.setattr(inductive, "check_invariants", lambda q, invariants: Accepted())
    monkeypatch.setattr(guesses, "guess", lambda q, samples, seconds: None)
    verdict = InferringCheck(p, Budget(300)).run()
    assert verdict.kind is Kind.BUG and verdict.witness.found_by == "abstraction"
    assert verdict.witness.input == Env.of({"n": 40000}) and verdict.witness.final.steps > 100_000


def test_a_candidate_is_discarded_unless_its_run_fails():
    p = parse("assume x > 0; while x < 10 do x = x + 1 od; assert x == 10")
    ended = replay(p, Candidate(Env.of({"x": 4}), Source.CHC), 1_000)
    blocked = replay(p, Candidate(Env.of({"x": -1}), Source.CHC), 1_000)
    doubling = parse("assume x > 0; while x < 1000 do x = x * 2 od; assert x >= 1000")
    long = replay(doubling, Candidate(Env.of({"x": 1}), Source.SAMPLING), 5)
    assert isinstance(ended, Discarded) and ended.ending is Ending.NORMAL
    assert isinstance(blocked, Discarded) and "blocked by an `assume`" in blocked.why()
    assert isinstance(long, Discarded) and long.exhausted and long.steps == 5
    assert "exceeds the step budget" in long.why()
    jumped = replay(p, Candidate(Env.of({"x": 1}), Source.SAMPLING), 5)  # x + 1: accelerated
    assert isinstance(jumped, Discarded) and jumped.ending is Ending.NORMAL
    assert jumped.steps == 32 and jumped.jumped == 27


def test_any_failing_ending_is_a_bug_and_the_input_is_restricted_to_the_inputs():
    p = parse("y = 0; z = 10 / (x - 2); assert true")
    found = replay(p, Candidate.of(p, Env.of({"x": 2, "y": 7}), Source.ABSTRACTION), 100)
    assert isinstance(found, Witness) and found.failing.by_zero
    assert found.input == Env.of({"x": 2}) and found.bug.pc.conjuncts() == ()
    assert found.describe().startswith("division by zero")


def test_shrinking_by_concrete_runs_drops_and_halves_inputs():
    p = parse("assert x <= 3 or y > 100")
    found = replay(p, Candidate(Env.of({"x": 12, "y": 5}), Source.SAMPLING), 10)
    assert isinstance(found, Witness)
    assert shrink_replayed(found).input == Env.of({"x": 6})  # 3 would not fail


def test_the_json_event_of_a_replayed_bug_says_how_it_was_found(capsys, tmp_path):
    """A bug behind a loop the probe does not finish, found by the failing sampled run: its event
    has no path condition, `found_by`, the replayed input and its trace."""
    src = tmp_path / "deep.imp"
    src.write_text("x = 0; while x < 700 do x = x + 1 od; assert x != 700\n", encoding="utf-8")
    code = main(["run", "--json", "--trace", "--max-states", "300", str(src)])
    found = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    for event in found:
        jsonschema.Draft202012Validator(SCHEMA).validate(event)
    [bug] = [e for e in found if e["event"] == "bug"]
    assert found[-1]["event"] == "done" and found[-1]["verdict"] == "bug"
    assert code == 1 and bug["found_by"] == "sampling" and bug["path_condition"] is None
    assert bug["line"] == 1 and bug["input"] == {} and bug["trace"][-1]["failed"]
    assert bug["replay_steps"] == bug["trace"][-1]["step"] > 2_000


def test_prove_reports_a_sampled_runs_bug_beyond_its_states(capsys, tmp_path):
    """`prove` (inferring, the default): the bug lies beyond the states, the failing sampled
    run's input replays to it: a counterexample (exit 1) with no path condition and `found_by`;
    with `--no-infer` the same budget is undecided."""
    src = tmp_path / "deep.imp"
    src.write_text("x = 0; while x < 700 do x = x + 1 od; assert x != 700\n", encoding="utf-8")
    assert main(["prove", "--no-infer", "--max-states", "300", str(src)]) == 3
    capsys.readouterr()
    code = main(["prove", "--infer", "--json", "--max-states", "300", str(src)])
    found = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    for event in found:
        jsonschema.Draft202012Validator(SCHEMA).validate(event)
    [bug] = [e for e in found if e["event"] == "bug"]
    assert code == 1 and found[-1]["verdict"] == "bug"
    assert bug["found_by"] == "sampling" and bug["path_condition"] is None
    assert bug["replay_steps"] > 2_000 and bug["input"] == {}
    assert main(["prove", "--infer", "--max-states", "300", str(src)]) == 1
    assert ("found by the concrete replay of a sampled concrete run; no symbolic path"
            in capsys.readouterr().out)


def test_prove_replays_the_chc_counterexample_and_discards_a_wrong_one(monkeypatch):
    """`prove_inferring`: Spacer's counterexample, out of the sampled inputs' reach (an
    `assume` blocks them), is the counterexample once its run fails; a proposed input whose
    run ends normally is no counterexample, and the proof stays undecided."""
    from symcert.verify.proving import prove_inferring

    p = parse("assume x > 100; i = 0; while i < 10 do i = i + 1 od; assert x != 777")
    monkeypatch.setattr(horn, "infer", lambda p, **_: horn.Unsafe(Env.of({"x": 778}), 0.0))
    proof, _, _ = prove_inferring(p, 20)
    assert proof.verdict.kind is Kind.UNDECIDED and not proof.verdict.bugs
    monkeypatch.setattr(horn, "infer", lambda p, **_: horn.Unsafe(Env.of({"x": 777}), 0.0))
    proof, _, _ = prove_inferring(p, 20)
    assert proof.verdict.kind is Kind.BUG
    found = proof.verdict.witness
    assert found.found_by == "chc" and found.input("x") == 777
    end = run_to_end(found.input, p, found.final.steps)
    assert end is not None and end.ending is Ending.FAIL and end.where == found.failing.pos
