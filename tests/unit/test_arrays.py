"""Arrays (seed 003 §5; B-A1, B-H3): syntax, static kinds, concrete maps, update sequences,
z3 arrays, witnesses with the relevant cells, `exec --input a[3]=7`."""

from __future__ import annotations

import json

import pytest

from symcert import check
from symcert.cli.main import main
from symcert.core import terms
from symcert.core.concrete import Cells, Ending, Env, run_to_end
from symcert.core.state import PathCondition, witness_input
from symcert.engine.verdict import Kind
from symcert.lang.errors import ParseError
from symcert.lang.parser import parse
from symcert.lang.syntax import ArrayVar, Int, Select, Update, Var
from symcert.solver.z3backend import Sat, Solver

ALIAS = "a[i] = 1; a[j] = 2; assert a[i] == 1"


def test_array_syntax_parses_to_the_functional_view_and_prints_back():
    p = parse(ALIAS)
    first = p.first  # type: ignore[union-attr]
    assert first.name == "a" and first.expr == Update(ArrayVar("a"), Var("i"), Int(1))
    assert str(p) == "a[i] = 1;\na[j] = 2;\nassert a[i] == 1"
    assert parse(str(p)) == p
    assert str(parse("x = a[a[i] + 1] * 2")) == "x = a[a[i] + 1] * 2"


@pytest.mark.parametrize("src, line, column, message", [
    ("x = 1; x[0] = 2", 1, 8, "`x` is an integer (at 1:1) but is used here as an array"),
    ("a[0] = 1;\ny = a + 1", 2, 5, "`a` is an array (at 1:1) but is used here as an integer"),
    ("proc f(a) begin return a end\na[1] = 2", 2, 1, "`a` is an integer (at 1:6)"),
    ("proc f(n) begin return n end\na[1] = 2; x = f(a)", 2, 17, "`a` is an array (at 2:1)"),
    ("proc f() begin var a = 0; return a[0] end\nskip", 1, 34, "`a` is an integer"),
])
def test_mixing_integers_and_arrays_is_a_syntax_error_with_a_caret(src, line, column, message):
    with pytest.raises(ParseError) as info:
        parse(src, "t.imp")
    err = info.value
    assert (err.line, err.column) == (line, column)
    assert message in err.message and err.exit_code == 65
    assert "^" in str(err)


def test_concrete_arrays_are_maps_with_unset_cells_zero():
    p = parse("x = a[5]; a[i] = x + 1; y = a[i] + a[7]")
    final = run_to_end(Env.of({"a": Cells.of({5: 3, 7: 10}), "i": 7}), p, 100)
    assert final is not None and final.env == Env.of(
        {"a": Cells.of({5: 3, 7: 4}), "i": 7, "x": 3, "y": 8})
    assert str(final.env) == "{a[5] = 3, a[7] = 4, i = 7, x = 3, y = 8}"
    unset = run_to_end(Env(), parse("a[2] = a[1] - 1"), 10)
    assert unset is not None and unset.env == Env.of({"a": Cells.of({2: -1})})


def test_the_bug_of_two_writes_happens_exactly_when_the_indices_alias():
    p = parse(ALIAS)
    for i, j, ending in ((1, 2, Ending.NORMAL), (3, 3, Ending.FAIL), (-4, 0, Ending.NORMAL)):
        final = run_to_end(Env.of({"i": i, "j": j}), p, 10)
        assert final is not None and final.ending is ending


def test_reads_resolve_along_the_update_sequence_as_far_as_syntax_decides():
    """B-H3: same index term gives the stored value; other constants are skipped; anything else
    stays a select over the rest of the sequence (B-A1's conditional)."""
    a, i, j = ArrayVar("a"), Var("i"), Var("j")
    seq = terms.update(terms.update(terms.update(a, Int(0), Int(5)), Int(1), Int(6)), i, Int(7))
    assert terms.select(seq, i) == Int(7)
    assert terms.select(seq, j) == Select(seq, j)
    below = terms.update(terms.update(a, Int(0), Int(5)), Int(1), Int(6))
    assert terms.select(below, Int(0)) == Int(5)
    assert terms.select(below, Int(2)) == Select(a, Int(2))
    assert terms.select(below, j) == Select(below, j)
    assert terms.update(terms.update(a, i, Int(1)), i, Int(2)) == Update(a, i, Int(2))


def test_symbolic_store_maps_the_array_to_its_update_sequence():
    from symcert.core.state import initial
    from symcert.engine.explore import run_n

    states = [s for s in run_n([initial(parse(ALIAS))], 8) if s is not None]
    failing = states[-1]
    assert str(failing.store) == "{a ↦ a[i := 1][j := 2]}"
    assert str(failing.pc) == "(not a[i := 1][j := 2][i] == 1)"


def test_z3_decides_aliasing_and_the_witness_keeps_the_cells_read():
    (bug,) = check(parse(ALIAS)).bugs
    assert bug.input("i") == bug.input("j")
    assert bug.final.prog == bug.bug.prog
    found = check(parse("assume a[3] > 5; if a[i] == a[3] + 1 then fail else skip fi")).bugs[0]
    cells = found.input("a")
    assert isinstance(cells, Cells) and cells.default == 0
    assert cells(3) > 5 and cells(found.input("i")) == cells(3) + 1  # type: ignore[arg-type]


def test_a_model_array_default_is_never_part_of_a_witness():
    """z3 may give an array a default other than 0: the witness keeps the cells the path
    condition reads, valued by the model, and leaves every other cell 0."""
    pc = PathCondition.of(terms.cmp("==", Select(ArrayVar("a"), Var("i")), Int(4)),
                          terms.cmp(">", Select(ArrayVar("a"), Int(9)), Int(0)))
    model = Env.of({"a": Cells.of({2: 1}, default=4), "i": 5})
    assert witness_input(model, pc) == Env.of({"a": Cells.of({5: 4, 9: 4}), "i": 5})


