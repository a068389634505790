"""`symcert exec` on a program with threads (seed 003 §5): the concrete run of a schedule
(`--schedule 0,0,1,...`: the thread of each step, then the default schedule, the lowest thread
that can step), printed as the interleaving it took and how it ended.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Any, Callable

from symcert.lang.errors import plural
from symcert.lang.syntax import Skip


def schedule(text: str) -> tuple[int, ...]:
    """`--schedule`'s value: thread numbers separated by commas."""
    try:
        out = tuple(int(w) for w in text.split(",") if w.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of thread numbers: {text!r} "
                                         "(write them as 0,0,1,2)") from None
    if any(i < 0 for i in out):
        raise argparse.ArgumentTypeError("a thread number is 0 or more")
    return out


def interleaving(steps: list[tuple[int, Any]]) -> list[str]:
    """One line a step: the thread, the line and column of the statement it ran (`head` of its
    program before the step) and the statement; a thread's last step, from its finished
    program `skip`, ends it."""
    return [f"  thread {i} at {s.pos.line}:{s.pos.column}: {shown(s)}" if s.pos
            else f"  thread {i} ends" if isinstance(s, Skip)
            else f"  thread {i}: {shown(s)}" for i, s in steps]


def schedule_json(found: Any) -> dict[str, Any]:
    """A witness's schedule and interleaving for `run --json` (none without threads)."""
    if found.bug.config is None:
        return {}
    return {"schedule": list(found.bug.config.schedule),
            "interleaving": [{"thread": i, "line": s.pos.line if s.pos else 0,
                              "column": s.pos.column if s.pos else 0, "statement": shown(s)}
                             for i, s in found.interleaving]}


def schedule_text(found: Any) -> str:
    """A witness's schedule and its interleaving, one step a line (nothing without threads)."""
    if found.bug.config is None:
        return ""
    return (f"  schedule: {','.join(map(str, found.bug.config.schedule)) or 'none'} "
            "(replay it with exec --schedule)\n  interleaving:\n"
            + "".join(f"  {line}\n" for line in interleaving(list(found.interleaving))))


def shown(s: Any) -> str:
    """A statement on one line, cut to 70 characters."""
    text = str(s).split("\n")[0]
    return text if len(text) <= 70 else text[:67] + "..."


@dataclass(frozen=True)
class Ran:
    """A concrete run of a schedule: the steps it took (each thread and the statement it ran),
    the configuration it ended in, and why a schedule could not be followed (else None)."""

    steps: list[tuple[int, Any]]
    last: Any
    error: str | None
    out_of_time: bool = False

    @property
    def schedule(self) -> str:
        return ",".join(str(i) for i, _ in self.steps)

    def ending(self, max_steps: int) -> tuple[str, Any]:
        """How the run ended: `failed` (stuck or deadlocked, with the `fail`), `finished`,
        `blocked` by an `assume`, or `undecided` (the step budget ran out)."""
        from symcert.core.threads import deadlocked, stuck_at

        if self.out_of_time:
            return "undecided", None
        failing = stuck_at(self.last.threads) or deadlocked(self.last)
        if failing is not None:
            return "failed", failing
        if all(t.finished for t in self.last.threads):
            return "finished", None
        return ("blocked" if len(self.steps) < max_steps else "undecided"), None


def run_threads(args: argparse.Namespace, program: Any, env: Any) -> Ran:
    """Run `program` from `env` on `args.schedule`, then the default schedule, at most
    `args.max_steps` steps."""
    from symcert.cli.commands.budget import BudgetExceeded
    from symcert.core.concrete import head
    from symcert.core.threads import Config, ScheduleError, initial_config, run_schedule

    steps: list[tuple[int, Any]] = []
    last: Config = initial_config(env, program)
    try:
        for i, c in run_schedule(last, args.schedule or (), args.max_steps):
            if i is not None:
                steps.append((i, head(last.threads[i].prog)))
            last = c
    except ScheduleError as err:
        return Ran(steps, last, str(err))
    except BudgetExceeded:
        return Ran(steps, last, None, out_of_time=True)
    return Ran(steps, last, None)


def exec_threads(args: argparse.Namespace, program: Any, env: Any, name: str,
                 final: Callable[[Any], str]) -> int:
    """Run `program` from `env` on `args.schedule`; print the interleaving and the end.

    :param name: the program's file name, for positions.
    :param final: how the globals of a configuration are shown.
    :return: the exit code: 0 ended (or blocked by an `assume`), 1 stuck or deadlocked, 2 a
        schedule that names a thread that cannot step, 3 the step budget ran out.
    """
    ran = run_threads(args, program, env)
    if ran.error is not None:
        print("\n".join(interleaving(ran.steps)))
        print(f"symcert exec: error: {ran.error}")
        return 2
    print("interleaving (thread: statement):")
    print("\n".join(interleaving(ran.steps)))
    print(f"schedule: {ran.schedule}")
    last = ran.last
    ended, failing = ran.ending(args.max_steps)
    after = f"after {plural(last.steps, 'step')}: {final(last)}"
    if ended == "failed":
        pos = failing.pos
        at = f"{name}:{pos.line}:{pos.column}" if pos else name
        print(f"{at}: {failing.what()} {after}")
        return 1
    if ended == "finished":
        print(f"finished {after}")
        return 0
    if ended == "blocked":
        print(f"blocked by `assume` {after}")
        return 0
    if ran.out_of_time:
        print(f"stopped: {args.budget.reason()}, {after}")
    else:
        print(f"stopped: the step budget (--max-steps {args.max_steps:,}) ran out: "
              f"{final(last)}")
    return 3
