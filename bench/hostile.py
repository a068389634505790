"""Hostile inputs by hand, timed on two checkouts: wall time, peak RSS, exit code, the size of
standard error and its first line.

    python bench/hostile.py SRC [SRC ...] [--cap S] [--only NAME]

Each SRC is a checkout's `src/` directory; every case runs `python -m symcert` on each, one after
the other (so the machine's load hits both alike), as a process of its own with contracts off, as
a user runs it. A case still running after `--cap` seconds (default 60) is killed and reported as
`>CAP`; each process may use at most `--memory-gb` of address space (default 6), so a blow-up
ends as that process's own MemoryError rather than the machine's. The programs are written to a
temporary directory first.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def programs() -> dict[str, bytes]:
    """The hostile inputs, by file name."""
    bomb = ["macro m0(v) begin v = v + 1 end"]
    bomb += [f"macro m{i}(v) begin m{i - 1}(v); m{i - 1}(v) end" for i in range(1, 26)]
    straight = {n: ";\n".join(f"x{i} = x{i} + 1; assert x{i} != {i}" for i in range(n))
                for n in (250, 500, 1_000)}
    nested = {d: "if x < 1 then " * d + "skip" + " else skip fi" * d for d in (800, 1_600, 3_000)}
    files = {
        "bomb.imp": "\n".join(bomb) + "\nm25(x)",
        "million.imp": "x = x + 1;\n" * 1_000_000 + "assert x != y",
        "fifty_mb.imp": "x = x + 1;\n" * 5_000_000 + "assert x != y",
        "literal99k.imp": f"x = {'7' * 99_000}; assert x != y",
        "loop.imp": "while true do skip od",
        "digits.imp": ("x = 1; i = 0; while i < 100001 do x = x + x + x + x + x + x + x + x + x"
                       " + x; i = i + 1 od; assert x != y"),
        "e3.imp": "x = 1e3; assert x == 1000",
        "2x.imp": "x = 2x",
        "true.imp": "true = 0; assert true",
        "fi.imp": "fi = fi",
        "skips.imp": ";".join(["skip"] * 1_000_000),
        "comment.imp": "# " + "c" * 1_000_000 + "\nskip",
        "literal100k.imp": f"x = {'7' * 100_000}; skip",
        "nul.imp": "\0" * 100_000,
        "ands.imp": "assert " + " and ".join(["x < 1"] * 10_000),
        "bom.imp": "\ufeffx = 1; assert x == 1",
        "gcd_buggy.imp": (ROOT / "examples" / "gcd_buggy.imp").read_text(),
    }
    files.update({f"straight{n}.imp": text for n, text in straight.items()})
    files.update({f"nested{d}.imp": text for d, text in nested.items()})
    return {name: text.encode() for name, text in files.items()}


CASES: list[tuple[str, list[str]]] = [
    *[(f"macro bomb, {c}", [c, "bomb.imp", "--timeout", "5"])
      for c in ("run", "exec", "tree", "prove", "oracle")],
    ("1M lines, run", ["run", "million.imp", "--max-states", "1000", "--timeout", "5"]),
    ("1M lines, 12 MB allowed, run", ["run", "million.imp", "--max-states", "1000", "--timeout",
                                      "5", "--max-input-bytes", "12000000"]),
    ("50 MB, run", ["run", "fifty_mb.imp", "--max-states", "1000", "--timeout", "5"]),
    ("99,000 digits, oracle", ["oracle", "literal99k.imp"]),
    ("99,000 digits, oracle --timeout 5", ["oracle", "literal99k.imp", "--timeout", "5"]),
    *[(f"{n} asserts, oracle", ["oracle", f"straight{n}.imp"]) for n in (250, 500, 1_000)],
    ("250 asserts, oracle --timeout 5", ["oracle", "straight250.imp", "--timeout", "5"]),
    ("all skipped, oracle", ["oracle", "loop.imp"]),
    *[(f"depth {d}, tree", ["tree", f"nested{d}.imp"]) for d in (800, 1_600, 3_000)],
    ("/dev/zero at 1 GB, run", ["run", "/dev/zero"]),
    ("100,001 digits, exec", ["exec", "digits.imp"]),
    ("100,001 digits, run", ["run", "digits.imp", "--max-states", "1000000"]),
    ("1e3, run", ["run", "e3.imp"]),
    ("2x, run", ["run", "2x.imp"]),
    ("true = 0, run", ["run", "true.imp"]),
    ("fi = fi, run", ["run", "fi.imp"]),
    ("1M skips, run", ["run", "skips.imp", "--max-states", "10"]),
    ("1M-char comment, run", ["run", "comment.imp"]),
    ("100,000 digits;, run", ["run", "literal100k.imp"]),
    ("NUL only, run", ["run", "nul.imp"]),
    ("10,000 ands, run", ["run", "ands.imp"]),
    ("BOM, run", ["run", "bom.imp"]),
    ("--version", ["--version"]),
    ("run F --frobnicate", ["run", "bom.imp", "--frobnicate"]),
    ("exec --input zz=3", ["exec", "gcd_buggy.imp", "--input", "zz=3"]),
    ("exec --input a=1 a=2", ["exec", "gcd_buggy.imp", "--input", "a=1", "--input", "a=2"]),
    ("exec --input a=+3", ["exec", "gcd_buggy.imp", "--input", "a=+3"]),
]


def measure(src: Path, argv: list[str], cwd: Path, cap: float,
            memory: int) -> tuple[str, str, str, int, str]:
    """(seconds, peak RSS in MB, exit code, stderr bytes, stderr's first line) of one process."""
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    env = dict(os.environ, PYTHONPATH=str(src), SYMCERT_CONTRACTS="0")
    start = time.perf_counter()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        child = subprocess.Popen([sys.executable, "-m", "symcert", *argv], cwd=cwd, env=env,
                                 stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                                 preexec_fn=limit)
        killed = False
        while True:  # os.wait4, not Popen.wait: it gives the child's own peak RSS
            pid, status, usage = os.wait4(child.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() - start > cap and not killed:
                child.kill()
                killed = True
            time.sleep(0.01)
        seconds = time.perf_counter() - start
        err.seek(0)
        text = err.read()
        out.seek(0)
        first = (text or out.read()).decode(errors="replace").strip().split("\n")[0][:90]
    code = "killed" if killed else str(os.waitstatus_to_exitcode(status))
    wall = f">{cap:g}" if killed else f"{seconds:.2f}"
    return wall, f"{usage.ru_maxrss / 1024:.0f}", code, len(text), first


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("src", nargs="+", type=Path)
    ap.add_argument("--cap", type=float, default=60.0)
    ap.add_argument("--memory-gb", type=float, default=6.0)
    ap.add_argument("--only", help="run the cases whose name contains this")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for name, data in programs().items():
            (Path(tmp) / name).write_bytes(data)
        print("| case | " + " | ".join(f"{s.resolve().parent.name}: s, MB, exit, stderr B" for s in args.src)
              + " | first line (last checkout) |")
        print("|---|" + "---|" * (len(args.src) + 1))
        for name, argv in CASES:
            if args.only and args.only not in name:
                continue
            memory = 1 << 30 if argv[-1] == "/dev/zero" else int(args.memory_gb * (1 << 30))
            cells, first = [], ""
            for src in args.src:
                wall, rss, code, size, first = measure(src.resolve(), argv, Path(tmp), args.cap,
                                                       memory)
                cells.append(f"{wall}, {rss}, {code}, {size:,}")
            print(f"| {name} | " + " | ".join(cells) + f" | `{first}` |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
