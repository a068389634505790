"""Progress where people look when no one watches a terminal: a pipe or a CI log.

A terminal gets `run`'s live line (`cli.main._Progress`). When standard error is not a terminal
and symcert owns the process (the console script), a `Heartbeat` thread writes one line every
PROGRESS_SECONDS (`SYMCERT_PROGRESS_SECONDS`, 0 for never) for any command: the time elapsed,
the states explored and their rate when the command counts them, the time left of `--timeout`,
and the phase the command is in. The clock and the output are parameters, so a test drives it
tick by tick."""

from __future__ import annotations

import os
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Callable, TextIO

from symcert.cli.commands.budget import Deadline

PROGRESS_SECONDS = 5.0
CURRENT: list[Heartbeat] = []  # the running command's heartbeat, for the observers that count


@dataclass
class Heartbeat:
    """The progress lines of one command, written by `tick` once `every` seconds have passed
    since the last line (or the start)."""

    command: str
    deadline: Deadline
    every: float = PROGRESS_SECONDS
    clock: Callable[[], float] = time.monotonic
    out: TextIO = field(default_factory=lambda: sys.stderr)
    states: int | None = None
    start: float = field(init=False)
    last: float = field(init=False)

    def __post_init__(self) -> None:
        self.start = self.last = self.clock()

    def count(self, states: int) -> None:
        """The command has explored `states` states so far."""
        self.states = states

    def line(self, now: float) -> str:
        """The progress line at time `now`."""
        elapsed = now - self.start
        parts = [f"{elapsed:,.1f} s elapsed"]
        if self.states is not None:
            rate = self.states / elapsed if elapsed > 0 else 0.0
            parts.append(f"{self.states:,} {'state' if self.states == 1 else 'states'} "
                         f"({rate:,.0f} states/s)")
        if self.deadline.seconds is not None:
            left = max(0.0, self.deadline.seconds - elapsed)
            parts.append(f"{left:,.1f} s of --timeout {self.deadline.seconds:g} s left")
        return f"symcert {self.command}: {', '.join(parts)}; {self.deadline.phase}\n"

    def tick(self) -> bool:
        """Write the line when it is due; whether it was."""
        now = self.clock()
        if now - self.last < self.every:
            return False
        self.last = now
        self.out.write(self.line(now))
        self.out.flush()
        return True


def every_seconds() -> float:
    """The period of the lines: `SYMCERT_PROGRESS_SECONDS`, else PROGRESS_SECONDS."""
    try:
        return float(os.environ.get("SYMCERT_PROGRESS_SECONDS", PROGRESS_SECONDS))
    except ValueError:
        return PROGRESS_SECONDS


def heartbeat(command: str, deadline: Deadline, process: bool) -> Callable[[], None]:
    """Start the heartbeat of `command` when it is due (the process is symcert's and stderr
    no terminal, and the command no server, whose stderr is an editor's log); return what
    stops it."""
    every = every_seconds()
    if not process or every <= 0 or sys.stderr.isatty() or command == "lsp":
        return lambda: None
    beat = Heartbeat(command, deadline, every)
    CURRENT.append(beat)
    stop = threading.Event()

    def loop() -> None:
        while not stop.wait(min(every, 1.0)):
            beat.tick()

    threading.Thread(target=loop, name="symcert-progress", daemon=True).start()

    def end() -> None:
        stop.set()
        CURRENT.remove(beat)

    return end


def count(states: int) -> None:
    """Record the states explored so far for the running heartbeat, if there is one."""
    for beat in CURRENT:
        beat.count(states)
