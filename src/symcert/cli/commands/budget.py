"""The budget of one `symcert` command: a wall-clock deadline (`--timeout S`) that covers every
phase of the command (reading, parsing, exploring, replaying, reporting), and the phase it is
in, so that running out of time or memory says where.

The command runs in a worker thread with a large stack (deeply nested programs must not overflow
the C stack), and Python runs signal handlers in the main thread only, so an alarm signal cannot
interrupt the work. Instead the main thread waits for the worker until the deadline and then
raises `BudgetExceeded` inside it (`PyThreadState_SetAsyncExc`): as with an alarm handler's
exception, it arrives between two bytecodes of whatever the worker runs (lark's parser, the
exploration loop, a replay). A C call under way (a solver query, bounded by its resource limit)
finishes first; if the worker has not stopped `GRACE` seconds after the deadline, the main thread
reports for it.
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time
from typing import Any, Callable

from symcert.lang.errors import EXIT_UNDECIDED
from symcert.solver.interrupts import Z3_CALLS

EXIT_INTERNAL = 70
GRACE = 2.0
STACK_BYTES = 512 * 1024 * 1024


class BudgetExceeded(BaseException):
    """Raised inside a command when its time budget ran out. A BaseException, as
    KeyboardInterrupt is, so that no `except Exception` on the way can swallow it."""


def positive(text: str) -> int:
    """An argparse type: an integer > 0."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be positive: {text}")
    return value


def positive_float(text: str) -> float:
    """An argparse type: a finite number > 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"must be positive and finite: {text}")
    return value


class Deadline:
    """The time budget of one command (`seconds`, None for none) and the phase the command is
    in, which the command sets as it goes (`enter`)."""

    def __init__(self, seconds: float | None, leave_process: bool = False) -> None:
        self.seconds = seconds
        self.leave_process = leave_process  # a worker left stuck ends the process (`_leave`)
        self.phase = "starting"
        self.started = time.perf_counter()  # what `seconds` of a report count from
        self._lock = threading.Lock()
        self._finished = False

    def enter(self, phase: str) -> None:
        """The command now does `phase` ("parsing prog.imp", "exploring", ...)."""
        self.phase = phase

    def reason(self) -> str:
        """Why the command stopped when the time ran out."""
        return f"the time budget (--timeout {self.seconds:g} s) ran out while {self.phase}"

    def out_of_memory(self) -> str:
        """Why the command stopped on a MemoryError."""
        return f"memory ran out while {self.phase}"

    def run(self, work: Callable[[], int]) -> int:
        """Run `work` (which reports a BudgetExceeded itself) in a thread with a large stack,
        within the budget; return its exit code, or 3 when it did not stop in time."""
        codes: list[int] = []

        def target() -> None:
            code = None
            try:
                code = work()
                self._finish()
            except BudgetExceeded:  # it escaped the command's handlers, or came after them
                if code is None:
                    print(f"symcert: undecided: {self.reason()}", file=sys.stderr)
                    code = EXIT_UNDECIDED
            codes.append(code)

        hook = sys.unraisablehook
        sys.unraisablehook = _quiet(hook)
        previous = threading.stack_size(STACK_BYTES)
        worker = threading.Thread(target=target, name="symcert", daemon=True)
        try:
            worker.start()
        except RuntimeError:  # the stack does not fit in the memory limit (ulimit -v)
            sys.unraisablehook = hook
            self.enter(f"starting (a thread with a {STACK_BYTES >> 20} MB stack)")
            print(f"symcert: undecided: {self.out_of_memory()}", file=sys.stderr)
            return EXIT_UNDECIDED
        finally:
            threading.stack_size(previous)
        try:
            worker.join(self.seconds)
            if worker.is_alive():
                grace_ends = time.monotonic() + GRACE  # one grace period in all
                with self._lock:
                    if not self._finished:
                        _raise_in(worker, GRACE)
                worker.join(max(0.0, grace_ends - time.monotonic()))
        finally:
            sys.unraisablehook = hook
        if worker.is_alive():  # stuck in a C call, or the exception was swallowed
            print(f"symcert: undecided: {self.reason()}", file=sys.stderr)
            if self.leave_process:
                _leave(EXIT_UNDECIDED)
            return EXIT_UNDECIDED
        return codes[0] if codes else EXIT_INTERNAL

    def _finish(self) -> None:
        """No BudgetExceeded is raised in the worker after this returns."""
        with self._lock:
            self._finished = True
        _checkpoint()


def _leave(code: int) -> None:
    """End the process now: the worker left stuck in a C call would otherwise go on until the
    interpreter exits, and could still print a result after the command said "undecided"."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)


def _checkpoint() -> None:
    """A Python call: one raised just before `_finish` took the lock is delivered here."""


def _raise_in(thread: threading.Thread, grace: float) -> None:
    """Raise BudgetExceeded in `thread` at its next bytecode (CPython), never inside a region
    that calls z3 (`interrupts.Z3_CALLS`): a query under way may finish within `grace` seconds."""
    import ctypes  # here, not at start-up: only a deadline needs it

    assert thread.ident is not None
    if not Z3_CALLS.acquire(timeout=grace):
        return  # still in z3: `run` reports for the worker after the grace period
    try:
        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread.ident),
                                                   ctypes.py_object(BudgetExceeded))
    finally:
        Z3_CALLS.release()


def _quiet(hook: Callable[[Any], object]) -> Callable[[Any], object]:
    """An unraisable-exception hook that drops a BudgetExceeded raised where Python cannot
    propagate it (a finaliser): the deadline then falls back on the grace period."""

    def quiet(unraisable: Any) -> object:
        if isinstance(unraisable.exc_value, BudgetExceeded):
            return None
        return hook(unraisable)

    return quiet
