"""The `symcert` command: output, exit codes (0, 1, 2, 3, 65), JSON events, `exec`, budgets
and hostile input."""

from __future__ import annotations

from pathlib import Path

import io
import json
import os
import subprocess
import sys
import time

import pytest

from symcert.cli.main import main
from symcert.lang.parser import MAX_INPUT_BYTES

EX = Path(__file__).resolve().parents[2] / "examples"

BUGGY = f"{EX}/isqrt_buggy.imp"


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_bug_found_exit_1_with_location_input_and_replay(capsys):
    code, out, _ = run_cli(capsys, "run", BUGGY)
    assert code == 1
    lines = out.splitlines()
    assert lines[0] == f"{BUGGY}:12:3: bug: assertion `x < s` fails"
    assert lines[1] == "  input:  x = 1"
    assert lines[2].startswith("  replay: concrete run from this input reaches the failing")
    assert "symbolic states (breadth-first)" in lines[3]


def test_safe_program_exit_0(capsys):
    code, out, _ = run_cli(capsys, "run", f"{EX}/isqrt.imp")
    assert code == 0
    assert "no bug: every assertion holds for all inputs" in out
    assert "exhaustive" in out


def test_budget_exhausted_exit_3_says_which_budget(capsys, tmp_path):
    prog = tmp_path / "loop.imp"
    prog.write_text("i = 0; while i < n do i = i + 1 od; assert i >= 0")
    code, out, _ = run_cli(capsys, "run", "--no-infer", "--max-states", "50", str(prog))
    assert code == 3
    assert "undecided: the state budget (--max-states 50) ran out" in out


def test_a_loop_bounded_by_an_input_is_proved_with_an_inferred_invariant(capsys, tmp_path):
    """T-I2: where the state budget runs out, Spacer's invariant, checked by z3, cvc5 and the
    invariant transition, proves the program; the invariant is shown, in text and JSON."""
    prog = tmp_path / "loop.imp"
    prog.write_text("assume n >= 0; i = 0; while i < n do i = i + 1 od; assert i == n")
    code, out, _ = run_cli(capsys, "run", str(prog))
    assert code == 0 and "no bug: every assertion holds for all inputs" in out
    assert "proved with inferred loop invariants" in out and "the loop at 1:23: invariant" in out
    code, out, _ = run_cli(capsys, "run", "--json", str(prog))
    done = json.loads(out.splitlines()[-1])
    assert code == 0 and done["verdict"] == "safe"
    assert [line.split(": invariant")[0] for line in done["inferred_invariants"]] == [
        "the loop at 1:23"]


def test_json_events(capsys):
    code, out, _ = run_cli(capsys, "run", "--json", "--all-bugs", f"{EX}/min3_buggy.imp")
    assert code == 1
    events = [json.loads(line) for line in out.splitlines()]
    bugs = [e for e in events if e["event"] == "bug"]
    assert bugs and events[-1]["event"] == "done"
    assert events[-1]["verdict"] == "bug" and events[-1]["exhaustive"] is True
    bug = bugs[0]
    assert (bug["line"], bug["column"]) == (7, 1)
    a, b, c = (bug["input"].get(k, 0) for k in "abc")
    assert not (min(a, b, c) == a)  # the buggy version returns a; the input shows why it is wrong


def test_dfs_strategy_is_accepted_and_reported(capsys):
    code, out, _ = run_cli(capsys, "run", "--strategy", "dfs", f"{EX}/min3_buggy.imp")
    assert code == 1 and "(depth-first)" in out


def test_syntax_error_exit_65_with_caret(capsys, tmp_path):
    prog = tmp_path / "bad.imp"
    prog.write_text("x = 1;\ny = x ** 2\n")
    code, out, err = run_cli(capsys, "run", str(prog))
    assert code == 65 and out == ""
    assert err.splitlines() == [
        f"{prog}:2:8: syntax error: unexpected `*`; expected `(`, `-`, `nil`, a variable, an integer",
        "  y = x ** 2",
        "         ^",
    ]


def test_missing_file_exit_65(capsys, tmp_path):
    code, _, err = run_cli(capsys, "run", str(tmp_path / "nope.imp"))
    assert code == 65 and "cannot read" in err and "Traceback" not in err


