"""T-S1 against inlining on generated programs: a loop-free procedure whose contract is its
strongest postcondition (the disjunction, over its paths, of the path's condition and what the
path returns and writes) summarises its calls without losing or adding a verdict. Summarised
and inlined runs of the same program give the same verdict, and every bug either finds is
replayed concretely."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from symcert.core.concrete import Ending, run_to_end
from symcert.engine.contracts import summaries
from symcert.engine.verdict import Budget, Kind, check
from symcert.lang.parser import parse

VARS = ("x", "y", "h")
"""What the procedure reads: its parameters and a global it never writes."""


@st.composite
def linear(draw: st.DrawFn, names: tuple[str, ...]) -> str:
    """`v`, `v + k`, `v - w` or `k` over `names`."""
    v, w = draw(st.sampled_from(names)), draw(st.sampled_from(names))
    k = draw(st.integers(-3, 3))
    return draw(st.sampled_from([v, f"{v} + {k}", f"{v} - {w}", str(k)]))


@st.composite
def comparison(draw: st.DrawFn, names: tuple[str, ...]) -> str:
    op = draw(st.sampled_from(["<", "<=", "==", "!="]))
    return f"{draw(linear(names))} {op} {draw(linear(names))}"


@st.composite
def programs(draw: st.DrawFn) -> str:
    """A procedure `f(x, y)` of one to three paths, each writing the global `g` and returning,
    its contract the strongest postcondition (and maybe a precondition), called once or twice
    by a main statement over small inputs that keeps the input `g` in `k` and asserts a
    comparison."""
    paths = [(draw(comparison(VARS)), draw(linear(VARS)), draw(linear(VARS)))
             for _ in range(draw(st.integers(1, 3)))]
    body, post, taken = "", [], []
    for i, (c, g, r) in enumerate(paths):
        last = i == len(paths) - 1
        branch = f"g = {g}; return {r}"
        body += branch if last else f"if {c} then {branch} else "
        here = " and ".join(taken + ([] if last else [c]))
        post.append(f"({here + ' and ' if here else ''}g == {g} and result == {r})")
        taken.append(f"not ({c})")
    body += " fi" * (len(paths) - 1)
    pre = draw(st.sampled_from(["", " requires x >= -2", " requires x != y"]))
    calls = "z = f(a, b)" if draw(st.booleans()) else "z = f(a, b); w = f(z, a)"
    main_names = ("a", "b", "h", "g", "z", "k")
    return (f"proc f(x, y){pre} ensures {' or '.join(post)} begin {body} end\n"
            "assume -3 <= a and a <= 3 and -3 <= b and b <= 3 and -3 <= h and h <= 3;\n"
            f"k = g; {calls};\nassert {draw(comparison(main_names))}")


@settings(max_examples=10, deadline=None)
@given(programs())
def test_summarised_and_inlined_runs_agree(text):
    p = parse(text)
    summarised = check(p, Budget(3_000))
    with summaries(False):
        inlined = check(p, Budget(3_000))
    assert summarised.kind is inlined.kind, text
    assert summarised.kind is not Kind.UNDECIDED, (text, summarised.reason)
    for verdict in (summarised, inlined):
        for found in verdict.bugs:  # replayed: the concrete run from its input fails there
            final = run_to_end(found.input, p, 10_000)
            assert final is not None and final.ending is Ending.FAIL
            assert final.where == found.failing.pos


PLANTED = """proc f(x, y) ensures (g == x and result == x) begin g = x; return x end
assume -3 <= a and a <= 3 and -3 <= b and b <= 3 and -3 <= h and h <= 3;
k = g; z = f(a, b); w = f(z, a);
assert a - k < 1"""
"""A program the property generated that catches a havoc set forgetting `g`."""


def test_a_planted_havoc_set_breaks_the_agreement(monkeypatch):
    from symcert.engine import contracts
    correct = contracts.writes
    assert check(parse(PLANTED)).kind is Kind.BUG
    monkeypatch.setattr(contracts, "writes", lambda q: correct(q) - {"g"})
    assert check(parse(PLANTED)).kind is Kind.SAFE  # wrong: the inlined run finds the bug
    with summaries(False):
        assert check(parse(PLANTED)).kind is Kind.BUG
