"""The TextMate grammar of editors/vscode cannot drift from the language: its keywords are
exactly the lark grammar's, it has a TextMate grammar's shape with regexes Python's `re`
compiles, and scanning the example programs with it (TextMate's rule: the earliest match, the
first rule on a tie) gives every keyword a keyword's scope and nothing an `invalid` one. The
extension manifest names that grammar and the settings the server reads."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Iterator

from symcert.cli.findings import CLIENT_SIDE, OPTIONS

ROOT = Path(__file__).resolve().parents[2]
EDITOR = ROOT / "editors" / "vscode"
GRAMMAR = json.loads((EDITOR / "syntaxes" / "imp.tmLanguage.json").read_text())
LARK = (ROOT / "src" / "symcert" / "lang" / "grammar.lark").read_text()
KEYWORD_SCOPES = ("keyword.", "storage.type", "constant.language")
WORDS = re.compile(r"^\\b\(([a-z|]+)\)\\b(\(\?=.*\))?$")  # \b(if|then|...)\b, maybe (?=...)


def rules(rule: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The `match` rules under `rule`, includes followed, in order."""
    if "include" in rule:
        yield from rules(GRAMMAR["repository"][rule["include"].removeprefix("#")])
    elif "patterns" in rule:
        for r in rule["patterns"]:
            yield from rules(r)
    else:
        yield rule


MATCHES = list(rules(GRAMMAR))


def lark_keywords() -> set[str]:
    """The words the lark grammar reserves: its string literals made of letters."""
    return set(re.findall(r'"([a-z]+)"', LARK))


def lark_contextual() -> set[str]:
    """The keywords of the lark grammar that may also name variables (its rule `name`)."""
    listed = re.search(r"\?name: NAME\s*\|\s*\(([A-Z |]+)\)", LARK)
    assert listed is not None
    return {re.search(rf'^{t}: "([a-z]+)"', LARK, re.M).group(1)  # type: ignore[union-attr]
            for t in listed.group(1).split(" | ")}


def scan(line: str) -> list[tuple[str, str]]:
    """The (text, scope) tokens of `line` by the grammar's match rules."""
    compiled = [(re.compile(r["match"]), r) for r in MATCHES]
    out, pos = [], 0
    while pos < len(line):
        found = [(m.start(), i, m, r) for i, (c, r) in enumerate(compiled)
                 if (m := c.search(line, pos)) and m.end() > m.start()]
        if not found:
            break
        _, _, m, r = min(found, key=lambda f: f[:2])
        if "name" in r:
            out.append((m.group(), r["name"]))
        for group, capture in r.get("captures", {}).items():
            out.append((m.group(int(group)), capture["name"]))
        pos = m.end()
    return out


def test_the_shape_of_a_textmate_grammar():
    assert GRAMMAR["scopeName"] == "source.imp" and GRAMMAR["fileTypes"] == ["imp"]
    assert isinstance(GRAMMAR["patterns"], list) and GRAMMAR["patterns"]
    for rule in MATCHES:
        assert set(rule) <= {"name", "match", "captures"}, rule
        assert "name" in rule or "captures" in rule, rule
        pattern = re.compile(rule["match"])
        for group, capture in rule.get("captures", {}).items():
            assert 1 <= int(group) <= pattern.groups and capture["name"].endswith(".imp")
        assert rule.get("name", ".imp").endswith(".imp")
    for r in GRAMMAR["patterns"]:
        assert r["include"].removeprefix("#") in GRAMMAR["repository"]


def test_its_keywords_are_the_lark_grammars():
    """Every keyword of grammar.lark is highlighted as a keyword, and no other word; the words
    that may also name variables only where they are followed as syntax follows them."""
    listed = {(w, bool(m.group(2))) for r in MATCHES if (m := WORDS.match(r["match"]))
              and r["name"].startswith(KEYWORD_SCOPES) for w in m.group(1).split("|")}
    contextual = lark_contextual()
    assert len(lark_keywords()) > 25 and contextual == {
        "invariant", "requires", "ensures", "spawn", "get", "await"}
    assert listed == {(w, w in contextual) for w in lark_keywords()}


