"""Messages: errors named as the facts are (syntax, type, name), the caret on the offending
token, calls used as values, plurals and thousands separators, progress lines where no
terminal shows the live one (driven by an injected clock), and `--contracts`'s summary."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from symcert.cli.commands.budget import Deadline
from symcert.cli.commands.contracts import Checked
from symcert.cli.commands.progress import Heartbeat
from symcert.cli.main import main
from symcert.lang.errors import KindError, NamingError, ParseError, plural
from symcert.lang.parser import parse

EX = Path(__file__).resolve().parents[2] / "examples"


@pytest.mark.parametrize("source, kind, line, column, says", [
    ("y = a[1];\na = 3", KindError, 2, 1, "`a` is an array (at 1:5)"),
    ("x = g(1)", NamingError, 1, 1, "unknown procedure `g`"),
    ("proc f(a) begin return a end\nx = f(1, 2)", KindError, 2, 1, "takes 1 argument, 2 given"),
    ("class C(v)\nx = new D", NamingError, 2, 9, "unknown class `D`"),
    ("class C(v)\nx = y.w", NamingError, 2, 7, "unknown field `w`"),
    ("p = nil;\nx = p + 1", KindError, 2, 5, "is a reference"),
])
def test_type_and_name_errors_are_called_so(source, kind, line, column, says):
    with pytest.raises(ParseError) as info:
        parse(source, "t.imp")
    err = info.value
    assert type(err) is kind and (err.line, err.column) == (line, column)
    assert says in err.message
    assert str(err).startswith(f"t.imp:{line}:{column}: {kind.kind}: ")


@pytest.mark.parametrize("source", ["x = 1;\n", "x = 1;\n\n\n", "x = 1 ;  \n"])
def test_a_trailing_semicolon_gets_the_caret(source):
    with pytest.raises(ParseError) as info:
        parse(source, "t.imp")
    shown = str(info.value).splitlines()
    assert shown[1].strip() == source.strip()  # the line with the `;`, not an empty one
    assert shown[1][shown[2].index("^")] == ";"


@pytest.mark.parametrize("source, token", [
    ("proc f(a) begin return a end\nx = f(1) + 1", "+"),
    ("proc f(a) begin return a end\nif f(1) > 0 then skip else skip fi", "("),
    ("proc f(a) begin return a end\nx = 2 * f(1)", "("),
])
def test_a_call_used_as_a_value_says_calls_are_not_expressions(source, token):
    with pytest.raises(ParseError) as info:
        parse(source, "t.imp")
    err = info.value
    assert "calls are not expressions" in err.message
    assert str(err).splitlines()[1][str(err).splitlines()[2].index("^")] == token


def test_other_syntax_errors_do_not_mention_calls():
    for source in ("x = (1) + + 2", "x = 1 +", "f(1) + 1", "while x < 1 do skip od (x)"):
        with pytest.raises(ParseError) as info:
            parse(source, "t.imp")
        assert "calls are not expressions" not in info.value.message


def test_plurals_and_thousands_separators():
    assert plural(1, "state") == "1 state" and plural(12_000, "state") == "12,000 states"
    assert plural(0, "obligation") == "0 obligations"
    assert plural(2, "check", "checks") == "2 checks"


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_progress_lines_come_every_period_with_states_rate_and_budget_left():
    clock, out = Clock(), io.StringIO()
    deadline = Deadline(60.0)
    deadline.enter("exploring")
    beat = Heartbeat("run", deadline, every=5.0, clock=clock, out=out)
    clock.now += 4.9
    assert not beat.tick() and out.getvalue() == ""
    beat.count(12_000)
    clock.now += 0.1
    assert beat.tick()
    assert out.getvalue() == ("symcert run: 5.0 s elapsed, 12,000 states (2,400 states/s), "
                              "55.0 s of --timeout 60 s left; exploring\n")
    clock.now += 1
    assert not beat.tick()  # one line a period
    clock.now += 4
    deadline.enter("replaying")
    assert beat.tick() and out.getvalue().splitlines()[1].endswith("; replaying")


def test_progress_without_a_count_or_a_budget_says_what_it_knows():
    clock, out = Clock(), io.StringIO()
    deadline = Deadline(None)
    deadline.enter("checking that run is precise")
    beat = Heartbeat("oracle", deadline, every=2.0, clock=clock, out=out)
    clock.now += 3
    beat.tick()
    assert out.getvalue() == "symcert oracle: 3.0 s elapsed; checking that run is precise\n"


def test_a_pipe_gets_progress_lines_from_the_console_script(tmp_path):
    """The wiring: stderr a pipe, the process symcert's, a short period: lines come."""
    program = tmp_path / "loop.imp"
    program.write_text("x = 0;\nwhile true do x = x + 1 od\n")
    env = dict(os.environ, SYMCERT_PROGRESS_SECONDS="0.2", SYMCERT_CONTRACTS="0")
    done = subprocess.run([sys.executable, "-m", "symcert", "run", str(program), "--no-infer",
                           "--timeout", "2"], capture_output=True, text=True, env=env)
    lines = [l for l in done.stderr.splitlines() if l.startswith("symcert run: ")]
    assert done.returncode == 3 and lines
    assert any(" states (" in l and "of --timeout 2 s left; exploring" in l for l in lines)
    assert "undecided" in done.stdout and "elapsed" not in done.stdout


def test_the_contracts_summary_counts_and_names_lemmas(capsys):
    code = main(["run", str(EX / "isqrt_buggy.imp"), "--contracts", "-v"])
    out = capsys.readouterr().out.splitlines()
    assert code == 1
    head = next(i for i, line in enumerate(out) if line.startswith("contracts: "))
    words = out[head].split()
    checks, calls = int(words[1].replace(",", "")), int(words[5].replace(",", ""))
    assert checks >= calls > 0 and out[head].endswith(", 0 violations")
    per_lemma = {line.split()[0]: int(line.split()[1].replace(",", "")) for line in out[head + 1:]}
    assert per_lemma["W-T3.1"] > 0 and per_lemma["W-T3.5"] > 0  # expansion, the replay


def test_a_run_without_contracts_prints_no_summary(capsys):
    main(["run", str(EX / "isqrt_buggy.imp")])
    assert "contracts:" not in capsys.readouterr().out


def test_summary_wording():
    assert Checked(calls=1, checks=1).summary() == (
        "contracts: 1 contract check over 1 call, 0 violations\n")


def test_exec_notes_unset_fields_only_when_input_objects_are_given(capsys):
    program = str(EX / "list_insert.imp")
    assert main(["exec", program, "--input", "v=3"]) == 0
    assert "fields of input objects" not in capsys.readouterr().out  # head is nil: no fields
    assert main(["exec", program, "--input", "head=@1", "--input", "v=3"]) == 0
    assert "note: fields of input objects not given are 0 / nil" in capsys.readouterr().out


def test_exec_says_which_inputs_default_to_0_and_which_to_nil(capsys, tmp_path):
    path = tmp_path / "p.imp"
    path.write_text("class C(v)\nif p != nil then x = p.v + k else x = k fi")
    assert main(["exec", str(path)]) == 0
    assert "note: inputs not given default to 0: k; to nil: p" in capsys.readouterr().out
