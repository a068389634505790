"""The partitioned breadth-first exploration (engine/partition.py) on Dask distributed.

`OnDask(client, solver)` is a pool for `partition.partitioned`: part `i` lives on worker `i`
(modulo the workers), as the result of its last round, a Dask future that never comes back to
the client: a round is a task on the part's previous round (`step_on_worker`: `advance` with
the worker process's own solver, made once per process for the program's references, seed 003
§4), and only its summary, a second task, is gathered. So a state crosses the network only
when a rebalancing moves it (`cut` runs where the part lives, `join` where the new part will),
and the solver's caches, keyed by the states' identity, keep hitting from round to round. The
rounds are pure functions of their inputs, so Dask can make a lost worker's parts again from
their lineage (tests/unit/test_distributed.py kills a worker in a campaign and in an
exploration).
`explorer(workers, scheduler)` is what `symcert run --workers K` explores with.
"""

from __future__ import annotations

import atexit
from typing import Any, Callable, Sequence

from symcert.engine.explore import Explorer, run
from symcert.engine.partition import (
    Part, Pieces, Round, Summary, advance, cut, frontier, join, partitioned,
)
from symcert.solver.z3backend import Solver

_SOLVERS: dict[frozenset[str], Solver] = {}
"""Each worker process's solvers, by the references they range over."""


def step_on_worker(step: Round | Part, levels: int, references: frozenset[str] | None) -> Round:
    """`advance` in a worker, with its solver for `references` (None: no solver)."""
    if references is None:
        return advance(frontier(step), levels, None)
    if references not in _SOLVERS:
        _SOLVERS[references] = Solver(references=references)
    return advance(frontier(step), levels, _SOLVERS[references])


def summary(step: Round) -> Summary:
    """What the client gathers of a round."""
    return step.summary


class OnDask:
    """The pool whose parts live on the workers of a Dask client; the workers step a round
    while the client reads the last one."""

    ahead = True
    own_solvers = True

    def __init__(self, client: Any, solver: Solver | None,
                 step: Callable[..., Round] = step_on_worker) -> None:
        self.client = client
        self.references = solver.references if solver is not None else None
        self.workers = sorted(client.scheduler_info()["workers"])
        self.step = step

    def _on(self, i: int) -> dict[str, Any]:
        """Where part `i` is placed: its worker if it is alive, else anywhere."""
        where = {"workers": [self.workers[i % len(self.workers)]], "allow_other_workers": True}
        return {**(where if self.workers else {}), "pure": False, "retries": 2}

    def advance(self, handles: Sequence[Any], levels: int) -> tuple[list[Any], Any]:
        rounds = [self.client.submit(self.step, h, levels, self.references, **self._on(i))
                  for i, h in enumerate(handles)]
        return rounds, [self.client.submit(summary, r, **self._on(i))
                        for i, r in enumerate(rounds)]

    def summaries(self, pending: Any) -> list[Summary]:
        return list(self.client.gather(pending))

    def regroup(self, handles: Sequence[Any], how: Pieces) -> list[Any]:
        cuts = {(i, a, b): self.client.submit(cut, handles[i], a, b, **self._on(i))
                for new in how for i, a, b in new}
        return [self.client.submit(join, [cuts[p] for p in new], **self._on(j))
                for j, new in enumerate(how)]

    def release(self, handles: Sequence[Any]) -> None:
        self.client.cancel([h for h in handles if hasattr(h, "key")])


def on_dask(client: Any, step: Callable[..., Round] = step_on_worker) -> Any:
    """The pool factory for `partitioned` on the workers of `client`, whose rounds are `step`
    (a test plants a crash in it)."""
    return lambda solver: OnDask(client, solver, step)


def local_cluster(workers: int) -> Any:
    """A `LocalCluster` of `workers` single-threaded worker processes, without Dask's
    statistical profiler in the workers (it samples the running task's stack every 10 ms: a
    tenth of a worker's process time on `bench/scaling.py`'s exploration)."""
    import dask
    from distributed import LocalCluster

    with dask.config.set({"distributed.worker.profile.enabled": False}):
        return LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                            dashboard_address=":0")


def explorer(workers: int, scheduler: str | None) -> Explorer:
    """`run` for one worker and no scheduler; else the partitioned exploration on a
    `LocalCluster` of `workers` processes, or on the cluster of `scheduler`, closed at exit."""
    if workers == 1 and scheduler is None:
        return run
    from distributed import Client

    cluster = local_cluster(workers) if scheduler is None else None
    client = Client(scheduler if cluster is None else cluster)
    atexit.register(client.close)
    if cluster is not None:
        atexit.register(cluster.close)
    parts = workers if scheduler is None else max(1, len(client.scheduler_info()["workers"]))
    return partitioned(parts, on_dask(client))
