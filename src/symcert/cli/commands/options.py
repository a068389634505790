"""The options of `symcert run` and `symcert exec`, each described once: its flags, its argparse
settings, and whether `run` on several programs gives it to each program's process.

Every path takes its options from here: the parsers of `run` and `exec` (cli/main.py) and of the
commands that read a program (`add_program`), `run` on several programs, SARIF or JUnit, which
checks each program by a child `symcert run FILE --json` (cli/commands/batch.py), and the
language server, whose checks are such children too (cli/server.py). A child's command line is
`argv(RUN, args)`: every per-program option of `RUN` whose value is not its default, so an
option added to `RUN` reaches the children with nothing more to write (a list of forwarded
options kept by hand had dropped `--trace`, `--no-summaries`, `--por`, `--merge` and
`--no-shrink`).
"""

from __future__ import annotations

import argparse
import os
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

from symcert.cli.commands.budget import positive, positive_float
from symcert.lang.errors import MAX_INPUT_BYTES, MAX_PROGRAM_SIZE  # errors.py only: not the
# parser, whose import would read SYMCERT_CONTRACTS before `--contracts` sets it

DEFAULT_MAX_STATES = 100_000
DERIVED_STATES = 40  # checking.agreement.DERIVED_STATES, not imported here (start-up time):
# `run --lang`'s default budget is this many times `run`'s, a configuration of a derived
# semantics being one rule application, a finer step than a state
DEFAULT_MAX_CALL_DEPTH = 10_000  # core.frames.MAX_CALL_DEPTH, not imported here (start-up time)
DEFAULT_MAX_STEPS = 1_000_000
FORMATS = ("text", "json", "sarif", "junit")
FLAGS = ("store_true", "store_false")


@dataclass(frozen=True)
class Option:
    """One option: its flags (a positional argument's name), the keyword arguments of argparse's
    `add_argument`, and `per_program`: whether `run` on several programs gives it to the process
    that checks each one (False for what the parent itself does: which programs, how many at
    once, the report's format)."""

    flags: tuple[str, ...]
    settings: dict[str, Any] = field(default_factory=dict, compare=False)
    per_program: bool = True

    @property
    def dest(self) -> str:
        """The attribute of the parsed arguments that holds its value (as argparse names it)."""
        if "dest" in self.settings:
            return str(self.settings["dest"])
        return self.flag.lstrip("-").replace("-", "_")

    @property
    def flag(self) -> str:
        """The flag a command line is written with: the first long one."""
        return next((f for f in self.flags if f.startswith("--")), self.flags[0])

    @property
    def default(self) -> Any:
        """Its value when it is not given."""
        action = self.settings.get("action")
        return self.settings.get("default", False if action == "store_true" else
                                 True if action == "store_false" else None)

    def words(self, value: Any) -> list[str]:
        """The command-line words that give it `value` (none for its default)."""
        action = self.settings.get("action")
        if value == self.default:
            return []
        if action in FLAGS:
            return [self.flag]
        if action is argparse.BooleanOptionalAction:
            return [self.flag if value else "--no-" + self.flag[2:]]
        if action == "append":
            return [w for item in value for w in (self.flag, str(item))]
        if action is not None or not self.flag.startswith("-"):
            raise ValueError(f"no command line for {self.flag} (action {action!r})")
        return [self.flag, str(value)]


def option(*flags: str, per_program: bool = True, **settings: Any) -> Option:
    """The option of `flags` with argparse's `settings`."""
    return Option(flags, settings, per_program)


def _schedule(text: str) -> tuple[int, ...]:
    from symcert.cli.commands.threads import schedule  # only when exec gets --schedule

    return schedule(text)


FILE = option("file", metavar="FILE", per_program=False,
              help="the IMP program; - reads standard input")
TIMEOUT = option("--timeout", type=positive_float, default=None, metavar="S",
                 help="wall-clock budget in seconds for the whole command, reading and parsing "
                      "included; when it runs out the exit code is 3 (default: none)")
PROGRAM = (
    FILE,
    option("--max-input-bytes", type=positive, default=MAX_INPUT_BYTES, metavar="N",
           help=f"refuse a larger program, exit 65 (default: {MAX_INPUT_BYTES:,})"),
    option("--max-program-size", type=positive, default=MAX_PROGRAM_SIZE, metavar="N",
           help="refuse a program of more syntax nodes after macro expansion, exit 65 "
                f"(default: {MAX_PROGRAM_SIZE:,})"),
    option("--data-model", choices=("ILP32", "LP64"), default=None,
           help="a C program's data model: the widths of long and size_t (default: LP64, or "
                "the task file's)"),
    TIMEOUT,
)
"""What a command that reads a program takes."""
EXPLORING = (
    option("--alias", choices=("terms", "split"), default="terms",
           help="reads over array and field updates: conditional terms the solver decides "
                "(default), or a case split per alias question i == j (more states, plain terms)"),
    option("--por", choices=("on", "off"), default="on",
           help="with threads: partial-order reduction (default), or every interleaving (the "
                "reference)"),
    option("--summaries", action=argparse.BooleanOptionalAction, default=True,
           help="a call of a procedure with a contract uses the contract, its body verified "
                "once (T-S1, default); --no-summaries inlines every call"),
)
"""What a command that explores takes: the strategies of cli.commands.programs.with_alias."""
MERGE = option("--merge", action="store_true",
               help="merge states that reach the same point of the program with the same "
                    "continuation (T-M1: same verdicts, fewer paths)")