def test_solver_models_read_arrays_as_cells():
    pc = PathCondition.of(terms.cmp("==", Select(ArrayVar("a"), Int(3)), Int(7)))
    answer, model = Solver().check(pc)
    assert answer is Sat.SAT and model is not None
    cells = model("a")
    assert isinstance(cells, Cells) and cells(3) == 7


def test_safe_array_program_is_proved_exhaustively():
    verdict = check(parse("a[i] = 1; a[i + 1] = 2; assert a[i] == 1 and a[i + 1] == 2"))
    assert verdict.kind is Kind.SAFE and verdict.exhaustive


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_run_reports_array_cells_in_text_and_json(capsys, tmp_path):
    prog = tmp_path / "cells.imp"
    prog.write_text("assume a[3] == 7; if a[i] == 8 then fail else skip fi")
    code, out, _ = run_cli(capsys, "run", str(prog))
    assert code == 1
    shown = out.splitlines()[1]
    assert shown.startswith("  input:  a[") and "a[3] = 7" in shown and "= 8" in shown
    code, out, _ = run_cli(capsys, "run", "--json", str(prog))
    event = json.loads(out.splitlines()[0])
    assert event["input"]["a[3]"] == 7 and event["input"][f"a[{event['input']['i']}]"] == 8


def test_exec_takes_array_cells_as_input(capsys, tmp_path):
    prog = tmp_path / "exec.imp"
    prog.write_text("x = a[3] + a[4]; assert x != 7")
    code, out, _ = run_cli(capsys, "exec", str(prog), "--input", "a[3]=7")
    assert code == 1 and out.endswith("fails after 3 steps: a[3] = 7, x = 7\n")
    code, out, _ = run_cli(capsys, "exec", str(prog), "--input", "a[3]=3", "--input", "a[4]=-1")
    assert code == 0 and out == "finished after 3 steps: a[3] = 3, a[4] = -1, x = 2\n"


@pytest.mark.parametrize("given, message", [
    (("a=3",), "a is an array of the program: give its cells as --input a[INDEX]=INT"),
    (("x[1]=3",), "x is an integer of the program"),
    (("a[1]=1", "a[1]=2"), "--input a[1] is given twice"),
    (("a[k]=1",), "expected VAR=INT, VAR[INT]=INT"),
])
def test_exec_rejects_inputs_of_the_wrong_kind(capsys, tmp_path, given, message):
    prog = tmp_path / "kinds.imp"
    prog.write_text("y = x + a[1]")
    argv = [arg for item in given for arg in ("--input", item)]
    code, _, err = run_cli(capsys, "exec", str(prog), *argv)
    assert code == 2 and message in err


def test_tests_command_writes_array_cells_and_a_runnable_pytest_file(capsys, tmp_path):
    import subprocess
    import sys

    from symcert.cli.main import main as cli

    prog = tmp_path / "cells.imp"
    prog.write_text("if a[i] == 5 then fail else skip fi")
    code = cli(["tests", str(prog)])
    document = json.loads(capsys.readouterr().out)
    inputs = [t["input"] for t in document["tests"]]
    assert code == 0 and len(inputs) == 2
    assert any(t.get(f"a[{t.get('i', 0)}]") == 5 for t in inputs)  # the failing path's cell
    assert cli(["tests", "--format", "pytest", "--xfail", "--out", str(tmp_path),
                str(prog)]) == 0
    capsys.readouterr()
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           str(tmp_path / "test_cells.py")], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0 and "1 passed, 1 xfailed" in done.stdout, (done.stdout
                                                                          + done.stderr)


def test_a_macro_parameter_used_as_an_array_is_replaced_by_the_array_argument():
    p = parse("macro set(a, i, v) begin a[i] = v end\n"
              "macro load(a, i, r) begin r = a[i] end\nset(b, 1, 2); load(b, 1, x)")
    assert str(p) == "b[1] = 2;\nx = b[1]"
    with pytest.raises(ParseError) as info:
        parse("macro load(a, i, r) begin r = a[i] end\nload(3, 1, x)")
    assert "uses as an array its parameter `a`, so its argument must be a variable" in \
        info.value.message
    with pytest.raises(ParseError) as info:
        parse("macro load(i, r) begin r = q[i] end\nload(1, x)")
    assert "uses `q`, which is not one of its parameters" in info.value.message


def test_seed004_binds_a_fresh_array_variable_and_agrees_with_its_concrete_twin():
    """Seed 004 (Listing 4) with arrays: `a[i] = e` binds a fresh *array* variable `a#k` to the
    update, `a#k == a[i := e]` (array equality for z3); the FAIL result is exactly `i == j`."""
    from symcert.seed004.interp import exec_symbolic
    from symcert.seed004.natural import Behaviour, exec_concrete

    p = parse(ALIAS)
    results = exec_symbolic(p, 3, solver=Solver())
    (failing,) = [r for r in results if r.behaviour is Behaviour.FAIL]
    assert "a#2 == a[i := 1][j := 2]" in str(failing)
    assert Solver().check(failing.pc.extend(terms.cmp("!=", Var("i"), Var("j"))))[0] is Sat.UNSAT
    for i, j, behaviour in ((1, 1, Behaviour.FAIL), (1, 2, Behaviour.NORMAL)):
        assert exec_concrete(p, Env.of({"i": i, "j": j}), 3).behaviour is behaviour
