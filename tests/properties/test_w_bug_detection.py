"""Bug detection: W-T2.4/2.5/2.6 and W-T3.6 on bounded runs, W-T3.8 never a false YES."""

from __future__ import annotations

from hypothesis import given

from strategies import envs, programs
from symcert.core.concrete import State, head, run_concrete
from symcert.core.state import satisfies
from symcert.engine.bugfinder import find_bugs_n
from symcert.engine.status import Answer, BugFound
from symcert.engine.verdict import has_bug
from symcert.lang.structure import variables
from symcert.lang.syntax import Fail
from symcert.spec.bugs import bug_detection_agrees, has_bug_sound
from symcert.spec.concretization import sample_valuations

K = 6


@given(programs, envs)
def test_bad_input_iff_bug_found(p, v0):
    """W-T2.4-2.6, W-T3.6: the concrete run from V0 gets stuck within K steps iff the
    breadth-first bug finder reports a BugFound of depth at most K whose path condition V0
    satisfies."""
    result = find_bugs_n(p, 2 ** (K + 1) + 1)
    assert bug_detection_agrees(p, v0, K, result)
    bad = isinstance(head(run_concrete(State(v0, p), K).prog), Fail)
    found = any(isinstance(s, BugFound) and s.state.depth <= K and satisfies(v0, s.state.pc)
                for s in result)
    assert bad == found


@given(programs)
def test_has_bug_never_false_yes(p):
    """W-T3.8: YES only for a truly buggy program (an independent concrete replay confirms a
    stuck state), and never NO when a sample input gets stuck."""
    answer = has_bug(p, 200)
    assert has_bug_sound(p, 200, answer)
    if any(isinstance(head(run_concrete(State(v, p), 200).prog), Fail)
           for v in sample_valuations(variables(p))):
        assert answer is not Answer.NO
