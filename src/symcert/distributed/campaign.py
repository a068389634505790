"""The differential campaign in chunks, on Dask distributed (seed 001, T-O1, at scale).

A campaign of `seed` is the programs `numbered(seed, 0)`, `numbered(seed, 1)`, ...: program `i`
depends on `(seed, i)` alone, so any process makes any program. `Chunk` names a range of them;
`check_chunk` checks a range with its own solver and says, for each program, whether it passed,
disagreed or ran over its budget. The chunks run

- one after the other in this process with one worker (no Dask at all), or
- as Dask tasks on a `LocalCluster` of one single-threaded worker process per core, or on the
  cluster of a running scheduler: each chunk a task with Dask's retries (an exception in the
  task) and the scheduler's own rescheduling when a worker dies (the chunk is counted as lost
  once per dead worker and rerun elsewhere, the client is told).

The client receives the chunks as they complete, writes one JSON line per chunk to the log and
combines them by program index, never by arrival: the disagreements (the first of each kind,
the lowest index), the counts and the programs checked are the same whatever the number of
workers. Without `keep_going` the campaign ends at its first disagreement, as the one-process
campaign does: the programs after it are not counted. `resume` reads a log's chunk lines and
checks only the chunks missing from it; a disagreement recorded there is made again from its
index (the programs are deterministic) to be shrunk.
"""

from __future__ import annotations

import json
import os
import socket
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator, TextIO

from symcert.checking.campaign import (
    DEFAULT_CHECKS, OBJECT_SOLVER_REFERENCES, OVER_BUDGET, Disagreement, Report, check_program,
    check_within, numbered, shape_of, shrink,
)
from symcert.solver.z3backend import Solver

CHUNK = 25
"""Programs per task: a few seconds of work, so the scheduler's cost per task (about a
millisecond) stays far below it, and a lost worker loses little."""


@dataclass(frozen=True, slots=True)
class Chunk:
    """Programs `start` to `stop - 1` of the campaign of `seed`, checked by `checks`."""

    seed: int
    start: int
    stop: int
    checks: tuple[str, ...] = DEFAULT_CHECKS
    objects: bool = False
    inputs_per_program: int = 3
    program_seconds: float | None = None
    keep_going: bool = False


@dataclass(frozen=True, slots=True)
class Checked:
    """What a chunk found: the programs checked (`start` to `stop - 1`: without `keep_going`,
    the chunk stops at its first disagreement), those over their budget, the disagreements by
    index, the seconds it took and where it ran."""

    start: int
    stop: int
    over_budget: tuple[int, ...] = ()
    disagreements: tuple[tuple[int, Disagreement], ...] = ()
    seconds: float = 0.0
    worker: str = ""

    def line(self, lost: int = 0) -> str:
        """The chunk's JSON line for the log (`lost`: workers that died while running it)."""
        return json.dumps({"chunk": self.start, "stop": self.stop,
                           "over_budget": list(self.over_budget),
                           "disagreements": [{"index": i, "kind": d.kind}
                                             for i, d in self.disagreements],
                           "seconds": round(self.seconds, 3), "worker": self.worker,
                           "lost_workers": lost})


def check_chunk(chunk: Chunk) -> Checked:
    """Check the programs of `chunk` in this process, with a solver of its own."""
    begin = time.perf_counter()
    shape = shape_of(chunk.checks, chunk.objects)
    solver = Solver(references=OBJECT_SOLVER_REFERENCES if chunk.objects else frozenset())
    over: list[int] = []
    found: list[tuple[int, Disagreement]] = []
    index = chunk.start
    while index < chunk.stop and (chunk.keep_going or not found):
        p, sigmas = numbered(chunk.seed, index, shape, chunk.inputs_per_program)
        outcome = (check_program(p, sigmas, solver, chunk.checks)
                   if chunk.program_seconds is None
                   else check_within(p, sigmas, solver, chunk.checks, chunk.program_seconds))
        if outcome == OVER_BUDGET:
            over.append(index)
        elif isinstance(outcome, Disagreement):
            found.append((index, outcome))
        index += 1
    return Checked(chunk.start, index, tuple(over), tuple(found), time.perf_counter() - begin,
                   f"{socket.gethostname()}:{os.getpid()}")


Task = Callable[[Chunk], Checked]
Progress = Callable[[Checked, int], None]
"""Told of each chunk as it completes, with the number of workers that died running it."""


@dataclass
class Combined:
    """The chunks received so far, by their first index."""

    chunks: dict[int, Checked] = field(default_factory=dict)

    def first_disagreement(self) -> int | None:
        """The lowest index at which a received chunk disagrees."""
        return min((i for c in self.chunks.values() for i, _ in c.disagreements), default=None)


def _chunks(programs: int, size: int, template: Chunk) -> list[Chunk]:
    return [Chunk(template.seed, start, min(start + size, programs), template.checks,
                  template.objects, template.inputs_per_program, template.program_seconds,
                  template.keep_going) for start in range(0, programs, size)]


