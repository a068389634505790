"""Scaling on Dask distributed: campaign throughput and exploration time for 1, 2 and 4
workers, and the distributed path at one worker against the plain process (docs/bench.md,
docs/scaling.md).

Each configuration runs `--repeats` times, alternating with the others (the machine is shared:
alternating spreads its load over all of them alike), after a small run on every cluster (the
workers' imports and solvers); the medians and their ratios go to bench/results-scaling.json.
The clusters' start-up is measured apart, not in the runs. The distributed path at one
worker is timed against the plain process with its cluster alone; then the three clusters
(whose schedulers share this process) time 1, 2 and 4 workers against each other. The
exploration runs `check` with every bug of `wide(n)` (a tree of about 7 · 2^n states) and of
`lopsided(n)` (one branch `wide(n)`, the other ending after six tests: the part that holds it
runs dry and is given states by the other, `partition.pieces`).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path
from typing import Any, Callable

from symcert.distributed.campaign import Chunk, run_campaign
from symcert.distributed.explore import local_cluster, on_dask
from symcert.engine.explore import run
from symcert.engine.partition import partitioned
from symcert.engine.verdict import Budget, Check
from symcert.lang.parser import parse

BENCH = Path(__file__).resolve().parent
WORKERS = (1, 2, 4)


def tests(branches: int, var: str = "a") -> str:
    """`branches` independent tests in sequence: level `k` of the tree has 2^k states."""
    return "; ".join(f"if {var}{i} > {i} then x = x + {2 ** i} else x = x - 1 fi"
                     for i in range(branches))


def wide(branches: int) -> str:
    """`branches` independent tests, then an assertion no path violates."""
    return f"x = 0; {tests(branches)}; assert x != {2 ** branches + 7}"


def lopsided(branches: int) -> str:
    """A first test whose one branch is `wide(branches)` and the other six tests."""
    return (f"x = 0; if c > 0 then {tests(branches)} else {tests(6, 'b')} fi; "
            f"assert x != {2 ** branches + 7}")


def timed(work: Callable[[], object]) -> float:
    begin = time.perf_counter()
    work()
    return time.perf_counter() - begin


def alternated(runs: dict[str, Callable[[], object]], repeats: int,
               seconds: dict[str, list[float]]) -> None:
    """Time each run `repeats` times, one after the other in turn, into `seconds`."""
    for _ in range(repeats):
        for name, work in runs.items():
            seconds.setdefault(name, []).append(timed(work))
            print(f"{name}: {seconds[name][-1]:.2f} s", flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--programs", type=int, default=40, help="campaign programs per run")
    ap.add_argument("--branches", type=int, default=14, help="tests in the wide program")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--out", default=str(BENCH / "results-scaling.json"))
    args = ap.parse_args()

    from distributed import Client

    template = Chunk(11, 0, 0, ("main", "verdicts", "interp"), keep_going=True)
    programs = {"wide": parse(wide(args.branches)), "lopsided": parse(lopsided(args.branches))}
    budget = Budget(max_states=10 ** 7, all_bugs=True)
    clusters: dict[int, Any] = {}
    clients: dict[int, Any] = {}
    started: dict[int, float] = {}

    def start(k: int) -> None:  # each worker imports symcert and makes its solver first
        begin = time.perf_counter()
        clusters[k] = local_cluster(k)
        clients[k] = Client(clusters[k])
        started[k] = round(time.perf_counter() - begin, 2)
        run_campaign(2 * k, template, k, clusters[k].scheduler_address, chunk_size=1)
        Check(parse(wide(8)), budget, explorer=partitioned(k, on_dask(clients[k]), 1, 4)).run()

    def runs(ks: tuple[int, ...], plain: bool) -> dict[str, Callable[[], object]]:
        out: dict[str, Callable[[], object]] = {}
        if plain:
            out["campaign, plain process"] = lambda: run_campaign(args.programs, template, 1,
                                                                  chunk_size=5)
        for k in ks:
            out[f"campaign, Dask {k}"] = (lambda k=k: run_campaign(
                args.programs, template, k, clusters[k].scheduler_address, chunk_size=5))
        for name, program in programs.items():
            if plain:
                out[f"{name}, plain process"] = (lambda p=program: Check(p, budget,
                                                                          explorer=run).run())
            for k in ks:
                out[f"{name}, Dask {k}"] = (lambda p=program, k=k: Check(
                    p, budget, explorer=partitioned(k, on_dask(clients[k]))).run())
        return out

    # The overhead at one worker, with its cluster alone (a cluster's scheduler runs in this
    # process: idle ones would slow the client); then 1, 2 and 4 workers with all three.
    overhead: dict[str, list[float]] = {}
    start(1)
    alternated(runs((1,), plain=True), args.repeats, overhead)
    scaling: dict[str, list[float]] = {}
    for k in WORKERS[1:]:
        start(k)
    alternated(runs(WORKERS, plain=False), args.repeats, scaling)
    for k in WORKERS:
        clients[k].close()
        clusters[k].close()
    median = {phase: {name: statistics.median(s) for name, s in seconds.items()}
              for phase, seconds in (("overhead", overhead), ("scaling", scaling))}
    ratios = {}
    for what in ("campaign", *programs):
        ratios[f"{what}: Dask 1 / plain"] = round(
            median["overhead"][f"{what}, Dask 1"] / median["overhead"][f"{what}, plain process"],
            2)
        for k in WORKERS[1:]:
            ratios[f"{what}: Dask {k} / Dask 1"] = round(
                median["scaling"][f"{what}, Dask {k}"] / median["scaling"][f"{what}, Dask 1"], 2)
    result = {
        "programs": args.programs, "branches": args.branches,
        "states": {name: Check(p, budget).run().stats.states for name, p in programs.items()},
        "repeats": args.repeats, "cluster_startup_s": started,
        "median_s": {phase: {k: round(v, 2) for k, v in m.items()} for phase, m in median.items()},
        "seconds": {"overhead": overhead, "scaling": scaling}, "ratios": ratios,
    }
    Path(args.out).write_text(json.dumps(result, indent=1) + "\n")
    print(json.dumps(result["ratios"], indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
