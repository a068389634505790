"""Partial-order reduction (B-X5) on independent threads: states explored with and without it.

    python bench/threads_por.py [--threads N] [--steps K] [--cap S]

The program spawns N workers; each runs K steps on its own locals (`var a = k`, arithmetic on
`a`, `return a`), so every pair of steps of different workers is independent and the reduced
exploration should take one interleaving. Measured: the states `run` explores with the
reduction (to the end), and without it (`--por off`) up to `--cap` states and the time; the
*naive count* is the size of the full interleaving tree, computed by counting, for each vector
of progress (main's, each worker's), the interleavings that reach it (main starts worker i at
its i-th step). For small sizes the unreduced exploration ends and is checked against the
count. Contracts off (as `symcert run` by default). Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
import time
from pathlib import Path

os.environ.pop("SYMCERT_CONTRACTS", None)
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from symcert.core.state import initial  # noqa: E402
from symcert.engine.explore import run  # noqa: E402
from symcert.engine.por import reducing  # noqa: E402
from symcert.lang.parser import parse  # noqa: E402
from symcert.solver.z3backend import solver_for  # noqa: E402


def program(threads: int, steps: int) -> str:
    """N workers of K steps each (the last `return a`), spawned by the main statement."""
    body = ["var a = k"] + [f"a = a + {i}" for i in range(1, steps - 1)] + ["return a"]
    spawns = "; ".join(f"spawn w({i})" for i in range(threads))
    return f"proc w(k) begin {'; '.join(body[:steps])} end\n{spawns}"


def naive(threads: int, steps: int) -> int:
    """The nodes of the full interleaving tree: the sum over the progress vectors of the
    interleavings that reach them."""

    @functools.cache
    def paths(main: int, done: tuple[int, ...]) -> int:  # interleavings reaching this vector
        if main == 0:
            return 1
        total = 0
        if main > 0 and done[main - 1] == 0:  # the last step was main's i-th spawn
            total += paths(main - 1, done[:main - 1] + done[main:])
        for i, d in enumerate(done):
            if d > 0:
                total += paths(main, done[:i] + (d - 1,) + done[i + 1:])
        return total

    def vectors(main: int) -> list[tuple[int, ...]]:
        out: list[tuple[int, ...]] = [()]
        for _ in range(main):
            out = [v + (d,) for v in out for d in range(steps + 1)]
        return out

    return sum(paths(m, v) for m in range(threads + 1) for v in vectors(m))


def explore(text: str, reduce: bool, cap: int) -> tuple[int, bool, float]:
    """States explored (at most `cap`), whether the run ended, seconds."""
    p = parse(text)
    began = time.perf_counter()
    n = 0
    with reducing(reduce):
        for s in run([initial(p)], solver=solver_for(p)):
            if s is None:
                return n, True, time.perf_counter() - began
            n += 1
            if n >= cap:
                return n, False, time.perf_counter() - began
    raise AssertionError("run is an infinite stream")


def main() -> int:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--threads", type=int, default=6)
    args.add_argument("--steps", type=int, default=5)
    args.add_argument("--cap", type=int, default=20_000)
    a = args.parse_args()
    print("| threads × steps | naive count | reduced: states, s | unreduced: states, s |")
    print("|---|---|---|---|")
    sizes = [(2, 3), (3, 3), (2, 5), (a.threads, a.steps)]
    for n, k in sizes:
        text = program(n, k)
        count = naive(n, k)
        r, r_done, r_s = explore(text, True, a.cap)
        u, u_done, u_s = explore(text, False, min(a.cap, count + 1))
        if u_done:
            assert u == count, (n, k, u, count)
        print(f"| {n} × {k} | {count:,} | {r:,}{'' if r_done else ' (cut)'}, {r_s:.2f} | "
              f"{u:,}{'' if u_done else ' (cut at the cap)'}, {u_s:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
