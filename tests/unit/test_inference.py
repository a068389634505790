"""T-I2: invariants proposed by the CHC solver count only after both checks accept them
(verify/inference.py)."""

from __future__ import annotations

from symcert.verify import guesses, inference
from symcert.verify.inference import InferringCheck, annotate, applies
from symcert.engine.verdict import Budget, Cause, Kind
from symcert.lang.annotations import loops
from symcert.lang.parser import parse
from symcert.solver import horn

COUNT = parse("assume n >= 0; x = 0; while x < n do x = x + 1 od; assert x == n")
NESTED = parse("i = 0; while i < n do j = 0; while j < i do j = j + 1 od; i = i + 1 od; "
               "while k < 3 do k = k + 1 od")
WRONG = parse("assert x >= 0").cond  # inductive, too weak for the assertion (x <= n is missing)


def _planted(invariant: object):
    """A CHC solver that proposes `invariant` for every loop."""
    def infer(p, **_):
        return horn.Safe(tuple(horn.LoopInvariant(k, w.pos, invariant)  # type: ignore[arg-type]
                               for k, w in enumerate(loops(p))), 0.0)
    return infer


def test_a_loop_bounded_by_an_input_is_proved_and_its_invariant_shown():
    check = InferringCheck(COUNT, Budget(10_000))
    verdict = check.run()
    assert verdict.kind is Kind.SAFE and verdict.exhaustive
    assert check.inferred is not None and check.finding is None
    [(loop, invariant)] = check.inferred.invariants
    assert loop is next(loops(COUNT)) and check.inferred.lines()[0].startswith("the loop at 1:")
    assert verdict.stats.states > inference.PROBE_STATES  # the probe's states are counted


def test_without_inference_the_same_loop_stays_undecided():
    verdict = InferringCheck(COUNT, Budget(inference.PROBE_STATES)).run()
    assert verdict.kind is Kind.SAFE  # a budget no larger than the probe still gets inference
    plain = InferringCheck(COUNT, Budget(10_000, all_bugs=True)).run()
    assert plain.kind is Kind.UNDECIDED and plain.reason.cause is Cause.STATES


def test_a_wrong_proposal_is_rejected_by_both_provers(monkeypatch):
    monkeypatch.setattr(horn, "infer", _planted(WRONG))
    monkeypatch.setattr(guesses, "guess", lambda p, samples, seconds: {0: WRONG})
    check = InferringCheck(COUNT, Budget(3_000))
    verdict = check.run()
    assert verdict.kind is Kind.UNDECIDED and check.inferred is None
    assert "the inferred loop invariants were rejected" in verdict.reason.message
    assert "the guessed loop invariants were rejected" in verdict.reason.message


def test_a_wrong_proposal_that_slips_past_the_provers_is_caught_by_the_transition(monkeypatch):
    """The second checker: with `check_invariants` planted to accept anything, the invariant
    transition (T-I1) run on the annotated program still refuses to call it safe."""
    from symcert.verify import inductive

    class Accepted:
        accepted = True

    monkeypatch.setattr(horn, "infer", _planted(WRONG))
    monkeypatch.setattr(guesses, "guess", lambda p, samples, seconds: None)
    monkeypatch.setattr(inductive, "check_invariants", lambda p, invariants: Accepted())
    check = InferringCheck(COUNT, Budget(3_000))
    verdict = check.run()
    assert verdict.kind is Kind.UNDECIDED and check.inferred is None
    assert "with the inferred loop invariants: the loop invariants are too weak" in (
        verdict.reason.message)


def test_a_bug_is_found_by_exploration_and_replayed():
    buggy = parse("assume n >= 0; x = 0; while x < n do x = x + 1 od; assert x != 5")
    verdict = InferringCheck(buggy, Budget(10_000)).run()
    assert verdict.kind is Kind.BUG and verdict.witness.input("n") == 5


def test_a_written_invariant_is_never_replaced():
    written = parse("assume n >= 0; x = 0; while x < n invariant x >= 0 do x = x + 1 od; "
                    "assert x == n")
    assert not applies(written, Budget())
    verdict = InferringCheck(written, Budget(10_000)).run()
    assert verdict.kind is Kind.UNDECIDED and verdict.reason.cause is Cause.INVARIANT


def test_annotate_names_loops_in_preorder():
    marked = annotate(NESTED, {1: parse("assert j >= 0").cond, 2: parse("assert k >= 0").cond})
    assert [tuple(map(str, w.invariants)) for w in loops(marked)] == [
        (), ("j >= 0",), ("k >= 0",)]
    assert str(annotate(NESTED, {})) == str(NESTED)


def test_outside_the_encoding_exploration_gets_the_whole_budget():
    """A loop with a call is outside the CHC encoding: after the probe, exploration goes on with
    the whole budget (it used to stop at the probe's 2,000 states) and finds the deep bug."""
    deep = parse("proc inc(v) begin return v + 1 end x = 0; while x < 800 do x = inc(x) od; "
                 "assert x != 800")
    assert not applies(deep, Budget())
    verdict = InferringCheck(deep, Budget(20_000)).run()
    assert verdict.kind is Kind.BUG and verdict.stats.states > inference.PROBE_STATES


def test_with_all_bugs_the_probe_is_the_whole_budget():
    """`--all-bugs` asks for every failing statement within the budget: a bug found by the probe
    does not end the check at the probe's 2,000 states, so the deep one is found too."""
    two = parse("if x == 1 then fail else skip fi; i = 0; while i < 800 do i = i + 1 od; assert i != 800")
    verdict = InferringCheck(two, Budget(20_000, all_bugs=True)).run()
    assert verdict.kind is Kind.BUG and len({b.failing.pos for b in verdict.bugs}) == 2


ZEROS = parse("assume n >= 2; i = 0; while i < n do a[i] = 0; i = i + 1 od; assert a[1] == 0")


def test_an_array_loop_is_proved_with_an_invariant_over_its_cells():
    check = InferringCheck(ZEROS, Budget(300))
    assert check.run().kind is Kind.SAFE
    assert check.inferred is not None and "a[" in check.inferred.lines()[0]


def test_a_planted_array_invariant_that_forgets_the_cell_is_caught_twice(monkeypatch):
    """An inductive invariant too weak for the assert (it says nothing of `a[1]`) is rejected
    by the provers, and, with the provers planted to accept it, by the invariant transition."""
    from symcert.verify import inductive

    class Accepted:
        accepted = True

    weak = parse("assert i >= 0").cond
    monkeypatch.setattr(horn, "infer", _planted(weak))
    monkeypatch.setattr(guesses, "guess", lambda p, samples, seconds: {0: weak})
    first = InferringCheck(ZEROS, Budget(300)).run()
    assert first.kind is Kind.UNDECIDED and "were rejected" in first.reason.message
    monkeypatch.setattr(inductive, "check_invariants", lambda p, invariants: Accepted())
    second = InferringCheck(ZEROS, Budget(300)).run()
    assert second.kind is Kind.UNDECIDED
    assert "with the inferred loop invariants" in second.reason.message
