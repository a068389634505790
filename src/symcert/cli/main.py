"""The `symcert` command: `run` (find bugs or prove safety) and `exec` (a concrete run).

It parses arguments and formats results; the verdict policy is the library's (`symcert.check`,
`verdict.py`), and `exec` is the concrete interpreter's `trace` (Fig. 2).

Exit codes: 0 exhaustive and no bug (or a normal concrete run), 1 bug found, 2 usage error,
3 undecided within the budget (states, steps, time or memory), 65 bad input, 70 internal error
(an engine bug: a contract violation or a replay that disagrees with a reported bug).

The engine is imported only after the arguments are read, because `--contracts` must set
SYMCERT_CONTRACTS before the contracted modules are imported. The work runs in a thread with a
large stack, so deeply nested (but accepted) programs cannot overflow the C stack, and the main
thread holds it to `--timeout` (`symcert.cli.commands.budget`).

A command runs with Python's cyclic garbage collector off: the engine's data (frozen terms, states,
tuples) hold no reference cycles, so reference counting frees them, while each full collection
would walk the whole frontier (on 300,000 states of the million-state program it took half of the
run; same peak memory without it: docs/bench.md, "Garbage collection").
"""

from __future__ import annotations

import argparse
import gc
import importlib
import io
import os
import sys
import time
from typing import Any, Sequence

from symcert.cli.commands import batch, contracts, options
from symcert.cli.commands.budget import EXIT_INTERNAL, BudgetExceeded, Deadline
from symcert.cli.commands.options import DEFAULT_MAX_STATES, DERIVED_STATES
from symcert.cli.commands.progress import count, heartbeat
from symcert.cli.commands.programs import (
    c_failure, read_program, source_name, wants_c, with_alias,
)
from symcert.cli.commands.values import json_int, show_int
from symcert.lang.errors import EXIT_UNDECIDED, plural  # errors.py has no contracts: safe to import early

EXIT_PIPE = 141  # as a process killed by SIGPIPE: the output pipe was closed early

# Further subcommands, each in a module of `symcert.cli.commands` that defines HELP, `configure(parser)`
# and `main(args) -> int`. Such a module imports the engine inside `main` only (see below).
COMMANDS: dict[str, str] = {
    "tree": "symcert.cli.commands.tree",
    "lemmas": "symcert.cli.commands.lemmas",
    "oracle": "symcert.cli.commands.oracle",
    "prove": "symcert.cli.commands.prove",
    "check-certificate": "symcert.cli.commands.check_certificate",
    "tests": "symcert.cli.commands.tests",
    "campaign": "symcert.cli.commands.campaign",
    "derive": "symcert.cli.commands.derive",
    "lsp": "symcert.cli.commands.lsp",
}


def _parser(only: str | None = None
            ) -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    """The top-level parser and the parser of each subcommand; with `only`, of that subcommand
    alone (the others' modules are not imported: start-up time)."""
    from symcert import __version__

    ap = argparse.ArgumentParser(
        prog="symcert",
        description="A symbolic-execution bug finder for IMP whose claims are checked.",
        epilog="exit codes: 0 no bug (exhaustive), 1 bug found, 2 usage error, "
               "3 undecided within the budget, 65 bad input, 70 internal error",
    )
    ap.add_argument("--version", action="version", version=f"symcert {__version__}")
    sub = ap.add_subparsers(dest="command", required=True, metavar="COMMAND")

    if only in (None, "run"):
        options.add(sub.add_parser("run", help="find a bug and the input that triggers it, "
                                               "or prove safety"), options.RUN)
    if only in (None, "exec"):
        options.add(sub.add_parser("exec", help="run a program concretely on given inputs"),
                    options.EXEC)
    for name, module in COMMANDS.items():
        if only in (None, name):
            command = importlib.import_module(module)
            c = sub.add_parser(name, help=command.HELP, description=command.__doc__)
            command.configure(c)
    return ap, sub.choices


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """The arguments; a usage error exits 2 with the usage of the command it belongs to. When
    the first word names a command, only that command's parser is built and only its module
    imported (start-up time); otherwise (`-h`, `--version`, a mistake) all of them."""
    words = list(sys.argv[1:] if argv is None else argv)
    first = words[0] if words else None
    known = first in COMMANDS or first in ("run", "exec")
    ap, commands = _parser(first if known else None)
    args, extra = ap.parse_known_args(argv)
    if extra:
        commands[args.command].error(f"unrecognized arguments: {' '.join(extra)}")
    return args