def read_log(path: Path) -> dict[int, Checked]:
    """The chunks recorded in a campaign log, by first index (their disagreements by index
    and kind only: `resume` makes them again)."""
    done: dict[int, Checked] = {}
    for text in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(text)
        if "chunk" in record:
            done[record["chunk"]] = Checked(
                record["chunk"], record["stop"], tuple(record["over_budget"]),
                tuple((d["index"], Disagreement(d["kind"], None, None, ""))  # type: ignore[arg-type]
                      for d in record["disagreements"]), record["seconds"], record["worker"])
    return done


def _remade(index: int, template: Chunk, solver: Solver) -> Disagreement | None:
    """The disagreement of program `index`, checked again here (a resumed log's)."""
    p, sigmas = numbered(template.seed, index, shape_of(template.checks, template.objects),
                         template.inputs_per_program)
    return check_program(p, sigmas, solver, template.checks)


def _dask(chunks: list[Chunk], workers: int, scheduler: str | None, task: Task,
          combined: Combined, keep_going: bool) -> Iterator[tuple[Checked, int]]:
    """The chunks' results as they complete on Dask, with the workers lost running each; the
    chunks after a disagreement are cancelled (unless `keep_going`). A result read is released
    at once: the scheduler then forgets its task, so a worker that dies later costs only its
    chunks in flight, not the making again of every result it held."""
    from distributed import Client, LocalCluster, as_completed

    cluster = (LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                            dashboard_address=":0") if scheduler is None else None)
    try:
        with Client(scheduler if cluster is None else cluster) as client:
            futures = {client.submit(task, c, key=f"chunk-{c.seed}-{c.start}", retries=2,
                                     pure=False): c for c in chunks}
            for future in as_completed(list(futures)):
                if future.cancelled():
                    continue
                checked: Checked = future.result()
                key = future.key
                lost = client.run_on_scheduler(
                    lambda dask_scheduler: dask_scheduler.tasks[key].suspicious)
                del futures[future]
                future.release()
                yield checked, lost
                first = combined.first_disagreement()
                if not keep_going and first is not None:
                    client.cancel([f for f, c in futures.items() if c.start > first])
    finally:
        if cluster is not None:
            cluster.close()


def run_campaign(programs: int, template: Chunk, workers: int = 1, scheduler: str | None = None,
                 log: TextIO | None = None, resume: Path | None = None,
                 progress: Progress | None = None, chunk_size: int = CHUNK,
                 task: Task = check_chunk) -> Report:
    """The campaign of `template.seed` over `programs` programs, in chunks of `chunk_size`.

    :param template: the seed and what each chunk checks (its range is ignored).
    :param workers: 1 runs the chunks here, one after the other; more start a `LocalCluster`
        of that many worker processes, unless `scheduler` names a running one.
    :param log: receives one JSON line per chunk as it completes.
    :param resume: a log whose chunks are not checked again.
    :param progress: told of each chunk as it completes.
    :param task: what a worker runs on a chunk.
    """
    begin = time.perf_counter()
    combined = Combined(read_log(resume) if resume is not None else {})
    todo = [c for c in _chunks(programs, chunk_size, template) if c.start not in combined.chunks]
    if not template.keep_going and combined.first_disagreement() is not None:
        todo = [c for c in todo if c.start < (combined.first_disagreement() or 0)]
    results: Iterator[tuple[Checked, int]] = (
        ((task(c), 0) for c in todo) if workers == 1 and scheduler is None
        else _dask(todo, workers, scheduler, task, combined, template.keep_going))
    for checked, lost in results:
        combined.chunks[checked.start] = checked
        if log is not None:
            log.write(checked.line(lost) + "\n")
            log.flush()
        if progress is not None:
            progress(checked, lost)
        if not template.keep_going and workers == 1 and checked.disagreements:
            break
    return _report(combined, template, time.perf_counter() - begin)


def _report(combined: Combined, template: Chunk, seconds: float) -> Report:
    """The campaign's report from its chunks, by program index: up to the first disagreement
    without `keep_going`; the first disagreement of each kind found and shrunk."""
    last = combined.first_disagreement() if not template.keep_going else None
    within = [c for c in combined.chunks.values() if last is None or c.start <= last]
    checked = sum(min(c.stop, last + 1 if last is not None else c.stop) - c.start
                  for c in within)
    over = sum(1 for c in within for i in c.over_budget if last is None or i <= last)
    counts: dict[str, int] = {}
    found: dict[str, Disagreement] = {}
    solver = Solver(references=OBJECT_SOLVER_REFERENCES if template.objects else frozenset())
    for index, d in sorted((i, d) for c in within for i, d in c.disagreements
                           if last is None or i <= last):
        counts[d.kind] = counts.get(d.kind, 0) + 1
        if d.kind not in found:
            again = d if d.program is not None else _remade(index, template, solver)
            found[d.kind] = again if again is not None else d
    shrinking = time.perf_counter()
    minimised = {k: shrink(d, solver, checks=template.checks) if d.program is not None else d
                 for k, d in found.items()}
    spent = time.perf_counter() - shrinking
    return Report(checked, seconds, counts, found, minimised, spent, over)
