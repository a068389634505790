"""Per-state cost on a growing term: `while 0 < x do x = x + x od; assert x <= 0`.

    python bench/doubling.py [--states N]

Explores N states (default 20,000) breadth-first with a solver, in process, contracts off, and
prints the seconds taken by the first and the last 1,000 states, the total, and the solver's
counters. Run it with each checkout's `src` first on PYTHONPATH to compare two revisions.
"""

from __future__ import annotations

import argparse
import time

PROGRAM = "while 0 < x do x = x + x od; assert x <= 0"
BLOCK = 1_000


def main() -> None:
    from symcert.core.state import initial
    from symcert.engine.explore import RunStats, Strategy, run
    from symcert.lang.parser import parse
    from symcert.solver.z3backend import Solver

    ap = argparse.ArgumentParser()
    ap.add_argument("--states", type=int, default=20_000)
    args = ap.parse_args()
    solver = Solver()
    start = time.perf_counter()
    marks = [start]
    count = 0
    for state in run([initial(parse(PROGRAM))], Strategy.BFS, solver, RunStats()):
        if state is None or count >= args.states:
            break
        count += 1
        if count % BLOCK == 0:
            marks.append(time.perf_counter())
    blocks = [b - a for a, b in zip(marks, marks[1:])]
    print(f"{count:,} states in {marks[-1] - start:.2f} s; first {BLOCK:,}: {blocks[0]:.3f} s, "
          f"last {BLOCK:,}: {blocks[-1]:.3f} s (ratio {blocks[-1] / blocks[0]:.1f})")
    print(solver.stats)


if __name__ == "__main__":
    main()