def main(argv: Sequence[str] | None = None, *, process: bool = False) -> int:
    """Run the command line; return the exit code. `process`: the command owns the process
    (the console script), which ends at once should the budget leave its worker stuck."""
    args = parse_args(argv)
    each = batch.is_batch(args)  # then --timeout is each program's, in its own process
    checked = None
    if getattr(args, "contracts", False):
        os.environ["SYMCERT_CONTRACTS"] = "1"
        checked = None if each else contracts.count()
    args.budget = Deadline(None if each else getattr(args, "timeout", None), process)
    collecting = gc.isenabled()
    gc.disable()  # see below
    stop_progress = heartbeat(args.command, args.budget, process)  # lines in a pipe or a log
    try:
        code = args.budget.run(lambda: with_alias(args, _dispatch))
        if checked is not None:  # what the contracts checked
            contracts.report(checked, args)
        return code
    finally:
        stop_progress()
        contracts.stop()
        if collecting:
            gc.enable()


def _dispatch(args: argparse.Namespace) -> int:
    from symcert.lang.errors import SymcertError

    budget: Deadline = args.budget
    try:
        if args.command == "run":
            return _run(args)
        if args.command == "exec":
            return _exec(args)
        return int(importlib.import_module(COMMANDS[args.command]).main(args))
    except SymcertError as err:
        print(err, file=sys.stderr)
        if getattr(args, "json", False):  # and the event where the JSON is read
            from symcert.cli.commands.events import emit, error_fields
            emit("error", **error_fields(err))
        return err.exit_code
    except BudgetExceeded:
        print(f"symcert {args.command}: undecided: {budget.reason()}", file=sys.stderr)
        return EXIT_UNDECIDED
    except MemoryError:
        print(f"symcert {args.command}: undecided: {budget.out_of_memory()}", file=sys.stderr)
        return EXIT_UNDECIDED
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_PIPE
    except OSError as err:
        where = source_name(args.file) if hasattr(args, "file") else err.filename
        print(f"{where}: cannot read: {err.strerror}", file=sys.stderr)
        return 65
    except Exception as err:  # an engine bug: say so loudly, with the evidence
        import traceback

        traceback.print_exc()
        print(f"symcert: internal error: {type(err).__name__}: {err}\n"
              "This is a bug in symcert, not in your program; please report it.",
              file=sys.stderr)
        return EXIT_INTERNAL


def _silence_stdout() -> None:
    """The reader of the output went away (`symcert oracle F | head -1`): point stdout at
    /dev/null, so that flushing it at exit does not fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, io.UnsupportedOperation):
        pass  # stdout is not a file descriptor (e.g. captured in a test): nothing to flush


class _Progress:
    """A one-line progress display on a terminal (stderr), refreshed a few times a second."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.start = time.perf_counter()
        self.last = self.start
        self.shown = False

    def update(self, states: int, frontier: int) -> None:
        count(states)
        now = time.perf_counter()
        if not self.enabled or now - self.last < 0.25:
            return
        self.last = now
        rate = states / max(now - self.start, 1e-9)
        sys.stderr.write(f"\r  explored {states:,} states, frontier {frontier:,}, "
                         f"{rate:,.0f} states/s ")
        sys.stderr.flush()
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()


class _Reporter:
    """The observer of `symcert run` (`verdict.Observer`): each phase of the check is a phase of
    the deadline, progress goes to the display, and a confirmed bug is printed at once."""

    def __init__(self, deadline: Deadline, progress: _Progress, name: str, as_json: bool,
                 references: frozenset[str] = frozenset(), dot: str | None = None,
                 trace: bool = False) -> None:
        self.deadline = deadline
        self.progress = progress
        self.name = name
        self.as_json = as_json
        self.references = references
        self.dot = dot
        self.trace = trace

    def phase(self, name: str) -> None:
        self.deadline.enter(name)

    def explored(self, states: int, frontier: int) -> None:
        self.progress.update(states, frontier)

    def confirmed(self, found: Any, states: int) -> None:
        self.progress.clear()
        sys.stdout.write(_bug_report(found, self.name, self.as_json, states, self.references,
                                     self.dot, self.trace))
        sys.stdout.flush()
        self.dot = None  # the first bug's heap only


