"""Two checkouts of symcert on the bench programs, alternating: did a change slow symcert down?

    python bench/revisions.py BEFORE_SRC AFTER_SRC [--repeats R] [--quick]

Each program of bench/programs.py (the full suite without the million-state row, or `--quick`'s)
runs as `symcert run FILE --json --max-states 200000` in a fresh process with `PYTHONPATH` set to
one checkout's `src`, the two checkouts alternating which goes first; time-to-verdict is the
median of the repeats as symcert reports it (`seconds`: from reading the file to the verdict),
and the wall time of the process is kept too. Prints a table with the after/before ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from programs import programs  # noqa: E402


def once(src: str, path: str) -> tuple[float, float, str]:
    """(symcert's seconds, wall seconds, verdict) of one run."""
    env = dict(os.environ, PYTHONPATH=src, SYMCERT_CONTRACTS="0")
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "symcert", "run", path, "--json",
                           "--max-states", "200000"], env=env, capture_output=True, text=True,
                          timeout=600)
    wall = time.perf_counter() - start
    last = json.loads(done.stdout.strip().splitlines()[-1])
    return last["seconds"], wall, last["verdict"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for prog in programs(args.quick):
            path = Path(tmp) / (prog.name.replace(":", "_") + ".imp")
            path.write_text(prog.source)
            runs: dict[str, list[tuple[float, float, str]]] = {"before": [], "after": []}
            for i in range(args.repeats):
                order = ("before", "after") if i % 2 == 0 else ("after", "before")
                for which in order:
                    runs[which].append(once(getattr(args, which), str(path)))
            med = {w: (statistics.median(r[0] for r in rs), statistics.median(r[1] for r in rs),
                       {r[2] for r in rs}) for w, rs in runs.items()}
            rows.append((prog.name, med["before"], med["after"]))
            b, a = med["before"], med["after"]
            print(f"| {prog.name} | {b[0]:.3f} | {a[0]:.3f} | {a[0] / max(b[0], 1e-9):.2f} "
                  f"| {b[1]:.2f} | {a[1]:.2f} | {'/'.join(sorted(b[2]))} "
                  f"| {'/'.join(sorted(a[2]))} |", flush=True)
    ratios = [a[0] / b[0] for _, b, a in rows if b[0] > 0.05]
    if ratios:
        print(f"geometric mean of after/before over the {len(ratios)} programs above 0.05 s: "
              f"{statistics.geometric_mean(ratios):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
