"""Scaling on Dask distributed: campaign throughput and exploration time for 1 and 2 workers,
and the distributed path at one worker against the plain process (docs/bench.md, docs/scaling.md).

Each configuration runs `--repeats` times, alternating with the others (the machine is shared:
alternating spreads its load over all of them alike); the medians and their ratios go to
bench/results-scaling.json. A cluster's start-up is measured apart, not in the runs.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path
from typing import Callable

from symcert.checking.distributed import Chunk, run_campaign
from symcert.checking.explore_dask import on_dask
from symcert.engine.explore import run
from symcert.engine.partition import partitioned
from symcert.engine.verdict import Budget, Check
from symcert.lang.parser import parse

BENCH = Path(__file__).resolve().parent


def wide(branches: int) -> str:
    """`branches` independent tests in sequence: level `k` of the tree has 2^k states."""
    tests = "; ".join(f"if a{i} > {i} then x = x + {2 ** i} else x = x - 1 fi"
                      for i in range(branches))
    return f"x = 0; {tests}; assert x != {2 ** branches + 7}"


def timed(work: Callable[[], object]) -> float:
    begin = time.perf_counter()
    work()
    return time.perf_counter() - begin


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--programs", type=int, default=60, help="campaign programs per run")
    ap.add_argument("--branches", type=int, default=11, help="tests in the wide program")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--out", default=str(BENCH / "results-scaling.json"))
    args = ap.parse_args()

    from distributed import Client, LocalCluster

    started = time.perf_counter()
    one = LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=":0")
    two = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0")
    startup = (time.perf_counter() - started) / 2
    template = Chunk(11, 0, 0, ("main", "verdicts", "interp"), keep_going=True)
    program = parse(wide(args.branches))
    budget = Budget(max_states=10 ** 6, all_bugs=True)
    with Client(one) as c1, Client(two) as c2:
        runs: dict[str, Callable[[], object]] = {
            "campaign, plain process": lambda: run_campaign(args.programs, template, 1,
                                                            chunk_size=5),
            "campaign, Dask 1 worker": lambda: run_campaign(args.programs, template, 1,
                                                            one.scheduler_address, chunk_size=5),
            "campaign, Dask 2 workers": lambda: run_campaign(args.programs, template, 2,
                                                             two.scheduler_address, chunk_size=5),
            "run, plain process": lambda: Check(program, budget, explorer=run).run(),
            "run, Dask 1 worker": lambda: Check(program, budget,
                                                explorer=partitioned(1, on_dask(c1))).run(),
            "run, Dask 2 workers": lambda: Check(program, budget,
                                                 explorer=partitioned(2, on_dask(c2))).run(),
        }
        seconds: dict[str, list[float]] = {name: [] for name in runs}
        for _ in range(args.repeats):
            for name, work in runs.items():
                seconds[name].append(timed(work))
                print(f"{name}: {seconds[name][-1]:.2f} s", flush=True)
    one.close()
    two.close()
    median = {name: statistics.median(s) for name, s in seconds.items()}
    states = Check(program, budget).run().stats.states
    result = {
        "programs": args.programs, "branches": args.branches, "states": states,
        "repeats": args.repeats, "cluster_startup_s": round(startup, 2),
        "median_s": {k: round(v, 2) for k, v in median.items()},
        "seconds": seconds,
        "ratios": {
            "campaign: Dask 1 worker / plain": round(
                median["campaign, Dask 1 worker"] / median["campaign, plain process"], 2),
            "campaign: 2 workers / 1 worker (Dask)": round(
                median["campaign, Dask 2 workers"] / median["campaign, Dask 1 worker"], 2),
            "run: Dask 1 worker / plain": round(
                median["run, Dask 1 worker"] / median["run, plain process"], 2),
            "run: 2 workers / 1 worker (Dask)": round(
                median["run, Dask 2 workers"] / median["run, Dask 1 worker"], 2),
        },
    }
    Path(args.out).write_text(json.dumps(result, indent=1) + "\n")
    print(json.dumps(result["ratios"], indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
