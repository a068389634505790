"""`symcert prove FILE`: prove every assertion from the leaves of an exhaustive symbolic
execution (seed 001, T-L2).

Each `assert b` reached under a path `⟨φ, S⟩` gives the obligation `φ → {S}b`, valid when
`φ ∧ ¬{S}b` is UNSAT. PROVED (exit 0) only when the exploration ended and every obligation is
UNSAT-backed; a SAT obligation gives a counterexample, replayed concretely (exit 1); anything
else is undecided (exit 3): a budget ran out or the solver answered UNKNOWN.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from symcert.cli.commands.budget import BudgetExceeded, positive
from symcert.cli.commands.events import emit
from symcert.lang.errors import plural
from symcert.cli.commands.programs import add_program, read_program, source_name
from symcert.cli.commands.values import show_int, text
from symcert.lang.errors import EXIT_UNDECIDED

HELP = "prove every assertion by exhaustive symbolic execution, or give a counterexample"
DEFAULT_MAX_STATES = 100_000


def configure(parser: argparse.ArgumentParser) -> None:
    add_program(parser, alias=True)
    parser.add_argument("--max-states", type=positive, default=DEFAULT_MAX_STATES, metavar="N",
                        help=f"state budget (default: {DEFAULT_MAX_STATES:,})")
    parser.add_argument("--json", action="store_true",
                        help="write JSON events (docs/schema/events.json) instead of text")


def main(args: argparse.Namespace) -> int:
    from symcert.engine.prove import prove
    from symcert.core import heap
    from symcert.lang.procedures import arrays, references
    from symcert.lang.syntax import is_field
    from symcert.lang.structure import inputs
    from symcert.engine.verdict import Cause, Kind

    name = source_name(args.file)
    try:
        program = read_program(args)
        args.budget.enter("exploring and proving")
        proof = prove(program, args.max_states)
    except BudgetExceeded:
        if args.json:
            emit("done", verdict="undecided", exhaustive=False, reason=args.budget.reason(),
                 cause="time", states=None, obligations=None, unknown=None,
                 seconds=round(time.perf_counter() - args.budget.started, 6))
            return EXIT_UNDECIDED
        print(f"{name}: undecided")
        print(f"  not exhaustive: {args.budget.reason()}")
        return EXIT_UNDECIDED
    args.budget.enter("reporting")
    verdict = proof.verdict
    if args.json:
        return _json(name, program, proof, time.perf_counter() - args.budget.started)
    explored = (f"{plural(verdict.stats.states, 'symbolic state')}, "
                f"{plural(proof.obligations, 'obligation')}")
    if verdict.kind is Kind.SAFE:
        print(f"{name}: PROVED: every assertion holds for all inputs")
        print(f"  exhaustive: {explored}, each one UNSAT-backed")
    elif verdict.kind is Kind.BUG:
        found = verdict.bugs[0]
        pos = found.failing.pos
        where = f"{name}:{pos.line}:{pos.column}" if pos else name
        names = sorted(inputs(program))
        refs = references(program)
        objects: dict[str, dict[str, object]] = {}
        cells: list[tuple[str, object]] = found.input.labelled(names, arrays(program))
        if refs or any(map(is_field, names)):  # seed 003 §4: the input heap as a graph
            values, objects = heap.graph(found.input, names, refs)
            cells = list(values.items())
        shown = ", ".join(f"{x} = {v if isinstance(v, str) else show_int(v)}"  # type: ignore[arg-type]
                          for x, v in cells) or "any"
        print(f"{where}: counterexample: {found.describe()}")
        print(f"  input:  {shown}")
        if objects:
            print(f"  heap:   {heap.show({}, objects)[1]}")
        print(f"  replay: the concrete run from this input reaches the failing statement "
              f"after {found.final.steps} steps")
    else:
        print(f"{name}: undecided")
        if not verdict.exhaustive:
            print(f"  not exhaustive: {verdict.reason}")
        elif verdict.reason is not None and verdict.reason.cause is Cause.INVARIANT:
            print(f"  {verdict.reason}")
        for ob in proof.undecided:
            print(f"  solver answered UNKNOWN for {text(ob)}")
        print(f"  no counterexample found; {explored}")
    return verdict.exit_code


def _json(name: str, program: Any, proof: Any, seconds: float) -> int:
    """The events of `prove --json`: a `bug` for the replayed counterexample, an `unknown` for
    each obligation the solver could not decide, and `done`."""
    from symcert.cli.commands.events import bug_cause, imp_condition
    from symcert.cli.commands.values import json_int, text
    from symcert.core import heap
    from symcert.lang.procedures import arrays, references
    from symcert.lang.structure import inputs
    from symcert.lang.syntax import is_field

    verdict = proof.verdict
    refs = references(program)
    for found in verdict.bugs[:1]:
        names = sorted(inputs(program))
        cells = found.input.labelled(names, arrays(program))
        objects: dict[str, dict[str, Any]] = {}
        if refs or any(map(is_field, names)):
            values, objects = heap.graph(found.input, names, refs)
            cells = list(values.items())
        pos = found.failing.pos
        emit("bug", file=name, line=pos.line if pos else 0, column=pos.column if pos else 0,
             message=found.describe(), cause=bug_cause(found.failing),
             input={x: v if isinstance(v, str) else json_int(v) for x, v in cells},
             **({"heap": objects} if objects else {}), replay_steps=found.final.steps,
             path_condition=imp_condition(found.bug.pc, refs), states=verdict.stats.states)
    for ob in proof.undecided:
        emit("unknown", file=name, line=ob.where.line if ob.where else 0,
             column=ob.where.column if ob.where else 0, statement=text(ob.statement),
             path_condition=imp_condition(ob.state.pc, refs))
    kind = "proved" if verdict.kind.value == "safe" else verdict.kind.value
    reason = verdict.reason
    emit("done", verdict=kind, exhaustive=verdict.exhaustive,
         reason=None if reason is None else reason.message,
         cause=None if reason is None else reason.cause.value, states=verdict.stats.states,
         obligations=proof.obligations, unknown=len(proof.undecided), seconds=round(seconds, 6))
    return int(verdict.exit_code)
