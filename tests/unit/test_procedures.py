"""Procedures (seed 003 §3): declarations, calls by value, `return`, `var` locals,
the stack of frames in the concrete and the symbolic semantics, the static errors, and the CLI.
Expected values are worked out by hand, independently of the semantics' code."""

from __future__ import annotations

import pytest

from symcert.cli.commands.options import DEFAULT_MAX_CALL_DEPTH
from symcert.cli.main import main
from symcert.core.concrete import Ending, Env, run_to_end
from symcert.core.state import initial, rules_of
from symcert.engine.explore import expand
from symcert.core.frames import MAX_CALL_DEPTH
from symcert.engine.verdict import Budget, Cause, Kind, check
from symcert.lang.errors import ParseError
from symcert.lang.parser import parse
from symcert.lang.procedures import show_program, table_of
from symcert.lang.syntax import Skip
from symcert.solver.z3backend import Solver

FACT = """
proc fact(n) begin
  if n <= 1 then return 1 else var r = fact(n - 1); return n * r fi
end
proc inc(d) begin c = c + d end
assume 0 <= k and k <= 6;
x = fact(k);
inc(3);
assert x >= k and x % 2 == 0 or k < 2
"""


def final(src: str, fuel: int = 100_000, **inputs: int):
    out = run_to_end(Env.of(inputs), parse(src), fuel)
    assert out is not None
    return out


@pytest.mark.parametrize("k, x", [(0, 1), (1, 1), (3, 6), (5, 120), (6, 720)])
def test_the_readme_program_computes_factorials(k, x):
    out = final(FACT, k=k)
    assert out.ending is Ending.NORMAL and out.env("x") == x and out.env("c") == 3


def test_parameters_are_passed_by_value_and_locals_shadow_globals():
    out = final("proc f(x) begin x = x + 1; var y = 10; y = y + x; return y end\n"
                "x = 5; y = 7; z = f(x)")
    assert (out.env("x"), out.env("y"), out.env("z")) == (5, 7, 16)


def test_globals_are_shared_and_var_locals_start_at_zero():
    out = final("proc f() begin g = g + 1; if g < 3 then f() else skip fi; var t = t + 1; "
                "return t end\n z = f()")
    assert out.env("g") == 3 and out.env("z") == 1 and out.env("t") == 0


def test_falling_off_the_end_returns_zero_and_return_drops_the_rest():
    out = final("proc f() begin w = 1 end\nproc h() begin return 4; w = 9 end\n"
                "x = 8; x = f(); y = h()")
    assert (out.env("x"), out.env("y"), out.env("w")) == (0, 4, 1)


def test_return_inside_a_loop_leaves_the_procedure():
    out = final("proc first(n) begin var i = 0; while true do if i * i >= n then return i "
                "else i = i + 1 fi od end\n r = first(20)")
    assert out.env("r") == 5


def test_mutual_recursion_declared_in_any_order():
    src = ("proc even(n) begin if n == 0 then return 1 else var r = odd(n - 1); return r fi end\n"
           "proc odd(n) begin if n == 0 then return 0 else var r = even(n - 1); return r fi end\n"
           "a = even(7); b = odd(7)")
    out = final(src)
    assert (out.env("a"), out.env("b")) == (0, 1)


def test_a_division_by_zero_in_an_argument_or_a_return_is_a_bug():
    out = final("proc f(a) begin return 10 / a end\n y = f(x)", x=0)
    assert out.ending is Ending.FAIL
    out = final("proc f(a) begin return a end\n y = f(1 / x)", x=0)
    assert out.ending is Ending.FAIL


def test_deep_recursion_runs_without_python_recursion():
    """5,000 calls deep concretely, 60 symbolically (the runtime contracts, on in the tests,
    walk the whole stack at every step: `bench/` measures deep symbolic runs)."""
    src = ("proc down(n) begin if n <= 0 then return 0 else var r = down(n - 1); return r + 1 fi "
           "end\n x = down(k)")
    assert final(src, k=5000).env("x") == 5000
    verdict = check(parse(src.replace("down(k)", "down(60); assert x == 60")),
                    Budget(max_states=50_000))
    assert verdict.kind is Kind.SAFE


def test_symbolic_call_pushes_a_frame_and_return_pops_it():
    p = parse("proc f(a) begin return a + 1 end\n y = f(x + 2)")
    (called,) = expand(initial(p))
    assert called.frame is not None and called.frame.proc.name == "f"
    assert str(called.frame.locals) == "{a ↦ x + 2}" and called.store.bindings == ()
    (returned,) = expand(called)
    assert returned.frame is None and str(returned.store) == "{y ↦ x + 3}"
    assert rules_of(returned) == 0 and expand(returned) == []  # the main statement is done
    (inner,) = expand(initial(parse("proc f(a) begin skip end\n y = f(x)")))
    assert inner.prog == Skip() and rules_of(inner) == 1  # the end of a body returns 0
    (back,) = expand(inner)
    assert back.frame is None and str(back.store) == "{y ↦ 0}"


