"""Concrete runs with arrays: `symcert exec` of N array writes, against N.

    python bench/concrete_arrays.py [--sizes N,N,...] [--src NAME=SRC ...] [--timeout S]

The program is the array loop `i = 0; while i < N do a[i] = i; i = i + 1 od; assert a[5] == 5`,
N writes of distinct cells (5·N + 5 steps of Fig. 2), run as a user types it: `python -m
symcert exec --max-steps 5N+5 FILE`, one subprocess per run, contracts off, stdout discarded
(the final state lists N cells). Reported per N: wall and CPU seconds of the whole process
(start-up and the printing of the final state included, `os.wait4`), and CPU microseconds per
write; an array whose write copies the array makes the last column grow with N (quadratic
total), a logarithmic write keeps it nearly flat. `--src NAME=SRC` runs the package at SRC
(`PYTHONPATH=SRC`) to compare revisions: `git archive REV src | tar -x -C DIR`, then `--src
before=DIR/src --src after=src`. A run past `--timeout` is stopped and shown as such.
Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def program(n: int) -> str:
    """The array loop of `n` writes."""
    return f"i = 0; while i < {n} do a[i] = i; i = i + 1 od; assert a[5] == 5\n"


def run_once(src: str, n: int, timeout: float) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds, problem or "") of `symcert exec` on the loop of `n` writes."""
    env = {k: v for k, v in os.environ.items() if k != "SYMCERT_CONTRACTS"}
    env["PYTHONPATH"] = str(Path(src).resolve())
    with tempfile.TemporaryDirectory() as folder, tempfile.TemporaryFile() as out:
        path = Path(folder) / f"loop{n}.imp"
        path.write_text(program(n))
        argv = [sys.executable, "-m", "symcert", "exec", "--max-steps", str(5 * n + 5), str(path)]
        start = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, env=env)
        timer = threading.Timer(timeout, proc.kill)
        timer.start()
        _, status, usage = os.wait4(proc.pid, 0)
        timer.cancel()
        wall = time.perf_counter() - start
        out.seek(0)
        text = out.read().decode("utf-8", "replace")
    cpu = usage.ru_utime + usage.ru_stime
    code = os.waitstatus_to_exitcode(status)
    if wall >= timeout:
        return wall, cpu, f"stopped after {timeout:.0f} s"
    if code != 0 or f"finished after {5 * n + 5}" not in text.replace(",", ""):
        return wall, cpu, f"exit {code}: {text[:300]}"
    return wall, cpu, ""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="5000,10000,20000,100000,1000000")
    parser.add_argument("--src", action="append", default=[], metavar="NAME=SRC")
    parser.add_argument("--timeout", type=float, default=600.0)
    args = parser.parse_args()
    sources = [s.split("=", 1) for s in args.src] or [["this checkout", str(ROOT / "src")]]
    print(f"load average at the start: {os.getloadavg()[0]:.1f}\n")
    print("| N | revision | wall s | CPU s | CPU µs per write |")
    print("|---|---|---|---|---|")
    for n in (int(s) for s in args.sizes.split(",")):
        for name, src in sources:
            wall, cpu, problem = run_once(src, n, args.timeout)
            per = "–" if cpu != cpu else f"{cpu / n * 1e6:,.1f}"
            shown = problem or f"{wall:.2f}"
            print(f"| {n:,} | {name} | {shown} | {cpu:.2f} | {per} |", flush=True)
    print(f"\nload average at the end: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
