"""`symcert exec --json`: the concrete run (Fig. 2) as one `done` event (docs/schema/events.json).

The run is the one `exec` prints as text; the event gives how it ended (`finished`, `failed`
with the failing statement's place and cause, `blocked` by a false `assume` (X-U1), or
`undecided` when a budget ran out), the steps, the final variables (and heap, seed 003 §4), the
inputs given that the program does not read and those it read that defaulted to 0 / nil."""

from __future__ import annotations

import argparse
import time
from typing import Any, Iterator

from symcert.cli.commands.budget import BudgetExceeded, Deadline
from symcert.cli.commands.events import bug_cause, emit
from symcert.cli.commands.programs import read_program, source_name
from symcert.cli.commands.values import json_int
from symcert.lang.errors import EXIT_UNDECIDED


def exec_json(args: argparse.Namespace) -> int:
    """Run `args.file` concretely on `args.input` and emit its `done` event; the exit code."""
    from symcert.cli.commands.inputs import input_env, input_values
    from symcert.core.concrete import State, head, is_stuck, step
    from symcert.core.threads import is_threaded
    from symcert.lang.procedures import references
    from symcert.lang.structure import inputs
    from symcert.lang.syntax import Assume, Fail, Skip, is_field

    budget: Deadline = args.budget
    name = source_name(args.file)
    values = input_values(args.input)
    program = read_program(args)
    read, refs = inputs(program), references(program)
    common = {"file": name, "unused_inputs": sorted(values.keys() - read),
              "defaulted_inputs": sorted(x for x in read - values.keys() if not is_field(x))}
    if is_threaded(program):
        return _threads(args, common, program, input_env(values, program), refs)
    state = State(input_env(values, program), program)
    budget.enter("running")
    jumped = 0
    try:
        for state, jumped in concrete_run(state, args.max_steps, args.accelerate):
            pass
    except BudgetExceeded:
        common.update({"jumped_steps": jumped} if jumped else {})
        return _done(args, common, "undecided", state, refs, EXIT_UNDECIDED,
                     reason=budget.reason(), cause="time")
    budget.enter("reporting")
    common.update({"jumped_steps": jumped} if jumped else {})
    if isinstance(state.prog, Skip) and state.frame is None:
        return _done(args, common, "finished", state, refs, 0)
    first = head(state.prog)
    if isinstance(first, Assume) and step(state) is None:  # X-U1: blocked, not a bug
        return _done(args, common, "blocked", state, refs, 0, at=first.pos,
                     message=f"the assumption `{first.cond}` is false", cause="assume")
    if is_stuck(state.prog):
        assert isinstance(first, Fail)
        return _done(args, common, "failed", state, refs, 1, at=first.pos,
                     message=first.what(), cause=bug_cause(first))
    return _done(args, common, "undecided", state, refs, EXIT_UNDECIDED, cause="steps",
                 reason=f"the step budget (--max-steps {args.max_steps:,}) ran out")


def _threads(args: argparse.Namespace, common: dict[str, Any], program: Any, env: Any,
             refs: frozenset[str]) -> int:
    """The `done` event of a program with threads (seed 003 §5) run on `args.schedule`: as
    without threads, plus the schedule and interleaving it took; a schedule that names a
    thread that cannot step is a usage error (exit 2)."""
    from symcert.cli.commands.threads import Ran, run_threads, shown
    from symcert.lang.errors import EXIT_USAGE

    args.budget.enter("running")
    ran: Ran = run_threads(args, program, env)
    if ran.error is not None:
        emit("error", kind="usage", message=ran.error, exit_code=EXIT_USAGE)
        return EXIT_USAGE
    args.budget.enter("reporting")
    taken = {"schedule": [i for i, _ in ran.steps],
             "interleaving": [{"thread": i, "line": s.pos.line if s.pos else 0,
                               "column": s.pos.column if s.pos else 0, "statement": shown(s)}
                              for i, s in ran.steps]}
    ended, failing = ran.ending(args.max_steps)
    if ended == "failed":
        return _done(args, common, "failed", ran.last, refs, 1, at=failing.pos,
                     message=failing.what(), cause=bug_cause(failing), **taken)
    if ended == "undecided":
        return _done(args, common, "undecided", ran.last, refs, EXIT_UNDECIDED,
                     **({"cause": "time", "reason": args.budget.reason()} if ran.out_of_time
                        else {"cause": "steps", "reason": f"the step budget (--max-steps "
                              f"{args.max_steps:,}) ran out"}), **taken)
    return _done(args, common, ended, ran.last, refs, 0,
                 **({"cause": "assume"} if ended == "blocked" else {}), **taken)


def concrete_run(state: Any, max_steps: int, accelerate: bool) -> Iterator[tuple[Any, int]]:
    """The concrete run from `state` (Fig. 2), at most `max_steps` steps taken one at a time,
    with (`accelerate`) its loops jumped over by checked jumps as `run`'s replays are
    (`acceleration.run`, T-A1); each state with the steps taken in jumps so far."""
    from symcert.core.concrete import trace
    from symcert.engine.acceleration import run as accelerated

    jumped, before = 0, state.steps
    for now in (accelerated if accelerate else trace)(state, max_steps):
        jumped += now.steps - before if now.steps - before > 1 else 0
        before = now.steps
        yield now, jumped


def _done(args: argparse.Namespace, common: dict[str, Any], verdict: str, state: Any,
          refs: frozenset[str], code: int, at: Any = None, **fields: Any) -> int:
    """Emit the `done` event of a run that ended in `state`; return `code`."""
    from symcert.core import heap
    from symcert.core.threads import program_globals

    env = program_globals(state.env)
    names = [k for k, _ in env.bindings]
    objects: dict[str, Any] = {}
    if refs or any(k.startswith(".") for k in names):
        final, objects = heap.graph(env, names, refs)
    else:
        final = dict(env.labelled())
    if at is not None:
        fields = {"line": at.line, "column": at.column, **fields}
    emit("done", **common, verdict=verdict, steps=state.steps, **fields,
         final={k: v if isinstance(v, str) else json_int(v) for k, v in final.items()},
         **({"heap": {o: {f: v if isinstance(v, str) else json_int(v) for f, v in row.items()}
                      for o, row in objects.items()}} if objects else {}),
         seconds=round(time.perf_counter() - args.budget.started, 6))
    return code
