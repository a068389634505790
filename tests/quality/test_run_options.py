"""Every option of `symcert run`, read from its argparse parser, reaches the process that checks
each program of `symcert run DIR` (a list kept by hand once dropped `--trace`,
`--no-summaries`, `--por`, `--merge` and `--no-shrink` there). For each per-program option the events of
`run DIR --format json` equal those of `run FILE --json` with the option, and, where the option
has an effect, that effect shows in both and not in the run without it. Each is a real
`symcert` process, as a user types it."""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import pytest

from symcert.cli.commands.options import RUN
from symcert.cli.main import _parser

Events = tuple[dict[str, Any], ...]

BUG = "x = 1;\nassert x == 2\n"
SQUARE = "assert x * x != 144\n"
LOOP = "assume n >= 0; i = 0; while i < n do i = i + 1 od; assert i == n\n"
TWO_BUGS = "if x > 0 then assert x > 5 else skip fi;\nassert x != -3\n"
ALIAS = "a[i] = 1; a[j] = 2; assert a[i] + a[j] >= 3\n"
THREADS = """\
proc p() begin a = 1; b = 2; return 1 end
proc r() begin c = 1; d = 2; return 2 end
f = spawn p();
g = spawn r();
u = get f;
w = get g;
assert u + w == 3
"""
CONTRACT = """\
proc tri(k) requires k >= 0 ensures result >= 0 begin
  if k == 0 then r = 0 else r = tri(k - 1); r = r + k fi;
  return r
end
assume n >= 0; assume n <= 30;
x = tri(n); assert x >= 0
"""
IFS = "s = 0;\n" + "".join(f"if {v} > 0 then s = s + 1 else skip fi;\n" for v in "abcd") + \
    "assert s <= 4\n"
RECURSION = """\
proc down(k) begin if k <= 0 then r = 0 else r = down(k - 1) fi; return r end
assume n >= 0; assume n <= 8;
x = down(n); assert x == 0
"""


def done(events: Events) -> dict[str, Any]:
    return next(e for e in events if e["event"] == "done")


def states(events: Events) -> int:
    return done(events)["states"]


def kinds(events: Events) -> list[str]:
    return [e["event"] for e in events]


@dataclass(frozen=True)
class Case:
    """How an option is tried: the program, the words that give it, what shows it took effect
    (None: nothing a JSON event shows), the options given with and without it, the fields
    that vary from run to run, and whether the run without it is compared."""

    program: str
    words: tuple[str, ...]
    shows: Callable[[Events, Events], bool] | None
    base: tuple[str, ...] = ()
    varying: tuple[str, ...] = ()
    contrast: bool = True


CASES = {
    "max_input_bytes": Case(BUG, ("--max-input-bytes", "5"),
                            lambda e, _: kinds(e) == ["error"]),
    "max_program_size": Case(BUG, ("--max-program-size", "3"),
                             lambda e, _: kinds(e) == ["error"]),
    # a C program's data model: an IMP program reads the same under either
    "data_model": Case(BUG, ("--data-model", "ILP32"), None),
    # a time budget: where it ran out varies, so what the run had done by then does too; and
    # the run without it would not end soon (no contrast)
    "timeout": Case(LOOP, ("--timeout", "1"), lambda e, _: "--timeout" in done(e)["reason"],
                    base=("--no-infer",), varying=("states", "solver_queries", "bounded", "tried"),
                    contrast=False),
    "alias": Case(ALIAS, ("--alias", "split"), lambda e, b: states(e) > states(b)),
    "por": Case(THREADS, ("--por", "off"), lambda e, b: states(e) > states(b)),
    "summaries": Case(CONTRACT, ("--no-summaries",),
                      lambda e, b: done(e)["summaries"] == [] and done(b)["summaries"] != []),
    "merge": Case(IFS, ("--merge",), lambda e, b: states(e) < states(b)),
    "strategy": Case(BUG, ("--strategy", "dfs"), lambda e, _: done(e)["strategy"] == "dfs"),
    "max_states": Case(LOOP, ("--max-states", "50"), lambda e, _: states(e) == 50,
                       base=("--no-infer", "--max-states", "300")),
    "all_bugs": Case(TWO_BUGS, ("--all-bugs",), lambda e, _: kinds(e).count("bug") == 2),
    "max_call_depth": Case(RECURSION, ("--max-call-depth", "3"),
                           lambda e, _: done(e)["cause"] == "call depth"),
    "infer": Case(LOOP, ("--no-infer",), lambda e, b: done(e)["verdict"] == "undecided"
                  and done(b)["verdict"] == "safe", base=("--max-states", "2500")),
    "contracts": Case(BUG, ("--contracts",), lambda e, _: "contracts" in kinds(e)),
    "verbose": Case(BUG, ("--verbose",), None, base=("--contracts",)),  # text output only
    "trace": Case(BUG, ("--trace",), lambda e, _: [s["statement"] for s in e[0].get("trace", ())]
                  == ["x = 1", "assert x == 2"]),
    "shrink": Case(SQUARE, ("--no-shrink",), lambda e, b: done(e)["solver_queries"]
                   < done(b)["solver_queries"]),
}
"""One case per option that `run DIR` gives each program's process (`per_program`)."""


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SYMCERT_")}
    return {**env, "SYMCERT_PROGRESS_SECONDS": "0"}


@functools.cache
def run(directory: Path, program: str, words: tuple[str, ...], batch: bool) -> tuple[int, Events]:
    """`symcert run` on `program` (written into `directory`) with `words`, as one file
    (`--json`) or as the folder it is in (`--format json`): its exit code and events, each
    without its times and file."""
    folder = directory / f"p{abs(hash(program))}"
    folder.mkdir(exist_ok=True)
    path = folder / "p.imp"
    path.write_text(program)
    target = [str(folder), "--format", "json"] if batch else [str(path), "--json"]
    done = subprocess.run([sys.executable, "-m", "symcert", "run", *target, *words],
                          capture_output=True, text=True, env=_env(), timeout=120)
    assert "Traceback" not in done.stderr, done.stderr
    events = tuple({k: v for k, v in json.loads(line).items()
                    if k not in ("seconds", "solver_seconds", "file")}
                   for line in done.stdout.splitlines())
    return done.returncode, events


@pytest.fixture(scope="module")
def directory(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("options")


def test_every_option_of_run_is_described_once_and_tried_here():
    """The parser of `run` is built from cli/commands/options.py's RUN alone, and every option
    of it that reaches each program's process has a case here."""
    _, commands = _parser("run")
    parsed = {a.dest for a in commands["run"]._actions if a.dest != "help"}
    assert parsed == {o.dest for o in RUN}
    assert {o.dest for o in RUN if o.per_program} == set(CASES)
    assert {o.dest for o in RUN if not o.per_program} == {
        "file", "more", "json", "format", "jobs", "workers", "scheduler", "witness", "witness_dot",
        "lang"}


@pytest.mark.parametrize("dest", sorted(CASES))
def test_the_option_reaches_the_child_of_run_dir(dest, directory):
    case = CASES[dest]

    def seen(batch: bool, words: tuple[str, ...]) -> tuple[int, Events]:
        code, events = run(directory, case.program, words, batch)
        return code, tuple({k: v for k, v in e.items() if k not in case.varying}
                           for e in events)

    with_it = case.base + case.words
    single, folder = seen(False, with_it), seen(True, with_it)
    assert folder == single
    if case.shows is not None:
        base = run(directory, case.program, case.base, False)[1] if case.contrast else ()
        assert case.shows(single[1], base), single
        assert not case.contrast or not case.shows(base, base), base  # the option did it
