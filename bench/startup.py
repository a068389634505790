"""Start-up: `symcert run` on trivial programs against CrossHair and PyWiSE.

    python bench/startup.py [--repeats R] [--src NAME=SRC ...] [--bytecode cached|none|both]
                            [--no-crosshair] [--no-wise] [--wise PYTHON] [--json FILE]

Two programs, each as IMP and as the same Python function:
- `skip`: the IMP program `skip`; in Python `def skip() -> None: assert True` (under
  `--analysis_kind=asserts` CrossHair analyses only a function that starts with an `assert`, which
  is its precondition). No input: one path, no solver query needed.
- `abs`: `if x < 0 then x = 0 - x else skip fi; assert 0 <= x`, the smallest program that asks
  the solver something (two paths over the input x).

Tools, each one subprocess per run, wall time and CPU time (user + system, `os.wait4`) of the
whole process, start-up included:
- symcert: `python -m symcert run FILE` (contracts off) with the installed checkout, or with
  `PYTHONPATH=SRC` for each `--src NAME=SRC` (to compare revisions: `git archive REV src | tar
  -x -C DIR`, then `--src before=DIR/src --src after=src`);
- CrossHair: `crosshair check --analysis_kind=asserts FILE.py` from this environment (the lock's
  crosshair-tool);
- PyWiSE: bench/wise_driver.py under bench/.wisevenv (`make bench` creates it), which parses
  and walks `find_bugs` to `Finished` as `wise -n N` does.

The runs of one repeat go in turns, the first tool rotating from repeat to repeat; a warm-up
run of each tool comes first and is not counted. Each run's verdict is checked (symcert exit 0,
CrossHair exit 0 and no output, PyWiSE "safe"). Reported: medians, and each tool's median over
the first symcert's (above 1: slower than symcert).

`--bytecode`: `cached` runs every tool with Python's bytecode cache on (PYTHONDONTWRITEBYTECODE
unset, the `.pyc` files in a temporary PYTHONPYCACHEPREFIX written by the warm-up), as after a
`pip install`, which compiles them; `none` runs with the environment as it is, where a
PYTHONDONTWRITEBYTECODE=1 leaves symcert's own sources (an editable install) to be compiled at
every start, while the installed libraries have their `.pyc` files. `both` (the default) runs
the two, one table each.
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
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
BIN = Path(sys.executable).parent

IMP = {
    "skip": "skip\n",
    "abs": "if x < 0 then x = 0 - x else skip fi; assert 0 <= x\n",
}
PYTHON = {
    "skip": "def skip() -> None:\n    assert True\n",
    "abs": ("def abs_(x: int) -> None:\n    assert True\n    if x < 0:\n        x = 0 - x\n"
            "    assert 0 <= x\n"),
}


@dataclass(frozen=True)
class Tool:
    """A command line to run on a program, and how to tell that it reached the right verdict."""

    name: str
    argv: tuple[str, ...]
    suffix: str  # ".imp" or ".py": which text of the program it reads
    env: tuple[tuple[str, str], ...] = ()

    def command(self, path: Path) -> list[str]:
        return [a.replace("{FILE}", str(path)) for a in self.argv]


def run_once(tool: Tool, path: Path, env: dict[str, str]) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds, problem or "") of one run of `tool` on `path`."""
    full = dict(env, **dict(tool.env))
    with tempfile.TemporaryFile() as out:
        start = time.perf_counter()
        proc = subprocess.Popen(tool.command(path), stdout=out, stderr=subprocess.STDOUT,
                                env=full, cwd=path.parent)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        out.seek(0)
        text = out.read().decode("utf-8", "replace")
    code = os.waitstatus_to_exitcode(status)
    cpu = usage.ru_utime + usage.ru_stime
    problem = ""
    if tool.name.startswith("symcert") and (code != 0 or "no bug" not in text):
        problem = f"exit {code}: {text[-300:]}"
    elif tool.name == "CrossHair" and (code != 0 or text.strip()):
        problem = f"exit {code}: {text[-300:]}"
    elif tool.name == "PyWiSE" and '"verdict": "safe"' not in text:
        problem = f"exit {code}: {text[-300:]}"
    return wall, cpu, problem


