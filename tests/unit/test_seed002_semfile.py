"""The `.sem` definition format (seed 002 §3, Figs. 1, 3, 4): the shipped IMP, the program parser
derived from its productions, and errors with file, line, column and caret (exit 65)."""

from __future__ import annotations

import tomllib
from fnmatch import fnmatch
from importlib import resources
from pathlib import Path

import pytest

from symcert.cli.main import main
from symcert.lang.errors import EXIT_DATA, ParseError
from symcert.lang.syntax import Bool, Int
from symcert.seed002.definition import DefinitionError, KPattern
from symcert.seed002.notation import show
from symcert.seed002.semfile import find_language, load, parse_definition, parse_program
from symcert.seed002.terms import App, Id, Op, Variable, same

ROOT = Path(__file__).resolve().parents[2]
IMP_PATH = find_language("imp")
IMP_TEXT = IMP_PATH.read_text(encoding="utf-8")
IMP = load(IMP_PATH)
SKIP_RULE = "rule [skip]  <k> skip => . ...</k>"


def test_imp_has_the_seeds_rules_and_the_generated_ones():
    """Every rule of Fig. 4 is there (lookup and assignment with lookup/update, §4.3), plus
    one heating and one cooling rule per strict argument."""
    labels = [r.label for r in IMP.rules]
    for label in ("plus", "mul", "div", "le", "and-true", "and-false", "not", "skip", "seq",
                  "if-true", "if-false", "while", "lookup", "assign"):
        assert label in labels
    strict = sum(len(p.strict) for p in IMP.productions)
    assert sum(r.kind == "heat" for r in IMP.rules) == strict
    assert sum(r.kind == "cool" for r in IMP.rules) == strict
    assert [c.name for c in IMP.cells] == ["k", "env", "arrays", "frame", "next", "procs",
                                           "classes", "objects"]
    assert [c.sort for c in IMP.cells] == ["K", "Map", "Arrays", "Map", "Map", "Procs",
                                           "Classes", "Map"]
    assert same(IMP.cells[5].init, App(".Procs")) and same(IMP.cells[6].init, App(".Classes"))
    assert IMP.symbolic_sorts == {"Int", "Bool", "Array"}
    assert IMP.result_sorts == {"Int", "Bool"}


def test_the_shipped_definitions_are_package_data():
    """`imp` and `gcl` are found through importlib.resources inside the package, and
    pyproject's package-data ships each `.sem` there, so an installed (not editable) symcert
    runs `derive imp` and `run --lang imp` without a checkout."""
    shipped = resources.files("symcert.seed002").joinpath("languages")
    names = sorted(p.name for p in shipped.iterdir() if p.name.endswith(".sem"))
    assert names == ["gcl.sem", "imp.sem"]
    for name in names:
        assert find_language(name.removesuffix(".sem")) == shipped.joinpath(name)
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    globs = pyproject["tool"]["setuptools"]["package-data"]["symcert.seed002"]
    assert [n for n in names if not any(fnmatch(f"languages/{n}", g) for g in globs)] == []


def test_rules_are_read_in_the_languages_own_syntax():
    rules = {r.label: r for r in IMP.rules}
    div = rules["div"]
    (term,) = div.lhs[0].items
    assert isinstance(term, App) and term.label == "_/_"
    assert all(isinstance(a, Variable) and a.sort == "Int" for a in term.args)
    assert isinstance(div.cond, Op) and div.cond.name == "=/=Int"
    assert div.rhs[0] == KPattern((div.rhs[0].items[0],), True)
    assign = rules["assign"]
    assert isinstance(assign.rhs[1], Op) and assign.rhs[1].name == "updateFree"
    assert isinstance(assign.rhs[3], Op) and assign.rhs[3].name == "updateBound"
    store = rules["store"].rhs[2]
    assert store.name == "updateArray" and store.args[2].name == "store"
    assert show(IMP, rules["while"].rhs[0].items[0]) == \
        "if BE then S ; while BE do S od else skip fi"


def test_program_parser_precedence_and_associativity():
    """`* / %` bind tighter than `+ -`, all left-associative; `not` > `and` > `or`; `;` right."""
    p = parse_program(IMP, "x = 1 + 2 * 3 - 4; y = - - x")
    first, second = p.args
    assert show(IMP, first) == "x = 1 + 2 * 3 - 4"
    rhs = first.args[1]
    assert rhs.label == "_-_" and rhs.args[0].label == "_+_" and rhs.args[1] == Int(4)
    assert rhs.args[0].args[1].label == "_*_"
    assert second.args[1].label == "neg" and second.args[1].args[0].label == "neg"
    b = parse_program(IMP, "assert not a < b and c >= 1 or true").args[0]
    assert b.label == "_or_" and b.args[0].label == "_and_"
    assert b.args[0].args[0].label == "not_" and b.args[1] == Bool(True)
    assert parse_program(IMP, "x = (1 + 2) * 3 # comment\n").args[1].args[0].label == "_+_"


def test_every_example_without_procedures_or_arrays_parses():
    names = [p for p in sorted((ROOT / "examples").glob("*.imp"))
             if not any(w in p.read_text() for w in ("proc ", "macro ", "return", "var ",
                                                     "class ", "invariant "))]
    assert len(names) >= 10
    for path in names:
        term = parse_program(IMP, path.read_text(), str(path))
        assert isinstance(term, App)


def test_program_syntax_error_has_position():
    with pytest.raises(ParseError) as info:
        parse_program(IMP, "x = 1;\ny = * 2", "p.imp")
    assert str(info.value).startswith("p.imp:2:5: syntax error: unexpected `*`")
    assert str(info.value).endswith("  y = * 2\n      ^")


