"""Annotations: loop invariants and procedures' contracts parse, print back and are checked
statically; every semantics checks an invariant at each head of its loop, as an assertion."""

from __future__ import annotations

import random

import pytest

from symcert.checking.campaign import check_program
from symcert.cli.main import main
from symcert.core.concrete import Env, Fail, State, head, run_concrete
from symcert.engine.invariants import INVARIANTS
from symcert.engine.verdict import Kind, check
from symcert.lang.annotations import RESULT, written
from symcert.lang.errors import ParseError
from symcert.lang.parser import parse
from symcert.lang.procedures import show_program, table_of
from symcert.lang.structure import children, inputs, with_children
from symcert.lang.syntax import And, Assign, Bool, Cmp, Int, Var, While, spine
from symcert.solver.z3backend import solver_for

ISSUE = """\
proc gcd(a, b) requires a > 0 and b > 0 ensures result > 0 and a % result == 0 and b % result == 0 begin
  while b != 0 invariant a > 0 and b >= 0 do var t = b; b = a % b; a = t od;
  return a
end
assume n >= 0;
i = 0; s = 0;
while i < n invariant 0 <= i and i <= n and s == i * (i - 1) / 2 do s = s + i; i = i + 1 od;
assert s == n * (n - 1) / 2;
g = gcd(6, 4)
"""


def test_the_annotated_program_parses_prints_and_round_trips():
    """Each clause lands in its field, and `parse(str(p)) == p` with the declarations."""
    p = parse(ISSUE)
    gcd = table_of(p)["gcd"]
    assert str(gcd.requires) == "a > 0 and b > 0"
    assert str(gcd.ensures) == "result > 0 and a % result == 0 and b % result == 0"
    loop = next(s for s in spine(p) if isinstance(s, While))
    assert [str(i) for i in loop.invariants] == ["0 <= i and i <= n and s == i * (i - 1) / 2"]
    text = show_program(p)
    assert "proc gcd(a, b) requires a > 0 and b > 0 ensures result > 0" in text
    assert "while i < n invariant 0 <= i and i <= n and s == i * (i - 1) / 2 do" in text
    assert parse(text) == p and show_program(parse(text)) == text


def test_several_invariant_clauses_are_their_conjunction_and_none_is_a_plain_loop():
    """`invariant I1 invariant I2` keeps both clauses; a `While` built without them is plain."""
    loop = parse("while x > 0 invariant x >= 0 invariant y == 1 do x = x - 1 od")
    assert isinstance(loop, While) and len(loop.invariants) == 2
    assert loop.invariant() == And(Cmp(">=", Var("x"), Int(0)), Cmp("==", Var("y"), Int(1)))
    assert str(loop).startswith("while x > 0 invariant x >= 0 invariant y == 1 do")
    plain = While(Cmp(">", Var("x"), Int(0)), Assign("x", Int(0)))
    assert plain.invariants == () and plain.invariant() == Bool(True)
    assert plain != loop and parse(str(plain)) == plain
    assert with_children(loop, children(loop)) == loop
    assert inputs(parse("while x > 0 invariant y >= 0 do x = x - 1 od")) == {"x", "y"}


def test_a_contract_clause_alone_and_the_keywords_only_where_they_are_syntax():
    p = parse("proc f(x) ensures result == x begin return x end\ny = f(1)")
    assert table_of(p)["f"].requires is None and str(table_of(p)["f"]) .startswith(
        "proc f(x) ensures result == x begin")
    assert parse("invariant = 1") == Assign("invariant", Int(1))
    p = parse("proc f(requires) requires requires > 0 ensures result == requires begin "
              "return requires end\nensures = f(1)")
    assert table_of(p)["f"].params == ("requires",) and parse(show_program(p)) == p
    with pytest.raises(ParseError, match="write `requires` before `ensures`"):
        parse("proc f(x) ensures x > 0 requires x > 0 begin return x end\ny = f(1)")


