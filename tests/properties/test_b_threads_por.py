"""B-X5: the partial-order reduction keeps every verdict and every failing statement, on
generated small concurrent programs (the full interleaving, `--por off`, is the reference);
and the same check catches a planted unsound reduction."""

from __future__ import annotations

from itertools import islice
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from symcert.core.concrete import head, is_stuck
from symcert.core.state import initial
from symcert.engine import por
from symcert.engine.explore import run
from symcert.lang.parser import parse
from symcert.solver.z3backend import solver_for

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "threads"
LIMIT = 600
"""States per exploration; a program whose full exploration does not end within it is left out."""

WORKER = ["var t = x", "x = t + k", "x = x + k", "y = x", "x = y + 1",
          "await x > 1", "await m == 0 then m = 1 end", "m = 0", "assert x != 3",
          "if x > 1 then y = k else y = 2 fi", "a[x % 2] = k", "y = a[y % 2]"]
MAIN = ["x = 1", "y = 0", "m = 0", "await x > 2", "assert y != 2", "assert x != 2",
        "a[0] = 1"]


@st.composite
def programs(draw: st.DrawFn) -> str:
    """Two workers of one or two statements each, spawned by a main statement that may
    `get` the first one's result and checks something at the end."""
    bodies = [draw(st.lists(st.sampled_from(WORKER), min_size=1, max_size=2)) for _ in "ab"]
    procs = "".join(f"proc w{n}(k) begin {'; '.join(b)}; return k end\n"
                    for n, b in enumerate(bodies))
    before = draw(st.lists(st.sampled_from(MAIN), max_size=2))
    after = draw(st.lists(st.sampled_from(MAIN), max_size=2))
    get = ["v = get f"] if draw(st.booleans()) else []
    main = before + ["f = spawn w0(1)", "spawn w1(2)"] + after + get + ["assert v != 1"]
    return procs + "; ".join(main)


def failures(text: str, reduce: bool) -> frozenset[tuple[int, int, bool]] | None:
    """The failing statements (line, column, deadlock?) of every stuck state of the whole
    exploration, or None when it does not end within LIMIT states."""
    p = parse(text)
    found: set[tuple[int, int, bool]] = set()
    with por.reducing(reduce):
        for n, s in enumerate(islice(run([initial(p)], solver=solver_for(p)), LIMIT + 1)):
            if s is None:
                return frozenset(found)
            if is_stuck(s.prog):
                fail = head(s.prog)
                found.add((fail.pos.line, fail.pos.column, fail.deadlock))
    return None


def agree(text: str) -> bool:
    """The reduced exploration finds exactly the failing statements of the full one."""
    full = failures(text, False)
    return full is None or failures(text, True) == full


@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
@given(programs())
def test_reduction_keeps_every_failing_statement(text):
    assert agree(text), text


def test_the_property_catches_an_unsound_reduction(monkeypatch):
    """With every pair of steps called independent (reads and writes ignored), the check above
    fails: the reduced run misses the lost update of the case study."""
    text = (EXAMPLES / "counter_buggy.imp").read_text()
    assert agree(text)
    monkeypatch.setattr(por, "independent", lambda a, b: True)
    assert not agree(text)


@pytest.mark.parametrize("reduce, states", [(True, 51), (False, 386)])
def test_the_reduction_explores_fewer_states_on_the_example(reduce, states):
    text = (EXAMPLES / "counter_buggy.imp").read_text()
    p = parse(text)
    with por.reducing(reduce):
        seen = sum(1 for _ in iter(run([initial(p)], solver=solver_for(p)).__next__, None))
    assert seen == states
