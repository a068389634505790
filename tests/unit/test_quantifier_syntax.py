"""The syntax of bounded quantifiers and implication (X-Q1): what parses, how it prints back,
and the errors with their carets."""

from __future__ import annotations

import pytest

from symcert.lang.errors import ParseError
from symcert.lang.parser import parse
from symcert.lang.procedures import show_program
from symcert.lang.syntax import Not, Or, Quant

ROUND_TRIPS = [
    "assert forall k in 0 .. n - 1 :: a[k] == 0",
    "assert not (exists k in 0 .. n - 1 :: a[k] != 0)",
    "assume forall k in 0 .. n - 2 :: a[k] <= a[k + 1]",
    "while i < n invariant 0 <= i and (forall k in 0 .. i - 1 :: a[k] == 0) do i = i + 1 od",
    "assert forall k in 0 .. 3 :: (exists j in k .. 3 :: a[j] == k) ==> b[k] > 0",
    "assert x > 0 ==> forall k in 0 .. x :: a[k] == 0",
]


@pytest.mark.parametrize("source", ROUND_TRIPS)
def test_quantified_programs_print_back_to_themselves(source):
    p = parse(source)
    assert parse(str(p)) == p


def test_contracts_may_quantify():
    source = ("proc f(n) requires forall k in 0 .. n :: a[k] > 0 ensures exists k in 0 .. n :: "
              "a[k] == result begin return a[0] end\nx = f(3)")
    p = parse(source)
    assert parse(show_program(p)) == p
    assert "ensures exists k in 0 .. n :: a[k] == result" in show_program(p)


def test_the_quantifier_node_and_implication():
    q = parse("assert exists k in 1 .. n :: a[k] == k").cond  # type: ignore[attr-defined]
    assert isinstance(q, Quant) and not q.universal and q.var == "k"
    assert (str(q.lo), str(q.hi), str(q.body)) == ("1", "n", "a[k] == k")
    implied = parse("assert x > 0 ==> y > 0 ==> z > 0").cond  # type: ignore[attr-defined]
    assert isinstance(implied, Or) and isinstance(implied.left, Not)  # right-associative:
    assert isinstance(implied.right, Or) and str(implied.right) == "not y > 0 or z > 0"
    lowest = parse("assert x > 0 or y > 0 ==> z > 0").cond  # type: ignore[attr-defined]
    assert str(lowest) == "not (x > 0 or y > 0) or z > 0"


def test_the_words_are_no_keywords():
    """`forall`, `exists` and `in` remain names wherever they are not a quantifier's head."""
    p = parse("forall = 1; in = forall; exists = in + 1; assert exists > forall")
    assert parse(str(p)) == p


ERRORS = [
    ("if forall k in 0 .. 3 :: a[k] == 0 then skip else skip fi", 1, 4,
     "a quantifier may stand only in `assert`, `assume`, `invariant`, `requires` and "
     "`ensures`, not in the test of `if`, `while` or `await`"),
    ("i = 0;\nwhile (exists k in 0 .. 3 :: a[k] == i) do i = i + 1 od", 2, 8,
     "a quantifier may stand only in `assert`, `assume`, `invariant`, `requires` and "
     "`ensures`, not in the test of `if`, `while` or `await`"),
    ("k = 1;\nassert forall k in 0 .. 3 :: a[k] == 0", 2, 8,
     "the quantifier's variable `k` is also a variable of the program; a bound variable "
     "needs a name of its own"),
    ("assert forall k in 0 .. 3 :: (forall k in 0 .. 1 :: a[k] == 0)", 1, 31,
     "`k` is bound again inside a quantifier over it; give the inner one another name"),
    ("assert forall k in 0 .. 3 :: a[k] / x == 1", 1, 35,
     "a quantifier must be total: it divides only by nonzero literals"),
    ("assert x > 0 and forall k in 0 .. 3 :: a[k] == 0", 1, 18,
     "unexpected `forall k in`; expected `(`, `-`, `false`, `nil`, `not`, `true`, a variable, "
     "an integer (a quantifier in an operand of `and`, `or`, `not` or `==>` is written in "
     "parentheses: `x > 0 and (forall k in 0 .. n :: a[k] > 0)`)"),
    ("assert forall k from 0 .. 3 :: a[k] == 0", 1, 15,
     "unexpected `k`; expected `%`, `*`, `+`, `-`, `.`, `/`, `[`, a comparison (a quantifier "
     "reads `forall k in lo .. hi :: b`)"),
]


@pytest.mark.parametrize("source, line, column, message", ERRORS)
def test_misuse_is_an_error_with_a_caret(source, line, column, message):
    with pytest.raises(ParseError) as info:
        parse(source, "t.imp")
    err = info.value
    assert (err.line, err.column, err.message) == (line, column, message)
    assert str(err).splitlines()[-1].index("^") == column + 1  # under the offending spot
