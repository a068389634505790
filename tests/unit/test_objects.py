"""Objects (seed 003 §4; B-H1, B-T4): classes, `new`, `nil`, field paths, static kinds, nil
dereference as a bug, input heaps as witnesses (text, JSON, DOT), `exec --input p=@1`."""

from __future__ import annotations

import json
import random

import pytest

from symcert import Budget, check
from symcert.checking.campaign import OBJECT_SHAPE, check_program, random_input
from symcert.checking.generate import RandomChoices
from symcert.cli.main import main
from symcert.core.concrete import Cells, Ending, Env, run_to_end
from symcert.engine.alias import Alias, aliasing
from symcert.engine.verdict import Kind
from symcert.lang.errors import ParseError
from symcert.lang.parser import parse
from symcert.lang.procedures import references, show_program
from symcert.lang.syntax import ArrayVar, Assign, New, Select, Update, Var
from symcert.solver.z3backend import solver_for

NODE = "class Node(val, next)\n"
SNIPPETS = [  # small programs with objects, with their verdicts
    ("x = new Node; x.val = 1; y = x.next;\nz = y.val", Kind.BUG, "null dereference in `z = y.val`"),
    ("assume p != nil; c = p.next; if c != nil then assert c.val != 7 else skip fi", Kind.BUG,
     "assertion `c.val != 7` fails"),
    ("x = new Node; x.val = 1; y = x.next; assert y == nil and x.val == 1", Kind.SAFE, None),
    ("x = new Node; y = new Node; assert x != y and x != p and y != p.next", Kind.BUG,
     "null dereference in"),  # p may be nil
    ("assume p != nil; x = new Node; y = new Node; assert x != y and x != p and y != p.next",
     Kind.SAFE, None),  # B-T4: new objects are none of the input's
]


@pytest.mark.parametrize("src, kind, message", SNIPPETS)
def test_small_object_programs_get_their_verdicts_with_replayed_witnesses(src, kind, message):
    verdict = check(parse(NODE + src))
    assert verdict.kind is kind
    if kind is Kind.BUG:
        found = verdict.bugs[0]
        assert found.describe().startswith(message)
        final = run_to_end(found.input, parse(NODE + src), 1000)
        assert final is not None and final.ending is Ending.FAIL


def test_field_paths_parse_to_the_maps_of_the_fields_and_print_back():
    p = parse(NODE + "x = new Node; x.next.val = y.next.next.val; z = nil")
    new, write = p.first, p.second.first  # type: ignore[union-attr]
    assert new == New("x", "Node", (".val", ".next"))
    assert write == Assign(".val", Update(ArrayVar(".val"),
                                          Select(ArrayVar(".next"), Var("x")),
                                          Select(ArrayVar(".val"),
                                                 Select(ArrayVar(".next"),
                                                        Select(ArrayVar(".next"), Var("y"))))))
    assert show_program(p) == ("class Node(val, next)\nx = new Node;\n"
                               "x.next.val = y.next.next.val;\nz = nil")
    assert parse(show_program(p)) == p
    assert references(p) == {"x", "y", "z", ".next"}


@pytest.mark.parametrize("src, line, column, message", [
    ("x = new Node; y = x + 1", 2, 19, "`x` is a reference (at 2:1) but is used here as an integer"),
    ("p = nil; assert p < 3", 2, 17, "`p` is a reference (at 2:5) but is used here as an integer"),
    ("x = 1; x = nil", 2, 8, "`x` is an integer (at 2:5) but is used here as a reference"),
    ("x = p.val + 1; y = p.val.next", 2, 20, "field `val` is an integer"),
    ("x = new Node; a[x] = 1", 2, 17, "`x` is a reference"),
    ("x = new Tree", 2, 9, "unknown class `Tree` (classes declared: Node"),
    ("y = x.left", 2, 7, "unknown field `left` (fields declared: next, val"),
])
def test_mixing_integers_and_references_is_a_syntax_error_with_a_caret(src, line, column,
                                                                       message):
    with pytest.raises(ParseError) as info:
        parse(NODE + src)
    assert (info.value.line, info.value.column) == (line, column)
    assert message in info.value.message


def test_a_class_and_its_fields_are_declared_once():
    with pytest.raises(ParseError, match="class `Node` is already defined"):
        parse(NODE + NODE + "skip")
    with pytest.raises(ParseError, match="has the field `val` twice"):
        parse("class Node(val, val)\nskip")


def test_concrete_objects_are_numbered_and_a_field_of_nil_fails():
    p = parse(NODE + "x = new Node; y = new Node; x.next = y; y.val = 3; z = x.next.val")
    final = run_to_end(Env(), p, 100)
    assert final is not None and final.ending is Ending.NORMAL
    assert final.env("x") == -1 and final.env("y") == -2 and final.env("z") == 3
    stuck = run_to_end(Env.of({"p": 0}), parse(NODE + "q = p.next"), 100)
    assert stuck is not None and stuck.ending is Ending.FAIL


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


SNIPPET = NODE + "assume p != nil; c = p.next; if c != nil then assert c.val != 7 else skip fi"