def tools(args: argparse.Namespace) -> list[Tool]:
    out = []
    symcert = ("{python}", "-m", "symcert", "run", "{FILE}")
    if not args.src:
        out.append(Tool("symcert", tuple(a.replace("{python}", sys.executable) for a in symcert),
                        ".imp"))
    for item in args.src:
        name, _, src = item.partition("=")
        out.append(Tool(f"symcert {name}",
                        tuple(a.replace("{python}", sys.executable) for a in symcert), ".imp",
                        (("PYTHONPATH", str(Path(src).resolve())),)))
    if not args.no_crosshair:
        out.append(Tool("CrossHair", (str(BIN / "crosshair"), "check", "--analysis_kind=asserts",
                                      "{FILE}"), ".py"))
    if not args.no_wise:
        if Path(args.wise).exists():
            out.append(Tool("PyWiSE", (args.wise, str(BENCH / "wise_driver.py"), "{FILE}",
                                       "1000"), ".imp"))
        else:
            print(f"PyWiSE left out: no {args.wise} (make bench creates it)", file=sys.stderr)
    return out


def environment(bytecode: str, cache: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("SYMCERT_CONTRACTS", "PYTHONPATH")}
    if bytecode == "cached":
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = cache
    return env


def measure(args: argparse.Namespace, bytecode: str, folder: Path) -> dict[str, object]:
    """Every tool on every program, `args.repeats` times in rotating order."""
    env = environment(bytecode, str(folder / f"pycache-{bytecode}"))
    chosen = tools(args)
    results: dict[str, object] = {"bytecode": bytecode, "repeats": args.repeats, "programs": {}}
    for prog in args.programs:
        files = {}
        for suffix, texts in ((".imp", IMP), (".py", PYTHON)):
            path = folder / f"{prog}{suffix}"
            path.write_text(texts[prog], encoding="utf-8")
            files[suffix] = path
        runs: dict[str, list[tuple[float, float]]] = {t.name: [] for t in chosen}
        for tool in chosen:  # warm-up: page cache, and the .pyc files when cached
            run_once(tool, files[tool.suffix], env)
        for i in range(args.repeats):
            k = i % len(chosen)
            for tool in chosen[k:] + chosen[:k]:
                wall, cpu, problem = run_once(tool, files[tool.suffix], env)
                if problem:
                    raise SystemExit(f"{tool.name} on {prog}: {problem}")
                runs[tool.name].append((wall, cpu))
        base = chosen[0].name
        med = {name: (statistics.median(w for w, _ in rs), statistics.median(c for _, c in rs),
                      min(w for w, _ in rs), max(w for w, _ in rs))
               for name, rs in runs.items()}
        results["programs"][prog] = {  # type: ignore[index]
            name: {"wall": m[0], "cpu": m[1], "wall_min": m[2], "wall_max": m[3],
                   "wall_ratio": m[0] / med[base][0], "cpu_ratio": m[1] / med[base][1]}
            for name, m in med.items()}
    return results


def table(results: dict[str, object]) -> str:
    programs: dict[str, dict[str, dict[str, float]]] = results["programs"]  # type: ignore
    lines = [f"bytecode {results['bytecode']}, {results['repeats']} runs each, medians "
             "(ratio: over the first symcert)", "",
             "| program | tool | wall s (min-max) | wall ratio | CPU s | CPU ratio |",
             "|---|---|---|---|---|---|"]
    for prog, rows in programs.items():
        for name, r in rows.items():
            lines.append(f"| {prog} | {name} | {r['wall']:.3f} ({r['wall_min']:.3f}-"
                         f"{r['wall_max']:.3f}) | {r['wall_ratio']:.2f} | {r['cpu']:.3f} | "
                         f"{r['cpu_ratio']:.2f} |")
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=15)
    ap.add_argument("--src", action="append", default=[], metavar="NAME=SRC",
                    help="a symcert checkout's src folder (repeatable); default: the installed")
    ap.add_argument("--bytecode", choices=("cached", "none", "both"), default="both")
    ap.add_argument("--programs", nargs="+", choices=tuple(IMP), default=list(IMP))
    ap.add_argument("--no-crosshair", action="store_true")
    ap.add_argument("--no-wise", action="store_true")
    ap.add_argument("--wise", default=str(BENCH / ".wisevenv" / "bin" / "python"))
    ap.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    args = ap.parse_args()
    modes = ("cached", "none") if args.bytecode == "both" else (args.bytecode,)
    load = os.getloadavg()[0]
    print(f"load average {load:.2f} at the start; {os.cpu_count()} CPUs")
    everything = []
    with tempfile.TemporaryDirectory() as tmp:
        for mode in modes:
            results = measure(args, mode, Path(tmp))
            everything.append(results)
            print(table(results), end="\n\n", flush=True)
    print(f"load average {os.getloadavg()[0]:.2f} at the end")
    if args.json:
        Path(args.json).write_text(json.dumps(everything, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
