"""`symcert campaign`: the differential campaign (seed 001, T-O1; seed 004, M-P1..M-P4).

Random programs with loops bounded by construction and random inputs; on each, the main engine
(`run`, ghost mode), the seed-004 interpreter and the two concrete interpreters must agree on
over- and under-approximation and on the bug verdicts. Prints programs checked per second, and
the first disagreement minimised to a small program and input (exit 1); exit 0 otherwise.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from symcert.cli.commands.options import TIMEOUT, add

if TYPE_CHECKING:
    from symcert.checking.campaign import Report

HELP = "differential testing: random programs on which the engines must agree"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--programs", type=int, default=None, metavar="N",
                        help="how many programs (default: until --seconds, else 1,000)")
    parser.add_argument("--seed", type=int, default=0, metavar="S",
                        help="random seed (default: 0)")
    parser.add_argument("--seconds", type=float, default=None, metavar="T",
                        help="time budget in seconds (default: none)")
    parser.add_argument("--checks", default="main,verdicts,interp", metavar="C,...",
                        help="which checks: main (run vs concrete), verdicts (bug verdicts), "
                             "interp (seed 004 vs its twin), derived (the IMP engine derived "
                             "from the shipped imp.sem, seed 002, vs the hand-written one), "
                             "alias, merge, invariants, summaries (T-I1, T-S1 on annotated "
                             "programs), derived-annotated (derived vs hand-written on annotated "
                             "programs); on concurrent programs: por (reduced vs full "
                             "interleavings), threads (configurations vs concrete schedules), "
                             "independence (the steps the reduction calls independent "
                             "commute concretely); "
                             "default: main,verdicts,interp")
    parser.add_argument("--program-timeout", type=float, default=None, metavar="S",
                        help="check each program in a child process killed after S seconds; "
                             "such programs are counted, not checked (default: no limit, in "
                             "process)")
    parser.add_argument("--objects", action="store_true",
                        help="generate programs with objects (seed 003 §4: references r, s, t "
                             "of class Node(val, next), input heaps that alias)")
    parser.add_argument("--keep-going", action="store_true",
                        help="count every disagreement instead of stopping at the first")
    parser.add_argument("--workers", type=int, default=None, metavar="K",
                        help="worker processes on a local Dask cluster (default: one per core; "
                             "1: in this process, no Dask)")
    parser.add_argument("--scheduler", default=None, metavar="ADDRESS",
                        help="run the chunks on the Dask cluster of this scheduler")
    parser.add_argument("--log", default=None, metavar="FILE",
                        help="append one JSON line per chunk of programs to FILE")
    parser.add_argument("--resume", default=None, metavar="FILE",
                        help="continue the campaign of this log: its chunks are not rechecked")
    add(parser, (TIMEOUT,))


def main(args: argparse.Namespace) -> int:
    from symcert.checking.campaign import CHECKS, campaign
    from symcert.checking.concurrency import THREAD_CHECKS
    from symcert.lang.errors import InputError, plural

    if args.programs is not None and args.programs <= 0:
        raise InputError(f"symcert campaign: --programs must be positive: {args.programs}")
    if args.seconds is not None and not args.seconds > 0:
        raise InputError(f"symcert campaign: --seconds must be positive: {args.seconds}")
    checks = tuple(c.strip() for c in args.checks.split(","))
    unknown = [c for c in checks if c not in CHECKS]
    if unknown or not checks:
        raise InputError(f"symcert campaign: unknown check(s) {', '.join(unknown)}; "
                         f"choose among {', '.join(CHECKS)}")
    if set(THREAD_CHECKS) & set(checks) and not set(checks) <= set(THREAD_CHECKS):
        raise InputError(f"symcert campaign: {', '.join(THREAD_CHECKS)} run on concurrent "
                         "programs, alone")
    if args.program_timeout is not None and not args.program_timeout > 0:
        raise InputError("symcert campaign: --program-timeout must be positive: "
                         f"{args.program_timeout}")
    programs = args.programs if args.programs is not None or args.seconds else 1000
    args.budget.enter("checking programs")
    if args.seconds is not None:  # a time budget: the one-process campaign
        report = campaign(programs, args.seed, args.seconds, checks, args.keep_going,
                          program_seconds=args.program_timeout, objects=args.objects)
    else:
        report = chunked(args, programs, checks)
    print(f"checked {report.programs:,} programs in {report.seconds:.1f} s "
          f"({report.rate:,.1f} programs/s, seed {args.seed}, checks {','.join(checks)})")
    if args.program_timeout is not None:
        print(f"{report.over_budget:,} of them over the program budget "
              f"(--program-timeout {args.program_timeout:g} s): not checked")
    if "independence" in checks and args.seconds is not None:
        print(oracle_summary(report))
    if not report.counts:
        print("no disagreement")
        return 0
    for kind, count in report.counts.items():
        print(f"DISAGREEMENT in {plural(count, 'program')}, the first minimised "
              f"(shrinking took {report.shrink_seconds:.1f} s in all):")
        print(report.minimised[kind])
    return 1


def oracle_summary(report: Report) -> str:
    """The independence oracle's counts (checking/independence.py): claims and configurations,
    then by statement kind the pairs seen dependent and those claimed independent."""
    from symcert.checking.independence import by_kind

    found = report.oracle

    def kinds(counts: dict[str, int]) -> str:
        return ", ".join(f"{k} {n:,}" for k, n in counts.items())

    return (f"independence oracle (B-X5): {found.claims:,} claims checked at "
            f"{found.configurations:,} configurations\n"
            f"  pairs seen dependent, by kind: {kinds(by_kind(found.dependent))}\n"
            f"  pairs claimed independent, by kind: {kinds(by_kind(found.claimed))}")


def chunked(args: argparse.Namespace, programs: int, checks: tuple[str, ...]) -> Report:
    """The campaign in chunks (distributed/campaign.py): here with `--workers 1`, else on Dask;
    progress on stderr, one JSON line per chunk in `--log`."""
    import os
    import sys
    from pathlib import Path

    from symcert.distributed.campaign import Checked, Chunk, run_campaign
    from symcert.lang.errors import InputError

    workers = args.workers if args.workers is not None else os.cpu_count() or 1
    if workers <= 0:
        raise InputError(f"symcert campaign: --workers must be positive: {workers}")
    resume = Path(args.resume) if args.resume is not None else None
    if resume is not None and not resume.is_file():
        raise InputError(f"symcert campaign: no log to resume: {resume}")
    done = [0]

    def progress(checked: Checked, lost: int) -> None:
        done[0] += checked.stop - checked.start
        note = f" (rerun after {lost} worker(s) died)" if lost else ""
        print(f"{done[0]:,}/{programs:,} programs: chunk {checked.start} on {checked.worker}"
              f"{note}", file=sys.stderr)

    template = Chunk(args.seed, 0, 0, checks, args.objects, 3, args.program_timeout,
                     args.keep_going)
    path = args.log if args.log is not None else args.resume
    with open(path, "a", encoding="utf-8") if path is not None else open(os.devnull, "w") as log:
        return run_campaign(programs, template, workers, args.scheduler, log, resume, progress)
