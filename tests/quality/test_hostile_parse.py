"""Hostile input: whatever the text or bytes, `parse` and `parse_file` return a program or raise
ParseError (LimitError included) with a short message, within a time bound; never another
exception. Random cases are seeded; the whole file runs in a few seconds."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from symcert.lang.errors import LimitError, ParseError
from symcert.lang.parser import MAX_DEPTH, MAX_DIGITS, MAX_INPUT_BYTES, parse, parse_file

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples").glob("*.imp"))
SEED = 65


def outcome(source: str | bytes, tmp_path: Path | None = None, seconds: float = 60.0) -> str:
    """"ast" or "error" for `source` (bytes go through a file); any other exception propagates,
    and a message longer than a few lines fails the test, as does a parse over `seconds`: a
    guard against a hang (a quadratic parse of the megabyte inputs below), far above any load's
    noise; the parser's speed is measured by bench/hostile.py, not here."""
    start = time.perf_counter()
    try:
        if isinstance(source, bytes):
            assert tmp_path is not None
            path = tmp_path / "hostile.imp"
            path.write_bytes(source)
            parse_file(path)
        else:
            parse(source, "hostile.imp")
        result = "ast"
    except ParseError as err:
        shown = str(err)
        assert len(shown) < 600 and shown.count("\n") == 2, shown[:300]
        result = "error"
    assert time.perf_counter() - start < seconds, repr(source[:80])
    return result


def test_random_bytes(tmp_path):
    rng = random.Random(SEED)
    alphabet = b"x1 ;=+-()<>!#\n\r\t\0\xff\xef\xbb\xbf\xc3\xa9aeiou"
    for _ in range(150):
        n = rng.randrange(0, 200)
        data = bytes(rng.randrange(256) for _ in range(n)) if rng.random() < 0.5 \
            else bytes(rng.choice(alphabet) for _ in range(n))
        outcome(data, tmp_path)
        outcome(data.decode("utf-8", errors="surrogateescape"))  # lone surrogates in a str


TOKENS = ("skip fail assert if then else fi while do od true false and or not macro begin end "
          "x y v1 _ 0 7 -3 123456789012345678901234567890 1e3 2x + - == != < <= > >= = ( ) ; , "
          "# \u00e9 \ufeff \0 $ *").split(" ")


def test_token_soup():
    rng = random.Random(SEED)
    seen = set()
    for _ in range(600):
        words = rng.choices(TOKENS, k=rng.randrange(1, 30))
        gaps = rng.choices([" ", "", "\n", "\t", "\r\n", " # note\n"], k=len(words))
        seen.add(outcome("".join(w + g for w, g in zip(words, gaps))))
    assert "error" in seen


def edits(text: str, rng: random.Random, count: int) -> list[str]:
    """`count` copies of `text`, each with one character deleted, replaced or inserted."""
    pool = "x1 ;=+-()<>#\n\0\ufeffé$tfe"
    result = []
    for _ in range(count):
        i = rng.randrange(len(text))
        kind = rng.randrange(3)
        c = rng.choice(pool)
        result.append(text[:i] + ("" if kind == 0 else c) + text[i + (kind < 2):])
    return result


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_single_character_edits_of_the_examples(path):
    text = path.read_text()
    assert outcome(text) == "ast"
    rng = random.Random(f"{SEED}{path.name}")
    results = [outcome(edited) for edited in edits(text, rng, 25)]
    assert "error" in results


def nested(prefix: str, core: str, suffix: str, depth: int) -> str:
    return prefix * depth + core + suffix * depth


DEEP = {  # the source, and whether it parses
    "parentheses": ("x = " + nested("(", "1", ")", 30_000), "ast"),
    "negations": ("x = " + nested("-(", "1", ")", MAX_DEPTH + 1), "error"),
    "minus signs": ("x = " + "- " * (MAX_DEPTH + 1) + "1", "error"),
    "nots": ("assert " + "not " * (MAX_DEPTH + 1) + "true", "error"),
    "and chain": ("assert " + " and ".join(["true"] * (MAX_DEPTH + 1)), "error"),
    "plus chain": ("x = " + " + ".join(["1"] * (MAX_DEPTH + 1)), "error"),
    "ifs": (nested("if x < 1 then ", "skip", " else skip fi", MAX_DEPTH + 1), "error"),
    "whiles": (nested("while x < 1 do ", "skip", " od", MAX_DEPTH + 1), "error"),
    "macro body": ("macro m(v) begin v = " + nested("-(", "v", ")", MAX_DEPTH + 1)
                   + " end\nm(x)", "error"),
    "macro chain": ("macro m0(v, r) begin r = v end\n" + "\n".join(
        f"macro m{i}(v, r) begin m{i - 1}(-(v), r) end" for i in range(1, 500))
        + "\nm499(y, x)", "ast"),
    "open parentheses": ("x = " + "(" * 100_000, "error"),
}


@pytest.mark.parametrize("name", DEEP)
def test_deep_nesting(name):
    source, expected = DEEP[name]
    assert outcome(source) == expected


@pytest.mark.parametrize("source", [
    "x = " + "9" * MAX_DIGITS,
    "x = " + "9" * (MAX_DIGITS + 1),
    "x = " + "9" * 2_000_000,
    "x = 1" + "a" * 1_000_000,
    "x = " + "y" * 1_000_000,
    "#" + "c" * 2_000_000 + "\nskip",
])
def test_huge_tokens_and_lines(source):
    outcome(source)


def test_bom_nul_crlf_and_non_utf8(tmp_path):
    lf = parse("x = 1;\nassert x == 1\n")
    assert parse("\ufeffx = 1;\r\nassert x == 1\r\n") == lf
    assert parse("x = 1;\rassert x == 1") == lf  # a lone CR is white space
    assert parse("# a \0 in a comment\nskip") == parse("skip")
    for data in (b"\0" * 100_000, b"\xff" * 100_000, "x = 1".encode("utf-16"),
                 b"x = 1;\n" * 1000 + b"y = \xc3", b"\xef\xbb\xbf\xef\xbb\xbfx = 1"):
        assert outcome(data, tmp_path) == "error"
    assert outcome(b"\xef\xbb\xbfx = 1", tmp_path) == "ast"


def bomb(levels: int) -> str:
    lines = ["macro m0(v) begin v = v + 1 end"]
    lines += [f"macro m{i}(v) begin m{i - 1}(v); m{i - 1}(v) end" for i in range(1, levels + 1)]
    return "\n".join(lines + [f"m{levels}(x)"])


def test_budgets_stop_a_macro_bomb_and_a_huge_file(tmp_path):
    """The budgets bound the work by counts, not by time (bench/hostile.py times them): a
    bomb of 2^25 statements from 959 bytes stops at the default node budget and at a small
    one, 2^12 statements fit in a budget above them and not in one below; a file over the
    byte budget is refused whole."""
    with pytest.raises(LimitError, match="--max-program-size N"):
        parse(bomb(25))
    with pytest.raises(LimitError, match="--max-program-size N"):
        parse(bomb(25), max_program_size=1_000)
    assert parse(bomb(12), max_program_size=100_000) is not None
    with pytest.raises(LimitError, match="--max-program-size N"):
        parse(bomb(12), max_program_size=4_000)
    path = tmp_path / "huge.imp"
    path.write_text("x = x + 1;\n" * (MAX_INPUT_BYTES // 10))
    with pytest.raises(LimitError, match="--max-input-bytes N"):
        parse_file(path)
