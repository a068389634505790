"""Invariants guessed from concrete runs and pruned by Houdini (`verify.guesses`): proposals
for T-I2, accepted only by the same checks as Spacer's."""

from __future__ import annotations

import re

from symcert.verify import guesses
from symcert.verify.guesses import equalities, guess, sample
from symcert.verify.inductive import check_invariants
from symcert.lang.parser import parse

SUM = ("assume n >= 0; i = 0; s = 0; while i < n do s = s + i; i = i + 1 od; "
       "assert 2 * s == n * (n - 1)")


def test_the_null_space_gives_the_sum_s_closed_form():
    """Rows (i, s) of the triangular numbers satisfy exactly one quadratic equality."""
    rows = [(i, i * (i - 1) // 2) for i in range(8)]
    [equality] = equalities(rows, ["i", "s"])
    assert str(equality) == "i * i == i + 2 * s"


def test_a_quadratic_invariant_is_guessed_and_passes_both_provers():
    """The summation Spacer's linear arithmetic misses: the guessed invariant holds the closed
    form, and z3 and cvc5 prove every obligation with it."""
    p = parse(SUM)
    found = guess(p, sample(p), seconds=30)
    assert found is not None and "i * i" in str(found[0])
    assert check_invariants(p, found).accepted


def test_houdini_drops_a_bound_the_samples_suggest_but_no_induction_gives():
    """Every sampled run stops with x at most 24 (inputs are small), but no bound `x <= c` holds
    for an unbounded n: Houdini removes them, and keeps `n - x >= 0`."""
    p = parse("assume n >= 0; x = 0; while x < n do x = x + 1 od; assert x == n")
    found = guess(p, sample(p), seconds=30)
    assert found is not None
    text = str(found[0])
    assert re.search(r"\bx <= \d", text) is None and "n - x >= 0" in text
    assert check_invariants(p, found).accepted


def test_a_failing_sampled_run_stops_the_guessing():
    """A run that fails is a bug: sampling stops with its input, and nothing is guessed."""
    p = parse("assume n >= 0; x = 0; while x < n do x = x + 1 od; assert x != 7")
    samples = sample(p)
    assert samples.failing is not None and samples.failing("n") == 7
    assert guess(p, samples) is None


def test_a_loop_no_sampled_run_reaches_gets_no_candidate(monkeypatch):
    """The second loop lies beyond the steps a sampled run may take: it has no samples, no
    candidates and no entry in the proposal (the check then gives it `true`)."""
    monkeypatch.setattr(guesses, "STEPS", 300)
    p = parse("i = 0; while i < 100000 do i = i + 1 od; j = 0; while j < n do j = j + 1 od; "
              "assert i == 100000")
    samples = sample(p)
    assert samples.states[0] and not samples.states[1]
    found = guess(p, samples)
    assert found is not None and 1 not in found


def test_pruning_stops_at_its_deadline_between_any_two_queries(monkeypatch):
    """A prover that never decides (each query `unknown`, as z3 on a hard array obligation) and
    a clock that advances one second a query: pruning gives up once its 3 s have passed, after
    a handful of queries, not after one query per candidate."""
    from symcert.verify.inductive import obligations
    from symcert.verify.provers import UNKNOWN, ProverAnswer

    p = parse("assume n >= 0; x = 0; while x < n do x = x + 1 od; assert x == n")
    rows = [(n, x) for n in range(6) for x in range(n + 1)]
    candidates = guesses._octagon(rows, ["n", "x"])
    split = obligations(p, {0: guesses.conjunction(candidates)}, parts={0: tuple(candidates)})
    clock, asked = [0.0], []

    def tick() -> float:
        clock[0] += 1.0
        return clock[0]

    def unknown(text: str, rlimit: int) -> ProverAnswer:
        asked.append(text)
        tick()
        return ProverAnswer(UNKNOWN, 1.0)

    monkeypatch.setattr(guesses.time, "perf_counter", tick)
    monkeypatch.setattr(guesses, "prove_z3", unknown)
    assert len(candidates) > 6
    assert guesses._refuted(split, deadline=3.0) is None
    assert len(asked) <= 3


def test_a_parity_that_changes_at_a_threshold_no_run_reaches_is_guessed():
    """phases (SV-COMP loop-acceleration): `x` steps by 1 below 65520, by 2 above; runs see
    only the first phase, yet `x < 65520 or x % 2 == 0` is a candidate, and the only parity
    Houdini keeps; both provers prove the assert with it."""
    p = parse("x = 0; while x < 268435455 do if x < 65520 then x = x + 1 else x = x + 2 fi od; "
              "assert x % 2 == 0")
    seen = guesses.Samples(("x",), (tuple((x,) for x in range(12)),))
    found = guess(p, seen, seconds=30)
    assert found is not None and "x < 65520 or x % 2 == 0" in str(found[0])
    assert "x % 2 == 1" not in str(found[0])
    assert check_invariants(p, found).accepted