def test_a_long_program_parses_without_recursion():
    text = ";\n".join(f"x{i % 7} = x{(i + 1) % 7} + {i}" for i in range(20_000))
    term = parse_program(IMP, text)
    assert isinstance(term, App) and term.label == "_;_"


def _error(text: str) -> str:
    with pytest.raises(DefinitionError) as info:
        parse_definition(text, "imp.sem")
    return str(info.value)


def test_condition_variables_must_occur_in_the_left_hand_side():
    """Def. 1: var(b) ⊆ var(l)."""
    text = IMP_TEXT.replace(SKIP_RULE, SKIP_RULE + " requires I ==Int 0")
    line = IMP_TEXT[:IMP_TEXT.index(SKIP_RULE)].count("\n") + 1
    assert _error(text) == (
        f"imp.sem:{line}:36: definition error: the condition's variable(s) I do not occur in "
        "the left-hand side: seed 002 Def. 1 requires var(b) ⊆ var(l)\n"
        f"  {SKIP_RULE} requires I ==Int 0\n" + " " * 37 + "^")


def test_left_hand_sides_hold_no_data_operation():
    """§4.3's assumption: no operation on a symbolically extensible sort in `l`."""
    message = _error(IMP_TEXT.replace(SKIP_RULE, "rule [skip]  <k> I1 +Int I2 => . ...</k>"))
    assert "definition error: the left-hand side applies the data operation `+Int`" in message
    assert "seed 002 §4.3" in message


def test_unknown_cell_sort_and_data_sort():
    assert _error(IMP_TEXT.replace(SKIP_RULE, SKIP_RULE + " <store> M </store>")).split(": ", 1)[1] \
        .startswith("definition error: unknown cell <store>; the configuration has <k>, <env>")
    line = _line("var M L L2 N : Map")
    message = _error(IMP_TEXT.replace("var M L L2 N : Map", "var M L L2 N : Mop"))
    assert f":{line}:16: definition error: unknown sort Mop\n  var M L L2 N : Mop\n" \
           + " " * 17 + "^" in message
    message = _error(IMP_TEXT.replace("data Map", "data Set"))
    assert f":{_line('data Map')}:6: definition error: unknown data sort Set" in message
    message = _error(IMP_TEXT.replace('::= Id "=" AExp', '::= Idd "=" AExp'))
    assert "definition error: unknown sort Idd" in message


def _line(text: str) -> int:
    """The line of IMP_TEXT where `text` first occurs."""
    return IMP_TEXT[:IMP_TEXT.index(text)].count("\n") + 1


def test_ambiguous_productions_are_refused():
    fail = '                | "fail"                   [bug]\n'
    message = _error(IMP_TEXT.replace(fail, fail + '                | "skip"\n'))
    assert f":{_line(fail) + 1}:19: definition error: ambiguous production: the same items as " \
           f"the production of Simple at line {_line(fail) - 1}" in message


def test_data_in_productions_and_cell_contents():
    """Only an auxiliary production (`$...`) takes a Map or an array; a cell holds `.Map`,
    `.Arrays` or a constant of the syntax."""
    ret = '"$ret" "(" Target "," Map ")"'
    message = _error(IMP_TEXT.replace(ret, '"ret" "(" Target "," Map ")"'))
    assert f":{_line(ret)}:39: definition error: a Map cannot be written in a program: only " \
           "an auxiliary production (its first terminal starting with `$`) takes one" in message
    message = _error(IMP_TEXT.replace("<procs> .Procs </procs>", "<procs> .Proc </procs>"))
    assert f":{_line('<procs> .Procs')}:65: definition error: .Proc is no constant of the " \
           "syntax (a production of one terminal), nor `.Map` or `.Arrays`" in message


def test_other_definition_errors():
    cases = {
        SKIP_RULE: ("rule [skip]  <k> skip => S ...</k>",
                    "the right-hand side's variable(s) S do not occur"),
        '"assert" BExp            [strict]': ('"assert" BExp            [strict(2)]',
                                              "`strict` names arguments 1 to 1"),
        "rule [assume]": ("rule [seq]", "rule label [seq] is used twice"),
        "[bracket]\n": ("[brackets]\n", "unknown attribute `brackets`"),
    }
    for old, (new, expected) in cases.items():
        assert expected in _error(IMP_TEXT.replace(old, new, 1))
    assert "unexpected `+` in a rule" in _error(
        IMP_TEXT.replace(SKIP_RULE, "rule [skip]  <k> skip => + ...</k>"))
    assert "must rewrite the computation at the top of the `k` cell" in _error(
        IMP_TEXT.replace(SKIP_RULE, "rule [skip]  <env> M </env>"))
    assert _error("hello\n" + IMP_TEXT).startswith("imp.sem:1:1: definition error: expected a "
                                                   "declaration")
    no_result = IMP_TEXT.replace("data Int  [symbolic, result]", "data Int  [symbolic]")
    assert "no subsort of AExp is a result" in _error(no_result)


def test_cli_exit_65_with_caret(tmp_path, capsys):
    bad = tmp_path / "bad.sem"
    bad.write_text('module X\ndata Int [result]\nsyntax E ::= Int | E "+" Foo\n')
    assert main(["derive", str(bad)]) == EXIT_DATA
    assert capsys.readouterr().err == (
        f"{bad}:3:26: definition error: unknown sort Foo\n"
        '  syntax E ::= Int | E "+" Foo\n' + " " * 27 + "^\n")


def test_ids_and_literals_in_programs_are_data():
    p = parse_program(IMP, "x = 3")
    assert p.args == (Id("x"), Int(3))
