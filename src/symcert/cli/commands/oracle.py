"""`symcert oracle FILE`: test exhaustiveness and precision of the engine's transitions on random
inputs (seed 001, T-D2, T-D3, T-O1).

From `⟨true, id, FILE⟩`, each transition is checked on N random inputs (arrays' cells and input
heaps included, seed 003 §4-5; the solver takes the program's valid heaps): one `expand` step, the
stream `run` (cut after --max-states states; leaves and frontier), the seed-004 interpreter
(results at its loop limit have no known meaning and are skipped), and with --unroll K the
big-step execution that unrolls each loop K times and drops the rest (precise, not exhaustive:
T-X1), and with --merge the stream with state merging (T-M1). Exit 1 when a counterexample is found; 3 (undecided) when some check held on no input at
all (every run was skipped) or the time budget ran out; 0 otherwise.
"""

from __future__ import annotations

import argparse

from symcert.cli.commands.budget import BudgetExceeded
from symcert.cli.commands.programs import add_program, read_program, source_name
from symcert.cli.commands.values import text

HELP = "test exhaustiveness and precision of symbolic transitions on random inputs"


def configure(parser: argparse.ArgumentParser) -> None:
    add_program(parser)
    parser.add_argument("--unroll", type=int, default=None, metavar="K",
                        help="also check loop unrolling with threshold K (K >= 0)")
    parser.add_argument("--merge", action="store_true",
                        help="also check the stream with state merging (T-M1)")
    parser.add_argument("--runs", type=int, default=100, metavar="N",
                        help="random inputs per check (default: 100)")
    parser.add_argument("--seed", type=int, default=0, metavar="S",
                        help="random seed (default: 0)")
    parser.add_argument("--max-states", type=int, default=1000, metavar="N",
                        help="states of the stream `run` before it is cut (default: 1000)")
    parser.add_argument("--loop-limit", type=int, default=10, metavar="N",
                        help="loop limit of the seed-004 interpreter (default: 10)")


def main(args: argparse.Namespace) -> int:
    from symcert.lang.errors import EXIT_UNDECIDED, InputError
    from symcert.checking.oracles import is_probably_exhaustive, is_probably_precise
    from symcert.solver.z3backend import solver_for
    from symcert.lang.structure import inputs
    from symcert.checking.transitions import (
        expand_step, interpreter, merged_stream, stream, unroll,
    )

    for flag, value, least in (("--runs", args.runs, 1), ("--max-states", args.max_states, 1),
                               ("--unroll", args.unroll, 0), ("--loop-limit", args.loop_limit, 0)):
        if value is not None and value < least:
            raise InputError(f"symcert oracle: {flag} must be at least {least}: {value}")
    name = source_name(args.file)
    program = read_program(args)
    transitions = [expand_step, stream(args.max_states, solver_for(program)),
                   interpreter(args.loop_limit, solver_for(program))]
    if args.unroll is not None:
        transitions.append(unroll(args.unroll, solver_for(program)))
    if args.merge:
        transitions.append(merged_stream(args.max_states, solver_for(program)))
    names = ", ".join(sorted(inputs(program))) or "none"
    print(f"{name}: {args.runs} random inputs per check (seed {args.seed}); inputs: {names}")
    found = False
    vacuous = 0
    try:
        for t in transitions:
            print(f"  {t.name}")
            for prop, test in (("exhaustive", is_probably_exhaustive),
                               ("precise", is_probably_precise)):
                args.budget.enter(f"checking that {t.name} is {prop}")
                verdict = test(t, program, args.runs, args.seed)
                if verdict.counterexample is not None:
                    found = True
                    print(f"    {prop}: NO, counterexample: {text(verdict.counterexample)}")
                else:
                    skipped = verdict.tried - verdict.decided
                    vacuous += verdict.decided == 0
                    note = (f" ({skipped} skipped: a run exceeded its step budget or loop limit)"
                            if skipped else "")
                    inputs = "input" if verdict.decided == 1 else "inputs"
                    print(f"    {prop}: held on {verdict.decided} {inputs}{note}")
    except BudgetExceeded:
        print(f"{name}: undecided: {args.budget.reason()}")
        return 1 if found else EXIT_UNDECIDED
    if found:
        return 1
    if vacuous:
        print(f"{name}: undecided: {vacuous} check(s) held on no input: every run exceeded "
              "its step budget or loop limit")
        return EXIT_UNDECIDED
    return 0
