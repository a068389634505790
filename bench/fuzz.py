"""Hostile inputs through every subcommand: no traceback, a documented exit code, the
time budget kept, memory bounded.

    python bench/fuzz.py [--inputs N] [--seed S] [--timeout S] [--jobs J] [--keep DIR]

Generates N seeded hostile programs (random bytes, token soup, single-character edits of the
examples, deep nesting, huge literals, long programs, macro bombs, a byte-order mark, NUL, CRLF,
non-UTF-8) and runs each through `run`, `exec`, `tree`, `prove` and `oracle`, each call in a
process of its own forked from this one after a first call warmed it up (parser and solver loaded;
as a user's command runs alone in its process: a call whose budget ran out leaves its stuck solver
thread behind, and the process exits; a reused worker would carry that thread into the next calls),
calling `symcert.cli.main.main` without starting Python anew. A call fails when it raises, prints a
traceback, exits with a code other than 0, 1, 3 or 65 (70 is a bug in symcert; 2 would be a usage
error of this script), or takes longer than its `--timeout` plus the budget's grace period and a
second. Each worker runs under an address-space limit (`--memory-mb`); the peak RSS of the workers
is reported. Failures are written to `--keep` with the command that reproduces them; the exit
status is 1 if any.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import multiprocessing
import os
import random
import resource
import sys
import time
from collections import Counter
from pathlib import Path

from symcert.cli.main import main as symcert

ROOT = Path(__file__).resolve().parents[1]
RUNNING = Path("/tmp/symcert-fuzz-running")
"""One file per worker process, holding the call it is running."""
EXAMPLES = sorted((ROOT / "examples").glob("*.imp"))
COMMANDS = ("run", "exec", "tree", "prove", "oracle")
OK_CODES = frozenset({0, 1, 3, 65})
SLACK = 1.0
"""Seconds a call may take beyond `--timeout` and the budget's grace period."""

TOKENS = ("skip fail assert if then else fi while do od true false and or not macro begin end "
          "x y v1 _ 0 7 -3 123456789012345678901234567890 1e3 2x + - == != < <= > >= = ( ) ; , "
          "# \u00e9 \ufeff \0 $ *").split(" ")


def hostile(rng: random.Random, examples: list[bytes]) -> bytes:
    """One hostile program, as bytes: mostly small ones (random bytes, token soup, edits of the
    examples, encodings), and one in ten large (deep, huge literals, long, macro bombs)."""
    kind = rng.choice((0, 1, 2, 3, 4, 9)) if rng.random() < 0.9 else rng.randrange(5, 9)
    if kind == 0:  # random bytes
        return bytes(rng.randrange(256) for _ in range(rng.randrange(300)))
    if kind == 1:  # token soup
        words = rng.choices(TOKENS, k=rng.randrange(1, 40))
        gaps = rng.choices([" ", "", "\n", "\t", "\r\n", " # c\n"], k=len(words))
        return "".join(w + g for w, g in zip(words, gaps)).encode("utf-8", "surrogatepass")
    if kind in (2, 3, 4):  # one character deleted, replaced or inserted in an example
        text = rng.choice(examples)
        i = rng.randrange(len(text))
        c = bytes([rng.choice(b"x1 ;=+-()<>#\n\0$tfe\xff")])
        return text[:i] + (b"" if kind == 2 else c) + text[i + (kind < 4):]
    if kind == 5:  # deep nesting
        depth = rng.choice([100, 1_000, 5_000, 20_000])
        shape = rng.randrange(3)
        if shape == 0:
            return f"x = {'(' * depth}1{')' * depth}".encode()
        if shape == 1:
            return ("if x < 1 then " * depth + "skip" + " else skip fi" * depth).encode()
        return ("assert " + " and ".join(["x < 1"] * depth)).encode()
    if kind == 6:  # huge literals and long names
        n = rng.choice([1_000, 100_000, 100_001, 300_000])
        return f"x = {'7' * n}; assert x != y; z{'z' * (n // 10)} = 1".encode()
    if kind == 7:  # long programs
        n = rng.choice([10_000, 200_000])
        body = rng.choice(["x = x + 1", "skip", "x = x + x"])
        sep = rng.choice([";", ";\n"])
        return (sep.join([body] * n) + "; assert x != y").encode()
    if kind == 8:  # macro bombs
        levels = rng.choice([10, 20, 25, 40])
        lines = ["macro m0(v) begin v = v + 1 end"]
        lines += [f"macro m{i}(v) begin m{i - 1}(v); m{i - 1}(v) end" for i in range(1, levels)]
        return ("\n".join(lines) + f"\nm{levels - 1}(x)").encode()
    text = rng.choice(examples)  # encodings: BOM, NUL, CRLF, UTF-16, Latin-1
    return rng.choice([b"\xef\xbb\xbf" + text, text.replace(b"\n", b"\r\n"), text + b"\0",
                       text.decode().encode("utf-16"), text + "é".encode("latin-1")])