def test_closed_output_pipe_exit_141_without_a_message(capsys, monkeypatch):
    """`symcert oracle F | head -1`: the reader left; no "cannot read", no traceback."""
    import symcert.cli.commands.oracle as oracle

    def closed(args):
        print("first line")
        raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(oracle, "main", closed)
    code, _, err = run_cli(capsys, "oracle", BUGGY)
    assert code == 141 and err == ""


def test_usage_errors_exit_2(capsys):
    with pytest.raises(SystemExit) as info:
        main(["run", "--max-states", "0", BUGGY])
    assert info.value.code == 2
    with pytest.raises(SystemExit) as info:
        main(["frobnicate"])
    assert info.value.code == 2
    code, _, err = run_cli(capsys, "exec", BUGGY, "--input", "x=abc")
    assert code == 2 and "bad --input 'x=abc'" in err


def test_exec_runs_concretely_and_names_defaulted_inputs(capsys):
    code, out, _ = run_cli(capsys, "exec", f"{EX}/gcd_buggy.imp", "--input", "a=4")
    lines = out.splitlines()
    assert lines[0] == "note: inputs not given default to 0: b"
    code, out, _ = run_cli(capsys, "exec", BUGGY, "--input", "x=1")
    assert code == 1 and out.startswith(f"{BUGGY}:12:3: assertion `x < s` fails after")
    code, out, _ = run_cli(capsys, "exec", BUGGY, "--input", "x=2")
    assert code == 0 and out.startswith("finished after")


def test_division_by_zero_is_a_bug_found_replayed_and_run_concretely(capsys):
    """The buggy mean divides by the length of an empty range; the correct one is proved."""
    mean_buggy = f"{EX}/mean_buggy.imp"
    code, out, _ = run_cli(capsys, "run", mean_buggy)
    assert code == 1
    lines = out.splitlines()
    assert lines[0] == f"{mean_buggy}:12:1: bug: division by zero in `m = s / c`"
    assert lines[1].startswith("  input:  ")
    given = dict(item.split(" = ") for item in lines[1].removeprefix("  input:  ").split(", "))
    lo, hi = int(given.get("lo", "0")), int(given.get("hi", "0"))
    assert -10 <= hi < lo <= 10  # an empty range: the only inputs that divide by zero
    assert lines[2].startswith("  replay: concrete run from this input reaches the failing")
    code, out, _ = run_cli(capsys, "prove", f"{EX}/mean.imp")
    assert code == 0 and "PROVED: every assertion holds for all inputs" in out
    code, out, _ = run_cli(capsys, "exec", mean_buggy, "--input", "lo=3", "--input", "hi=2")
    assert code == 1
    assert out == (f"{mean_buggy}:12:1: division by zero in `m = s / c` after 11 steps: "
                   "hi = 2, i = 3, lo = 3\n")


def test_nonlinear_unknown_is_undecided_never_a_verdict(capsys, tmp_path):
    """Cubes (Fermat, n = 3): z3 answers UNKNOWN on the failing path, so neither `run` nor
    `prove` may say bug or safe: exit 3 with the reason."""
    prog = tmp_path / "fermat.imp"
    prog.write_text("if x > 0 and y > 0 and z > 0 then\n"
                    "  assert x * x * x + y * y * y != z * z * z\nelse skip fi\n")
    code, out, _ = run_cli(capsys, "run", str(prog))
    assert code == 3
    assert out.splitlines()[0] == (f"{prog}: undecided: the solver could not decide 1 path "
                                   "condition leading to `fail`")
    code, out, _ = run_cli(capsys, "prove", str(prog))
    assert code == 3 and "solver answered UNKNOWN for 2:3" in out and "PROVED" not in out


