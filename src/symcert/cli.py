"""The `symcert` command: `run` (find bugs or prove safety) and `exec` (a concrete run).

Exit codes: 0 exhaustive and no bug (or a normal concrete run), 1 bug found, 2 usage error,
3 undecided within the budget, 65 bad input, 70 internal error (an engine bug: a contract
violation or a replay that disagrees with a reported bug).

The engine is imported only after the arguments are read, because `--contracts` must set
SYMCERT_CONTRACTS before the contracted modules are imported. The work runs in a thread with a
large stack, so deeply nested (but accepted) programs cannot overflow the C stack.
"""

from __future__ import annotations

import argparse
import importlib
import io
import json
import os
import re
import sys
import threading
import time
from typing import Any, Sequence

from symcert.commands.values import json_int, show_int, text

EXIT_INTERNAL = 70
EXIT_PIPE = 141  # as a process killed by SIGPIPE: the output pipe was closed early
STACK_BYTES = 512 * 1024 * 1024
DEFAULT_MAX_STATES = 100_000
DEFAULT_MAX_STEPS = 1_000_000
NAME = re.compile(r"[0-9]*[A-Za-z_][A-Za-z0-9_]*")  # a variable, as NAME in grammar.lark
INTEGER = re.compile(r"-?[0-9]+")

# Further subcommands, each in a module of `symcert.commands` that defines HELP, `configure(parser)`
# and `main(args) -> int`. Such a module imports the engine inside `main` only (see below).
COMMANDS: dict[str, str] = {
    "tree": "symcert.commands.tree",
    "lemmas": "symcert.commands.lemmas",
    "oracle": "symcert.commands.oracle",
    "prove": "symcert.commands.prove",
    "campaign": "symcert.commands.campaign",
}