def argv(command: str, path: str, timeout: float) -> list[str]:
    """The command line of one call."""
    budget = ["--timeout", str(timeout)]
    extra = {"run": ["--max-states", "2000"], "exec": ["--input", "x=3"],
             "tree": ["--max-states", "200"], "prove": ["--max-states", "2000"],
             "oracle": ["--runs", "5", "--max-states", "500"]}[command]
    return [command, path, *budget, *extra]


def _limit_memory(megabytes: int) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (megabytes << 20, megabytes << 20))


def call(job: tuple[str, list[str], float]) -> tuple[str, list[str], int | str, float, str]:
    """Run `symcert ARGV` in this worker: (label, argv, exit code or exception, seconds,
    stderr's head). The call is written to `RUNNING` first: a worker that dies (a crash in
    native code, such as a z3 assertion) leaves it there for the parent to report."""
    label, args, limit = job
    (RUNNING / str(os.getpid())).write_text(" ".join(args))
    out, err = io.StringIO(), io.StringIO()
    start = time.perf_counter()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code: int | str = symcert(args)
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else 2
    except BaseException as exc:  # noqa: BLE001 - reported, not swallowed
        code = f"{type(exc).__name__}: {exc}"[:200]
    seconds = time.perf_counter() - start
    text = err.getvalue()
    if "Traceback" in text:
        code = f"traceback: {text[-200:]}"
    (RUNNING / str(os.getpid())).unlink()
    return label, args, code, seconds, text[:200]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--inputs", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--timeout", type=float, default=1.0, help="each call's --timeout")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--memory-mb", type=int, default=4096, help="address space per worker")
    ap.add_argument("--keep", type=Path, default=Path("/tmp/symcert-fuzz"))
    args = ap.parse_args()
    rng = random.Random(args.seed)
    examples = [p.read_bytes() for p in EXAMPLES]
    args.keep.mkdir(parents=True, exist_ok=True)
    jobs = []
    for i in range(args.inputs):
        path = args.keep / f"input{i:05d}.imp"
        path.write_bytes(hostile(rng, examples))
        jobs += [(f"{i}:{c}", argv(c, str(path), args.timeout), args.timeout) for c in COMMANDS]
    bound = args.timeout + 2.0 + SLACK  # commands.budget.GRACE is 2 s
    codes: Counter[tuple[str, int | str]] = Counter()
    slowest = {c: 0.0 for c in COMMANDS}
    failures = []
    start = time.perf_counter()
    RUNNING.mkdir(exist_ok=True)
    for stale in RUNNING.iterdir():
        stale.unlink()
    call(("warm-up", argv("run", str(EXAMPLES[0]), args.timeout), args.timeout))
    context = multiprocessing.get_context("fork")
    with context.Pool(args.jobs, _limit_memory, (args.memory_mb,), maxtasksperchild=1) as pool:
        pending = [pool.apply_async(call, (job,)) for job in jobs]
        for done, (job, result) in enumerate(zip(jobs, pending), 1):
            if done % 5_000 == 0:
                print(f"  {done:,} calls in {time.perf_counter() - start:.0f} s, "
                      f"{len(failures)} failures", flush=True)
            try:
                label, cmd, code, seconds, err = result.get(timeout=bound + 60)
            except multiprocessing.TimeoutError:  # its worker died or hangs
                label, cmd, code, seconds, err = job[0], job[1], "lost", bound + 60, ""
            command = cmd[0]
            codes[command, code if isinstance(code, int) else "error"] += 1
            slowest[command] = max(slowest[command], seconds)
            if code not in OK_CODES or seconds > bound:
                failures.append(f"{label}: exit {code} in {seconds:.1f} s: symcert "
                                f"{' '.join(cmd)}\n  {err}")
                print(failures[-1], flush=True)
    died = [p.read_text() for p in RUNNING.iterdir()]
    failures += [f"a worker died running: symcert {cmd}" for cmd in died]
    wall = time.perf_counter() - start
    rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"{args.inputs:,} hostile inputs x {len(COMMANDS)} commands = {len(jobs):,} calls "
          f"in {wall:.0f} s ({args.jobs} workers, --timeout {args.timeout:g} s each)")
    for command in COMMANDS:
        spread = ", ".join(f"exit {code}: {n:,}" for (c, code), n in sorted(
            codes.items(), key=lambda kv: str(kv[0])) if c == command)
        print(f"  {command:7s} {spread}; slowest {slowest[command]:.2f} s")
    print(f"peak RSS of a worker: {rss:.0f} MB (limit {args.memory_mb:,} MB address space)")
    print(f"failures: {len(failures)} (bound: exit in {sorted(OK_CODES)}, at most {bound:g} s)")
    (args.keep / "failures.txt").write_text("\n".join(failures) + "\n")
    for line in failures[:20]:
        print(line)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
