"""cli/commands/options.py: the one description of `run`'s and `exec`'s options, from which the
parsers, the children of `run DIR` and the language server's checks take theirs
(tests/quality/test_run_options.py runs each option through the `symcert` command)."""

from __future__ import annotations

import argparse

import pytest

from symcert.cli.commands import options
from symcert.cli.commands.batch import child_argv
from symcert.cli.findings import Settings, child_args
from symcert.cli.main import parse_args

EVERY_OPTION = ["--max-input-bytes", "99", "--max-program-size", "98", "--timeout", "7.5",
                "--alias", "split", "--por", "off", "--no-summaries", "--merge",
                "--strategy", "dfs", "--max-states", "97", "--all-bugs", "--max-call-depth", "96",
                "--no-infer", "--contracts", "-v", "--trace", "--no-shrink", "--data-model", "ILP32"]
"""A value other than its default for each per-program option of `run`."""


def test_a_child_gets_every_per_program_option_with_its_value():
    args = parse_args(["run", "d/", *EVERY_OPTION, "--format", "sarif", "--jobs", "3"])
    argv = child_argv(args, "p.imp")
    assert argv[1:6] == ["-m", "symcert", "run", "p.imp", "--json"]
    again = parse_args(argv[3:])
    for o in options.RUN:
        if o.per_program:
            assert getattr(again, o.dest) == getattr(args, o.dest) != o.default, o.flag
    assert "--format" not in argv and "--jobs" not in argv  # the parent's own
    assert len(EVERY_OPTION) == sum(len(o.words(getattr(args, o.dest)))
                                    for o in options.RUN if o.per_program)


def test_options_at_their_defaults_are_not_written():
    assert child_argv(parse_args(["run", "d/"]), "p.imp")[5:] == ["--json"]
    parsed = vars(parse_args(["run", "f"]))
    for o in options.RUN:
        if o.dest != "file":
            assert getattr(options.defaults(options.RUN), o.dest) == parsed[o.dest], o.flag


def test_the_language_server_checks_with_runs_options_and_its_budget():
    args = child_args(Settings(timeout=4.0, max_states=123, all_bugs=False))
    assert {o.dest for o in options.RUN} <= set(vars(args))
    argv = child_argv(args, "doc.imp")
    assert argv[5:] == ["--json", "--timeout", "4.0", "--max-states", "123", "--trace"]


def test_exec_takes_the_options_described_for_it():
    args = parse_args(["exec", "p.imp", "--input", "x=1", "--input", "y=2", "--trace", "-v",
                       "--schedule", "0,1", "--max-steps", "5"])
    assert {o.dest for o in options.EXEC} | {"command"} == set(vars(args))
    assert (args.input, args.trace, args.verbose, args.schedule, args.max_steps) == (
        ["x=1", "y=2"], True, True, (0, 1), 5)
    assert options.EXEC[0] is options.RUN[0] is options.FILE  # the same description


def test_an_option_that_cannot_be_written_back_is_refused():
    odd = options.option("--odd", action="count", default=0)
    assert odd.words(0) == []
    with pytest.raises(ValueError, match="--odd"):
        odd.words(2)
    assert options.option("--both", action=argparse.BooleanOptionalAction,
                          default=True).words(False) == ["--no-both"]
