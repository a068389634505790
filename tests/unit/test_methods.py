"""Methods (seed 003 §4, B-O1 to B-O4): the syntax of methods parses and prints back, its
static errors have carets, and `symcert run` proves the correct programs and finds each kind of
method bug with a replayed witness."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from symcert.lang.errors import ParseError
from symcert.lang.parser import parse
from symcert.lang.procedures import show_program

EX = Path(__file__).resolve().parents[2] / "examples" / "objects"

ACCOUNT = """\
class Account(balance, limit) begin
  proc init(b) begin balance = b; limit = 100 end
  proc deposit(n) requires n > 0 begin
    balance = balance + n;
    return balance
  end
  proc transfer(to, n) begin
    if balance >= n then balance = balance - n; to.deposit(n) else skip fi
  end
  proc total(other) begin var t = other.read(); return balance + t end
  proc read() begin return this.balance end
end
class Node(val, next)
"""


def symcert(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "symcert", *argv], capture_output=True,
                          text=True, timeout=300)


def test_the_issue_syntax_parses_and_prints_back():
    """Bare fields read as `this.f`; the printed program parses to the same one."""
    p = parse(ACCOUNT + "a = new Account(10);\nb = new Account(0);\na.transfer(b, 4);\n"
              "x = b.read();\nassert a is Account and not b is Node")
    text = show_program(p)
    assert "this.balance = this.balance + n" in text
    assert "a = new Account(10)" in text and "a.transfer(b, 4)" in text
    assert parse(text) == p


@pytest.mark.parametrize("source, line, column, message", [
    (ACCOUNT + "x = this", 14, 5, "`this` outside a method"),
    (ACCOUNT + "balance = 3", 14, 1, "the global variable `balance` has the name of a field"),
    (ACCOUNT + "a = new Account(1, 2)", 14, 1, "`new Account(...)` with 2 argument(s) needs"),
    (ACCOUNT + "a = new Node(1)", 14, 1, "`new Node(...)` with 1 argument(s) needs"),
    (ACCOUNT + "a.withdraw(3)", 14, 1, "no class has a method `withdraw` taking 1 argument"),
    ("class D(g) begin proc n() begin skip end end\n"
     "class C(f) begin proc m() begin this.n() end end\nskip", 2, 33,
     "no method `n` in class `C`"),
    ("class C(f) begin proc m(this) begin skip end end\nskip", 1, 23, "parameter named `this`"),
    ("assert a is D", 1, 13, "unknown class `D`"),
])
def test_static_errors_point_at_the_spot(source, line, column, message):
    with pytest.raises(ParseError) as info:
        parse(source, "t.imp")
    assert (info.value.line, info.value.column) == (line, column)
    assert message in info.value.message


def test_a_variable_named_is_still_parses():
    """`is` is no keyword: only `e is C` before a class name reads it as the test."""
    p = parse("is = 3; x = is + 1; if is == 3 then skip else skip fi")
    assert parse(show_program(p)) == p


def test_the_bank_is_proved_safe():
    done = symcert("run", str(EX / "bank.imp"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no bug" in done.stdout and "exhaustive" in done.stdout


def test_dispatch_by_class_is_proved_and_a_wrong_assumption_is_a_bug():
    assert symcert("run", str(EX / "dispatch.imp")).returncode == 0
    done = symcert("run", str(EX / "dispatch_buggy_wrong_assumption.imp"))
    assert done.returncode == 1
    assert "assertion `a == 4` fails" in done.stdout
    assert "class = 1" in done.stdout  # the input object is a Rect, the second class
    assert "replay: concrete run" in done.stdout


def test_a_nil_receiver_and_a_missing_method_are_replayed_bugs(tmp_path):
    src = tmp_path / "p.imp"
    src.write_text("class A(v) begin\n  proc value() begin return v end\nend\nclass B(w)\n"
                   "x = p.value()\n")
    done = symcert("run", "--all-bugs", str(src))
    assert done.returncode == 1
    assert f"{src}:5:1: bug: call of `value` on nil" in done.stdout
    assert f"{src}:5:1: bug: no method `value` in class `B`" in done.stdout or \
        "no method `value` in class `B`" in symcert("run", str(_assuming(tmp_path))).stdout


def _assuming(tmp_path: Path) -> Path:
    src = tmp_path / "q.imp"
    src.write_text("class A(v) begin\n  proc value() begin return v end\nend\nclass B(w)\n"
                   "assume p != nil;\nx = p.value()\n")
    return src


def test_a_method_call_runs_with_this_bound_concretely(tmp_path):
    """`exec` runs the constructor, then the method of the receiver's class."""
    src = tmp_path / "p.imp"
    src.write_text(ACCOUNT + "a = new Account(10);\nx = a.deposit(5)\n")
    done = symcert("exec", str(src))
    assert done.returncode == 0, done.stderr
    assert "x = 15" in done.stdout