@pytest.mark.parametrize("text, message, caret", [
    ("proc f(result) ensures result > 0 begin return 1 end\ny = f(1)",
     "it cannot be a parameter of a procedure with one", None),
    ("while x > 0 invariant 1 / x > 0 do x = x - 1 od", "the `invariant` clause must be total",
     "                          ^"),
    ("proc f(x) ensures x % y == 0 begin return 1 end\ny = f(1)",
     "the `ensures` clause must be total", "                      ^"),
    ("class C(f)\nwhile x > 0 invariant x.f > 0 do x = x - 1 od",
     "the `invariant` clause must be total", None),
])
def test_static_errors_exit_65_with_a_caret(capsys, tmp_path, text, message, caret):
    """A parameter `result` beside an `ensures`, and an annotation that may fail, are bad
    input (exit 65)."""
    path = tmp_path / "bad.imp"
    path.write_text(text)
    assert main(["run", str(path)]) == 65
    err = capsys.readouterr().err
    assert message in err and f"{path}:" in err
    if caret is not None:
        assert caret in err.splitlines()


def test_a_division_guarded_by_an_earlier_conjunct_is_total():
    """`d > 0 and x % d == 0` never divides by zero (`and` short-circuits)."""
    parse("proc f(x) ensures result > 0 and x % result == 0 begin return 1 end\ny = f(1)")
    parse("while x > 0 invariant y != 0 and x / y >= 0 do x = x - 1 od")
    with pytest.raises(ParseError):
        parse("while x > 0 invariant y >= 0 and x / y >= 0 do x = x - 1 od")
    assert RESULT == "result"


def _ends(text: str, env: dict[str, int]) -> str:
    final = run_concrete(State(Env.of(env), parse(text)), 1000)
    first = head(final.prog)
    return first.what() if isinstance(first, Fail) else "normal"


def test_concrete_semantics_checks_the_invariant_on_entry_and_after_each_iteration():
    loop = "i = 0; while i < n invariant i <= 2 do i = i + 1 od"
    assert _ends(loop, {"n": 2}) == "normal"
    assert _ends(loop, {"n": 3}) == "invariant `i <= 2` does not hold after an iteration"
    assert _ends("i = 5; while i < n invariant i <= 2 do i = i + 1 od", {"n": 0}) == (
        "invariant `i <= 2` does not hold on entry")


def test_a_failing_entry_check_is_a_replayed_bug(capsys, tmp_path):
    path = tmp_path / "entry.imp"
    path.write_text("assume n >= 0;\ni = n;\nwhile i > 0 invariant i < 10 do i = i - 1 od")
    assert main(["run", str(path)]) == 1
    out = capsys.readouterr().out
    assert "3:1: bug: invariant `i < 10` does not hold on entry" in out
    assert "input:  n = " in out and "replay: concrete run" in out


def test_the_symbolic_head_check_is_exhaustive_on_bounded_loops():
    """With the loop bounded, exploration with the checks finds each failing invariant."""
    ok = check(parse("assume n >= 0 and n < 4; i = 0;\n"
                     "while i < n invariant i <= n do i = i + 1 od"))
    assert ok.kind is Kind.SAFE
    bad = check(parse("assume n >= 0 and n < 4; i = 0;\n"
                      "while i < n invariant i < 3 do i = i + 1 od"))
    assert bad.kind is Kind.BUG and bad.witness is not None
    assert bad.witness.input("n") == 3


@pytest.mark.parametrize("text", [
    "assume n >= 0 and n < 4; i = 0; while i < n invariant i <= 2 do i = i + 1 od",
    "assume n < 4; i = 0; while i < n invariant i >= 0 invariant i != 2 or x > 0 do i = i + 1 od",
    "assume n < 4; i = 0; while i < n invariant i <= n do i = i + 10 / (n - i - 1) od",
])
def test_concrete_symbolic_and_seed004_agree_on_annotated_loops(text):
    """The campaign's checks (ghost leaves against the concrete runs; seed 004 against its
    twin and the small-step semantics) find no disagreement: with the invariant transition
    off, the symbolic rule unrolls the loop, checking the invariant at each head."""
    p = parse(text)
    rng = random.Random(3)
    sigmas = [Env.of({x: rng.randint(-2, 5) for x in sorted(inputs(p))}) for _ in range(4)]
    token = INVARIANTS.set(False)
    try:
        assert check_program(p, sigmas, solver_for(p), ("main", "interp")) is None
    finally:
        INVARIANTS.reset(token)


def test_written_is_every_name_array_and_field_a_body_may_write():
    p = parse("class C(f)\nwhile i < n do a[i] = 1; if i > 0 then x.f = 2; y = new C else "
              "while j > 0 do j = j - 1 od fi; i = i + 1 od")
    assert isinstance(p, While)
    w = written(p.body)
    assert w.variables == {"i", "j", "y", ".new"} and w.arrays == {"a", ".f"}
    assert not w.calls