def test_python_dash_m_and_no_traceback_on_binary_input(tmp_path):
    bad = tmp_path / "bin.imp"
    bad.write_bytes(b"\x00\xff\xfe garbage")
    env = dict(os.environ, SYMCERT_CONTRACTS="0")
    done = subprocess.run([sys.executable, "-m", "symcert", "run", str(bad)],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 65
    assert "not valid UTF-8" in done.stderr and "Traceback" not in done.stderr


def test_inputs_are_the_variables_read_before_assigned():
    from symcert.lang.parser import parse
    from symcert.lang.structure import inputs

    assert inputs(parse("x = a; y = x + b")) == {"a", "b"}
    assert inputs(parse("if c < 0 then x = 1 else skip fi; y = x")) == {"c", "x"}
    assert inputs(parse("if c < 0 then x = 1 else x = 2 fi; y = x")) == {"c"}
    assert inputs(parse("while i < n do x = 1 od; assert x == 1")) == {"i", "n", "x"}
    assert inputs(parse("x = x + 1")) == {"x"}


# ------------------------------------------------------------------------------------------
# Hostile input: every phase inside the budget, no internal error from a user's program.

def lines_program(tmp_path, n: int) -> Path:
    prog = tmp_path / "long.imp"
    prog.write_text("x = 0;\n" + "x = x + 1;\n" * n + "assert x >= 0\n")
    return prog


def warmed(capsys, tmp_path, *argv: str) -> None:
    """Run the command ARGV once on `skip`, so that its imports are done before the budget of
    the run under test starts: a short `--timeout` then cannot run out while starting, however
    loaded the machine."""
    prog = tmp_path / "warm.imp"
    prog.write_text("skip\n")
    run_cli(capsys, *argv, str(prog))


def test_timeout_covers_parsing(capsys, tmp_path):
    """Parsing 200,000 lines takes many seconds: `--timeout` stops it, and says so (the phase
    it names shows the parse was cut short; no wall-clock bound, which load would break)."""
    prog = lines_program(tmp_path, 200_000)
    warmed(capsys, tmp_path, "run", "--max-states", "1")
    code, out, err = run_cli(capsys, "run", "--max-states", "1000", "--timeout", "0.5", str(prog))
    assert code == 3 and err == ""
    assert out.splitlines()[0] == (f"{prog}: undecided: the time budget (--timeout 0.5 s) ran "
                                   f"out while parsing {prog}")
    code, out, _ = run_cli(capsys, "run", "--json", "--timeout", "0.5", str(prog))
    done = json.loads(out)
    assert code == 3 and done["verdict"] == "undecided" and done["states"] == 0
    assert done["reason"].endswith(f"ran out while parsing {prog}")


LOOP = "i = 0; while i < n do i = i + 1 od; assert i >= 0\n"


@pytest.mark.parametrize("argv, phase", [
    (["run", "--no-infer", "--max-states", "100000000"], "exploring"),
    (["prove", "--no-infer", "--max-states", "100000000"], "exploring and proving"),
    (["tree", "--max-states", "100000000"], "drawing the tree"),
    (["exec", "--no-accelerate", "--max-steps", "1000000000", "--input", "n=1000000000"],
     "running"),
    (["oracle", "--runs", "100000"], "checking that expand (one step) is exhaustive"),
])
def test_every_command_has_a_timeout_that_names_the_phase(capsys, tmp_path, argv, phase):
    """Each command stops at its budget in its main phase; the command ran once before, so the
    1 s cannot be spent importing. The programs never end within the budget; 60 s is a guard
    against a hang only, far above any load's noise."""
    prog = tmp_path / "loop.imp"
    prog.write_text(LOOP)
    warmed(capsys, tmp_path, argv[0], *(["--runs", "1"] if argv[0] == "oracle" else []))
    start = time.perf_counter()
    code, out, err = run_cli(capsys, *argv, "--timeout", "1", str(prog))
    assert time.perf_counter() - start < 60
    assert code == 3 and "Traceback" not in err
    assert f"the time budget (--timeout 1 s) ran out while {phase}" in out + err


def test_campaign_timeout(capsys):
    # In this process (`--workers 1`): a local cluster's start-up is test_distributed.py's.
    run_cli(capsys, "campaign", "--programs", "1", "--workers", "1")  # its imports first
    code, _, err = run_cli(capsys, "campaign", "--programs", "100000", "--timeout", "2",
                           "--workers", "1")
    assert code == 3
    assert "undecided: the time budget (--timeout 2 s) ran out while checking programs" in err


def test_timeout_must_be_a_positive_number():
    for bad in ("0", "-1", "nan", "inf", "soon"):
        with pytest.raises(SystemExit) as info:
            main(["run", "--timeout", bad, BUGGY])
        assert info.value.code == 2


def test_input_larger_than_the_cap_exit_65(capsys, tmp_path):
    prog = lines_program(tmp_path, 100)
    code, out, err = run_cli(capsys, "run", "--max-input-bytes", "1000", str(prog))
    assert code == 65 and out == ""
    assert "limit exceeded: the input is longer than the limit of 1,000 bytes" in err
    assert "raise it with --max-input-bytes N" in err
    code, _, err = run_cli(capsys, "run", "/dev/zero")
    assert code == 65 and f"the limit of {MAX_INPUT_BYTES:,} bytes" in err
    assert run_cli(capsys, "run", "--max-input-bytes", "2000", str(prog))[0] == 0


def test_memory_error_is_undecided_not_a_symcert_bug(capsys, monkeypatch):
    import symcert.cli.main as cli
    import symcert.cli.commands.tree as tree

    def exhausted(*args):
        raise MemoryError

    monkeypatch.setattr(cli, "read_program", exhausted)
    code, out, err = run_cli(capsys, "run", BUGGY)
    assert code == 3 and "bug in symcert" not in err
    assert "undecided: memory ran out while" in out
    monkeypatch.setattr(tree, "to_dot", exhausted)
    code, _, err = run_cli(capsys, "tree", BUGGY)
    assert code == 3 and "bug in symcert" not in err
    assert err == "symcert tree: undecided: memory ran out while drawing the tree\n"


@pytest.fixture
def short_int_text():
    """Python converts integers of at most 640 digits to text (the least limit it allows):
    a 700-digit value then stands for the 100,001-digit values of a longer loop. (The parser
    raises the limit when it is imported, so it is imported first.)"""
    import symcert.lang.parser  # noqa: F401

    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(640)
    yield
    sys.set_int_max_str_digits(limit)


TENFOLD = ("x = 1; i = 0; while i < 700 do x = x + x + x + x + x + x + x + x + x + x; "
           "i = i + 1 od; assert x != y\n")
SUMMARY = "<an integer of 701 digits: 1000…0000>"


def test_huge_values_are_summarised_by_exec(capsys, tmp_path, short_int_text):
    prog = tmp_path / "big.imp"
    prog.write_text(TENFOLD)
    code, out, err = run_cli(capsys, "exec", str(prog))
    assert code == 0 and "Traceback" not in err
    assert out.splitlines()[-1] == f"finished after 3,507 steps: i = 700, x = {SUMMARY}"


def test_huge_values_are_summarised_by_run_text_and_json(capsys, tmp_path, short_int_text):
    prog = tmp_path / "big.imp"
    prog.write_text(TENFOLD)
    code, out, err = run_cli(capsys, "run", "--no-infer", str(prog))  # the bug is 2,100 steps deep
    assert code == 1 and "Traceback" not in err
    assert out.splitlines()[1] == f"  input:  y = {SUMMARY}"
    code, out, err = run_cli(capsys, "run", "--no-infer", "--json", str(prog))
    bug = json.loads(out.splitlines()[0])
    assert code == 1 and bug["input"] == {"y": SUMMARY}
    assert bug["path_condition"].startswith("<not shown: holds an integer of more than 640")


def test_values_in_full_up_to_a_thousand_digits():
    from symcert.cli.commands.values import digits, json_int, show_int

    for n in (0, 9, 10, 99, 100, 10**999 - 1, 10**999, 10**1000 - 1, 10**5000, 2**3000):
        assert digits(n) == digits(-n) == len(str(n))
    assert show_int(-(10**999)) == str(-(10**999)) and json_int(10**999) == 10**999
    assert show_int(10**1000) == "<an integer of 1,001 digits: 1000…0000>"
    assert show_int(-(10**100001 + 1234)) == "<an integer of 100,002 digits: -1000…1234>"
    assert json_int(-(10**1000)) == "<an integer of 1,001 digits: -1000…0000>"


def test_version(capsys):
    from symcert import __version__

    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0 and capsys.readouterr().out == f"symcert {__version__}\n"


def test_a_subcommand_usage_error_prints_that_subcommand_usage(capsys):
    with pytest.raises(SystemExit) as info:
        main(["run", BUGGY, "--frobnicate"])
    err = capsys.readouterr().err
    assert info.value.code == 2
    assert err.startswith("usage: symcert run ")
    assert err.rstrip().endswith("symcert run: error: unrecognized arguments: --frobnicate")


@pytest.mark.parametrize("command", ["run", "exec", "prove", "tree", "oracle"])
def test_dash_reads_the_program_from_standard_input(capsys, monkeypatch, command):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"x = 1;\nassert x == y")))
    options = ["--runs", "3"] if command == "oracle" else []
    code, out, err = run_cli(capsys, command, "-", *options)
    assert "Traceback" not in err
    if command in ("run", "exec", "prove"):
        assert code == 1 and "<stdin>:2:1: " in out
    else:
        assert code in (0, 1) and out


