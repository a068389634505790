"""State merging (T-M1, `symcert run --merge`) on `n` independent ifs: states, solver queries
and time, merged against unmerged, with the same verdicts.

    python bench/merge.py [--sizes 4 8 12 16] [--repeats R] [--timeout S] [--out FILE]

Each program is bench/programs.py's `ifs(n)` (`c = 0; if x0 > 0 then c = c + 1 else skip fi;
…; assert c <= n`, safe, 2^n paths) and its buggy twin (`assert c < n`: only the path through
every then-branch fails, found last by a breadth-first search). Each runs as a user runs it,
`symcert run FILE --json --no-infer [--merge]` (the programs have no loop to infer an
invariant for), contracts off, one subprocess per run, the two modes
alternating which goes first; the states, the verdict and the solver's queries come from the
run's last JSON line, the time is the median of the repeats of its `seconds` (from the parse
to the verdict, start-up excluded). Results go to bench/results-merge.json; the table is
printed in docs/bench.md's format.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from programs import ROOT, ifs  # noqa: E402

SYMCERT = Path(sys.executable).with_name("symcert")


def one(path: Path, merge: bool, timeout: float) -> dict[str, object]:
    """One run's last JSON line, or a note that it timed out."""
    cmd = [str(SYMCERT), "run", str(path), "--json", "--no-infer", "--max-states", "10000000"]
    cmd += ["--merge"] if merge else []
    env = {**os.environ, "SYMCERT_CONTRACTS": "0"}
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return {"verdict": "timeout"}
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", type=int, nargs="+", default=[4, 8, 12, 16])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=600.0)
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results-merge.json")
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.sizes:
            for kind, source in (("safe", ifs(n)),
                                 ("buggy", ifs(n).replace(f"assert c <= {n}", f"assert c < {n}"))):
                path = Path(tmp) / f"ifs{n}_{kind}.imp"
                path.write_text(source)
                runs: dict[bool, list[dict[str, object]]] = {False: [], True: []}
                for r in range(args.repeats):
                    for merge in ((False, True) if r % 2 == 0 else (True, False)):
                        runs[merge].append(one(path, merge, args.timeout))
                row: dict[str, object] = {"n": n, "program": kind}
                for merge, name in ((False, "unmerged"), (True, "merged")):
                    last = runs[merge][-1]
                    seconds = [float(x["seconds"]) for x in runs[merge] if "seconds" in x]
                    row[name] = {"verdict": last.get("verdict"), "states": last.get("states"),
                                 "queries": last.get("solver_queries"),
                                 "seconds": statistics.median(seconds) if seconds else None}
                rows.append(row)
                print(_line(row), flush=True)
    args.out.write_text(json.dumps({
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="minutes"),
        "repeats": args.repeats, "load": os.getloadavg(), "rows": rows}, indent=1) + "\n")


def _line(row: dict[str, object]) -> str:
    u, m = row["unmerged"], row["merged"]
    assert isinstance(u, dict) and isinstance(m, dict)
    ratio = (f"{u['seconds'] / m['seconds']:.1f}×" if u["seconds"] and m["seconds"] else "–")
    return (f"| ifs{row['n']} {row['program']} | {u['verdict']} / {m['verdict']} | "
            f"{u['states']:,} / {m['states']:,} | {u['queries']} / {m['queries']} | "
            f"{_s(u['seconds'])} / {_s(m['seconds'])} | {ratio} |")


def _s(x: object) -> str:
    return f"{x:.3f}" if isinstance(x, float) else "–"


if __name__ == "__main__":
    main()
