"""symcert against PyWiSE and CrossHair, and against its solver-only time; the
million-state scale runs.

    python bench/run.py [--quick] [--repeats R] [--timeout S] [--wise PYTHON]
                        [--per-condition S]

(`make bench` creates bench/.wisevenv with wise-se==0.0.7 and runs this.) Each program of
bench/programs.py runs in both tools, alternating which goes first, one subprocess per run, with
a timeout; time-to-verdict (first confirmed bug, or `Finished`) is the median of the repeats, as
each tool measures it from the parse (process start-up excluded; the wall time is kept too).
Peak RSS comes from `os.wait4`. symcert runs as a user runs it: `symcert run FILE --json`,
contracts off; its `solver_seconds` is the time spent inside z3. CrossHair runs each
program written as the same Python function (bench/python_twin.py) with `crosshair check
--analysis_kind=asserts` from this environment, in the same turns; it reports no time of its
own, so it is compared with symcert by the wall and CPU time of the whole process. Results go to
bench/results.json and the table of docs/bench-results.md.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from crosshair_peer import crosshair_cmd, crosshair_verdict  # noqa: E402
from programs import MILLION, ROOT, Program, programs  # noqa: E402
from python_twin import to_python  # noqa: E402
from report import write  # noqa: E402

BENCH = ROOT / "bench"
PYCACHE = Path(tempfile.gettempdir()) / "symcert-bench-pycache"
"""Where each tool's processes keep their bytecode: every tool runs compiled, as after `pip
install` (PyWiSE and CrossHair come so from site-packages; symcert's editable sources would be
compiled at every start where Python may not write bytecode), after a warm-up run."""
SLOW = 20.0
"""A tool whose first run of a program takes longer than this many seconds is not repeated."""


@dataclass(frozen=True)
class Run:
    """One subprocess: what it printed last (a JSON object), its exit code, wall time, peak RSS,
    CPU time (user and system) and its whole output."""

    result: dict[str, object] | None
    code: int | None
    wall: float
    rss_mb: float
    timed_out: bool
    cpu: float = 0.0
    output: str = ""


def measure(cmd: list[str], timeout: float) -> Run:
    """Run `cmd` with a timeout; peak RSS from the kernel's rusage of the child (os.wait4)."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("SYMCERT_CONTRACTS", "PYTHONDONTWRITEBYTECODE")}
    env["PYTHONPYCACHEPREFIX"] = str(PYCACHE)
    with tempfile.TemporaryFile() as out:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.DEVNULL, env=env)
        timed_out = False
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() - start > timeout:
                proc.kill()
                _, status, usage = os.wait4(proc.pid, 0)
                timed_out = True
                break
            time.sleep(0.005)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        output = out.read().decode("utf-8", "replace")
        lines = output.strip().splitlines()
    result = None
    if lines and not timed_out:
        try:
            result = json.loads(lines[-1])
        except json.JSONDecodeError:
            result = None
    return Run(result, None if timed_out else proc.returncode, wall,
               usage.ru_maxrss / 1024, timed_out, usage.ru_utime + usage.ru_stime, output)


def symcert_cmd(path: Path, budget: int) -> list[str]:
    return [sys.executable, "-m", "symcert", "run", str(path), "--json",
            "--max-states", str(budget)]


def wise_cmd(wise: str, path: Path, budget: int) -> list[str]:
    return [wise, str(BENCH / "wise_driver.py"), str(path), str(budget)]


def summarize(runs: list[Run], expect: str) -> dict[str, object]:
    """Median time-to-verdict and what each tool concluded, from its repeats."""
    last = runs[-1]
    if last.timed_out:
        return {"outcome": "timeout", "runs": len(runs), "wall": last.wall,
                "peak_rss_mb": max(r.rss_mb for r in runs)}
    res = last.result or {}
    verdict = str(res.get("verdict", "error"))
    seconds = statistics.median(float((r.result or {}).get("seconds", r.wall)) for r in runs)
    states = int(res.get("states", 0))  # type: ignore[call-overload]
    out: dict[str, object] = {
        "outcome": "ok" if verdict == expect else
        ("crashed" if verdict == "crashed" else f"wrong verdict ({verdict})"),
        "verdict": verdict, "error": res.get("error"), "runs": len(runs),
        "seconds": seconds, "states": states,
        "states_per_second": states / seconds if seconds > 0 else None,
        "wall": statistics.median(r.wall for r in runs),
        "peak_rss_mb": max(r.rss_mb for r in runs),
    }
    if "solver_seconds" in res:
        solver = statistics.median(float((r.result or {})["solver_seconds"]) for r in runs)
        out["solver_seconds"] = solver
        out["solver_queries"] = res.get("solver_queries")
        out["engine_seconds"] = seconds - solver
        out["total_over_solver"] = seconds / solver if solver > 0 else None
    return out


def crosshair_summary(runs: list[Run], expect: str) -> dict[str, object]:
    """CrossHair's verdict and median wall and CPU time from its repeats."""
    last = runs[-1]
    if last.timed_out:
        return {"outcome": "timeout", "runs": len(runs), "wall": last.wall, "cpu": last.cpu}
    verdict, message = crosshair_verdict(last.code or 0, last.output, "")
    right = (verdict == "bug") if expect == "bug" else (verdict == "none found")
    return {"outcome": "ok" if right else f"wrong verdict ({verdict})", "verdict": verdict,
            "said": message, "runs": len(runs),
            "wall": statistics.median(r.wall for r in runs),
            "cpu": statistics.median(r.cpu for r in runs),
            "peak_rss_mb": max(r.rss_mb for r in runs)}


def compare(prog: Program, repeats: int, timeout: float, budget: int, wise: str,
            per_condition: float, tmp: Path) -> dict[str, object]:
    """The three tools on one program, taking turns (the first rotating), `repeats` times (fewer
    for slow runs)."""
    stem = prog.name.replace(":", "_")
    path = tmp / (stem + ".imp")
    path.write_text(prog.source)
    twin = tmp / (stem + ".py")
    twin.write_text(to_python(prog.source, stem))
    cmds = {"symcert": symcert_cmd(path, budget), "pywise": wise_cmd(wise, path, budget),
            "crosshair": crosshair_cmd(twin, per_condition)}
    tools = list(cmds)
    runs: dict[str, list[Run]] = {tool: [] for tool in tools}
    for r in range(repeats):
        for tool in tools[r % 3:] + tools[:r % 3]:
            done = runs[tool]
            if done and (done[0].timed_out or done[0].wall > SLOW):
                continue
            done.append(measure(cmds[tool], timeout))
    row: dict[str, object] = {"program": prog.name, "kind": prog.kind, "expect": prog.expect,
                              "symcert": summarize(runs["symcert"], prog.expect),
                              "pywise": summarize(runs["pywise"], prog.expect),
                              "crosshair": crosshair_summary(runs["crosshair"], prog.expect)}
    s, w, c = row["symcert"], row["pywise"], row["crosshair"]
    assert isinstance(s, dict) and isinstance(w, dict) and isinstance(c, dict)
    if s.get("states_per_second") and w.get("states_per_second"):
        row["rate_ratio"] = s["states_per_second"] / w["states_per_second"]
    if s["outcome"] == "ok" and w["outcome"] == "ok":
        row["speedup"] = w["seconds"] / s["seconds"]
    elif w["outcome"] == "timeout":
        row["speedup"] = None
        row["note"] = f"PyWiSE timeout (> {timeout:g} s)"
        if s["outcome"] == "ok":
            row["speedup_at_least"] = timeout / s["seconds"]
    else:
        row["speedup"] = None
        row["note"] = (f"PyWiSE crashed ({w['error']}) after {w['states']:,} states"
                       if w["outcome"] == "crashed" else f"PyWiSE: {w['outcome']}")
    if s["outcome"] != "timeout":
        row["crosshair_wall_ratio"] = float(c["wall"]) / float(s["wall"])  # type: ignore[arg-type]
        s_cpu = statistics.median(r.cpu for r in runs["symcert"])
        s["cpu"] = s_cpu
        row["crosshair_cpu_ratio"] = float(c["cpu"]) / s_cpu if s_cpu > 0 else None  # type: ignore[arg-type]
    print(f"  {prog.name:26} symcert {_short(s)} | PyWiSE {_short(w)} | "
          f"CrossHair {c.get('verdict', 'timeout')} {float(c['wall']):.2f} s", flush=True)  # type: ignore[arg-type]
    return row


def _short(r: dict[str, object]) -> str:
    if r["outcome"] == "timeout":
        return "timeout"
    return f"{r['verdict']} {r['states']} states {r['seconds']:.3f} s"


def scale(tmp: Path, quick: bool, timeout: float, wise: str) -> dict[str, object]:
    """A million states on `MILLION` end on the budget with exit 3; memory vs frontier;
    PyWiSE on the same program for its states/s."""
    path = tmp / "million.imp"
    path.write_text(MILLION)
    n = 100_000 if quick else 1_000_000
    out: dict[str, object] = {"program": MILLION, "budget": n,
                              "pywise": summarize([measure(wise_cmd(wise, path, n), timeout)],
                                                  "undecided")}
    for budget in sorted({n // 10, n}):
        run = measure(symcert_cmd(path, budget), timeout * 20)
        res = run.result or {}
        out[f"cli_{budget}"] = {"exit": run.code, "timed_out": run.timed_out,
                                "verdict": res.get("verdict"), "reason": res.get("reason"),
                                "states": res.get("states"), "seconds": res.get("seconds"),
                                "solver_seconds": res.get("solver_seconds"),
                                "wall": run.wall, "peak_rss_mb": run.rss_mb}
        print(f"  million.imp --max-states {budget:,}: exit {run.code}, "
              f"{res.get('seconds')} s, {run.rss_mb:.0f} MB", flush=True)
    probe = measure([sys.executable, str(BENCH / "probe.py"), "frontier", str(path), str(n)],
                    timeout * 20)
    out["frontier"] = probe.result
    return out


def depth_probe(tmp: Path, timeout: float) -> dict[str, object] | None:
    """Per-state cost at depth 100 vs 10,000 on one run of the 10,000-iteration loop."""
    prog = next(p for p in programs() if p.name == "count10000")
    path = tmp / "depth.imp"
    path.write_text(prog.source)
    run = measure([sys.executable, str(BENCH / "probe.py"), "depth", str(path)], timeout * 5)
    return run.result


def machine() -> dict[str, object]:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f
                       if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return {"cpu": cpu, "cores": os.cpu_count(), "python": platform.python_version(),
            "system": f"{platform.system()} {platform.release()}"}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true",
                    help="small cases, one repeat, no million-state run (a few minutes)")
    ap.add_argument("--repeats", type=int, default=None, help="runs per tool (default 3; quick 1)")
    ap.add_argument("--timeout", type=float, default=None,
                    help="seconds per run (default 300; quick 60)")
    ap.add_argument("--budget", type=int, default=200_000, help="state budget per run")
    ap.add_argument("--wise", default=str(BENCH / ".wisevenv" / "bin" / "python"),
                    help="the Python that has wise-se 0.0.7 installed")
    ap.add_argument("--per-condition", type=float, default=20.0,
                    help="CrossHair's --per_condition_timeout in seconds (default 20)")
    ap.add_argument("--only", nargs="+", metavar="NAME",
                    help="just these programs, no depth probe or scale runs (needs --out, --md)")
    ap.add_argument("--out", default=None,
                    help="default: bench/results.json (the full run's record)")
    ap.add_argument("--md", default=None, help="default: docs/bench-results.md")
    args = ap.parse_args()
    if args.only:
        unknown = set(args.only) - {p.name for p in programs(args.quick)}
        if unknown:
            ap.error(f"no such program: {', '.join(sorted(unknown))}")
        if args.out is None or args.md is None:
            ap.error("--only needs --out and --md: the defaults are the full run's record")
    args.out = args.out or str(BENCH / "results.json")
    args.md = args.md or str(ROOT / "docs" / "bench-results.md")
    repeats = args.repeats or (1 if args.quick else 3)
    timeout = args.timeout or (60.0 if args.quick else 300.0)
    if not Path(args.wise).exists():
        print(f"bench: no PyWiSE interpreter at {args.wise} (run `make bench`)", file=sys.stderr)
        return 2
    command = "python bench/run.py " + " ".join(sys.argv[1:])
    started = datetime.datetime.now(datetime.timezone.utc)
    load = os.getloadavg()[0]
    rows = []
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        (tmp / "warmup.imp").write_text("skip\n")
        (tmp / "warmup.py").write_text("def warmup() -> None:\n    assert True\n")
        for cmd in (symcert_cmd(tmp / "warmup.imp", 10), wise_cmd(args.wise, tmp / "warmup.imp", 10),
                    crosshair_cmd(tmp / "warmup.py", 1)):
            measure(cmd, timeout)
        print("symcert vs PyWiSE and CrossHair (median):", flush=True)
        for prog in programs(args.quick):
            if not args.only or prog.name in args.only:
                rows.append(compare(prog, repeats, timeout, args.budget, args.wise,
                                    args.per_condition, tmp))
        depth, scaled = None, None
        if not args.only:
            print("per-state cost vs depth:", flush=True)
            depth = None if args.quick else depth_probe(tmp, timeout)
            print("million-state runs:", flush=True)
            scaled = scale(tmp, args.quick, timeout, args.wise)
    results = {"date": started.isoformat(timespec="seconds"), "command": command,
               "machine": machine(), "load": {"start": load, "end": os.getloadavg()[0]}, "repeats": repeats, "timeout": timeout,
               "budget": args.budget, "per_condition": args.per_condition, "programs": rows, "depth": depth, "scale": scaled}
    Path(args.out).write_text(json.dumps(results, indent=1) + "\n")
    write(Path(args.md), results)
    print(f"wrote {args.out} and {args.md}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