def test_the_bug_finder_finds_and_replays_a_bug_behind_recursion():
    verdict = check(parse(FACT.replace("x % 2 == 0", "x % 4 == 0")), Budget(), Solver())
    assert verdict.kind is Kind.BUG and verdict.bugs[0].input("k") == 2
    assert check(parse(FACT), Budget(), Solver()).kind is Kind.SAFE


@pytest.mark.parametrize("src, line, column, message", [
    ("x = f(1)", 1, 1, "unknown procedure `f`"),
    ("proc f(a) begin skip end\nx = f(1, 2)", 2, 1, "procedure `f` takes 1 argument, 2 given"),
    ("proc f(a, a) begin skip end\nskip", 1, 6, "procedure `f` has the parameter `a` twice"),
    ("proc f() begin skip end\nproc f() begin skip end\nskip", 2, 6,
     "procedure `f` is already defined"),
    ("macro f(a) begin skip end\nproc f() begin skip end\nskip", 2, 6,
     "macro `f` is already defined"),
    ("x = 1;\nreturn x", 2, 1, "`return` outside a procedure"),
    ("var x = 1", 1, 1, "`var` outside a procedure"),
    ("macro m(a) begin a = 1 end\nx = m(1)", 2, 1, "`m` is a macro, which has no value"),
    ("skip;\nproc f() begin skip end", 2, 1, "procedures are declared before the main statement"),
])
def test_static_errors_point_at_the_spot(src, line, column, message):
    with pytest.raises(ParseError) as info:
        parse(src)
    assert (info.value.line, info.value.column) == (line, column)
    assert message in info.value.message


def test_printing_round_trips_with_the_declarations():
    p = parse(FACT)
    text = show_program(p)
    assert text.startswith("proc fact(n) begin\n") and "var r = fact(n - 1)" in text
    again = parse(text)
    assert again == p and table_of(again) == table_of(p)


def test_cli_run_and_exec(tmp_path, capsys):
    good = tmp_path / "fact.imp"
    good.write_text(FACT)
    assert main(["run", str(good)]) == 0
    bad = tmp_path / "fact_buggy.imp"
    bad.write_text(FACT.replace("x % 2 == 0", "x % 4 == 0"))
    assert main(["run", str(bad)]) == 1
    assert "k = 2" in capsys.readouterr().out
    loop = tmp_path / "forever.imp"
    loop.write_text("proc f(n) begin var r = f(n + 1); return r end\nx = f(0)")
    assert main(["exec", str(loop), "--max-steps", "3000"]) == 3
    assert "in `f`, call depth" in capsys.readouterr().out


def test_a_path_deeper_than_the_call_depth_budget_is_cut_and_said(tmp_path, capsys):
    src = ("proc down(n) begin if n <= 0 then return 0 else var r = down(n - 1); return r + 1 fi "
           "end\nassume 0 <= k and k <= 8; x = down(k); assert x == k")
    verdict = check(parse(src), Budget(max_call_depth=5), Solver())
    assert verdict.kind is Kind.UNDECIDED and verdict.reason is not None
    assert verdict.reason.cause is Cause.CALL_DEPTH and "cut 1 path:" in str(verdict.reason)
    assert check(parse(src), Budget(max_call_depth=9), Solver()).kind is Kind.SAFE
    bug = check(parse(src.replace("x == k", "x != 2")), Budget(max_call_depth=5), Solver())
    assert bug.kind is Kind.BUG  # a bug on a shallow path is still found and replayed
    path = tmp_path / "down.imp"
    path.write_text(src)
    assert main(["run", str(path), "--max-call-depth", "5"]) == 3
    assert "call depth budget (5 nested calls) cut 1 path:" in capsys.readouterr().out
    assert DEFAULT_MAX_CALL_DEPTH == MAX_CALL_DEPTH


def test_linking_a_long_program_walks_it_once(monkeypatch):
    """On a line of 20,000 statements, finding the program's table walks no node (a parsed
    sequence holds it, and so does the rest of the program the engine steps, under a new
    first statement), and `references` of the checked program reuses what `check` computed:
    `objects.references` is not run again."""
    from symcert.lang import objects, procedures, structure
    from symcert.lang.syntax import Assign, Int, Seq

    p = parse("proc f(x) begin return x end\n" + ";".join(["skip"] * 20_000) + "; y = f(1)")
    plain = parse(";".join(["skip"] * 20_000))
    walked: list[object] = []
    monkeypatch.setattr(procedures, "children",
                        lambda n: walked.append(n) or structure.children(n))
    kinds: list[object] = []
    monkeypatch.setattr(objects, "references", lambda *a: kinds.append(a) or frozenset())
    table = table_of(p)
    rest = p
    for _ in range(100):
        rest = rest.second
    assert "f" in table and table_of(rest) is table
    assert table_of(Seq(Assign("z", Int(1)), rest)) is table
    assert table_of(plain) == {} and not walked
    assert procedures.references(p) == frozenset() and not kinds
    assert procedures.references(rest) == frozenset() and len(kinds) == 1  # not the checked one
