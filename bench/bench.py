"""The one entry point of the benchmarks: named suites, each a script of this folder.

    python bench/bench.py list              # the suites: name, what it measures, what it writes
    python bench/bench.py SUITE [ARGS...]    # one suite; ARGS go to its script (SUITE --help)
    python bench/bench.py default [--quick]  # what `make bench` runs: pywise, merge, por, scaling

Every suite compares symcert with its peers (PyWiSE, CrossHair, the z3-only limit, an earlier
checkout, the unreduced or unmerged run) in the same run, alternating which goes first, and
reports ratios; none is a timed unit test. A suite runs as its own process (a script keeps its
own options and its own imports), from the repository root, with this interpreter.

pyperf and asv were considered: asv compares commits of one project and pyperf calibrates one
benchmark's loops in worker processes run in sequence, while the suites here time other tools'
whole processes in alternation within one run; `revisions` is the commit comparison, by hand.
"""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent


@dataclass(frozen=True)
class Suite:
    """A named benchmark: its script, what it measures, and where its figures go."""

    name: str
    script: str
    measures: str
    writes: str


SUITES = (
    Suite("pywise", "run.py", "symcert against PyWiSE and CrossHair on the case studies, the "
          "depth probe and the million-state runs", "bench/results.json, docs/bench-results.md"),
    Suite("merge", "merge.py", "state merging (`--merge`) against unmerged runs on n "
          "independent ifs", "bench/results-merge.json"),
    Suite("por", "threads_por.py", "partial-order reduction against every interleaving",
          "standard output"),
    Suite("scaling", "scaling.py", "Dask: campaign throughput and exploration on 1, 2 and 4 "
          "workers", "bench/results-scaling.json, docs/scaling.md"),
    Suite("crosshair", "crosshair_peer.py", "symcert against CrossHair on the arithmetic and "
          "recursive case studies", "standard output"),
    Suite("heap", "heap_peer.py", "`--alias split` against the default, and CrossHair, on the "
          "array and heap case studies", "bench/results-heap.json"),
    Suite("z3only", "z3only.py", "symcert's time against the z3-only time of its own queries",
          "standard output"),
    Suite("queries", "queries.py", "the longest single solver query per program",
          "standard output"),
    Suite("corpus", "run_corpus.py", "`run`'s verdicts on the SV-COMP corpus and the held-out "
          "set, with and without inference", "standard output"),
    Suite("chc", "chc_corpus.py", "Spacer's invariants on a small loop corpus, checked by both "
          "provers", "standard output"),
    Suite("derived", "derived.py", "the derived engine (seed 002) against the hand-written one",
          "standard output"),
    Suite("contracts", "contracts_overhead.py", "the runtime contracts' cost: on against off",
          "standard output"),
    Suite("shrink", "shrink.py", "the cost of minimal witnesses", "standard output"),
    Suite("startup", "startup.py", "start-up against CrossHair and PyWiSE", "standard output"),
    Suite("gc", "gc_policy.py", "the garbage collector's policies for a command",
          "standard output"),
    Suite("flat", "flat.py", "per-state cost against path and program length, parse time",
          "standard output"),
    Suite("doubling", "doubling.py", "per-state cost on a growing term", "standard output"),
    Suite("arrays", "concrete_arrays.py", "`symcert exec` of array loops: the cost per array "
          "write against a checkout before the persistent arrays", "standard output"),
    Suite("terms", "terms.py", "the term representation: construction, hashing, equality",
          "standard output"),
    Suite("fuzz", "fuzz.py", "hostile inputs through every subcommand: exit codes, time, "
          "memory", "standard output"),
    Suite("hostile", "hostile.py", "hostile inputs by hand on two checkouts", "standard output"),
    Suite("revisions", "revisions.py", "two checkouts of symcert on the bench programs, "
          "alternating", "standard output"),
)
"""Every suite; docs/bench.md's table of suites is checked against this list."""

HELPERS = ("programs.py", "report.py", "probe.py", "python_twin.py", "wise_driver.py",
           "bench.py")
"""The scripts that are not suites: the programs, the report writer, in-process probes, the
Python twins for CrossHair, PyWiSE's driver, and this file."""

DEFAULT = ("pywise", "merge", "por", "scaling")
"""What `make bench` runs, in this order."""


def run_suite(name: str, args: list[str]) -> int:
    """Run suite `name` with `args`; its exit code."""
    suite = next(s for s in SUITES if s.name == name)
    return subprocess.run([sys.executable, str(BENCH / suite.script), *args], cwd=ROOT).returncode


def main(argv: list[str]) -> int:
    names = {s.name for s in SUITES}
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if argv else 2
    if argv[0] == "list":
        for s in SUITES:
            print(f"{s.name:10} {s.measures} -> {s.writes}")
        return 0
    if argv[0] == "default":
        codes = [run_suite(n, argv[1:] if n == "pywise" else []) for n in DEFAULT]
        return max(codes)
    if argv[0] not in names:
        print(f"bench: no suite {argv[0]!r}; the suites: {', '.join(sorted(names))}",
              file=sys.stderr)
        return 2
    return run_suite(argv[0], argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
