"""The syntax of threads (seed 003 §5): every form parses, prints and round-trips; the static
rules are errors with a caret at the offending statement (exit 65)."""

from __future__ import annotations

from pathlib import Path

import pytest

from symcert.lang.errors import ParseError
from symcert.lang.parser import parse
from symcert.lang.procedures import show_program
from symcert.lang.syntax import Assign, Await, Cmp, Get, Int, Skip, Spawn, Var, spine

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "threads" / "issue_two_bugs.imp"

PROC = "proc p(a, b) begin return a + b end\n"


@pytest.mark.parametrize("text, node", [
    (PROC + "spawn p(1, x)", Spawn("p", (Int(1), Var("x")))),
    (PROC + "f = spawn p(1, 2)", Spawn("p", (Int(1), Int(2)), "f")),
    (PROC + "f = spawn p(1, 2); v = get f", Get("v", "f")),
    ("await x == 1", Await(Cmp("==", Var("x"), Int(1)))),
    ("await x == 1 then skip end", Await(Cmp("==", Var("x"), Int(1)))),
    ("await m == 0 then m = 1 end", Await(Cmp("==", Var("m"), Int(0)), Assign("m", Int(1)))),
])
def test_each_form_parses_to_its_node_and_round_trips(text, node):
    """Each form gives its node (the last statement), and printing parses back to the same."""
    p = parse(text)
    assert list(spine(p))[-1] == node
    assert parse(show_program(p)) == p


def test_await_prints_its_body_as_a_block():
    p = parse("await m == 0 then m = 1; n = n + 1 end")
    assert str(p) == "await m == 0 then\n  m = 1;\n  n = n + 1\nend"
    assert isinstance(p, Await) and not isinstance(p.body, Skip)


def test_the_example_program_round_trips():
    p = parse(EXAMPLE.read_text())
    assert parse(show_program(p)) == p
    assert "f = spawn worker(1)" in show_program(p) and "v = get f" in show_program(p)


@pytest.mark.parametrize("text, line, column, words", [
    (PROC + "await x > 0 then p(1, 2) end", 2, 18, "a call inside `await"),
    ("await x > 0 then while x > 0 do x = x - 1 od end", 1, 18, "a loop inside `await"),
    ("await x > 0 then await y > 0 end", 1, 18, "`await` inside `await"),
    (PROC + "await x > 0 then y = 1; spawn p(1, 2) end", 2, 25, "`spawn` inside `await"),
    (PROC + "f = spawn p(1, 2); await x > 0 then v = get f end", 2, 37, "`get` inside `await"),
    ("v = get f", 1, 1, "`get` of a non-future"),
    (PROC + "f = spawn p(1, 2); x = f + 1", 2, 24, "`f` is a future"),
    (PROC + "f = spawn p(1, 2); f = 3", 2, 20, "`f` is a future"),
    (PROC + "f = spawn p(1)", 2, 1, "takes 2 argument(s), 1 given"),
    ("spawn q()", 1, 1, "unknown procedure `q`"),
    ("proc p(f) begin skip end\ng = spawn p(1); f = spawn p(2)", 1, 6, "may not be a parameter"),
])
def test_static_errors_point_at_the_statement(text, line, column, words):
    with pytest.raises(ParseError) as info:
        parse(text)
    assert (info.value.line, info.value.column) == (line, column)
    assert words in info.value.message
    assert "^" in str(info.value)


def test_thread_words_are_keywords_only_where_they_are_syntax():
    """`spawn`, `get` and `await` name variables except where they start their statement; a
    procedure may not be named by one (`spawn get()` would read two ways)."""
    p = parse("get = 1; spawn = get + 1; await = spawn; assert await == 2")
    assert [s.name for s in list(spine(p))[:3]] == ["get", "spawn", "await"]
    p = parse(PROC + "get = spawn p(1, 2); await = get get; await await == 3")
    first, second, third = spine(p)
    assert isinstance(first, Spawn) and second == Get("await", "get")
    assert isinstance(third, Await) and parse(show_program(p)) == p
    with pytest.raises(ParseError, match="`get` cannot name a procedure, macro or class"):
        parse("proc get() begin skip end\nskip")
