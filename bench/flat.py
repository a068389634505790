"""Per-state cost against path length and program length, and parse time against program length.

    python bench/flat.py [array|array-input|skips|parse ...] [--states N] [--sizes N ...]

Each mode runs in process, contracts off, with the `symcert` found first on PYTHONPATH (put a
checkout's `src` first to compare two revisions), and prints one line per measurement:

- `array`: `i = 0; while i < 1000000 do a[i] = i; i = i + 1 od` explored breadth-first with a
  solver for N states (default 20,000): the store binds an array update from the first write
  on, so every step resolves reads with the path condition (engine/alias.py). Printed: the
  CPU seconds of the first and of the last 1,000 states and their ratio (flat: below 1.5),
  and the ratio of the medians of the first and last five blocks of 1,000 (a garbage
  collection that falls in one block of a few milliseconds does not move it).
- `array-input`: the same loop up to an input `n`, so every loop test adds a literal that
  answers alias questions (`k < n`) to the path condition.
- `skips`: a straight line of N `skip`s (default 100,000), all N states, as `array`.
- `parse`: `parse_bytes` of lines of 50,000 / 100,000 / 200,000 / 1,000,000 `skip`s (the
  parser's static checks included), then what `symcert run` does before its first step
  (`solver_for`, `initial`): CPU seconds (`time.process_time`, the machine is shared) and
  microseconds per statement (flat when parsing is linear).
"""

from __future__ import annotations

import argparse
import statistics
import time

BLOCK = 1_000
LOOPS = {
    "array": "i = 0; while i < 1000000 do a[i] = i; i = i + 1 od",
    "array-input": "i = 0; while i < n do a[i] = i; i = i + 1 od",
}


def blocks(text: str, states: int) -> None:
    """Explore `text` for `states` states; print the first and last block's seconds."""
    from symcert.core.state import initial
    from symcert.engine.explore import RunStats, Strategy, run
    from symcert.lang.parser import parse_bytes
    from symcert.solver.z3backend import solver_for

    p = parse_bytes(text.encode(), "<bench>", max_input_bytes=1 << 30,
                    max_program_size=1 << 30)
    solver = solver_for(p)
    marks: list[float] = []
    count = 0
    for state in run([initial(p)], Strategy.BFS, solver, RunStats()):
        if state is None or count >= states:
            break
        if count % BLOCK == 0:
            marks.append(time.process_time())
        count += 1
    marks.append(time.process_time())
    spans = [b - a for a, b in zip(marks, marks[1:])]
    first, last = statistics.median(spans[:5]), statistics.median(spans[-5:])
    print(f"{count:,} states in {marks[-1] - marks[0]:.2f} s CPU; first {BLOCK:,}: "
          f"{spans[0]:.4f} s, last {BLOCK:,}: {spans[-1]:.4f} s (ratio "
          f"{spans[-1] / spans[0]:.2f}; medians of the first and last five blocks: "
          f"{last / first:.2f}); z3 queries {solver.stats.queries}", flush=True)


def parse_times(sizes: list[int]) -> None:
    """Parse a line of n `skip`s for each n; print CPU seconds per phase."""
    from symcert.core.state import initial
    from symcert.lang.parser import parse_bytes
    from symcert.solver.z3backend import solver_for

    for n in sizes:
        data = ";".join(["skip"] * n).encode()
        start = time.process_time()
        p = parse_bytes(data, "<bench>", max_input_bytes=1 << 30, max_program_size=1 << 30)
        parsed = time.process_time()
        solver_for(p), initial(p)
        ready = time.process_time()
        print(f"{n:>9,} skips: parse {parsed - start:6.2f} s ({(parsed - start) / n * 1e6:.1f} "
              f"µs/statement), solver_for + initial {ready - parsed:5.2f} s", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("modes", nargs="*", default=["array", "array-input", "skips", "parse"])
    ap.add_argument("--states", type=int)
    ap.add_argument("--sizes", type=int, nargs="+",
                    default=[50_000, 100_000, 200_000, 1_000_000])
    args = ap.parse_args()
    for mode in args.modes:
        print(f"{mode}: ", end="", flush=True)
        if mode in LOOPS:
            blocks(LOOPS[mode], args.states or 20_000)
        elif mode == "skips":
            n = args.states or 100_000
            blocks(";".join(["skip"] * n), n)
        elif mode == "parse":
            print()
            parse_times(args.sizes)
        else:
            ap.error(f"unknown mode {mode!r}")


if __name__ == "__main__":
    main()
