"""The parser (seed 000, Fig. 1): precedence, round trips, pinned error messages, robustness."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from symcert.core.concrete import Env, State, run_concrete
from symcert.lang.errors import EXIT_DATA, LimitError, ParseError, excerpt
from symcert.lang.procedures import show_program, table_of
from symcert.lang.parser import (MAX_DEPTH, MAX_DIGITS, MAX_INPUT_BYTES, MAX_PROGRAM_SIZE, parse,
                             parse_file)
from symcert.lang.syntax import (
    Add,
    And,
    Assert,
    Assign,
    Bool,
    Cmp,
    Fail,
    If,
    Int,
    Neg,
    Not,
    Or,
    Seq,
    Skip,
    Sub,
    Var,
    While,
    spine,
)

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples").glob("*.imp"))


def test_examples_are_found_wherever_pytest_runs():
    assert len(EXAMPLES) >= 9


def value_of(expr: str) -> int:
    """The value `x` gets from `x = expr` in a concrete run from the all-zero input."""
    return value_of_program(parse(f"x = {expr}"))


def value_of_program(p):
    return run_concrete(State(Env(), p), 10).env("x")


def test_every_construct_parses_to_its_node():
    p = parse("""
        skip; fail; assert true; x = 1;
        if not (a < b) or c >= 0 and false then skip else skip fi;
        while a != b do a = a + 1 od
    """)
    s = list(spine(p))
    assert [type(t) for t in s] == [Skip, Fail, Assert, Assign, If, While]
    cond = s[4].cond
    assert isinstance(cond, Or) and isinstance(cond.left, Not) and isinstance(cond.right, And)
    assert cond.right.right == Bool(False)
    assert s[5].cond == Cmp("!=", Var("a"), Var("b"))
    assert s[5].body == Assign("a", Add(Var("a"), Int(1)))


@pytest.mark.parametrize("expr, value", [
    ("5 - 3 + 1", 3),          # left associative: PyWiSE computes 5 - (3 + 1) = 1
    ("10 - 2 - 3", 5),
    ("1 - (2 - 3)", 2),
    ("-5", -5),
    ("- -5", 5),
    ("-(2 + 3) - 1", -6),
    ("3 - -4", 7),
])
def test_arithmetic_is_left_associative_with_unary_minus(expr, value):
    assert value_of(expr) == value


def test_and_binds_tighter_than_or_and_not_tighter_than_and():
    p = parse("assert not a == 1 and b == 2 or c == 3")
    assert isinstance(p.cond, Or)
    assert isinstance(p.cond.left, And)
    assert isinstance(p.cond.left.left, Not)


def test_negative_literal_and_negation_are_distinct_nodes():
    assert parse("x = -5").expr == Int(-5)
    assert parse("x = -(5)").expr == Neg(Int(5))
    assert parse("x = - -1").expr == Neg(Int(-1))
    assert parse("x = 1 - -2").expr == Sub(Int(1), Int(-2))


def test_sequence_is_right_nested():
    p = parse("a = 1; b = 2; c = 3")
    assert isinstance(p, Seq) and isinstance(p.second, Seq)
    assert p.first == Assign("a", Int(1))


def test_positions_are_one_based_and_not_compared():
    p = parse("skip;\n  assert x < 1")
    assert p.second.pos.line == 2 and p.second.pos.column == 3
    assert parse("assert x < 1") == p.second


ROUND_TRIP = [
    "skip",
    "x = -5",
    "x = -(5)",
    "x = - -1",
    "x = 5 - (3 + 1)",
    "x = 5 - 3 + 1",
    "x = -(a - b) + -c",
    "assert not (a < b and c > d) or a != 0",
    "assert not not true",
    "if a <= b then if b >= c then fail else skip fi else x = 1; y = 2 fi",
    "while (a < b or false) and true do a = a + 1; assert a <= b od; fail",
    "if true then skip else skip fi; if a == 1 then x = 1 else x = 2 fi",
]


@pytest.mark.parametrize("source", ROUND_TRIP)
def test_printing_gives_source_that_parses_back_to_the_same_ast(source):
    p = parse(source)
    assert parse(str(p)) == p


@pytest.mark.parametrize("path", EXAMPLES)
def test_examples_round_trip(path):
    p = parse_file(path)
    again = parse(show_program(p))
    assert again == p and table_of(again) == table_of(p)


ERRORS = [
    ("x = 1 * * 2", 1, 9, "unexpected `*`; expected `(`, `-`, `nil`, a variable, an integer"),
    ("x = 4 % ", 1, 8, "unexpected end of input; expected `(`, `-`, `nil`, a variable, an integer"),
    ("x = 1 $ 2", 1, 7, "unexpected character `$`"),
    ("if x < 1 then skip fi", 1, 20, "unexpected `fi`; expected `else`"),
    ("x = 1;", 1, 6, "unexpected end of input; expected `assert`, `assume`, `await`, `fail`, `if`, "
                     "`return`, `skip`, `spawn`, `var`, `while`, a variable (`;` separates statements, it does not end them)"),
    ("", 1, 1, "empty program; expected a statement"),
    ("x = 1)", 1, 6, "unexpected `)`; expected `;`, end of input"),
    ("x = (1 + 2", 1, 11, "unexpected end of input; expected `)`"),
    ("if true then skip else skip", 1, 28, "unexpected end of input; expected `fi`"),
    ("while x do skip od", 1, 9, "unexpected `do`; expected a comparison"),
    ("x = 1;\n\ny == 2", 3, 3, "unexpected `==`; expected `(`, `.`, `=`, `[`"),
]


@pytest.mark.parametrize("source, line, column, message", ERRORS)
def test_syntax_errors_are_pinned(source, line, column, message):
    with pytest.raises(ParseError) as info:
        parse(source, "t.imp")
    err = info.value
    assert (err.line, err.column, err.message) == (line, column, message)
    shown = str(err).splitlines()
    assert shown[0] == f"t.imp:{line}:{column}: syntax error: {message}"
    assert shown[1] == "  " + source.splitlines()[line - 1] if source else shown[1] == "  "
    assert shown[2] == "  " + " " * (column - 1) + "^"


def test_trailing_token_is_an_error_not_ignored():
    with pytest.raises(ParseError, match="unexpected `y`"):
        parse("x = 1 y = 2")


# --- robustness: no traceback, no hang -----------------------------------------------------


def test_five_thousand_nested_parentheses():
    depth = 5_000
    p = parse("x = " + "(" * depth + "1" + ")" * depth)
    assert p.expr == Int(1)
    q = parse("x = " + "-(" * depth + "1" + ")" * depth)
    assert value_of_program(q) == 1


def test_nesting_beyond_the_limit_is_a_clear_error():
    depth = MAX_DEPTH + 5
    with pytest.raises(ParseError, match=f"nests deeper than {MAX_DEPTH} levels"):
        parse("x = " + "-(" * depth + "1" + ")" * depth)


def test_a_chain_of_operators_too_long_for_the_depth_limit_says_why():
    chain = " and ".join(["x == 1"] * (MAX_DEPTH + 1))
    with pytest.raises(ParseError, match="a chain such as `a and b and c` of n operators nests n "
                                         "levels") as info:
        parse(f"assert {chain}")
    assert info.value.line == 1 and len(str(info.value)) < 500
    assert isinstance(parse("assert " + " and ".join(["x == 1"] * (MAX_DEPTH - 10))).cond, And)


def test_ten_thousand_digit_literal():
    digits = "7" * 10_000
    p = parse(f"x = {digits}")
    assert p.expr == Int(int(digits))
    assert parse(str(p)) == p


def test_non_utf8_bytes_are_a_parse_error_at_their_position(tmp_path):
    path = tmp_path / "bad.imp"
    path.write_bytes(b"x = 1;\ny = \xff2")
    with pytest.raises(ParseError) as info:
        parse_file(str(path))
    err = info.value
    assert (err.line, err.column) == (2, 5)
    assert "not valid UTF-8 (byte 0xff)" in err.message


def test_empty_and_comment_only_files(tmp_path):
    empty = tmp_path / "empty.imp"
    empty.write_text("")
    with pytest.raises(ParseError, match="empty program"):
        parse_file(str(empty))
    comment = tmp_path / "comment.imp"
    comment.write_text("# nothing here\n")
    with pytest.raises(ParseError, match="unexpected end of input"):
        parse_file(str(comment))


def test_if_requires_else_and_while_requires_od():
    with pytest.raises(ParseError):
        parse("while true do skip")
    assert parse("if true then skip else fail fi") == If(Bool(True), Skip(), Fail())
    assert parse("while false do skip od") == While(Bool(False), Skip())


# --- PyWiSE macros: `macro name(params) begin body end` before the program, `name(args)` calls ---


def test_macros_expand_by_substituting_arguments():
    p = parse("""
        macro swap(a, b, t) begin t = a; a = b; b = t end
        macro incr(v) begin v = v + 1 end
        x = 1; y = 2; swap(x, y, tmp); incr(x); assert x == 3 and y == 1
    """)
    assert p == parse("x = 1; y = 2; tmp = x; x = y; y = tmp; x = x + 1; assert x == 3 and y == 1")
    s = run_concrete(State(Env(), p), 100)
    assert (s.env("x"), s.env("y"), s.prog) == (3, 1, Skip())


def test_macro_arguments_are_expressions_and_macros_can_call_earlier_macros():
    p = parse("""
        macro check(e) begin assert e >= 0 end
        macro twice(e) begin check(e); check(e - 1) end
        twice(n + 1)
    """)
    assert p == parse("assert n + 1 >= 0; assert n + 1 - 1 >= 0")


MACRO_ERRORS = [
    ("macro f(a) begin a = b end\nskip", 1, 22,
     "macro `f` uses `b`, which is not one of its parameters (a)"),
    ("macro f(a) begin q[a] = 1; a = b end\nskip", 1, 18,
     "macro `f` uses `q`, which is not one of its parameters (a)"),
    ("macro f(a) begin a = 1 end\nf(1 + x)", 2, 3,
     "macro `f` assigns its parameter `a`, so its argument must be a variable, not `1 + x`"),
    ("g(x)", 1, 1, "unknown procedure `g` (procedures declared: none; macros are defined before use)"),
    ("macro f(a) begin skip end\nf(x, y)", 2, 1, "macro `f` takes 1 argument, 2 given"),
    ("macro f(a, a) begin skip end\nskip", 1, 7, "macro `f` has a repeated parameter"),
    ("macro f(a) begin skip end\nmacro f(b) begin skip end\nskip", 2, 7,
     "macro `f` is already defined"),
    ("x = 1; macro f(a) begin skip end", 1, 8,
     "unexpected `macro`; expected `assert`, `assume`, `await`, `fail`, `if`, `return`, `skip`, "
     "`spawn`, `var`, `while`, a variable (macros and procedures are declared before the main statement)"),
    ("macro f(a) begin f(a) end\nf(x)", 1, 18,
     "unknown procedure `f` (procedures declared: none; macros are defined before use)"),
]


@pytest.mark.parametrize("source, line, column, message", MACRO_ERRORS)
def test_macro_misuse_is_a_syntax_error(source, line, column, message):
    with pytest.raises(ParseError) as info:
        parse(source, "t.imp")
    assert (info.value.line, info.value.column, info.value.message) == (line, column, message)


@pytest.mark.parametrize("source, kind", [
    ("macro f(a) begin a = b end\nskip", "name error"),
    ("macro f(a) begin a = 1 end\nf(y - 2 * 3)", "type error"),
    ("macro f(a) begin a[0] = 1 end\nf(3)", "type error"),
])
def test_macro_misuse_says_what_kind_of_error_it_is(source, kind):
    """A stray variable is a name that means nothing there; an argument that must be a
    variable and is not is a value of the wrong kind."""
    with pytest.raises(ParseError) as info:
        parse(source, "t.imp")
    assert info.value.kind == kind


def test_expanded_macros_round_trip():
    p = parse("macro two(a) begin a = a + 1; a = a + 1 end\nif c then two(x) else two(y) fi; two(z)"
              .replace("if c", "if c > 0"))
    assert parse(str(p)) == p


def test_sequence_equality_against_other_statements():
    seq = parse("skip; skip")
    assert seq != Skip() and Skip() != seq
    assert seq != parse("skip; skip; skip") and parse("skip; skip; skip") != seq
    assert parse("x = 1; y = 2") == parse("x = 1;\n  y = 2")
    assert parse("x = 1; y = 2") != parse("x = 1; y = 3")


# --- names and keywords: no silent mis-parse ------------------------------------------------


@pytest.mark.parametrize("source, column, word", [
    ("x = 1e3; assert x == 1000", 5, "1e3"),   # PyWiSE reads a variable named `1e3`
    ("x = 2x", 5, "2x"),
    ("x = 0x10", 5, "0x10"),
    ("x = 1_000", 5, "1_000"),
    ("if x < 1then skip else skip fi", 8, "1then"),
])
def test_a_word_that_starts_with_a_digit_is_an_error(source, column, word):
    with pytest.raises(ParseError) as info:
        parse(source)
    assert (info.value.line, info.value.column) == (1, column)
    assert info.value.message == (f"`{word}` is not a number, and a variable's name starts with "
                                  "a letter or `_`")


KEYWORDS = ("skip fail assert if then else fi while do od true false and or not macro begin "
            "end").split()


@pytest.mark.parametrize("keyword", KEYWORDS)
def test_keywords_are_not_variables(keyword):
    for source in (f"{keyword} = 0", f"x = {keyword}", f"x = 1; assert {keyword} == 0"):
        with pytest.raises(ParseError):
            parse(source)


def test_a_keyword_where_a_variable_belongs_is_named_as_such():
    with pytest.raises(ParseError) as info:
        parse("true = 0; assert true")
    assert info.value.message == ("unexpected `true`; expected `assert`, `assume`, `await`, "
                                  "`class`, `fail`, `if`, `macro`, `proc`, `return`, `skip`, "
                                  "`spawn`, `var`, "
                                  "`while`, a variable "
                                  "(`true` is a keyword, not a variable)")
    with pytest.raises(ParseError, match="`fi` is a keyword, not a variable"):
        parse("fi = fi")


def test_names_that_contain_keywords_or_digits_are_variables():
    p = parse("iffy = 1; done = 2; trueish = 3; x_if = 4; _1 = 5; x2 = x1")
    assert [s.name for s in spine(p)] == ["iffy", "done", "trueish", "x_if", "_1", "x2"]


# --- long inputs are not long tokens; big literals ------------------------------------------


def test_a_long_comment_and_a_long_line_of_statements_parse():
    assert parse("#" + "c" * 1_000_000 + "\nskip") == Skip()
    p = parse(";".join(["skip"] * 30_000))  # a 150,000-character line without a space
    assert sum(1 for _ in spine(p)) == 30_000


def test_a_literal_of_the_most_digits_parses_and_one_more_is_a_limit_error():
    digits = "7" * MAX_DIGITS
    p = parse(f"x = {digits};\nassert x > 0")
    assert p.first.expr == Int(int(digits))
    assert parse(f"x = -{digits}").expr == Int(-int(digits))
    with pytest.raises(LimitError) as info:
        parse(f"x = {digits}7;\nassert x > 0")
    assert (info.value.line, info.value.column) == (1, 5)
    assert info.value.message == (f"an integer literal of {MAX_DIGITS + 1} digits is over the "
                                  f"limit of {MAX_DIGITS} digits")


# --- what a message shows: BOM, invisible characters, a short excerpt -----------------------


def test_a_leading_byte_order_mark_is_skipped(tmp_path):
    assert parse("\ufeffx = 1") == Assign("x", Int(1))
    path = tmp_path / "bom.imp"
    path.write_bytes(b"\xef\xbb\xbfx = 1;\r\nassert x == 1\r\n")
    assert parse_file(path) == parse("x = 1; assert x == 1")
    with pytest.raises(ParseError, match="unexpected character U\\+FEFF"):
        parse("x = 1;\ufeffy = 2")  # elsewhere it is an error, and named


@pytest.mark.parametrize("source, column, shown", [
    ("\0", 1, "U+0000 (NUL)"),
    ("x = 1;\x0by = 2", 7, "U+000B (VT)"),
    ("x\u00a0= 1", 2, "U+00A0 (NO-BREAK SPACE)"),
    ("x = 1\x7f", 6, "U+007F (DEL)"),
    ("x = 1 \u200b", 7, "U+200B (ZERO WIDTH SPACE)"),
    ("x = $", 5, "`$`"),
])
def test_invisible_characters_are_named(source, column, shown):
    with pytest.raises(ParseError) as info:
        parse(source)
    assert info.value.column == column
    assert info.value.message == f"unexpected character {shown}"


def test_a_non_ascii_letter_is_explained():
    with pytest.raises(ParseError, match="`é` \\(a variable's name is made of ASCII letters"):
        parse("café = 1")


@pytest.mark.parametrize("line, column", [
    ("x" * 10, 4), ("a" * 1000, 1), ("b" * 1000, 500), ("c" * 1000, 1000), ("d" * 1000, 1001),
    ("e" * 81, 81), ("\0\t" * 100, 37),
])
def test_an_excerpt_is_short_and_keeps_the_caret_character(line, column):
    shown, at = excerpt(line, column)
    assert len(shown) <= 82
    assert shown.count("…") == (len(line) > 80 and column > 41) + (len(line) > 80 and
                                                                   column < len(line) - 39)
    if column <= len(line):
        ch = line[column - 1]
        assert shown[at] == {"\0": "\u2400", "\t": " "}.get(ch, ch)


def test_an_error_on_a_huge_line_shows_an_excerpt_with_the_caret_in_place():
    source = ";".join(["skip"] * 25_000) + " $ skip"  # 125,000 characters
    with pytest.raises(ParseError) as info:
        parse(source, "big.imp")
    head, shown, caret = str(info.value).split("\n")
    assert head == "big.imp:1:125001: syntax error: unexpected character `$`"
    assert len(shown) < 90 and shown[caret.index("^")] == "$"
    with pytest.raises(ParseError) as info:
        parse("\0" * 100_000)
    assert len(str(info.value)) < 400
    assert str(info.value).splitlines()[1].startswith("  \u2400\u2400")


# --- budgets: input bytes, program size after macro expansion --------------------------------


def test_the_defaults_leave_room_for_large_real_programs():
    """A million `skip`s joined by `;` (5 MB, 2M nodes) must fit the defaults
    (tests/quality/test_stress.py parses it); so must 100,000 assignments."""
    assert len(";".join(["skip"] * 1_000_000)) <= MAX_INPUT_BYTES
    assert 2 * 1_000_000 <= MAX_PROGRAM_SIZE
    statement = "x = x + 1"  # 5 nodes with its `;`, 11 bytes with its `;` and newline
    assert 100_000 * (len(statement) + 2) < MAX_INPUT_BYTES
    assert 100_000 * 5 < MAX_PROGRAM_SIZE


def test_an_input_over_the_byte_limit_is_a_limit_error_where_it_is_reached(tmp_path):
    source = "x = 1;\ny = 2;\nz = 3"
    assert parse(source, max_input_bytes=len(source)) == parse(source)
    with pytest.raises(LimitError) as info:
        parse(source, "t.imp", max_input_bytes=10)
    err = info.value
    assert isinstance(err, ParseError) and err.exit_code == EXIT_DATA
    assert (err.line, err.column) == (2, 4)
    assert err.message == ("the input is longer than the limit of 10 bytes, which it reaches "
                           "here; raise it with --max-input-bytes N")
    assert str(err).startswith("t.imp:2:4: limit exceeded: ")
    with pytest.raises(LimitError):
        parse("é" * 6, max_input_bytes=10)  # bytes, not characters
    path = tmp_path / "big.imp"
    path.write_text(source)
    with pytest.raises(LimitError, match="10 bytes"):
        parse_file(path, max_input_bytes=10)


def bomb(levels: int) -> str:
    """Macro m_k calls m_(k-1) twice: 2^levels statements from a few hundred bytes."""
    lines = ["macro m0(v) begin v = v + 1 end"]
    lines += [f"macro m{i}(v) begin m{i - 1}(v); m{i - 1}(v) end" for i in range(1, levels + 1)]
    return "\n".join(lines + [f"m{levels}(x)"])


def test_a_macro_bomb_stops_at_the_program_size_limit():
    with pytest.raises(LimitError) as info:
        parse(bomb(25), "bomb.imp", max_program_size=10_000)
    assert info.value.message == ("the program grows beyond the limit of 10,000 syntax nodes here "
                                  "(macro expansions included); raise it with "
                                  "--max-program-size N")
    assert info.value.line == 11  # m10: the bodies of m0 ... m10 hold more than 10,000 nodes
    assert sum(1 for _ in spine(parse(bomb(8)))) == 2 ** 8


def test_an_expression_bomb_is_counted_as_the_tree_it_stands_for():
    """Arguments are shared by the expansion: 40 doublings make a small DAG whose tree every
    later pass would walk, so the tree is what is counted."""
    lines = ["macro e0(v, r) begin r = v end"]
    lines += [f"macro e{i}(v, r) begin e{i - 1}(v + v, r) end" for i in range(1, 41)]
    with pytest.raises(LimitError, match="syntax nodes"):
        parse("\n".join(lines + ["e40(y, x)"]), max_program_size=100_000)


@pytest.mark.parametrize("source, size", [
    ("x = 1; y = x + 2", 7),
    ("assert not (a < -b) or true and c != -(1)", 13),
    ("if x < 1 then skip else while x > 0 do x = x - 1 od fi", 13),
    ("macro inc(v) begin v = v + 1 end\ninc(x); inc(y)", 4 + 4 + 4 + 1),
    ("macro two(e) begin assert e >= 0; assert e >= 1 end\ntwo(a + b)", 9 + 13),
    ("macro unused(e) begin skip end\nunused(a + b)", 1 + 3),  # `a + b` until it is dropped
])
def test_program_size_counts_the_nodes_of_the_program_and_its_macro_bodies(source, size):
    """The parser holds that many nodes at most: the program and the macro bodies, expanded,
    and a call's arguments until the call replaces them."""
    parse(source, max_program_size=size)
    with pytest.raises(LimitError):
        parse(source, max_program_size=size - 1)