def _run(args: argparse.Namespace) -> int:
    """`symcert run`: `verdict.check` within the deadline, and its verdict formatted."""
    if wants_c(args):
        return int(importlib.import_module("symcert.cli.commands.crun").main(args))
    if batch.is_batch(args):
        return batch.run_many(args)
    args.json = args.json or args.format == "json"
    if args.lang is not None:
        from symcert.cli.commands.langrun import run_lang

        if args.max_states is None:
            args.max_states = DEFAULT_MAX_STATES * DERIVED_STATES
        return run_lang(args)
    if args.max_states is None:
        args.max_states = DEFAULT_MAX_STATES
    from symcert.engine.bugfinder import ReplayMismatch
    from symcert.engine.explore import Strategy
    from symcert.cli.commands.verdicts import (
        bounded, print_done, shown_reason, stop_reason, tried_line, unchecked, used,
    )
    from symcert.engine.contracts import unreached
    from symcert.verify.inference import InferringCheck
    from symcert.engine.verdict import Budget, Check, Kind, Stats, Verdict
    from symcert.cli.commands.workers import explorer_for

    deadline: Deadline = args.budget
    name = source_name(args.file)
    start = deadline.started  # the whole command, as --timeout counts it
    budget = Budget(args.max_states, Strategy(args.strategy), args.all_bugs, args.max_call_depth,
                    args.shrink)
    progress = _Progress(sys.stderr.isatty() and not args.json)
    check: Check | InferringCheck | None = None
    try:
        program = read_program(args)
        explore = explorer_for(args)
        check = (InferringCheck(program, budget, start, explorer=explore, seconds=args.timeout)
                 if args.infer else Check(program, budget, start=start, explorer=explore))
        verdict = check.run(_Reporter(deadline, progress, name, args.json,
                                      check.solver.references, args.witness_dot, args.trace))
    except (BudgetExceeded, MemoryError) as stop:
        reason = stop_reason(stop, deadline)
        verdict = (check.stopped(reason) if check is not None else
                   Verdict(Kind.UNDECIDED, False, budget,
                           Stats(seconds=time.perf_counter() - start), reason=reason))
    except ReplayMismatch:
        progress.clear()
        raise
    deadline.enter("reporting")
    progress.clear()
    reason = shown_reason(verdict.reason, args.max_states)
    stats = verdict.stats
    inferred = check.inferred.lines() if isinstance(check, InferringCheck) and check.inferred else []
    if args.json:
        print_done(verdict.kind, verdict.exhaustive, reason, stats.states, budget.strategy.value,
                   stats.seconds, stats.solver_queries, stats.solver_seconds, verdict.bound,
                   inferred, verdict.summaries, verdict.tried)
        return verdict.exit_code
    order = "breadth-first" if budget.strategy is Strategy.BFS else "depth-first"
    summary = f"explored {stats.states:,} symbolic states ({order}) in {stats.seconds:.2f} s"
    if verdict.kind is Kind.BUG:
        if budget.all_bugs and verdict.exhaustive:
            summary += "; exploration was exhaustive"
        print(f"  {summary}")
    elif verdict.kind is Kind.SAFE:
        print(f"{name}: no bug: every assertion holds for all inputs")
        print(f"  exhaustive: {summary}{used(verdict.summaries)}{unchecked(unreached(program))}")
        for line in ([check.inferred.heading()] if isinstance(check, InferringCheck)
                     and check.inferred else []) + inferred:
            print(f"  {line}")
    else:
        print(f"{name}: undecided: {reason}")
        print(f"  no bug found so far; {summary}{bounded(verdict.bound)}"
              f"{tried_line(verdict.tried)}")
    return verdict.exit_code


def _bug_report(found: Any, name: str, as_json: bool, explored: int,
                references: frozenset[str] = frozenset(), dot: str | None = None,
                trace: bool = False) -> str:
    """The report of a confirmed bug, a JSON line or three lines of text (four with a heap),
    to be written at once (a deadline cannot cut it in the middle); with `dot`, the input heap
    is also written to that file as a Graphviz graph; with `trace`, the replay step by step."""
    from symcert.cli.commands import traces
    from symcert.cli.commands.events import bug_cause, event_line, imp_condition
    from symcert.cli.commands.threads import schedule_json, schedule_text
    from symcert.core import heap
    from symcert.lang.structure import reads
    from symcert.lang.syntax import is_field

    pc, names = found.bug.pc, found.inputs_shown()
    cells: list[tuple[str, Any]] = found.input.labelled(names, {a for a, _ in reads(pc.conjuncts())})
    objects: dict[str, dict[str, Any]] = {}
    if references or any(map(is_field, names)):  # seed 003 §4: the input heap as a graph
        values, objects = heap.graph(found.input, names, references)
        cells = list(values.items())
        if dot is not None:
            with open(dot, "w", encoding="utf-8") as out:
                out.write(heap.dot(values, objects))
    pos = found.failing.pos
    line, column = (pos.line, pos.column) if pos else (0, 0)
    told = traces.Told.of(found, references, trace)
    if as_json:
        return event_line("bug", {"file": name, "line": line, "column": column,
                           "message": found.describe(), "cause": bug_cause(found.failing),
                           "input": {x: v if isinstance(v, str) else json_int(v)
                                     for x, v in cells},
                           **({"heap": {o: {f: v if isinstance(v, str) else json_int(v)
                                            for f, v in row.items()}
                                        for o, row in objects.items()}} if objects else {}),
                           "replay_steps": found.final.steps, **found.fails_at(),
                           "path_condition": None if found.found_by else imp_condition(pc, references), **told.json(), **schedule_json(found),
                           "states": explored})
    shown = ", ".join(f"{x} = {v if isinstance(v, str) else show_int(v)}" for x, v in cells)
    graph = f"  heap:   {heap.show({}, objects)[1]}\n" if objects else ""
    if found.refuted():  # X-Q1: the quantifier's failing value, evaluated concretely
        graph += f"  fails at: {found.refuted()} (its first such value, evaluated concretely)\n"
    return (f"{name}:{line}:{column}: bug: {found.describe()}{told.note()}\n"
            f"  input:  {shown or 'any (the bug does not depend on the input)'}\n{graph}"
            f"  replay: concrete run from this input reaches the failing statement after "
            f"{plural(found.final.steps, 'step')}{told.jumps()}\n{schedule_text(found)}"
            + told.text(name))


