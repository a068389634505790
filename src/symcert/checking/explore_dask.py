"""The partitioned breadth-first exploration (engine/partition.py) on Dask distributed.

`on_dask(client)` is a mapper for `partition.partitioned`: a level's parts go to the cluster's
workers as tasks (`client.map`, with Dask's retries), each stepped there by `expand_part` with
the worker process's own solver, made once per process for the program's references (seed 003
§4); the levels come back in the parts' order. A level of fewer than `LOCAL` states is stepped
in the caller's process with the caller's solver: a task round trip costs more than it saves.
`explorer(workers, scheduler)` is what `symcert run --workers K` explores with.
"""

from __future__ import annotations

import atexit
from typing import Any, Callable, Sequence

from symcert.engine.explore import Explorer, run
from symcert.engine.partition import Level, Mapper, Part, expand_part, partitioned
from symcert.solver.z3backend import Solver

LOCAL = 64
"""Levels smaller than this are stepped in the caller's process."""

_SOLVERS: dict[frozenset[str], Solver] = {}
"""Each worker process's solvers, by the references they range over."""


def step_on_worker(part: Part, references: frozenset[str] | None) -> Level:
    """`expand_part` in a worker, with its solver for `references` (None: no solver)."""
    if references is None:
        return expand_part(part, None)
    if references not in _SOLVERS:
        _SOLVERS[references] = Solver(references=references)
    return expand_part(part, _SOLVERS[references])


def on_dask(client: Any) -> Callable[[Solver | None], Mapper]:
    """The mapper factory that steps large levels' parts on the workers of `client`."""

    def make(solver: Solver | None) -> Mapper:
        references = solver.references if solver is not None else None

        def mapper(parts: Sequence[Part]) -> list[Level]:
            if sum(len(p.states) for p in parts) < LOCAL:
                return [expand_part(p, solver) for p in parts]
            futures = client.map(step_on_worker, list(parts), [references] * len(parts),
                                 pure=False, retries=2)
            return list(client.gather(futures))

        return mapper

    return make


def explorer(workers: int, scheduler: str | None) -> Explorer:
    """`run` for one worker and no scheduler; else the partitioned exploration on a
    `LocalCluster` of `workers` processes, or on the cluster of `scheduler`, closed at exit."""
    if workers == 1 and scheduler is None:
        return run
    from distributed import Client, LocalCluster

    cluster = (LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                            dashboard_address=":0") if scheduler is None else None)
    client = Client(scheduler if cluster is None else cluster)
    atexit.register(client.close)
    if cluster is not None:
        atexit.register(cluster.close)
    parts = workers if scheduler is None else max(1, len(client.scheduler_info()["workers"]))
    return partitioned(parts, on_dask(client))