def test_run_shows_the_input_heap_in_text_json_and_dot(capsys, tmp_path):
    prog = tmp_path / "heap.imp"
    prog.write_text(SNIPPET)
    dot = tmp_path / "heap.dot"
    code, out, _ = run_cli(capsys, "run", str(prog), "--witness-dot", str(dot))
    lines = out.splitlines()
    assert code == 1 and lines[1].startswith("  input:  p = @")
    assert lines[2].startswith("  heap:   @") and "val = 7}" in lines[2]
    assert dot.read_text().startswith("digraph heap {")
    code, out, _ = run_cli(capsys, "run", "--json", str(prog))
    event = json.loads(out.splitlines()[0])
    p = event["input"]["p"]
    c = event["heap"][p]["next"]
    assert event["heap"][c]["val"] == 7 and c != "nil" and p.startswith("@")


def test_exec_builds_the_witness_heap_and_reaches_the_failing_assert(capsys, tmp_path):
    prog = tmp_path / "heap.imp"
    prog.write_text(SNIPPET)
    code, out, _ = run_cli(capsys, "exec", str(prog), "--input", "p=@1", "--input",
                           "@1.next=@2", "--input", "@2.val=7")
    assert code == 1
    assert out.splitlines()[-1].endswith("assertion `c.val != 7` fails after 6 steps: c = @2, "
                                         "p = @1; @1 {next = @2, val = 0}, @2 {next = nil, "
                                         "val = 7}")
    code, out, _ = run_cli(capsys, "exec", str(prog), "--input", "p=@1", "--input",
                           "@1.next=nil")
    assert code == 0
    code, _, err = run_cli(capsys, "exec", str(prog), "--input", "p=-1")
    assert code == 2 and "a reference is nil or an input object @1, @2" in err
    code, _, err = run_cli(capsys, "exec", str(prog), "--input", "p=@0")
    assert code == 2 and "input objects are @1, @2, ..." in err


def test_the_witness_heap_replays_to_the_failing_statement():
    p = parse(SNIPPET)
    found = check(p).bugs[0]
    heap = found.input
    assert isinstance(heap(".next"), Cells) and heap("p") > 0
    final = run_to_end(heap, p, 100)
    assert final is not None and final.ending is Ending.FAIL and final.where == found.failing.pos


def test_procedures_take_and_return_references():
    """A procedure's parameters, `var` locals and value may be references (seed 003 §3-4)."""
    p = parse(NODE + "proc push(h, v) begin var n = nil; n = new Node; n.val = v; n.next = h; "
              "return n end\nl = nil; l = push(l, 1); l = push(l, 2); "
              "assert l.val == 2 and l.next.val == 1 and l.next.next == nil")
    assert check(p).kind is Kind.SAFE
    assert {"h", "n", "l"} <= references(p)
    with pytest.raises(ParseError, match="`n` is an integer"):
        parse(NODE + "proc f() begin var n = 0; n = new Node; return n end\nskip")
    q = parse(NODE + "proc push(h) begin var n = new Node; n.next = h; return n end\n"
              "l = push(nil); l = push(l); assert l.next != nil and l.next.next == nil")
    assert check(q).kind is Kind.SAFE and "var n = new Node" in show_program(q)
    assert parse(show_program(q)) == q
    with pytest.raises(ParseError, match="`var` outside a procedure"):
        parse(NODE + "var x = new Node")


def test_prove_tree_and_tests_take_object_programs(capsys, tmp_path):
    """`prove` gives a counterexample heap or PROVED, `tree` draws the execution tree, `tests`
    writes one replayed input per leaf (seed 003 §4)."""
    prog = tmp_path / "alias.imp"
    prog.write_text(NODE + "assume p != nil and q != nil; t = new Node; p.next = t; "
                    "q.next = nil; r = p.next; r.val = 1")
    code, out, _ = run_cli(capsys, "prove", str(prog))
    lines = out.splitlines()
    assert code == 1 and "null dereference in `r.val = 1`" in lines[0]
    assert lines[1].startswith("  input:  p = @") and lines[2].startswith("  heap:   @")
    code, out, _ = run_cli(capsys, "tree", str(prog))
    assert code == 0 and out.startswith("digraph") and "t = new Node" in out
    code, out, _ = run_cli(capsys, "tests", str(prog))
    assert code == 0 and json.loads(out)["exhaustive"]
    safe = tmp_path / "safe.imp"
    safe.write_text(NODE + "x = new Node; y = new Node; x.next = y; y.val = 3; "
                    "assert x.next.val == 3 and x != y")
    code, out, _ = run_cli(capsys, "prove", str(safe))
    assert code == 0 and "PROVED" in out


