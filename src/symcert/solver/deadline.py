# crosshair: off
# (forks the process: nothing for CrossHair to analyse, and a fork under analysis would run twice)
"""A solver query where it can be stopped: in a forked child process with a deadline.

z3 can spend minutes inside one C call (an assertion of nested nonlinear terms) that neither its
resource limit nor an interrupt stops; only the end of a process stops it. `within` runs a
query in a forked copy of the caller (its z3 context and caches included, so nothing is sent
but the answer) and kills it at the deadline: the caller then stands for UNKNOWN, whose cause is
the deadline (`SolverStats.deadlines`), never SAFE nor a bug. Plain standard library: `os.fork`,
a pipe, `select`, `pickle`, and a CPU limit on the child.
"""

from __future__ import annotations

import math
import os
import pickle
import resource
import select
import signal
import time
from typing import Callable, TypeVar

T = TypeVar("T")

QUERY_SECONDS = 10.0
"""The default deadline of one isolated query, in seconds of wall-clock time: no `symcert`
command waits longer on one query, with or without `--timeout` (docs/cli.md)."""


class ChildFailed(RuntimeError):
    """The query raised in its child: an error of the engine, reported as such (exit 70)."""


def within(seconds: float, work: Callable[[], T]) -> T | None:
    """`work()` computed in a forked child; None when it has not answered within `seconds`
    (the child is then killed). An exception in the child is raised here as `ChildFailed`.

    :param seconds: the deadline, wall-clock, from the fork.
    :param work: what to compute; its result must pickle.
    """
    read, write = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover (the child ends with os._exit)
        os.close(read)
        # A child outlives a caller that ends while it works (the CLI's budget ends the process
        # two seconds after its deadline): the kernel stops it once its CPU time passes the
        # deadline, which its wall-clock time passes first.
        limit = math.ceil(seconds) + 1
        resource.setrlimit(resource.RLIMIT_CPU, (limit, limit + 1))
        try:
            data = pickle.dumps((True, work()))
        except BaseException as err:  # the parent raises it, with its message
            data = pickle.dumps((False, f"{type(err).__name__}: {err}"))
        with os.fdopen(write, "wb") as out:
            out.write(data)
        os._exit(0)
    os.close(write)
    chunks: list[bytes] = []
    deadline = time.monotonic() + seconds
    ended = False
    try:
        while (left := deadline - time.monotonic()) > 0:
            ready, _, _ = select.select([read], [], [], left)
            if not ready:
                break
            chunk = os.read(read, 1 << 16)
            if chunk:
                chunks.append(chunk)
                continue
            ended = True
            _, status = os.waitpid(child, 0)
            if not chunks:  # killed, or z3 aborted the process
                raise ChildFailed(f"the query's process ended without an answer ({status})")
            ok, value = pickle.loads(b"".join(chunks))
            if not ok:
                raise ChildFailed(value)
            return value  # type: ignore[no-any-return]
        return None
    finally:  # on the deadline, or an exception raised while waiting: the child ends now
        os.close(read)
        if not ended:
            os.kill(child, signal.SIGKILL)
            os.waitpid(child, 0)
