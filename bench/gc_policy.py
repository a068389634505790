"""The garbage collector's policy for a `symcert` command, measured.

    python bench/gc_policy.py [--states N ...] [--repeats R] [--policies P ...] [--program NAME]

Runs `symcert run FILE --json --max-states N` in whole processes under each policy, the policies
alternating (the first one rotating from repeat to repeat), and prints, per state budget and
policy, the median wall time, the CPU time, the time symcert reports (reading to verdict) and
the peak RSS (`os.wait4`), with the ratio to `default`. FILE is the million-state program
(bench/programs.py `MILLION`: a loop around twelve ifs, breadth-first, never exhausted) unless
`--program` names another bench program. Contracts are off, as for a user.

The policies (`POLICIES`), applied by a small driver around `symcert.cli.main.main`:
- `default`: Python's collector as it comes (thresholds 700, 10, 10): the command's own
  `gc.disable()` is made a no-op;
- `freeze`: as `default`, but `gc.freeze()` once the engine is imported, so the objects of
  start-up (modules, classes, the parser's tables) are never scanned again;
- `thresholds`: as `default` with `gc.set_threshold(100_000, 50, 1_000)`;
- `off`: what `symcert` does (cli/main.py): the collector off while the command runs.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from programs import MILLION, programs  # noqa: E402

DRIVER = """\
import gc, sys
policy, argv = sys.argv[1], sys.argv[2:]
import symcert.cli.main as cli
if policy != "off":
    class Collector:  # the command's gc.disable() / gc.enable() become no-ops
        isenabled = staticmethod(gc.isenabled)
        def disable(self): pass
        def enable(self): pass
    cli.gc = Collector()
if policy == "thresholds":
    gc.set_threshold(100_000, 50, 1_000)
if policy == "freeze":
    import symcert.engine.verdict, symcert.engine.bugfinder, symcert.lang.parser  # noqa
    gc.freeze()
sys.exit(cli.main(argv))
"""
POLICIES = ("default", "freeze", "thresholds", "off")


def once(policy: str, path: Path, states: int) -> dict[str, float]:
    env = {k: v for k, v in os.environ.items() if k != "SYMCERT_CONTRACTS"}
    cmd = [sys.executable, "-c", DRIVER, policy, "run", str(path), "--json",
           "--max-states", str(states)]
    with tempfile.TemporaryFile() as out:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.DEVNULL, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        out.seek(0)
        last = json.loads(out.read().decode().strip().splitlines()[-1])
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1, 3) or last.get("states") is None:
        raise SystemExit(f"{policy}: exit {code}, {last}")
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "seconds": last["seconds"],
            "states": last["states"], "rss_mb": usage.ru_maxrss / 1024}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--states", type=int, nargs="+", default=[300_000])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--policies", nargs="+", choices=POLICIES, default=list(POLICIES))
    ap.add_argument("--program", default="million",
                    help="million (default) or a bench program's name (bench/programs.py)")
    ap.add_argument("--json", metavar="FILE", help="also write the runs as JSON")
    args = ap.parse_args()
    source = MILLION if args.program == "million" else \
        next(p.source for p in programs() if p.name == args.program)
    everything: dict[str, object] = {}
    print(f"load average {os.getloadavg()[0]:.2f} at the start; {os.cpu_count()} CPUs")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"{args.program.replace(':', '_')}.imp"
        path.write_text(source)
        for states in args.states:
            runs: dict[str, list[dict[str, float]]] = {p: [] for p in args.policies}
            for i in range(args.repeats):
                k = i % len(args.policies)
                for policy in args.policies[k:] + args.policies[:k]:
                    runs[policy].append(once(policy, path, states))
                    r = runs[policy][-1]
                    print(f"  {states:,} {policy}: {r['wall']:.2f} s, {r['rss_mb']:.0f} MB",
                          file=sys.stderr, flush=True)
            everything[str(states)] = runs
            base = statistics.median(r["wall"] for r in runs[args.policies[0]])
            print(f"\n{args.program}, --max-states {states:,}, {args.repeats} runs each, "
                  f"medians (ratio: wall over {args.policies[0]})\n")
            print("| policy | wall s (each run) | ratio | CPU s | symcert s | states "
                  "| peak RSS MB (max) |")
            print("|---|---|---|---|---|---|---|")
            for policy, rs in runs.items():
                wall = statistics.median(r["wall"] for r in rs)
                each = ", ".join(f"{r['wall']:.2f}" for r in rs)
                print(f"| {policy} | {wall:.2f} ({each}) | "
                      f"{wall / base:.2f} | {statistics.median(r['cpu'] for r in rs):.1f} | "
                      f"{statistics.median(r['seconds'] for r in rs):.1f} | "
                      f"{rs[-1]['states']:,} | {max(r['rss_mb'] for r in rs):.0f} |", flush=True)
    print(f"\nload average {os.getloadavg()[0]:.2f} at the end")
    if args.json:
        Path(args.json).write_text(json.dumps(everything, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