def test_standard_input_errors_are_named_stdin(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"x = ;")))
    code, _, err = run_cli(capsys, "run", "-")
    assert code == 65 and err.startswith("<stdin>:1:5: syntax error: ")


def test_exec_warns_about_an_input_the_program_never_reads(capsys):
    code, out, err = run_cli(capsys, "exec", f"{EX}/gcd_buggy.imp", "--input", "a=5",
                             "--input", "b=3", "--input", "zz=3")
    assert code == 1 and "note:" not in out
    assert err == ("symcert exec: warning: the program has no input zz (its inputs: a, b); "
                   "--input zz has no effect\n")


@pytest.mark.parametrize("item", ["a=+3", "a=1_000", "a=٣", "a=", "a=3.0", "a=0x1f", "=3",
                                  "a b=3", "a", "a=1e3", "2x=3"])
def test_exec_accepts_only_decimal_integers(capsys, item):
    code, out, err = run_cli(capsys, "exec", f"{EX}/gcd_buggy.imp", "--input", item)
    assert code == 2 and out == ""
    assert err.startswith(f"symcert exec: bad --input {item!r}: expected VAR=INT")


def test_exec_input_forms_that_are_accepted(capsys):
    code, out, _ = run_cli(capsys, "exec", BUGGY, "--input", " x = -0007 ")
    assert code == 0 and "x = -7" in out
    code, out, _ = run_cli(capsys, "exec", BUGGY, "--input", "x=" + "9" * 5000)
    assert code == 0 and "x = <an integer of 5,000 digits: 9999…9999>" in out
    code, out, err = run_cli(capsys, "exec", BUGGY, "--input", "x=" + "9" * 100_001)
    assert code == 2 and err == "symcert exec: bad --input x: more than 100,000 digits\n"