FIELD_NEW = [  # `x.f = new C` (seed 003 §4): the field write of a new object
    ("x = new Node; x.next = new Node; y = x.next; assert y.val == 1", Kind.BUG,
     "assertion `y.val == 1` fails"),
    ("x = nil; x.next = new Node", Kind.BUG, "null dereference in `x.next = new Node`"),
    ("x = new Node; x.next = new Node; x.next.next = new Node; y = x.next.next;\n"
     "assert y != x and y != x.next and y.val == 0 and y.next == nil", Kind.SAFE, None),
    ("assume p != nil; p.next = new Node; assert p.next != p and p.next.next == nil",
     Kind.SAFE, None),
    ("assume p != nil; p.next.val = 1", Kind.BUG, "null dereference in `p.next.val = 1`"),
]


@pytest.mark.parametrize("src, kind, message", FIELD_NEW)
def test_a_new_object_written_to_a_field_gets_its_verdict_with_a_replayed_witness(src, kind,
                                                                                    message):
    """`x.f = new C` in both aliasing strategies; a nil `x` is a null dereference."""
    for alias in (Alias.TERMS, Alias.SPLIT):
        with aliasing(alias):
            verdict = check(parse(NODE + src))
        assert verdict.kind is kind
        if kind is Kind.BUG:
            assert verdict.bugs[0].describe().startswith(message)
            final = run_to_end(verdict.bugs[0].input, parse(NODE + src), 1000)
            assert final is not None and final.ending is Ending.FAIL


def test_a_field_write_of_a_new_object_parses_prints_back_and_runs_concretely():
    """`x.f.g = new C` is `New` of the map of `g` at the path `x.f` (seed 003 §4); concretely
    the field gets the next new object, whose fields are 0 / nil, and a nil path fails."""
    p = parse(NODE + "x = new Node; x.next = new Node; x.next.next = new Node")
    third = p.second.second  # type: ignore[union-attr]
    assert third == New(".next", "Node", (".val", ".next"),
                        at=Select(ArrayVar(".next"), Var("x")))
    assert show_program(p) == ("class Node(val, next)\nx = new Node;\nx.next = new Node;\n"
                               "x.next.next = new Node")
    assert parse(show_program(p)) == p
    assert references(p) == {"x", ".next"}
    final = run_to_end(Env(), p, 100)
    assert final is not None and final.ending is Ending.NORMAL
    assert final.env("x") == -1 and final.env(".next")(-1) == -2
    assert final.env(".next")(-2) == -3 and final.env(".next")(-3) == 0
    stuck = run_to_end(Env.of({"p": 0}), parse(NODE + "p.next.next = new Node"), 100)
    assert stuck is not None and stuck.ending is Ending.FAIL
    with pytest.raises(ParseError, match="`y` is an integer"):
        parse(NODE + "y = 1; y.next = new Node")
    with pytest.raises(ParseError, match="unknown class `Tree`"):
        parse(NODE + "y.next = new Tree")


def test_the_engines_agree_on_field_writes_of_new_objects():
    """The campaign's checks (main engine with ghosts, verdicts, seed-004 interpreter, both
    aliasing strategies) agree on programs that write new objects to fields, from its random
    input heaps (seed 003 §4, B-T4, B-C4)."""
    choices = RandomChoices(random.Random(5))
    for src in ("r.next = new Node; s.next.val = 2; t = r.next; assert t.val == 0",
                "r.next.next = new Node; s = r.next.next; assert s.next != r",
                "if r == s then r.next = new Node else s.next = new Node fi; t = s.next; "
                "t.next = new Node; assert t.next.next == nil"):
        p = parse(NODE + src)
        sigmas = [random_input(choices, p, OBJECT_SHAPE) for _ in range(4)]
        checks = ("main", "verdicts", "interp", "alias")
        assert check_program(p, sigmas, solver_for(p), checks) is None


def test_a_macro_that_makes_an_object_assigns_its_argument():
    """`x = new C` in a macro assigns the argument, as `x = e` does; a field write in a macro,
    of a new object too, is rejected as any field write there is (PyWiSE macros, seed 003 §4)."""
    p = parse(NODE + "macro make(r) begin r = new Node end\nmake(q); assert q != nil")
    assert str(p) == "q = new Node;\nassert q != nil"
    for body in ("r.next = nil", "r.next = new Node"):
        with pytest.raises(ParseError, match="macro `m` uses `.next`"):
            parse(NODE + f"macro m(r) begin {body} end\nm(q)")


def test_a_witness_holds_no_field_of_a_new_object():
    """The assertion fails when `x == y`; the path condition reads `.next` at `y.next`, which
    the model may value at the new object `-1`. Its cell there is no input (`new` wrote it:
    B-H2): the witness holds only input objects' cells, and the replay still fails."""
    p = parse("class Node(val, next)\nt = new Node; y.next = t; x.next.next = t;\n"
              "assert y.next.next == nil")
    v = check(p, Budget(max_states=100, all_bugs=True, shrink=False))
    bug = next(b for b in v.bugs if "assertion" in b.describe())
    cells = [i for name, value in bug.input.bindings if isinstance(value, Cells)
             for i, _ in value.cells]
    assert cells and all(i > 0 for i in cells)
    final = run_to_end(bug.input, p, 1000)
    assert final is not None and final.ending is Ending.FAIL and final.where == bug.failing.pos
