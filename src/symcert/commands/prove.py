"""`symcert prove FILE`: prove every assertion from the leaves of an exhaustive symbolic
execution (seed 001, T-L2).

Each `assert b` reached under a path `⟨φ, S⟩` gives the obligation `φ → {S}b`, valid when
`φ ∧ ¬{S}b` is UNSAT. PROVED (exit 0) only when the exploration ended and every obligation is
UNSAT-backed; a SAT obligation gives a counterexample, replayed concretely (exit 1); anything
else is undecided (exit 3): a budget ran out or the solver answered UNKNOWN.
"""

from __future__ import annotations

import argparse

from symcert.commands.values import show_int, text

HELP = "prove every assertion by exhaustive symbolic execution, or give a counterexample"
DEFAULT_MAX_STATES = 100_000


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE")
    parser.add_argument("--max-states", type=int, default=DEFAULT_MAX_STATES, metavar="N",
                        help=f"state budget (default: {DEFAULT_MAX_STATES:,})")
    parser.add_argument("--timeout", type=float, default=None, metavar="S",
                        help="wall-clock budget in seconds (default: none)")


def main(args: argparse.Namespace) -> int:
    from symcert.errors import EXIT_BUG, EXIT_OK, EXIT_UNDECIDED, InputError
    from symcert.parser import parse_file
    from symcert.prove import Verdict, prove
    from symcert.syntax import inputs

    if args.max_states <= 0:
        raise InputError(f"symcert prove: --max-states must be positive: {args.max_states}")
    if args.timeout is not None and not args.timeout > 0:
        raise InputError(f"symcert prove: --timeout must be positive: {args.timeout}")
    program = parse_file(args.file)
    proof = prove(program, args.max_states, args.timeout)
    explored = f"{proof.states:,} symbolic states, {proof.obligations} obligation(s)"
    if proof.verdict is Verdict.PROVED:
        print(f"{args.file}: PROVED: every assertion holds for all inputs")
        print(f"  exhaustive: {explored}, each one UNSAT-backed")
        return EXIT_OK
    if proof.verdict is Verdict.COUNTEREXAMPLE:
        found = proof.counterexample
        assert found is not None
        pos = found.failing.pos
        where = f"{args.file}:{pos.line}:{pos.column}" if pos else args.file
        names = sorted(inputs(program))
        shown = ", ".join(f"{x} = {show_int(found.input(x))}" for x in names) or "any"
        print(f"{where}: counterexample: {found.describe()}")
        print(f"  input:  {shown}")
        print(f"  replay: the concrete run from this input reaches the failing statement "
              f"after {found.final.steps} steps")
        return EXIT_BUG
    print(f"{args.file}: undecided")
    if proof.reason:
        print(f"  not exhaustive: {proof.reason}")
    for ob in proof.undecided:
        print(f"  solver answered UNKNOWN for {text(ob)}")
    print(f"  no counterexample found; {explored}")
    return EXIT_UNDECIDED