def test_exec_repeated_input_is_a_usage_error(capsys):
    code, out, err = run_cli(capsys, "exec", BUGGY, "--input", "x=1", "--input", "x=2")
    assert code == 2 and out == ""
    assert err == "symcert exec: --input x is given twice\n"


def test_a_command_runs_without_the_cyclic_collector_and_restores_it(capsys, monkeypatch):
    """The GC policy (docs/bench.md, "Garbage collection"): off while the command works, on
    again afterwards."""
    import gc

    import symcert.cli.main as cli

    seen = []

    def dispatch(args):
        seen.append(gc.isenabled())
        return 65

    monkeypatch.setattr(cli, "_dispatch", dispatch)
    assert gc.isenabled()
    assert main(["run", BUGGY]) == 65
    assert seen == [False] and gc.isenabled()


def test_the_contracts_flag_switches_the_contracts_on(tmp_path):
    """`--contracts` sets SYMCERT_CONTRACTS before the engine is imported: reading the options
    must not import a module that reads the switch (the parser did, through its limits)."""
    path = tmp_path / "one.imp"
    path.write_text("x = 1")
    env = {k: v for k, v in os.environ.items() if k != "SYMCERT_CONTRACTS"}
    code = ("from symcert.cli.main import main; main(['run', %r, '--contracts']); "
            "from symcert.spec import switch; print('CONTRACTS', switch.CONTRACTS)" % str(path))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                          timeout=120)
    assert done.stdout.splitlines()[-1] == "CONTRACTS True"
