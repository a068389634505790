"""The cost of the runtime contracts: the same `symcert run` workloads with contracts on vs off.

Each example program runs as `symcert run FILE --all-bugs --max-states N`, once plain and once
with `--contracts` (contracts are decided at import, so each run is a fresh process; the
process start-up is in both figures). Each configuration is repeated and the fastest run kept,
which is the figure least disturbed by other load. Prints one line per program and the ratio of
the totals; the exit code is 0 unless a run fails (exit code other than 0, 1 or 3).

    python bench/contracts_overhead.py [--max-states N] [--repeat R] [FILE ...]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VERDICTS = (0, 1, 3)  # safe, bug found, undecided within the budget


def timed_run(path: Path, max_states: int, contracts: bool) -> float:
    """Wall time of one `symcert run`; raises if it does not end with a verdict."""
    argv = [sys.executable, "-m", "symcert", "run", str(path), "--all-bugs",
            "--max-states", str(max_states), *(["--contracts"] if contracts else [])]
    env = {k: v for k, v in os.environ.items() if k != "SYMCERT_CONTRACTS"}
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode not in VERDICTS:
        raise RuntimeError(f"{path.name}: exit {done.returncode}\n{done.stderr}")
    return seconds


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*", type=Path, metavar="FILE",
                    help="IMP programs (default: examples/*.imp)")
    ap.add_argument("--max-states", type=int, default=2000, metavar="N")
    ap.add_argument("--repeat", type=int, default=3, metavar="R")
    args = ap.parse_args(argv)
    files = args.files or sorted((ROOT / "examples").glob("*.imp"))
    total = {False: 0.0, True: 0.0}
    print(f"{'program':24} {'off (s)':>8} {'on (s)':>8} {'ratio':>6}")
    try:
        for path in files:
            best = {c: min(timed_run(path, args.max_states, c) for _ in range(args.repeat))
                    for c in (False, True)}
            for c in best:
                total[c] += best[c]
            print(f"{path.name:24} {best[False]:8.2f} {best[True]:8.2f} "
                  f"{best[True] / best[False]:6.2f}")
    except RuntimeError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    print(f"{'total':24} {total[False]:8.2f} {total[True]:8.2f} "
          f"{total[True] / total[False]:6.2f}")
    print(f"contracts on / off: {total[True] / total[False]:.2f}x over {len(files)} programs "
          f"(--max-states {args.max_states}, best of {args.repeat})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
