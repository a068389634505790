"""In-process measurements the command line does not expose, one per subprocess.

`python bench/probe.py depth FILE`: explores FILE breadth-first with a solver and prints, as
JSON, the mean time per state for the states at a few depths (per-state cost must not grow with
the path length). `python bench/probe.py frontier FILE N`: explores N states and prints the
frontier size and the peak RSS at every tenth of the run (memory must follow the frontier).
Contracts are off (SYMCERT_CONTRACTS unset), as for a user's `symcert run`.
"""

from __future__ import annotations

import json
import resource
import sys
import time

DEPTHS = (100, 1_000, 10_000, 50_000)
WINDOW = 50


def depth(path: str) -> dict[str, object]:
    """Seconds per state at the depths of DEPTHS (within ±WINDOW steps)."""
    from symcert.engine.explore import RunStats, Strategy, run
    from symcert.lang.parser import parse_file
    from symcert.solver.z3backend import Solver
    from symcert.core.state import initial

    spent = {d: 0.0 for d in DEPTHS}
    count = {d: 0 for d in DEPTHS}
    stats = RunStats()
    last = time.perf_counter()
    for state in run([initial(parse_file(path))], Strategy.BFS, Solver(), stats):
        now = time.perf_counter()
        if state is None:
            break
        for d in DEPTHS:
            if abs(state.depth - d) <= WINDOW:
                spent[d] += now - last
                count[d] += 1
        last = now
    return {"file": path, "states": stats.yielded, "rows": [
        {"depth": d, "states": count[d],
         "states_per_second": count[d] / spent[d] if spent[d] else None}
        for d in DEPTHS if count[d]]}


def frontier(path: str, n: int) -> dict[str, object]:
    """Frontier size and peak RSS after every tenth of `n` states."""
    from symcert.engine.explore import RunStats, Strategy, run
    from symcert.lang.parser import parse_file
    from symcert.solver.z3backend import Solver
    from symcert.core.state import initial

    stats = RunStats()
    marks = {n * k // 10 for k in range(1, 11)}
    rows = []
    start = time.perf_counter()
    for state in run([initial(parse_file(path))], Strategy.BFS, Solver(), stats):
        if state is None:
            break
        if stats.yielded in marks:
            rows.append({"states": stats.yielded, "frontier": stats.frontier,
                         "depth": state.depth,
                         "seconds": time.perf_counter() - start,
                         "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024})
            if stats.yielded >= n:
                break
    return {"file": path, "rows": rows}


def main() -> None:
    what = sys.argv[1]
    if what == "depth":
        result = depth(sys.argv[2])
    elif what == "frontier":
        result = frontier(sys.argv[2], int(sys.argv[3]))
    else:
        sys.exit(f"probe.py: unknown measurement {what!r} (depth or frontier)")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
