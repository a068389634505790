"""`symcert prove FILE`: prove every assertion from the leaves of an exhaustive symbolic
execution (seed 001, T-L2).

Each `assert b` reached under a path `⟨φ, S⟩` gives the obligation `φ → {S}b`, valid when
`φ ∧ ¬{S}b` is UNSAT. PROVED (exit 0) only when the exploration ended and every obligation is
UNSAT-backed; a SAT obligation gives a counterexample, replayed concretely (exit 1); anything
else is undecided (exit 3): a budget ran out or the solver answered UNKNOWN.
"""

from __future__ import annotations

import argparse

from symcert.cli.commands.budget import BudgetExceeded, positive
from symcert.cli.commands.programs import add_program, read_program, source_name
from symcert.cli.commands.values import show_int, text
from symcert.lang.errors import EXIT_UNDECIDED

HELP = "prove every assertion by exhaustive symbolic execution, or give a counterexample"
DEFAULT_MAX_STATES = 100_000


def configure(parser: argparse.ArgumentParser) -> None:
    add_program(parser, alias=True)
    parser.add_argument("--max-states", type=positive, default=DEFAULT_MAX_STATES, metavar="N",
                        help=f"state budget (default: {DEFAULT_MAX_STATES:,})")


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
        print(f"{name}: undecided")
        print(f"  not exhaustive: {args.budget.reason()}")
        return EXIT_UNDECIDED
    args.budget.enter("reporting")
    verdict = proof.verdict
    explored = f"{verdict.stats.states:,} symbolic states, {proof.obligations} obligation(s)"
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
        elif verdict.reason is not None and verdict.reason.cause in (Cause.INVARIANT,
                                                                  Cause.CONTRACT):
            print(f"  {verdict.reason}")
        for ob in proof.undecided:
            print(f"  solver answered UNKNOWN for {text(ob)}")
        print(f"  no counterexample found; {explored}")
    return verdict.exit_code
