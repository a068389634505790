"""The case studies of `examples/threads/` (seed 003 §5): each correct program is proved safe by
an exhaustive reduced exploration, each buggy one gives its bugs with an input and a schedule
that the concrete configurations replay. (The other example tests read `examples/*.imp` only.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from symcert.core.threads import deadlocked, stuck_at
from symcert.engine.verdict import Budget, Kind, check
from symcert.lang.parser import parse

THREADS = Path(__file__).resolve().parents[2] / "examples" / "threads"

BUGS = {  # the failing statements (line, deadlock?) of each buggy study
    "counter_buggy": {(12, False)},
    "peterson_buggy": {(9, False), (18, False)},
    "philosophers_buggy": {(16, True)},
    "parallel_sum_buggy": {(16, False)},
    "issue_two_bugs": {(13, True), (15, False)},
    "producer_consumer_buggy": {(25, False)},
    "input_and_schedule_buggy": {(10, False)},
}


def test_every_study_is_listed():
    names = {p.stem for p in THREADS.glob("*.imp")}
    assert names == set(BUGS) | {n.removesuffix("_buggy") for n in BUGS} - {"issue_two_bugs"}


@pytest.mark.parametrize("name", sorted(n.removesuffix("_buggy") for n in BUGS
                                        if n.endswith("_buggy")))
def test_the_correct_study_is_safe(name):
    verdict = check(parse((THREADS / f"{name}.imp").read_text()), Budget(10_000))
    assert verdict.kind is Kind.SAFE and verdict.exhaustive


@pytest.mark.parametrize("name", sorted(BUGS))
def test_the_buggy_study_has_its_bugs_replayed(name):
    verdict = check(parse((THREADS / f"{name}.imp").read_text()), Budget(10_000, all_bugs=True))
    assert verdict.kind is Kind.BUG and verdict.exhaustive
    found = {(w.failing.pos.line, w.failing.deadlock) for w in verdict.bugs}
    assert found == BUGS[name]
    for w in verdict.bugs:  # the replayed configuration fails as reported
        reached = deadlocked(w.final) if w.failing.deadlock else stuck_at(w.final.threads)
        assert reached is not None and reached.pos == w.failing.pos
        assert [i for i, _ in w.interleaving] == list(w.bug.config.schedule)


def test_a_thread_witness_is_shrunk_and_replayed_with_its_schedule():
    """The bounded buffer's bug needs two different items; the shrunk input is the smallest
    that the same schedule replays to the failure (the solver's first model is arbitrary)."""
    verdict = check(parse((THREADS / "producer_consumer_buggy.imp").read_text()), Budget(10_000))
    (w,) = verdict.bugs
    assert max(abs(v) for _, v in w.input.labelled()) <= 1
    assert stuck_at(w.final.threads) == w.failing
