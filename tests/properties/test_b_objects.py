"""Objects (seed 003 §4): B-T4 and B-C4 through ghost runs from valid input heaps (nil or input
objects @1..@3, fields of any value), on the case studies and small object programs."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from symcert.core.concrete import Cells, Env, State, trace
from symcert.core.state import initial
from symcert.engine.ghost import check_ghost_run, fresh_objects_distinct, ghost_run
from symcert.lang.parser import parse, parse_file
from symcert.lang.procedures import references

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
PROGRAMS = [parse_file(str(EXAMPLES / f"{name}.imp"))
            for name in ("list_insert", "list_insert_buggy", "list_reverse",
                         "list_reverse_buggy", "alias_nil", "alias_nil_buggy")]
PROGRAMS.append(parse("class Node(val, next)\nassume p != nil; c = p.next; "
                      "if c != nil then assert c.val != 7 else skip fi"))
PROGRAMS.append(parse("class Node(val, next)\np.next = new Node; p.next.next = new Node; "
                      "q.next = p.next; head = q.next.next; head.val = v"))  # `x.f = new C`
OBJECTS = (1, 2, 3)
REFERENCE = st.integers(0, 3)
heaps = st.builds(
    lambda roots, nexts, vals, v: Env.of({
        **dict(zip(("p", "q", "head"), roots)), "v": v,
        ".next": Cells.of(dict(zip(OBJECTS, nexts))),
        ".val": Cells.of(dict(zip(OBJECTS, vals)))}),
    st.tuples(REFERENCE, REFERENCE, REFERENCE),
    st.tuples(REFERENCE, REFERENCE, REFERENCE),
    st.tuples(*[st.integers(-2, 8)] * 3), st.integers(-2, 8))


@pytest.mark.slow
@settings(max_examples=10, deadline=None)
@given(st.sampled_from(PROGRAMS), heaps)
def test_ghost_runs_from_input_heaps_are_the_concrete_runs(p, heap):
    """B-T4 and B-C4 (with M-P3, M-P4): from a valid input heap, the ghost states of `run` are
    exactly the concrete trace, depth by depth, and each made the same new objects, none of
    them an input object."""
    assert check_ghost_run(p, heap, 1_000) is None


def test_an_input_that_names_a_new_object_is_caught():
    """B-T4's check is not vacuous: a ghost input whose reference is a new object's number
    breaks the distinctness the semantics relies on, and is reported."""
    p = PROGRAMS[-3]  # alias_nil_buggy
    bad = Env.of({"p": -1, "q": 1})
    states = ghost_run(p, bad, 50)
    concrete = list(trace(State(bad, p), 50))
    assert fresh_objects_distinct(concrete, states, references(p)) is not None
    assert initial(p).store.bindings  # the new-object counter starts at 0
