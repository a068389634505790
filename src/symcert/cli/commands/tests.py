"""`symcert tests FILE`: one concrete test per explored path (`engine.testgen`), written as JSON
or as a runnable pytest file, with the statement and branch coverage their concrete runs reach.
With threads, a test is an input and a schedule (the thread of each step), which the JSON
carries as `schedule` and the pytest file replays (`symcert exec --schedule` too).

An integer is written exactly: as a number up to 1,000 digits, beyond as a hexadecimal string
`"0x…"` in JSON and a hexadecimal literal in Python (Python converts decimal text of more than
4,300 digits only on request, and in quadratic time).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from symcert.cli.commands.budget import BudgetExceeded, positive
from symcert.cli.commands.programs import add_program, read_source, source_name
from symcert.cli.commands.values import MAX_SHOWN_DIGITS, digits
from symcert.lang.errors import EXIT_UNDECIDED, plural

if TYPE_CHECKING:
    from symcert.core.concrete import Env
    from symcert.engine.testgen import Suite, Test
    from symcert.lang.syntax import Pos

HELP = "generate one replayed concrete test per explored path, with its coverage"
DEFAULT_MAX_STATES = 100_000


def configure(parser: argparse.ArgumentParser) -> None:
    add_program(parser, alias=True, merge=False)
    parser.add_argument("--max-states", type=positive, default=DEFAULT_MAX_STATES, metavar="N",
                        help=f"state budget (default: {DEFAULT_MAX_STATES:,})")
    parser.add_argument("--format", choices=("json", "pytest"), default="json",
                        help="json (default) or pytest: a test file that replays each input "
                             "on symcert's concrete interpreter")
    parser.add_argument("--json", action="store_true",
                        help="the JSON document (--format json); an error as a JSON event")
    parser.add_argument("--xfail", action="store_true",
                        help="with --format pytest: mark the tests of bug paths as expected "
                             "failures (strict), with the bug as the reason; by default they "
                             "fail")
    parser.add_argument("--out", type=Path, metavar="DIR",
                        help="write NAME.tests.json or test_NAME.py into DIR (made if need be) "
                             "instead of standard output")


def main(args: argparse.Namespace) -> int:
    from symcert.cli.commands.events import SCHEMA_VERSION
    from symcert.core.threads import is_threaded
    from symcert.engine.testgen import generate_tests

    name = source_name(args.file)
    args.format = "json" if args.json else args.format
    source, program = read_source(args)
    args.budget.enter("exploring and replaying")
    try:
        suite = generate_tests(program, args.max_states)
    except BudgetExceeded:
        print(f"{name}: undecided: {args.budget.reason()}; no tests written (a smaller "
              f"--max-states ends exploration with the tests found so far)", file=sys.stderr)
        return EXIT_UNDECIDED
    args.budget.enter("writing the tests")
    refs = _objects(program)
    threads = is_threaded(program)
    document = (_pytest_file(name, source, suite, refs, args.xfail, threads)
                if args.format == "pytest"
                else json.dumps({"schema": SCHEMA_VERSION, **_json(name, suite, refs, threads)},
                                indent=1) + "\n")
    summary = sys.stderr
    if args.out is None:
        sys.stdout.write(document)
    else:
        stem = re.sub(r"\W", "_", Path(name).stem) or "program"
        target = args.out / (f"test_{stem}.py" if args.format == "pytest"
                             else f"{stem}.tests.json")
        args.out.mkdir(parents=True, exist_ok=True)
        target.write_text(document, encoding="utf-8")
        summary = sys.stdout
    _summarise(name, suite, args.max_states, summary, threads)
    if args.out is not None:
        print(f"  written to {target}", file=summary)
    return 0


def _summarise(name: str, suite: Suite, max_states: int, out: Any, threads: bool = False) -> None:
    cov = suite.coverage
    how = ("an exhaustive exploration" if suite.exhaustive else
           f"an exploration cut by the state budget (--max-states {max_states:,}): the tests "
           "cover the paths explored so far")
    print(f"{name}: {plural(len(suite.tests), 'test')}, one per leaf of {how} "
          f"({suite.states:,} symbolic states)", file=out)
    print(f"  coverage by concrete replay: statements {_ratio(cov.statements, cov.all_statements)}"
          f", branches {_ratio(cov.branches, cov.all_branches)}", file=out)
    for pos, taken in sorted(cov.all_branches - cov.branches,
                             key=lambda d: (d[0].line, d[0].column, d[1])):
        what = ("unreachable (proved)" if (pos, taken) in suite.unreachable
                else "never taken")
        print(f"  {what}: the {'true' if taken else 'false'} branch at "
              f"{name}:{pos.line}:{pos.column}", file=out)
    failing = sorted({(t.final.where.line, t.final.where.column) for t in suite.tests
                      if t.final.where is not None})
    if failing:
        spots = ", ".join(f"{line}:{column}" for line, column in failing)
        ending = sum(t.final.where is not None for t in suite.tests)
        print(f"  {plural(ending, 'test ends', 'tests end')} at a failing statement ({spots}): "
              "bugs", file=out)
    if threads:
        print(f"  each test is an input and a schedule, replayed: `symcert exec {name} --input "
              "... --schedule ...` runs one again", file=out)
    if suite.unknown_leaves:
        print(f"  {suite.unknown_leaves:,} leaves without a test: the solver answered UNKNOWN",
              file=out)


def _ratio(part: frozenset[Any], whole: frozenset[Any]) -> str:
    from symcert.engine.testgen import Coverage

    return f"{len(part)}/{len(whole)} ({Coverage.percent(part, whole):.1f} %)"


def _exact(n: int) -> int | str:
    """An integer for JSON: a number up to 1,000 digits, a hexadecimal string beyond."""
    return n if digits(n) <= MAX_SHOWN_DIGITS else hex(n)


def _literal(n: int) -> str:
    """An integer as Python source: decimal up to 1,000 digits, hexadecimal beyond."""
    return str(n) if digits(n) <= MAX_SHOWN_DIGITS else hex(n)


def _where(pos: Pos | None) -> dict[str, int] | None:
    return None if pos is None else {"line": pos.line, "column": pos.column}


def _env(env: Env) -> dict[str, int | str]:
    from symcert.core.threads import program_globals

    return {x: _exact(v) for x, v in program_globals(env).labelled()}  # `a[3]`: a cell


def _objects(program: Any) -> frozenset[str] | None:
    """The program's references and fields' maps, or None for a program without objects."""
    from symcert.lang.procedures import references
    from symcert.lang.structure import inputs
    from symcert.lang.syntax import is_field

    refs = references(program)
    return refs if refs or any(map(is_field, inputs(program))) else None


def _heap(env: Env, refs: frozenset[str]) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """An input with objects (seed 003 §4): the variables (references as `nil`, `@k`) and the
    input objects with their fields."""
    from symcert.core import heap

    values, objects = heap.graph(env, [k for k, _ in env.bindings], refs)
    shown = {x: v if isinstance(v, str) else _exact(v) for x, v in values.items()}
    return shown, {o: {f: v if isinstance(v, str) else _exact(v) for f, v in row.items()}
                   for o, row in objects.items()}


def _items(env: Env, refs: frozenset[str]) -> list[str]:
    """An input with objects as the items of `symcert exec --input` (`p=@1`, `@1.next=nil`)."""
    values, objects = _heap(env, refs)
    return ([f"{x}={v}" for x, v in values.items()]
            + [f"{o}.{f}={v}" for o, row in objects.items() for f, v in row.items()])


def _json(name: str, suite: Suite, refs: frozenset[str] | None = None,
          threads: bool = False) -> dict[str, Any]:
    cov = suite.coverage

    def counts(part: frozenset[Any], whole: frozenset[Any]) -> dict[str, int]:
        return {"reached": len(part), "total": len(whole)}

    def test(t: Test) -> dict[str, Any]:
        given: dict[str, Any] = {"input": _env(t.input)}
        if refs is not None:
            values, objects = _heap(t.input, refs)
            given = {"input": values, "heap": objects}
        return {**given, "ending": t.final.ending.value, "bug": t.failure,
                "final": _env(t.final.env), "failing_at": _where(t.final.where),
                "steps": t.steps,
                "path": [{**(_where(pos) or {}), "taken": taken} for pos, taken in t.path],
                **({"schedule": list(t.schedule)} if threads else {})}

    return {"program": name, "exhaustive": suite.exhaustive, "states": suite.states,
            "unknown_leaves": suite.unknown_leaves,
            "coverage": {"statements": counts(cov.statements, cov.all_statements),
                         "branches": counts(cov.branches, cov.all_branches)},
            "unreachable_branches": [{**(_where(pos) or {}), "taken": taken} for pos, taken in
                                     sorted(suite.unreachable,
                                            key=lambda d: (d[0].line, d[0].column, d[1]))],
            "tests": [test(t) for t in suite.tests]}


PYTEST = '''"""Tests of {name}, generated by `symcert tests` (symcert {version}): {about}"""

import pytest

from symcert.cli.commands.inputs import input_env, input_values
{imports}
from symcert.lang.parser import parse

SOURCE = {source!r}

NAME = {name!r}

PROGRAM = parse(SOURCE, NAME)

# (input, {schedule}ending, final variables, failing statement (line, column) or None, steps);
# an input with objects is written as the items of `symcert exec --input`
CASES = [
{cases}]


def start(inputs):
    """The input environment of a case."""
    return input_env(input_values(inputs), PROGRAM) if isinstance(inputs, list) else Env.of(inputs)

{test}'''

SEQUENTIAL = ("""one input per
explored path ({how}). Each test runs symcert's concrete interpreter (seed 000, Fig. 2) from
its input and checks that the run ends as it did when the test was generated; a run that
ends at a failing statement is a bug, and its test fails{xfail}.""",
              "from symcert.core.concrete import Cells, Env, State, final_of, head, run_concrete",
              '''
@pytest.mark.parametrize("inputs, ending, final, failing_at, steps", CASES)
def test_path(inputs, ending, final, failing_at, steps):
    last = run_concrete(State(start(inputs), PROGRAM), steps + 1)
    end = final_of(last)
    where = None if end.where is None else (end.where.line, end.where.column)
    assert (end.ending.value, end.env.as_dict(), where, last.steps) == (
        ending, final, failing_at, steps)
    assert end.ending.value != "fail", (
        f"{NAME}:{where[0]}:{where[1]}: bug: {head(last.prog).what()}")
''')

THREADS = ("""one input and
schedule per explored path ({how}). Each test runs symcert's concrete configurations of
threads (seed 003 §5) from its input under its schedule, the thread of each step (as `symcert
exec --schedule` does), and checks that the run ends as it did when the test was generated; a
run that ends at a failing statement or a deadlock is a bug, and its test fails{xfail}.""",
           "from symcert.core.concrete import Cells, Env\n"
           "from symcert.core.threads import (\n"
           "    deadlocked, initial_config, program_globals, run_schedule, stuck_at,\n)",
           '''
@pytest.mark.parametrize("inputs, schedule, ending, final, failing_at, steps", CASES)
def test_schedule(inputs, schedule, ending, final, failing_at, steps):
    *_, (_, last) = run_schedule(initial_config(start(inputs), PROGRAM), schedule, len(schedule))
    failing = stuck_at(last.threads) or deadlocked(last)
    where = None if failing is None else (failing.pos.line, failing.pos.column)
    end = ("fail" if failing is not None else
           "normal" if all(t.finished for t in last.threads) else "unfinished")
    assert (end, program_globals(last.env).as_dict(), where, last.steps) == (
        ending, final, failing_at, steps)
    assert failing is None, f"{NAME}:{where[0]}:{where[1]}: bug: {failing.what()}"
''')
"""What the pytest file says it runs, its imports and its test: without threads, and with
threads (a deadlock is a failure too)."""


def _pytest_file(name: str, source: str, suite: Suite, refs: frozenset[str] | None = None,
                 xfail: bool = False, threads: bool = False) -> str:
    from symcert import __version__
    from symcert.core.concrete import Cells

    def value(v: Any) -> str:
        if isinstance(v, Cells):  # an array: its cells, every other 0 (seed 003 §5)
            cells = ", ".join(f"{_literal(i)}: {_literal(c)}" for i, c in v.cells)
            return f"Cells.of({{{cells}}})"
        return _literal(v)

    def env(e: Env) -> str:
        from symcert.core.threads import program_globals

        return "{" + ", ".join(f"{x!r}: {value(v)}" for x, v in program_globals(e).bindings) + "}"

    def case(t: Test) -> str:
        where = t.final.where
        failing = "None" if where is None else f"({where.line}, {where.column})"
        given = env(t.input) if refs is None else repr(_items(t.input, refs))
        schedule = f"{t.schedule!r}, " if threads else ""
        row = (f"{given}, {schedule}{t.final.ending.value!r}, {env(t.final.env)}, {failing}, "
               f"{t.steps}")
        if xfail and t.failure is not None and where is not None:
            reason = f"bug: {t.failure} at {where.line}:{where.column}"
            return (f"    pytest.param({row},\n                 marks=pytest.mark.xfail("
                    f"reason={reason!r}, strict=True)),\n")
        return f"    ({row}),\n"

    how = "exhaustive" if suite.exhaustive else "cut by the state budget"
    about, imports, test = THREADS if threads else SEQUENTIAL
    marked = " (marked xfail, strict, by `--xfail`)" if xfail else ""
    return PYTEST.format(name=name, version=__version__, source=source,
                         about=about.format(how=how, xfail=marked),
                         cases="".join(case(t) for t in suite.tests), imports=imports,
                         test=test, schedule="schedule, " if threads else "")