def _exec(args: argparse.Namespace) -> int:
    from symcert.cli.commands import traces
    from symcert.cli.commands.execjson import concrete_run
    from symcert.cli.commands.inputs import input_env, input_values
    from symcert.cli.commands.threads import exec_threads
    from symcert.core.threads import is_threaded
    from symcert.core.concrete import State, head, is_stuck
    from symcert.core.replays import ended
    from symcert.lang.procedures import references
    from symcert.lang.structure import inputs
    from symcert.lang.syntax import Assume, Fail, Skip, is_field

    if args.json:
        from symcert.cli.commands.execjson import exec_json
        return exec_json(args)
    budget: Deadline = args.budget
    name = source_name(args.file)
    values = input_values(args.input)
    state, refs, jumped = None, frozenset(), 0
    try:
        program = read_program(args)
        read, refs = inputs(program), references(program)
        env = input_env(values, program)
        for var in sorted(values.keys() - read):
            print(f"symcert exec: warning: the program has no input {var} (its inputs: "
                  f"{', '.join(sorted(read)) or 'none'}); --input {var} has no effect",
                  file=sys.stderr)
        unset = sorted(x for x in read - values.keys() if not is_field(x))
        by_kind = [(d, [x for x in unset if (x in refs) == (d == "nil")]) for d in ("0", "nil")]
        if unset:  # integers to 0, references (seed 003 §4) to nil
            print("note: inputs not given default to "
                  + "; to ".join(f"{d}: {', '.join(xs)}" for d, xs in by_kind if xs))
        if any(map(is_field, read)) and any("@" in i.partition("=")[2] for i in args.input):
            print("note: fields of input objects not given are 0 / nil")  # objects given
        if is_threaded(program):
            return exec_threads(args, program, env, name, traces.final)
        budget.enter("running")
        for state, jumped in concrete_run(State(env, program), args.max_steps, args.accelerate):
            pass
        if args.trace:  # the steps the run took, jumps included
            traces.show_run(name, program, env, state.steps, refs, args.accelerate)
    except BudgetExceeded:
        if state is None:
            print(f"{name}: undecided: {budget.reason()}")
        else:
            print(f"stopped: {budget.reason()}, after {plural(state.steps, 'step')}: "
                  f"{traces.final(state, refs)}")
        return EXIT_UNDECIDED
    budget.enter("reporting")
    if isinstance(state.prog, Skip) and state.frame is None:
        print(f"finished after {plural(state.steps, 'step')}{traces.jumps(jumped)}: "
              f"{traces.final(state, refs)}")
        return 0
    first = head(state.prog)
    if isinstance(first, Assume) and ended(state, args.max_steps):  # X-U1: blocked, not a bug
        pos = first.pos
        where = f"{name}:{pos.line}:{pos.column}" if pos else name
        print(f"{where}: blocked: the assumption `{first.cond}` is false after "
              f"{plural(state.steps, 'step')}: {traces.final(state, refs)}")
        return 0
    if is_stuck(state.prog):
        failing = head(state.prog)
        assert isinstance(failing, Fail)
        pos = failing.pos
        where = f"{name}:{pos.line}:{pos.column}" if pos else name
        what, undefined = c_failure(failing)
        print(f"{where}: {what}{traces.calls(program, env, state, args.accelerate)}"
              f" after {plural(state.steps, 'step')}{traces.jumps(jumped)}: "
              f"{traces.final(state, refs)}")
        return EXIT_UNDECIDED if undefined else 1  # C's undefined behaviour: C-U1
    calls = (f" in `{state.frame.proc.name}`, call depth {state.frame.height:,}"
             if state.frame is not None else "")
    print(f"stopped: the step budget (--max-steps {args.max_steps:,}) ran out{calls}: "
          f"{traces.final(state, refs)}")
    return EXIT_UNDECIDED


def entry() -> None:
    """Console-script entry point."""
    sys.exit(main(process=True))
