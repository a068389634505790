"""The longest single solver query, per program: no query runs away.

    python bench/queries.py [--seconds S] [--all-bugs] [PROGRAM...]

For each program (a path, or a case-study name of examples/; by default bench/nested_mod.imp,
which the differential campaign met, and every case study with `*`, `/` or `%`), `check` runs
in a child process with contracts off, every `Solver.check` timed; printed: the verdict (with
the reason when undecided), the queries that reached z3, the longest single query and the
whole check's time. The child is killed after `--seconds` (default 600): then the row says so
(a query ran away). `--all-bugs` explores past the first bug (bench/nested_mod.imp needs it to
reach its nested remainders; it is always on for that file). `--in-process` turns the
solver's per-query deadline off (every query in the checking process, as before it had one).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REPRODUCER = ROOT / "bench" / "nested_mod.imp"
NONLINEAR_STUDIES = ["isqrt", "mean", "gcd_mod", "divmod", "power", "factorial", "fact_rec",
                     "ackermann", "divsub_rec", "even_odd", "binsearch"]


def path_of(name: str) -> Path:
    """A program's file: a path, or a case study of examples/."""
    p = Path(name)
    return p if p.suffix == ".imp" else ROOT / "examples" / f"{name}.imp"


def measure(path: str, all_bugs: bool, isolate: bool = True) -> dict[str, object]:
    """The verdict of `check` on `path` and its longest query (run in the child)."""
    os.environ["SYMCERT_CONTRACTS"] = "0"
    from symcert.engine.verdict import Budget, check
    from symcert.lang.parser import parse_file
    from symcert.lang.syntax import Int
    from symcert.solver.z3backend import solver_for

    p = parse_file(path)
    solver = solver_for(p) if isolate else solver_for(p, deadline=None)
    solver.translate(Int(0))  # z3 loaded before the timer
    longest = [0.0]
    plain = solver.check

    def timed(*args: object, **kwargs: object) -> object:
        start = time.perf_counter()
        try:
            return plain(*args, **kwargs)  # type: ignore[arg-type]
        finally:
            longest[0] = max(longest[0], time.perf_counter() - start)

    solver.check = timed  # type: ignore[method-assign]
    start = time.perf_counter()
    verdict = check(p, Budget(all_bugs=all_bugs), solver)
    return {"verdict": verdict.kind.value,
            "reason": str(verdict.reason) if verdict.reason else "",
            "queries": solver.stats.queries, "unknown": solver.stats.unknown,
            "longest": longest[0], "seconds": time.perf_counter() - start}


def run(path: Path, all_bugs: bool, seconds: float,
        isolate: bool = True) -> dict[str, object] | None:
    """`measure` in a child process killed after `seconds` (None then)."""
    command = [sys.executable, __file__, "--one", str(path)] + (["--all-bugs"] if all_bugs else []) \
        + ([] if isolate else ["--in-process"])
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=seconds)
    except subprocess.TimeoutExpired:
        return None
    if done.returncode != 0:
        return {"verdict": f"crashed ({done.returncode})", "reason": done.stderr[-200:]}
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("programs", nargs="*")
    parser.add_argument("--seconds", type=float, default=600.0)
    parser.add_argument("--all-bugs", action="store_true")
    parser.add_argument("--in-process", action="store_true",
                        help="no per-query deadline: every query in the checking process")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        print(json.dumps(measure(args.one, args.all_bugs, not args.in_process)))
        return 0
    paths = [path_of(n) for n in args.programs] or [REPRODUCER] + [
        path_of(n + suffix) for n in NONLINEAR_STUDIES for suffix in ("", "_buggy")]
    print(f"{'program':<24} {'verdict':<10} {'queries':>8} {'unknown':>8} "
          f"{'longest query (s)':>18} {'check (s)':>10}  reason")
    for path in paths:
        row = run(path, args.all_bugs or path == REPRODUCER, args.seconds, not args.in_process)
        if row is None:
            print(f"{path.stem:<24} {'killed':<10} {'':>8} {'':>8} "
                  f"{'> ' + format(args.seconds, 'g'):>18} {'':>10}  still running after "
                  f"{args.seconds:g} s")
        else:
            print(f"{path.stem:<24} {row['verdict']:<10} {row.get('queries', 0):>8} "
                  f"{row.get('unknown', 0):>8} {row.get('longest', 0.0):>18.3f} "
                  f"{row.get('seconds', 0.0):>10.2f}  {row.get('reason', '')}")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