def _parser() -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    """The top-level parser and the parser of each subcommand."""
    from symcert import __version__

    ap = argparse.ArgumentParser(
        prog="symcert",
        description="A symbolic-execution bug finder for IMP whose claims are checked.",
        epilog="exit codes: 0 no bug (exhaustive), 1 bug found, 2 usage error, "
               "3 undecided within the budget, 65 bad input, 70 internal error",
    )
    ap.add_argument("--version", action="version", version=f"symcert {__version__}")
    sub = ap.add_subparsers(dest="command", required=True, metavar="COMMAND")

    r = sub.add_parser("run", help="find a bug and the input that triggers it, or prove safety")
    r.add_argument("file", metavar="FILE")
    r.add_argument("--strategy", choices=("bfs", "dfs"), default="bfs",
                   help="search order (default: bfs, which finds every reachable bug)")
    r.add_argument("--max-states", type=_positive, default=DEFAULT_MAX_STATES, metavar="N",
                   help=f"state budget (default: {DEFAULT_MAX_STATES:,})")
    r.add_argument("--timeout", type=_positive_float, default=None, metavar="S",
                   help="wall-clock budget in seconds (default: none)")
    r.add_argument("--all-bugs", action="store_true",
                   help="keep exploring after the first bug; report each failing statement once")
    r.add_argument("--json", action="store_true", help="write one JSON object per event")
    r.add_argument("--contracts", action="store_true",
                   help="check the lemma contracts while running (as SYMCERT_CONTRACTS=1)")

    e = sub.add_parser("exec", help="run a program concretely on given inputs")
    e.add_argument("file", metavar="FILE")
    e.add_argument("--input", action="append", default=[], metavar="VAR=INT",
                   help="an input value, INT as -?[0-9]+; repeat for several inputs; "
                        "unset inputs are 0")
    e.add_argument("--max-steps", type=_positive, default=DEFAULT_MAX_STEPS, metavar="N",
                   help=f"step budget (default: {DEFAULT_MAX_STEPS:,})")
    e.add_argument("--contracts", action="store_true", help="check the lemma contracts")

    for name, module in COMMANDS.items():
        command = importlib.import_module(module)
        c = sub.add_parser(name, help=command.HELP, description=command.__doc__)
        command.configure(c)
    return ap, sub.choices


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be positive: {text}")
    return value


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be positive: {text}")
    return value


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """The arguments; a usage error exits 2 with the usage of the command it belongs to."""
    ap, commands = _parser()
    args, extra = ap.parse_known_args(argv)
    if extra:
        commands[args.command].error(f"unrecognized arguments: {' '.join(extra)}")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code."""
    args = parse_args(argv)
    if getattr(args, "contracts", False):
        os.environ["SYMCERT_CONTRACTS"] = "1"
    result: dict[str, int] = {}

    def work() -> None:
        result["code"] = _dispatch(args)

    threading.stack_size(STACK_BYTES)
    worker = threading.Thread(target=work, name="symcert")
    worker.start()
    worker.join()
    return result.get("code", EXIT_INTERNAL)


def _dispatch(args: argparse.Namespace) -> int:
    from symcert.errors import SymcertError

    try:
        if args.command == "run":
            return _run(args)
        if args.command == "exec":
            return _exec(args)
        return int(importlib.import_module(COMMANDS[args.command]).main(args))
    except SymcertError as err:
        print(err, file=sys.stderr)
        return err.exit_code
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_PIPE
    except OSError as err:
        print(f"{getattr(args, 'file', err.filename)}: cannot read: {err.strerror}",
              file=sys.stderr)
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


def _run(args: argparse.Namespace) -> int:
    from symcert.bugfinder import BugFound, Finished, ReplayMismatch, witness, find_bugs
    from symcert.explore import RunStats, Strategy
    from symcert.parser import parse_file
    from symcert.solver import Solver
    from symcert.terms import free_vars

    program = parse_file(args.file)
    strategy = Strategy(args.strategy)
    solver = Solver()
    stats = RunStats()
    progress = _Progress(sys.stderr.isatty() and not args.json)
    order = "breadth-first" if strategy is Strategy.BFS else "depth-first"
    start = time.perf_counter()
    confirmed: list[Any] = []
    reported: set[tuple[int, int]] = set()
    unconfirmed = 0
    reason = ""
    explored = 0

    def emit(obj: dict[str, Any]) -> None:
        print(json.dumps(obj), flush=True)

    for status in find_bugs(program, strategy, solver, stats):
        if isinstance(status, Finished):
            break
        explored += 1
        if isinstance(status, BugFound):
            try:
                found = witness(program, status, solver)
            except ReplayMismatch:
                progress.clear()
                raise
            if found is None:
                unconfirmed += 1
            else:
                pos = found.failing.pos
                where = (pos.line, pos.column) if pos else (0, 0)
                if where not in reported:
                    reported.add(where)
                    confirmed.append(found)
                    progress.clear()
                    names = sorted(set().union(*(free_vars(c) for c in found.bug.pc.conjuncts()))
                                   if found.bug.pc.length else set())
                    if args.json:
                        emit({"event": "bug", "file": args.file, "line": where[0],
                              "column": where[1], "message": found.describe(),
                              "input": {x: json_int(found.input(x)) for x in names},
                              "replay_steps": found.final.steps,
                              "path_condition": text(found.bug.pc), "states": explored})
                    else:
                        shown = ", ".join(f"{x} = {show_int(found.input(x))}" for x in names)
                        print(f"{args.file}:{where[0]}:{where[1]}: bug: {found.describe()}")
                        print(f"  input:  {shown or 'any (the bug does not depend on the input)'}")
                        print(f"  replay: concrete run from this input reaches the failing "
                              f"statement after {found.final.steps} steps")
                    if not args.all_bugs:
                        reason = "bug"
                        break
        if explored >= args.max_states:
            reason = f"the state budget (--max-states {args.max_states:,}) ran out"
            break
        if args.timeout is not None and time.perf_counter() - start > args.timeout:
            reason = f"the time budget (--timeout {args.timeout:g} s) ran out"
            break
        progress.update(explored, stats.frontier)
    else:  # pragma: no cover - find_bugs never ends
        pass
    progress.clear()
    elapsed = time.perf_counter() - start
    exhaustive = reason == ""
    if confirmed:
        verdict, code = "bug", 1
    elif exhaustive and unconfirmed == 0:
        verdict, code = "safe", 0
    else:
        verdict, code = "undecided", 3
        if exhaustive:
            reason = (f"the solver could not decide {unconfirmed} path condition(s) "
                      "leading to `fail`")
    if args.json:
        emit({"event": "done", "verdict": verdict, "exhaustive": exhaustive,
              "reason": reason if verdict == "undecided" else None, "states": explored,
              "strategy": args.strategy, "seconds": round(elapsed, 6),
              "solver_queries": solver.stats.queries,
              "solver_seconds": round(solver.stats.z3_seconds, 6)})
        return code
    summary = f"explored {explored:,} symbolic states ({order}) in {elapsed:.2f} s"
    if verdict == "bug":
        if args.all_bugs and exhaustive:
            summary += "; exploration was exhaustive"
        print(f"  {summary}")
    elif verdict == "safe":
        print(f"{args.file}: no bug: every assertion holds for all inputs")
        print(f"  exhaustive: {summary}")
    else:
        print(f"{args.file}: undecided: {reason}")
        print(f"  no bug found so far; {summary}")
    return code


def _input_values(items: Sequence[str]) -> dict[str, int]:
    """The values of `--input VAR=INT`: INT is `-?[0-9]+`, as long as a literal of a program
    may be, each VAR given once."""
    from symcert.errors import InputError
    from symcert.parser import MAX_DIGITS

    values: dict[str, int] = {}
    for item in items:
        var, sep, value = (part.strip() for part in item.partition("="))
        if not sep or not NAME.fullmatch(var) or not INTEGER.fullmatch(value):
            raise InputError(f"symcert exec: bad --input {item!r}: expected VAR=INT with INT "
                             "an optional - and decimal digits, for example --input x=-3")
        if var in values:
            raise InputError(f"symcert exec: --input {var} is given twice")
        if len(value.lstrip("-")) > MAX_DIGITS:
            raise InputError(f"symcert exec: bad --input {var}: more than {MAX_DIGITS:,} digits")
        values[var] = int(value)
    return values


def _exec(args: argparse.Namespace) -> int:
    from symcert.concrete import Env, State, head, step
    from symcert.parser import parse_file
    from symcert.syntax import Assert, Fail, Skip, inputs

    values = _input_values(args.input)
    program = parse_file(args.file)
    read = inputs(program)
    for var in sorted(values.keys() - read):
        print(f"symcert exec: warning: the program has no input {var} (its inputs: "
              f"{', '.join(sorted(read)) or 'none'}); --input {var} has no effect",
              file=sys.stderr)
    unset = sorted(read - values.keys())
    if unset:
        print(f"note: inputs not given default to 0: {', '.join(unset)}")
    state = State(Env.of(values), program)
    while state.steps < args.max_steps:
        nxt = step(state)
        if nxt is None:
            break
        state = nxt
    final = (", ".join(f"{k} = {show_int(v)}" for k, v in sorted(state.env.bindings))
             or "all variables 0")
    if isinstance(state.prog, Skip):
        print(f"finished after {state.steps} steps: {final}")
        return 0
    failing = head(state.prog)
    if isinstance(failing, Fail):
        pos = failing.pos
        where = f"{args.file}:{pos.line}:{pos.column}" if pos else args.file
        what = (f"assertion `{failing.origin.cond}` fails" if isinstance(failing.origin, Assert)
                else "`fail` reached")
        print(f"{where}: {what} after {state.steps} steps: {final}")
        return 1
    print(f"stopped: the step budget (--max-steps {args.max_steps:,}) ran out: {final}")
    return 3


def entry() -> None:
    """Console-script entry point."""
    sys.exit(main())
