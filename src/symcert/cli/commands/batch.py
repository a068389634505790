"""`symcert run DIR|FILE...` with several programs, or with `--format sarif|junit`: each
program checked by `symcert run FILE --json` in a process of its own, as many at once as
`--jobs` (default: the machine's cores), then one report over all of them.

A directory stands for the `.imp` files under it (recursively, in sorted order). The report is
a summary table (`--format text`), the events of every program (`json`), a SARIF 2.1.0 log
(`sarif`) or JUnit XML (`junit`), written by `cli.commands.reports` from the JSON events
(docs/schema/events.json). With several programs `--timeout` is each program's budget. The exit
code is the worst of the programs' (WORST_FIRST)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import TYPE_CHECKING, Iterator

from symcert.cli.commands.options import RUN, argv
from symcert.cli.commands.programs import STDIN_NAME, source_name

if TYPE_CHECKING:  # reports is imported when there is something to report (start-up time)
    from symcert.cli.commands.reports import Outcome

WORST_FIRST = (70, 65, 1, 3, 0)
"""Exit codes from the worst: an internal error, bad input, a bug, undecided, safe (another
code, such as a killed process's, counts as an internal error)."""


def is_batch(args: argparse.Namespace) -> bool:
    """Whether `run` checks several programs or writes SARIF or JUnit."""
    if getattr(args, "command", None) != "run" or getattr(args, "lang", None) is not None:
        return False
    return bool(args.more) or args.format in ("sarif", "junit") or os.path.isdir(args.file)


def programs(paths: list[str]) -> list[str]:
    """The programs named by `paths`: a file as it is, a directory's `.imp` files."""
    from pathlib import Path

    found: list[str] = []
    for p in paths:
        found += sorted(map(str, Path(p).rglob("*.imp"))) if os.path.isdir(p) else [p]
    return found


def child_argv(args: argparse.Namespace, file: str) -> list[str]:
    """The command that checks `file` alone, with every per-program option of this run
    (cli/commands/options.py)."""
    return [sys.executable, "-m", "symcert", "run", file, "--json", *argv(RUN, args)]


def check(args: argparse.Namespace, file: str) -> Outcome:
    """Run the check of `file` in a child process and read its events."""
    import subprocess  # here: `run` on one program does not need it (start-up time)

    given = {"input": sys.stdin.buffer.read()} if file == "-" else {"stdin": subprocess.DEVNULL}
    done = subprocess.run(child_argv(args, file), capture_output=True, env=quiet(), **given)
    return outcome(source_name(file), done.returncode, done.stdout, done.stderr)


def quiet() -> dict[str, str]:
    """The children's environment: no progress display (this process reports progress)."""
    return {**os.environ, "SYMCERT_PROGRESS_SECONDS": "0"}


def outcome(file: str, code: int, stdout: bytes, stderr: bytes) -> Outcome:
    """The outcome of a child that checked `file`, from its exit code and output."""
    from symcert.cli.commands.reports import Outcome

    events = []
    for line in stdout.decode("utf-8", errors="replace").splitlines():
        try:
            events.append(json.loads(line))
        except json.JSONDecodeError:
            pass  # not an event: the child failed; its stderr says how
    return Outcome(file, code, tuple(events), stderr.decode("utf-8", errors="replace"))


def named(checked: Outcome, name: str) -> Outcome:
    """The outcome of a program read from standard input, as if it had been read from `name`:
    its events' and messages' file."""
    from symcert.cli.commands.reports import Outcome

    events = tuple({**e, "file": name} if e.get("file") == STDIN_NAME else e
                   for e in checked.events)
    stderr = "".join(name + line[len(STDIN_NAME):] if line.startswith(STDIN_NAME + ":")
                     else line for line in checked.stderr.splitlines(keepends=True))
    return Outcome(name, checked.exit_code, events, stderr)


def run_all(args: argparse.Namespace, files: list[str]) -> Iterator[Outcome]:
    """The outcomes of `files`, in their order, checked `args.jobs` at a time, or as tasks
    on Dask with `--workers K` (K > 1) or `--scheduler` (cli/commands/batch_dask.py)."""
    from concurrent.futures import ThreadPoolExecutor

    if getattr(args, "workers", 1) > 1 or getattr(args, "scheduler", None) is not None:
        from symcert.cli.commands.batch_dask import run_all as on_dask
        for file, done in zip(files, on_dask(args, files, child_argv(args, "-"), quiet())):
            yield check(args, file) if done is None else named(outcome(STDIN_NAME, *done),
                                                                source_name(file))
        return

    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        yield from pool.map(lambda f: check(args, f), files)


def worst(codes: list[int]) -> int:
    """The worst exit code of `codes` (WORST_FIRST); 0 for none."""
    rank = {code: i for i, code in enumerate(WORST_FIRST)}
    return min(codes, key=lambda c: rank.get(c, -1), default=0)


def run_many(args: argparse.Namespace) -> int:
    """`symcert run` over several programs: check each, report, return the worst exit code."""
    from symcert.cli.commands import reports

    if args.witness_dot is not None:
        from symcert.lang.errors import InputError
        raise InputError("symcert run: --witness-dot takes one program")
    files = programs([args.file, *args.more])
    form = args.format or ("json" if args.json else "text")
    outcomes = []
    args.budget.enter(f"checking {len(files):,} programs")
    for outcome in run_all(args, files):
        outcomes.append(outcome)
        args.budget.enter(f"checking {len(files):,} programs, {len(outcomes):,} done")
        if form == "text":
            sys.stdout.write(reports.text_lines(outcome))
            sys.stdout.flush()
        elif form == "json":
            for event in outcome.events:
                print(json.dumps({**event, "file": event.get("file", outcome.file)}), flush=True)
    code = worst([o.exit_code for o in outcomes])
    if form == "sarif":
        json.dump(reports.sarif(outcomes, code), sys.stdout, indent=1)
        sys.stdout.write("\n")
    elif form == "junit":
        sys.stdout.write(reports.junit(outcomes))
    elif form == "text":
        sys.stdout.write(reports.table(outcomes, code))
    return code