VERBOSE = option("-v", "--verbose", action="store_true",
                 help="with --contracts, the checks per lemma ID")

RUN = (
    *PROGRAM, *EXPLORING, MERGE,
    option("--strategy", choices=("bfs", "dfs"), default="bfs",
           help="search order (default: bfs, which finds every reachable bug)"),
    option("--max-states", type=positive, default=None, metavar="N",
           help=f"state budget (default: {DEFAULT_MAX_STATES:,}; with --lang, "
                f"{DEFAULT_MAX_STATES * DERIVED_STATES:,} configurations, each one rule "
                "application)"),
    option("--all-bugs", action="store_true",
           help="keep exploring after the first bug; report each failing statement once"),
    option("--max-call-depth", type=positive, default=DEFAULT_MAX_CALL_DEPTH, metavar="N",
           help=f"cut paths whose calls nest deeper (default: {DEFAULT_MAX_CALL_DEPTH:,}); a cut "
                "path leaves the check undecided"),
    option("--json", action="store_true", per_program=False,  # a child always writes JSON
           help="write one JSON object per event"),
    option("--no-infer", dest="infer", action="store_false",
           help="never ask the CHC solver for loop invariants (T-I2; docs/inference.md)"),
    option("--contracts", action="store_true",
           help="check the lemma contracts while running (as SYMCERT_CONTRACTS=1)"),
    VERBOSE,
    option("--trace", action="store_true",
           help="show each bug's replay step by step (a `trace` array with --json)"),
    option("--no-shrink", dest="shrink", action="store_false",
           help="report the solver's first witness, not the smallest one that replays"),
    option("--witness", metavar="FILE", default=None, per_program=False,  # one program only
           help="a C program's bug: write a violation witness (SV-COMP's YAML witness format "
                "2.0) to FILE"),
    option("--witness-dot", metavar="FILE", default=None, per_program=False,  # one program only
           help="write the first bug's input heap (seed 003 §4) to FILE (Graphviz)"),
    option("--lang", metavar="LANG.sem", default=None, per_program=False,  # one program only
           help="FILE is a program of this language defined by rewrite rules (seed 002; `imp` "
                "or `gcl` for the shipped ones): run the bug finder on its derived symbolic "
                "semantics"),
    option("more", nargs="*", metavar="FILE...", default=[], per_program=False,
           help="more programs or directories (of .imp files): each is checked in a process of "
                "its own, with a summary table and the worst exit code"),
    option("--format", choices=FORMATS, default=None, per_program=False,
           help="text (default), json (as --json), sarif (SARIF 2.1.0) or junit (JUnit XML: "
                "one test case per assertion)"),
    option("--jobs", type=int, default=os.cpu_count() or 1, metavar="N", per_program=False,
           help="programs checked at once (default: the machine's cores)"),
    option("--workers", type=int, default=1, metavar="K", per_program=False,  # each child one
           help="explore in K parts of the breadth-first frontier, each kept by one of K worker "
                "processes of a local Dask cluster (default: 1, this process alone); with "
                "several programs, each one a task"),
    option("--scheduler", default=None, metavar="ADDRESS", per_program=False,
           help="the same on the workers of this Dask scheduler"),
)
"""`symcert run`'s options."""

EXEC = (
    *PROGRAM,
    option("--input", action="append", default=[], metavar="VAR=INT",
           help="an input value, INT as -?[0-9]+; an array's cell as a[3]=7; a reference as "
                "p=nil or p=@1 (input object 1), its field as @1.next=@2 or @1.val=7; repeat "
                "for several inputs; unset inputs are 0 / nil"),
    option("--max-steps", type=positive, default=DEFAULT_MAX_STEPS, metavar="N",
           help=f"step budget (default: {DEFAULT_MAX_STEPS:,})"),
    option("--trace", action="store_true", help="show the run step by step"),
    option("--accelerate", action=argparse.BooleanOptionalAction, default=True,
           help="checked jumps over loop iterations (T-A1) as run's replay (default)"),
    option("--contracts", action="store_true", help="check the lemma contracts"),
    VERBOSE,
    option("--json", action="store_true", help="write the run as a JSON event"),
    option("--schedule", type=_schedule, default=(), metavar="0,0,1,...",
           help="with threads: the thread of each step, then the lowest that can step"),
)
"""`symcert exec`'s options."""


def add(parser: argparse.ArgumentParser, options: Iterable[Option]) -> None:
    """Give `parser` the `options`."""
    for o in options:
        parser.add_argument(*o.flags, **o.settings)


def defaults(options: Iterable[Option]) -> argparse.Namespace:
    """The arguments of a command line that gives none of the `options`."""
    return argparse.Namespace(**{o.dest: o.default for o in options})


def argv(options: Sequence[Option], args: argparse.Namespace) -> list[str]:
    """The words that give a child process the per-program `options` with `args`'s values."""
    return [w for o in options if o.per_program for w in o.words(getattr(args, o.dest))]
