"""symcert against CrossHair on the arithmetic and recursive case studies.

    python bench/crosshair_peer.py [--repeats R] [--per-condition S] [--max-states N]
                                   [--out FILE] [NAME ...]

Each case study of examples/ written with `* / %` (gcd_mod, divmod, power, mean) or with
recursive procedures (fact_rec, fib_rec, ackermann, divsub_rec, even_odd), correct and buggy,
is also written below as the same Python function, procedures as recursive Python functions:
the `assume` is the function's leading `assert` (a precondition under `crosshair check
--analysis_kind=asserts`), the IMP `/` Python's `//`, the `assert` an `assert`. Two more pairs
are not case studies, so their IMP text is here too (`IMP`): down1000, a recursion 1,000 calls
deep, and nonlinear, a product of two inputs. Both tools run in turns, which one goes first
alternating, one subprocess per run: `symcert run FILE --json` (contracts off; the state budget
is `--max-states`, by default symcert's 100,000) and `crosshair check --analysis_kind=asserts
--per_condition_timeout S FILE`. The time is the wall time of the subprocess, start-up included
for both (CrossHair reports no time of its own). The verdict: a bug (symcert exit 1; CrossHair
printed a counterexample, exit 1), safe (symcert exit 0 after an exhaustive exploration),
undecided (symcert exit 3: its budget ran out; the row gives the states explored), `none found`
for CrossHair on a correct program: CrossHair's search is bounded and says nothing when its
budget ends, which is not a proof (on a buggy program it means the bug was missed), or
`RecursionError` when what CrossHair reports is Python's stack running out, not a failing assert.
`NAME ...` runs only those rows.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent

PYTHON = {
    "gcd_mod": '''
def gcd_mod(a: int, b: int) -> None:
    assert 1 <= a <= 8 and 1 <= b <= 8
    x, y = a, b
    while y != 0:
        x, y = y, x % y
    g = x
    assert a % g == 0 and b % g == 0
    d = g + 1
    while d <= a and d <= b:
        assert not (a % d == 0 and b % d == 0)
        d += 1
''',
    "gcd_mod_buggy": '''
def gcd_mod_buggy(a: int, b: int) -> None:
    assert 1 <= a <= 8 and 1 <= b <= 8
    x, y = a, b
    while y > 1:
        x, y = y, x % y
    g = x
    assert a % g == 0 and b % g == 0
    d = g + 1
    while d <= a and d <= b:
        assert not (a % d == 0 and b % d == 0)
        d += 1
''',
    "divmod": '''
def divmod_(a: int, b: int) -> None:
    assert 0 <= a <= 20 and 1 <= b <= 5
    q, r = 0, a
    while r >= b:
        r -= b
        q += 1
    assert q == a // b and r == a % b and a == b * q + r
''',
    "divmod_buggy": '''
def divmod_buggy(a: int, b: int) -> None:
    assert 0 <= a <= 20 and 1 <= b <= 5
    q, r = 0, a
    while r > b:
        r -= b
        q += 1
    assert q == a // b and r == a % b and a == b * q + r
''',
    "power": '''
def power(x: int, n: int) -> None:
    assert -3 <= x <= 3 and 0 <= n <= 6
    r, b, e = 1, x, n
    while e > 0:
        if e % 2 == 1:
            r = r * b
        b = b * b
        e = e // 2
    p = 1
    for _ in range(n):
        p = p * x
    assert r == p
''',
    "power_buggy": '''
def power_buggy(x: int, n: int) -> None:
    assert -3 <= x <= 3 and 0 <= n <= 6
    r, b, e = 1, x, n
    while e > 0:
        if e % 2 == 1:
            r = r * b
        b = b * x
        e = e // 2
    p = 1
    for _ in range(n):
        p = p * x
    assert r == p
''',
    "mean": '''
def mean(lo: int, hi: int) -> None:
    assert -10 <= lo <= 10 and -10 <= hi <= 10
    s = c = 0
    i = lo
    while i <= hi:
        s, c, i = s + i, c + 1, i + 1
    if c > 0:
        m = s // c
        assert lo <= m <= hi
''',
    "mean_buggy": '''
def mean_buggy(lo: int, hi: int) -> None:
    assert -10 <= lo <= 10 and -10 <= hi <= 10
    s = c = 0
    i = lo
    while i <= hi:
        s, c, i = s + i, c + 1, i + 1
    m = s // c
    assert lo <= m <= hi
''',
    "fact_rec": '''
def fact(n: int) -> int:
    if n <= 1:
        return 1
    r = fact(n - 1)
    return n * r


def fact_rec(k: int) -> None:
    assert 0 <= k <= 6
    x = fact(k)
    p, i = 1, 2
    while i <= k:
        p = p * i
        i += 1
    assert x == p
''',
    "fact_rec_buggy": '''
def fact(n: int) -> int:
    if n <= 1:
        return n
    r = fact(n - 1)
    return n * r


def fact_rec_buggy(k: int) -> None:
    assert 0 <= k <= 6
    x = fact(k)
    p, i = 1, 2
    while i <= k:
        p = p * i
        i += 1
    assert x == p
''',
    "fib_rec": '''
def fib(m: int) -> int:
    if m < 2:
        return m
    a = fib(m - 1)
    b = fib(m - 2)
    return a + b


def fib_rec(k: int) -> None:
    assert 0 <= k <= 10
    x = fib(k)
    u, v, i = 0, 1, 0
    while i < k:
        u, v, i = v, u + v, i + 1
    assert x == u
''',
    "fib_rec_buggy": '''
def fib(m: int) -> int:
    if m < 3:
        return m
    a = fib(m - 1)
    b = fib(m - 2)
    return a + b


def fib_rec_buggy(k: int) -> None:
    assert 0 <= k <= 10
    x = fib(k)
    u, v, i = 0, 1, 0
    while i < k:
        u, v, i = v, u + v, i + 1
    assert x == u
''',
    "ackermann": '''
def ack(m: int, n: int) -> int:
    if m == 0:
        return n + 1
    if n == 0:
        r = ack(m - 1, 1)
    else:
        t = ack(m, n - 1)
        r = ack(m - 1, t)
    return r


def ackermann(i: int, j: int) -> None:
    assert 0 <= i <= 2 and 0 <= j <= 3
    x = ack(i, j)
    assert (i == 0 and x == j + 1) or (i == 1 and x == j + 2) or (i == 2 and x == 2 * j + 3)
''',
    "ackermann_buggy": '''
def ack(m: int, n: int) -> int:
    if m == 0:
        return n + 1
    if n == 0:
        r = ack(m - 1, 0)
    else:
        t = ack(m, n - 1)
        r = ack(m - 1, t)
    return r


def ackermann_buggy(i: int, j: int) -> None:
    assert 0 <= i <= 2 and 0 <= j <= 3
    x = ack(i, j)
    assert (i == 0 and x == j + 1) or (i == 1 and x == j + 2) or (i == 2 and x == 2 * j + 3)
''',
    "divsub_rec": '''
def quot(a: int, b: int) -> int:
    if a < b:
        return 0
    s = quot(a - b, b)
    return s + 1


def rem(a: int, b: int) -> int:
    if a < b:
        return a
    s = rem(a - b, b)
    return s


def divsub_rec(x: int, y: int) -> None:
    assert 0 <= x <= 20 and 1 <= y <= 5
    q = quot(x, y)
    r = rem(x, y)
    assert q == x // y and r == x % y and x == y * q + r
''',
    "divsub_rec_buggy": '''
def quot(a: int, b: int) -> int:
    if a < b:
        return 0
    s = quot(a - b, b)
    return s + 1


def rem(a: int, b: int) -> int:
    if a <= b:
        return a
    s = rem(a - b, b)
    return s


def divsub_rec_buggy(x: int, y: int) -> None:
    assert 0 <= x <= 20 and 1 <= y <= 5
    q = quot(x, y)
    r = rem(x, y)
    assert q == x // y and r == x % y and x == y * q + r
''',
    "even_odd": '''
def is_even(n: int) -> int:
    if n == 0:
        return 1
    r = is_odd(n - 1)
    return r


def is_odd(n: int) -> int:
    if n == 0:
        return 0
    r = is_even(n - 1)
    return r


def even_odd(k: int) -> None:
    assert 0 <= k <= 30
    e = is_even(k)
    o = is_odd(k)
    assert e + o == 1 and e == 1 - k % 2
''',
    "even_odd_buggy": '''
def is_even(n: int) -> int:
    if n == 0:
        return 1
    r = is_odd(n - 1)
    return r


def is_odd(n: int) -> int:
    if n == 0:
        return 0
    r = is_odd(n - 1)
    return r


def even_odd_buggy(k: int) -> None:
    assert 0 <= k <= 30
    e = is_even(k)
    o = is_odd(k)
    assert e + o == 1 and e == 1 - k % 2
''',
    "down1000": '''
def down(n: int) -> int:
    if n <= 0:
        return 0
    r = down(n - 1)
    return r + 1


def down1000(k: int) -> None:
    assert 0 <= k <= 1000
    x = down(k)
    assert x == k
''',
    "down1000_buggy": '''
def down(n: int) -> int:
    if n <= 0:
        return 0
    r = down(n - 1)
    return r + 1


def down1000_buggy(k: int) -> None:
    assert 0 <= k <= 1000
    x = down(k)
    assert x == k and x != 1000
''',
    "nonlinear": '''
def nonlinear(a: int, b: int) -> None:
    assert 0 <= a <= 100 and 0 <= b <= 100
    assert not (a * b == 389 and a < b)
''',
    "nonlinear_buggy": '''
def nonlinear_buggy(a: int, b: int) -> None:
    assert 0 <= a <= 100 and 0 <= b <= 100
    assert not (a * b == 391 and a < b)
''',
}
"""Each case study as a Python function, line for line (the `assume` is the leading assert;
`fail` in IMP is a failing `assert` here)."""

_DOWN = '''\
# Recursion 1,000 calls deep: down(k) counts k down to 0 and back up, for 0 <= k <= 1000.
proc down(n) begin
  if n <= 0 then return 0 else var r = down(n - 1); return r + 1 fi
end
assume 0 <= k and k <= 1000;
x = down(k);
'''

IMP = {
    "down1000": _DOWN + "assert x == k\n",
    "down1000_buggy": _DOWN + "assert x == k and x != 1000  # BUG: fails only at k = 1000\n",
    "nonlinear": '''\
# A product of two inputs: 389 is prime and larger than 100, so no input reaches `fail`.
assume 0 <= a and a <= 100 and 0 <= b and b <= 100;
if a * b == 389 and a < b then fail else skip fi
''',
    "nonlinear_buggy": '''\
# A product of two inputs: 391 = 17 * 23 is the one input that reaches `fail`.
assume 0 <= a and a <= 100 and 0 <= b and b <= 100;
if a * b == 391 and a < b then fail else skip fi
''',
}
"""The rows that are not case studies of examples/: their IMP text, run from a temporary file."""


TIMEOUT = 600.0
"""Seconds after which a run of either tool is stopped and counted as `timeout`."""


def _symcert(name: str, folder: Path, max_states: int | None) -> tuple[str, float, int | None]:
    """symcert's verdict, wall time and the states it explored (from its `done` event)."""
    path = folder / f"{name}.imp" if name in IMP else ROOT / "examples" / f"{name}.imp"
    budget = [] if max_states is None else ["--max-states", str(max_states)]
    start = time.perf_counter()
    try:
        done = subprocess.run([str(BIN / "symcert"), "run", str(path), "--json", *budget],
                              capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return "timeout", time.perf_counter() - start, None
    seconds = time.perf_counter() - start
    verdict = {0: "safe", 1: "bug", 3: "undecided"}.get(done.returncode, f"exit {done.returncode}")
    states = None
    for line in done.stdout.splitlines():
        event = json.loads(line)
        if event.get("event") == "done":
            states = event.get("states")
    return verdict, seconds, states


def crosshair_cmd(path: Path, per_condition: float) -> list[str]:
    """The CrossHair command that checks the asserts of the Python file `path`."""
    return [str(BIN / "crosshair"), "check", "--analysis_kind=asserts",
            f"--per_condition_timeout={per_condition:g}", str(path)]


def crosshair_verdict(code: int, stdout: str, stderr: str) -> tuple[str, str]:
    """CrossHair's verdict from its exit code and output, and the first line it printed."""
    said = (stdout.strip() or stderr.strip()).splitlines()
    message = said[0] if said else ""
    if code == 1 and "error" in stdout:
        # Python's stack running out is not the planted bug: a deep recursion (down1000) raises
        # RecursionError under CrossHair's tracer well before k = 1000
        crash = "RecursionError" in message and "AssertionError" not in stdout
        return ("RecursionError" if crash else "bug"), message
    return ("none found" if code == 0 else f"exit {code}"), message


def _crosshair(name: str, folder: Path, per_condition: float) -> tuple[str, float, str]:
    """CrossHair's verdict, wall time and the first line it printed (its message)."""
    start = time.perf_counter()
    try:
        done = subprocess.run(crosshair_cmd(folder / f"{name}.py", per_condition),
                              capture_output=True, text=True, timeout=TIMEOUT, cwd=folder)
    except subprocess.TimeoutExpired:
        return "timeout", time.perf_counter() - start, ""
    seconds = time.perf_counter() - start
    verdict, message = crosshair_verdict(done.returncode, done.stdout, done.stderr)
    return verdict, seconds, message


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--per-condition", type=float, default=20.0,
                    help="CrossHair's --per_condition_timeout in seconds (default 20)")
    ap.add_argument("--max-states", type=int, default=None,
                    help="symcert's state budget (default: symcert's own, 100,000)")
    ap.add_argument("--out", type=Path, default=None, help="also write the rows as JSON here")
    ap.add_argument("names", nargs="*", metavar="NAME",
                    help=f"only these rows (default: all): {', '.join(PYTHON)}")
    args = ap.parse_args()
    unknown = [n for n in args.names if n not in PYTHON]
    if unknown:
        ap.error(f"no such row: {', '.join(unknown)}")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for name, source in PYTHON.items():
            (folder / f"{name}.py").write_text(source)
        for name, source in IMP.items():
            (folder / f"{name}.imp").write_text(source)
        for name in args.names or PYTHON:
            times: dict[str, list[float]] = {"symcert": [], "crosshair": []}
            verdicts: dict[str, set[str]] = {"symcert": set(), "crosshair": set()}
            states: set[int | None] = set()
            messages: set[str] = set()
            for i in range(args.repeats):
                order = ("symcert", "crosshair") if i % 2 == 0 else ("crosshair", "symcert")
                for tool in order:
                    if tool == "symcert":
                        verdict, seconds, explored = _symcert(name, folder, args.max_states)
                        states.add(explored)
                    else:
                        verdict, seconds, message = _crosshair(name, folder, args.per_condition)
                        messages.add(message)
                    times[tool].append(seconds)
                    verdicts[tool].add(verdict)
            row = {"program": name, "expect": "bug" if name.endswith("_buggy") else "safe"}
            for tool in times:
                row[tool] = {"verdict": "/".join(sorted(verdicts[tool])),
                             "median_s": round(statistics.median(times[tool]), 2)}
            row["symcert"]["states"] = sorted(states, key=lambda n: -1 if n is None else n)
            row["crosshair"]["said"] = sorted(messages)
            row["ratio"] = round(row["crosshair"]["median_s"] / row["symcert"]["median_s"], 1)
            rows.append(row)
            shown = "/".join(f"{n:,}" for n in row["symcert"]["states"] if n is not None)
            print(f"| {name} | {row['expect']} | {row['symcert']['verdict']} "
                  f"{row['symcert']['median_s']:.2f} s ({shown} states) | "
                  f"{row['crosshair']['verdict']} {row['crosshair']['median_s']:.2f} s | "
                  f"{row['ratio']:g} |", flush=True)
            if row["crosshair"]["verdict"] not in ("bug", "none found"):
                print(f"  CrossHair said: {' / '.join(row['crosshair']['said'])}", flush=True)
    if args.out is not None:
        args.out.write_text(json.dumps(rows, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
