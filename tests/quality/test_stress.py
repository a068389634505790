"""Stress sizes (marker `slow`, run by `make test`, not by `make test-fast`): programs of
20,000 lines and of 1,000,000 statements on one line parse without recursion, and the state stream of WiSE's `run` is a loop
that goes thousands of states deep under a recursion limit of a few hundred frames (PyWiSE's
recursive stream dies near 1,000)."""

from __future__ import annotations

import os
import subprocess
import sys
from itertools import islice

import pytest

from symcert.core.state import initial
from symcert.engine.explore import Strategy, run
from symcert.lang.parser import parse
from symcert.lang.syntax import spine

pytestmark = pytest.mark.slow


def test_twenty_thousand_lines():
    n = 20_000
    p = parse(";\n".join(f"x = x + {i % 7}" for i in range(n)))
    assert sum(1 for _ in spine(p)) == n


def test_a_million_statements_on_one_line_fit_the_default_budgets():
    """A million `skip`s joined by `;` without spaces is a valid program. Parsed as a
    user parses it, with the contracts off (their default; on, the parse takes twice as long)."""
    script = ("from symcert.lang.parser import parse; from symcert.lang.syntax import spine; "
              "print(sum(1 for _ in spine(parse(';'.join(['skip'] * 1_000_000)))))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env={**os.environ, "SYMCERT_CONTRACTS": "0"}, check=False)
    assert (done.returncode, done.stdout, done.stderr) == (0, "1000000\n", "")


def _depth() -> int:
    """How many frames the calling code runs under."""
    frame, depth = sys._getframe(1), 0
    while frame is not None:
        frame, depth = frame.f_back, depth + 1
    return depth


def test_the_stream_is_a_loop_not_a_recursion():
    """The stream goes thousands of states deep under a recursion limit of a few hundred frames
    above the test's own: no frame per state (a recursive stream, PyWiSE's, would need one per
    state and stop with a RecursionError). The work is counted in frames, so 4,000 states
    suffice where the limit the parser raises would have hidden a recursion for tens of
    thousands."""
    p = parse("while true do if x < y then x = x + 1 else y = y + 1 fi od")
    last = None
    previous = sys.getrecursionlimit()
    sys.setrecursionlimit(_depth() + 300)
    try:
        for last in islice(run([initial(p)], Strategy.DFS), 4_000):
            pass
    finally:
        sys.setrecursionlimit(previous)
    assert last is not None and last.depth > 1_000