def test_words_that_name_variables():
    """`get`, `spawn`, `await`, `invariant`, `requires`, `ensures` are keywords where they are
    syntax and variables elsewhere, as the parser reads them."""
    def scopes(line: str) -> dict[str, set[str]]:
        out: dict[str, set[str]] = {}
        for text, scope in scan(line):
            out.setdefault(text, set()).add(scope.split(".")[0])
        return out

    assert scopes("get = 1; spawn = get + 1; assert spawn == 2")["get"] == {"variable"}
    assert scopes("get = 1; spawn = get + 1; assert spawn == 2")["spawn"] == {"variable"}
    assert scopes("while invariant < 3 do invariant = invariant + 1 od")["invariant"] == {
        "variable"}
    assert scopes("await = requires + ensures; x = get")["await"] == {"variable"}
    assert scopes("f = spawn p(1); v = get f; await v > 0")["spawn"] == {"keyword"}
    assert scopes("f = spawn p(1); v = get f; await v > 0")["get"] == {"keyword"}
    assert scopes("f = spawn p(1); v = get f; await v > 0")["await"] == {"keyword"}
    assert scopes("while i < n invariant i <= n do i = i + 1 od")["invariant"] == {"keyword"}
    line = "proc f(x) requires x > 0 ensures result > requires begin"
    assert scan(line)[5:] == [
        ("requires", "keyword.other.specification.imp"), ("x", "variable.other.imp"),
        (">", "keyword.operator.comparison.imp"), ("0", "constant.numeric.integer.decimal.imp"),
        ("ensures", "keyword.other.specification.imp"), ("result", "variable.other.imp"),
        (">", "keyword.operator.comparison.imp"), ("requires", "variable.other.imp"),
        ("begin", "keyword.control.imp")]


def test_scanning_the_examples():
    """In every example program each keyword gets a keyword's scope (or, after `proc`,
    `macro`, `class` or `new`, a declaration's), a `#` starts a comment, and no token is
    invalid; `2x` is."""
    keywords = lark_keywords()
    programs = sorted((ROOT / "examples").rglob("*.imp"))
    assert len(programs) > 20
    for program in programs:
        for line in program.read_text().splitlines():
            tokens = scan(line)
            assert not [t for t in tokens if t[1].startswith("invalid")], (program, line)
            code = line.split("#")[0]
            assert [t for t in tokens if t[1].startswith("comment")] == (
                [(line[len(code):], "comment.line.number-sign.imp")] if "#" in line else [])
            for text, scope in tokens:
                if text in keywords:
                    assert scope.startswith(KEYWORD_SCOPES), (program, line, text, scope)
    assert scan("x = 2x + f(y.next)") == [
        ("x", "variable.other.imp"), ("=", "keyword.operator.assignment.imp"),
        ("2x", "invalid.illegal.number.imp"), ("+", "keyword.operator.arithmetic.imp"),
        ("f", "entity.name.function.call.imp"), ("(", "punctuation.section.parens.imp"),
        ("y", "variable.other.imp"), (".", "punctuation.accessor.imp"),
        ("next", "variable.other.member.imp"), (")", "punctuation.section.parens.imp")]


def test_quantifiers_and_implication():
    """A quantifier's head `forall k in` is highlighted as one (`forall`, `exists` and `in` are
    no keywords: a variable may be named so), `==>` as implication, `..` and `::` apart."""
    assert scan("assert forall k in 0 .. n :: a[k] == 0 ==> exists") == [
        ("assert", "keyword.other.specification.imp"),
        ("forall", "keyword.other.quantifier.imp"), ("k", "variable.parameter.bound.imp"),
        ("in", "keyword.other.quantifier.imp"), ("0", "constant.numeric.integer.decimal.imp"),
        ("..", "punctuation.separator.range.imp"), ("n", "variable.other.imp"),
        ("::", "punctuation.separator.range.imp"), ("a", "variable.other.imp"),
        ("[", "punctuation.section.brackets.imp"), ("k", "variable.other.imp"),
        ("]", "punctuation.section.brackets.imp"), ("==", "keyword.operator.comparison.imp"),
        ("0", "constant.numeric.integer.decimal.imp"),
        ("==>", "keyword.operator.logical.implication.imp"), ("exists", "variable.other.imp")]


def test_the_extension_manifest():
    """The VS Code manifest contributes the grammar for `.imp` files and declares the
    options the server reads (cli/findings.py) and the command that starts it."""
    manifest = json.loads((EDITOR / "package.json").read_text())
    [language] = manifest["contributes"]["languages"]
    assert language["extensions"] == [".imp"]
    assert (EDITOR / language["configuration"]).is_file()
    [grammar] = manifest["contributes"]["grammars"]
    assert grammar["scopeName"] == GRAMMAR["scopeName"] and grammar["language"] == language["id"]
    assert (EDITOR / grammar["path"]).resolve() == (EDITOR / "syntaxes" / "imp.tmLanguage.json")
    settings = {k.removeprefix("symcert.")
                for k in manifest["contributes"]["configuration"]["properties"]}
    assert settings == set(OPTIONS) | set(CLIENT_SIDE)
    assert (EDITOR / manifest["main"]).is_file()
