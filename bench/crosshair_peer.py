"""symcert against CrossHair on the arithmetic case studies (issue 15, part 5).

    python bench/crosshair_peer.py [--repeats R] [--per-condition S] [--out FILE]

Each case study of examples/ written with `* / %` (gcd_mod, divmod, power, mean, correct and
buggy) is also written below as the same Python function: the `assume` is the function's leading
`assert` (a precondition under `crosshair check --analysis_kind=asserts`), the IMP `/` Python's
`//`, the `assert` an `assert`. Both tools run in turns, which one goes first alternating, one
subprocess per run: `symcert run FILE --json` (contracts off) and `crosshair check
--analysis_kind=asserts --per_condition_timeout S FILE`. The time is the wall time of the
subprocess, start-up included for both (CrossHair reports no time of its own). The verdict: a
bug (symcert exit 1; CrossHair printed a counterexample, exit 1), safe (symcert exit 0 after an
exhaustive exploration), or `none found` for CrossHair on a correct program: CrossHair's search
is bounded and says nothing when its budget ends, which is not a proof.
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
}
"""Each case study as a Python function, line for line (the `assume` is the leading assert)."""


def _symcert(name: str) -> tuple[str, float]:
    start = time.perf_counter()
    done = subprocess.run([str(BIN / "symcert"), "run", str(ROOT / "examples" / f"{name}.imp"),
                           "--json"], capture_output=True, text=True, timeout=600)
    seconds = time.perf_counter() - start
    verdict = {0: "safe", 1: "bug", 3: "undecided"}.get(done.returncode, f"exit {done.returncode}")
    return verdict, seconds


def _crosshair(name: str, folder: Path, per_condition: float) -> tuple[str, float]:
    path = folder / f"{name}.py"
    start = time.perf_counter()
    done = subprocess.run([str(BIN / "crosshair"), "check", "--analysis_kind=asserts",
                           f"--per_condition_timeout={per_condition:g}", str(path)],
                          capture_output=True, text=True, timeout=600, cwd=folder)
    seconds = time.perf_counter() - start
    if done.returncode == 1 and "error" in done.stdout:
        return "bug", seconds
    return ("none found" if done.returncode == 0 else f"exit {done.returncode}"), seconds


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--per-condition", type=float, default=20.0,
                    help="CrossHair's --per_condition_timeout in seconds (default 20)")
    ap.add_argument("--out", type=Path, default=None, help="also write the rows as JSON here")
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for name, source in PYTHON.items():
            (folder / f"{name}.py").write_text(source)
        for name in PYTHON:
            times: dict[str, list[float]] = {"symcert": [], "crosshair": []}
            verdicts: dict[str, set[str]] = {"symcert": set(), "crosshair": set()}
            for i in range(args.repeats):
                order = ("symcert", "crosshair") if i % 2 == 0 else ("crosshair", "symcert")
                for tool in order:
                    verdict, seconds = (_symcert(name) if tool == "symcert"
                                        else _crosshair(name, folder, args.per_condition))
                    times[tool].append(seconds)
                    verdicts[tool].add(verdict)
            row = {"program": name, "expect": "bug" if name.endswith("_buggy") else "safe"}
            for tool in times:
                row[tool] = {"verdict": "/".join(sorted(verdicts[tool])),
                             "median_s": round(statistics.median(times[tool]), 2)}
            row["ratio"] = round(row["crosshair"]["median_s"] / row["symcert"]["median_s"], 1)
            rows.append(row)
            print(f"| {name} | {row['expect']} | {row['symcert']['verdict']} "
                  f"{row['symcert']['median_s']:.2f} s | {row['crosshair']['verdict']} "
                  f"{row['crosshair']['median_s']:.2f} s | {row['ratio']:g} |", flush=True)
    if args.out is not None:
        args.out.write_text(json.dumps(rows, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
