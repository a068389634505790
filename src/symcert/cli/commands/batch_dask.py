"""`symcert run DIR|FILE... --workers K | --scheduler ADDRESS`: the programs checked as tasks
on Dask, on a `LocalCluster` of K worker processes or on the workers of a running scheduler,
instead of `--jobs` local processes; batch.py makes the same report and exit code of them.

Each task sends a program's text, not its path (a worker may be another machine), to
`check_source`, which runs `symcert run - --json` with the run's options in a child process of
the worker; a file the client cannot read is left to the client (None), so its error is the
one without Dask. The results come back in the files' order, each task with Dask's retries: a
worker that dies loses no program.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Iterator

Done = tuple[int, bytes, bytes]
"""A child's exit code, standard output and standard error."""


def check_source(argv: list[str], source: bytes, env: dict[str, str]) -> Done:
    """Run `argv` (`symcert run - --json ...`) on `source` in a child process of this worker,
    with this worker's Python."""
    import subprocess

    done = subprocess.run([sys.executable, *argv[1:]], input=source, capture_output=True,
                          env=env)
    return done.returncode, done.stdout, done.stderr


def run_all(args: argparse.Namespace, files: list[str], argv: list[str],
            env: dict[str, str]) -> Iterator[Done | None]:
    """What checking each of `files` gave, in their order, each as a task on Dask (None for a
    file this process cannot read)."""
    from distributed import Client, LocalCluster

    cluster = (LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                            dashboard_address=":0") if args.scheduler is None else None)
    try:
        with Client(args.scheduler if cluster is None else cluster) as client:
            futures = []
            for file in files:
                try:
                    source = sys.stdin.buffer.read() if file == "-" else Path(file).read_bytes()
                except OSError:
                    futures.append(None)
                    continue
                futures.append(client.submit(check_source, argv, source, env, pure=False,
                                             retries=2))
            for future in futures:
                yield None if future is None else future.result()
    finally:
        if cluster is not None:
            cluster.close()