def _parse_in_a_new_process(cache_home: Path) -> subprocess.CompletedProcess[str]:
    code = ("import sys; from symcert.lang.parser import parse; "
            "print(parse('x = 2 - 0 + 1; assert x == 1')); "
            "print(sorted(m for m in sys.modules if m == 'lark' or m.startswith('lark.')))")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=dict(os.environ, XDG_CACHE_HOME=str(cache_home)), check=True)


def test_parsing_writes_nothing_and_imports_no_lark(tmp_path):
    """The parser is lark's stand-alone one, generated into lalr.py (tools/make_parser.py): a
    first start needs no cache and writes none, and lark itself is not imported."""
    done = _parse_in_a_new_process(tmp_path)
    assert done.stdout.splitlines() == ["x = 2 - 0 + 1;", "assert x == 1", "[]"]
    assert not done.stderr and not any(tmp_path.iterdir())


def test_the_standalone_parser_is_generated_from_the_grammar():
    """lalr.py is what tools/make_parser.py makes of grammar.lark now (with the lark of the lock):
    a grammar changed without regenerating the parser fails here."""
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, str(root / "tools" / "make_parser.py"), "--check"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_programs_naming_variables_by_the_words_of_this_round_round_trip():
    """Generated programs whose variables and arrays are named `get`, `await`, `invariant`,
    `spawn`, `requires`, `ensures` (keywords only where they are syntax) print and parse back
    to themselves, procedures included."""
    import random
    from dataclasses import replace

    from symcert.checking import generate
    from symcert.lang.procedures import show_program

    shape = generate.Shape(names=("get", "await", "invariant", "spawn"), literal=3, value=4,
                           aexpr_depth=2, bexpr_depth=2, operand_depth=2, stmt_depth=3,
                           leaves=6, loop_depth=2, conjuncts=2)
    shapes = [shape, replace(shape, procedures=2, aexpr_depth=1, operand_depth=1),
              replace(shape, arrays=("requires", "ensures"), aexpr_depth=1, operand_depth=1)]
    rng = generate.RandomChoices(random.Random(40))
    for i in range(150):
        p = generate.program(rng, shapes[i % 3])
        text = show_program(p)
        again = parse(text)
        assert show_program(again) == text and parse(show_program(again)) == again
