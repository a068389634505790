"""`symcert run` on C: a `.c` or `.i` file (or `--lang c`), an SV-COMP task file (`.yml`), or a
folder of task files, scored as SV-COMP scores (docs/c.md).

One check of the translated program, as `run` checks IMP, with C's reading of its failures
(lemma C-U1): a confirmed failure of a `reach_error()`, `assert` or `__VERIFIER_assert` is the
bug (exit 1); a confirmed undefined behaviour (signed overflow, an index out of bounds, ...)
makes the verdict undecided with that cause and place (exit 3), never a bug and never safe; a
division by zero is a bug of its own kind. A folder's tasks each run in a process of their own.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from symcert.cli.commands.events import emit
from symcert.cli.commands.programs import source_name

SCORES = {("true", True): 2, ("false", False): 1, ("true", False): -32, ("false", True): -16}
"""SV-COMP's scores: a correct `true` (safe) +2, a correct `false` (bug) +1, a wrong `true`
−32, a wrong `false` −16; unknown 0."""


def main(args: argparse.Namespace) -> int:
    if os.path.isdir(args.file):
        return run_folder(args)
    if args.lang == "c":
        args.lang = None
    expected: bool | None = None
    if args.file.endswith(".yml"):
        from symcert.lang.c.task import read_task

        task = read_task(args.file)
        args.file = task.input_file
        args.data_model = args.data_model or task.data_model
        expected = task.expected
    return run_c(args, expected)


@dataclass
class _Collector:
    """The observer of a C check: bugs are reported after the verdict is read (C-U1)."""

    deadline: Any

    def phase(self, name: str) -> None:
        self.deadline.enter(name)

    def explored(self, states: int, frontier: int) -> None:
        pass

    def confirmed(self, found: Any, states: int) -> None:
        pass


def run_c(args: argparse.Namespace, expected: bool | None) -> int:
    """Check one C program; print its verdict (and, for a task, whether it is the expected)."""
    from symcert.verify.inference import InferringCheck
    from symcert.cli.commands.programs import read_program
    from symcert.cli.commands.verdicts import shown_reason, stop_reason
    from symcert.cli.commands.budget import BudgetExceeded
    from symcert.cli.commands.workers import explorer_for
    from symcert.engine.explore import Strategy
    from symcert.engine.verdict import Budget, Check, Kind, Stats, Verdict
    from symcert.lang.c.program import describe, failure_of

    args.json = args.json or args.format == "json"
    deadline = args.budget
    name = source_name(args.file)
    budget = Budget(args.max_states or 100_000, Strategy(args.strategy), False,
                    args.max_call_depth, args.shrink)
    check: Any = None
    try:
        program = read_program(args)
        explore = explorer_for(args)
        check = (InferringCheck(program, budget, deadline.started, explorer=explore,
                                seconds=args.timeout) if args.infer
                 else Check(program, budget, start=deadline.started, explorer=explore))
        verdict = check.run(_Collector(deadline))
    except (BudgetExceeded, MemoryError) as stop:
        reason = stop_reason(stop, deadline)
        verdict = (check.stopped(reason) if check is not None else
                   Verdict(Kind.UNDECIDED, False, budget, Stats(), reason=reason))
    deadline.enter("reporting")
    found = verdict.witness
    event, undefined = failure_of(found.failing.pos) if found is not None else ("", False)
    reason = shown_reason(verdict.reason, budget.max_states)
    # `false` only for the property's violation (a C event): a division by zero is a bug of
    # its own kind, exit 1, but says nothing of `reach_error()`: unknown for unreach-call
    answer = ("false" if found is not None and event and not undefined else
              "true" if verdict.kind is Kind.SAFE else "unknown")
    cause = ("undefined behaviour" if undefined else "division by zero"
             if found is not None and not event else None if reason is None
             else reason.cause.value)
    if args.json:
        where = found.failing.pos if found is not None else None
        emit("done", verdict=answer, cause=cause,
             message=describe(found.failing) if found is not None else
             (reason.message if reason else None),
             line=getattr(where, "line", None), column=getattr(where, "column", None),
             input=_inputs(found) if found is not None else None,
             expected=None if expected is None else ("true" if expected else "false"),
             states=verdict.stats.states, seconds=round(verdict.stats.seconds, 6))
    else:
        if found is not None:
            pos = found.failing.pos
            kind = "undecided" if undefined else "bug"
            where = getattr(pos, "file", "") or name
            print(f"{where}:{pos.line}:{pos.column}: {kind}: {describe(found.failing)}")
            shown = ", ".join(f"{x} = {v}" for x, v in _inputs(found).items())
            print(f"  input:  {shown or 'any (the path does not depend on the input)'}")
            print(f"  replay: concrete run from this input reaches it after "
                  f"{found.final.steps:,} steps")
            if undefined:
                print("  undefined behaviour is not a bug of unreach-call, and nothing is "
                      "claimed past it")
        elif verdict.kind is Kind.SAFE:
            print(f"{name}: no bug: reach_error() is unreachable and no assertion fails, for "
                  "all inputs")
            print(f"  exhaustive: explored {verdict.stats.states:,} symbolic states in "
                  f"{verdict.stats.seconds:.2f} s")
        else:
            print(f"{name}: undecided: {reason}")
        if expected is not None:
            want = "true" if expected else "false"
            agree = ("unknown" if answer == "unknown" else
                     "correct" if answer == want else "WRONG")
            print(f"  expected verdict: {want}; symcert: {answer}: {agree}")
    if found is not None and undefined:
        return 3
    if found is not None and getattr(args, "witness", None):
        from symcert.cli.commands.cwitness import violation_witness

        with open(args.witness, "w", encoding="utf-8") as out:
            out.write(violation_witness(program, found, args.file,
                                        args.c_program.data_model))
    return verdict.exit_code


def _inputs(found: Any) -> dict[str, Any]:
    """The nondet values of a witness: `nondet_L_C[k]` is the k-th value of the call at line
    L, column C."""
    from symcert.lang.structure import reads

    names = found.inputs_shown()
    cells = found.input.labelled(names, {a for a, _ in reads(found.bug.pc.conjuncts())})
    return {x: v if isinstance(v, (str, int)) else str(v) for x, v in cells}


@dataclass(frozen=True)
class Row:
    """One task of a folder run."""

    task: str
    expected: bool | None
    verdict: str
    cause: str | None
    seconds: float

    @property
    def result(self) -> str:
        if self.verdict == "unsupported":
            return "unsupported"
        if self.verdict not in ("true", "false") or self.expected is None:
            return "unknown"
        return "correct" if (self.verdict == "true") == self.expected else "wrong"

    @property
    def score(self) -> int:
        if self.expected is None or self.verdict not in ("true", "false"):
            return 0
        return SCORES[(self.verdict, self.expected)]


def run_folder(args: argparse.Namespace) -> int:
    """Every task file under the folder, each by `symcert run TASK --json` in a process of its
    own; a table with SV-COMP's score. Exit 0 when no verdict is wrong, 1 otherwise."""
    tasks = sorted(str(p) for p in Path(args.file).rglob("*.yml"))
    rows = [_one(t, args) for t in tasks]
    width = max([len(r.task) for r in rows] + [4])
    print(f"{'task':<{width}}  expected  verdict      result       score  cpu s")
    for r in rows:
        want = "-" if r.expected is None else ("true" if r.expected else "false")
        print(f"{r.task:<{width}}  {want:<8}  {r.verdict:<11}  {r.result:<11}  {r.score:>5}  "
              f"{r.seconds:5.1f}")
    counts = {k: sum(r.result == k for r in rows)
              for k in ("correct", "wrong", "unknown", "unsupported")}
    print(f"{len(rows)} tasks: " + ", ".join(f"{n} {k}" for k, n in counts.items())
          + f"; score {sum(r.score for r in rows)}")
    return 1 if counts["wrong"] else 0


def _one(task: str, args: argparse.Namespace) -> Row:
    """One task's row: its verdict from its `done` event (or "unsupported" from its error),
    its expected verdict from the task file, and the CPU time of its process."""
    import resource

    from symcert.lang.c.task import TaskError, read_task

    try:
        expected = read_task(task).expected
    except (TaskError, OSError):
        return Row(os.path.relpath(task, args.file), None, "not a task", None, 0.0)
    command = [sys.executable, "-m", "symcert", "run", task, "--json"]
    if args.timeout is not None:
        command += ["--timeout", str(args.timeout)]
    if args.max_states is not None:
        command += ["--max-states", str(args.max_states)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(command, capture_output=True, text=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    verdict, cause = "error", None
    for line in proc.stdout.splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if event.get("event") == "done":
            verdict, cause = event["verdict"], event.get("cause")
    if proc.returncode == 65 and "unsupported C" in proc.stderr:
        verdict = "unsupported"
    return Row(os.path.relpath(task, args.file), expected, verdict, cause, cpu)
