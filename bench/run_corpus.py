"""`symcert run`'s verdicts on the loop corpus, with and without inferred invariants (T-I2).

    python bench/run_corpus.py [--max-states N] [PROGRAM...]

Each program (default: every `bench/corpus/*.imp`; the expected verdict is the last word of the
file name, `safe` or `unsafe`) is checked twice by the library, as `symcert run` does:
`verdict.Check` (plain exploration, `--no-infer`) and `inference.InferringCheck` (the default).
A row is *wrong* when a decided verdict contradicts the expected one: SAFE for an unsafe
program, or BUG for a safe one. Printed: a Markdown table and the totals per mode.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from symcert.checking.inference import InferringCheck  # noqa: E402
from symcert.engine.verdict import Budget, Check, Kind  # noqa: E402
from symcert.lang.parser import parse_file  # noqa: E402

WANTED = {"safe": Kind.SAFE, "unsafe": Kind.BUG}


def outcome(kind: Kind, expected: str) -> str:
    """proved / bug found / undecided / wrong."""
    if kind is Kind.UNDECIDED:
        return "undecided"
    if kind is not WANTED[expected]:
        return "WRONG"
    return "proved" if kind is Kind.SAFE else "bug found"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--max-states", type=int, default=20_000)
    ap.add_argument("programs", nargs="*", type=Path)
    args = ap.parse_args()
    paths = args.programs or sorted((ROOT / "bench" / "corpus").glob("*.imp"))
    totals: dict[str, dict[str, int]] = {"plain": {}, "inferred": {}}
    print("| program | expected | plain | s | with inference | s |")
    print("|---|---|---|---|---|---|")
    for path in paths:
        p = parse_file(path)
        expected = path.stem.rsplit("_", 1)[-1]
        cells = []
        for mode, make in (("plain", lambda: Check(p, Budget(args.max_states))),
                           ("inferred", lambda: InferringCheck(p, Budget(args.max_states)))):
            start = time.perf_counter()
            verdict = make().run()
            seconds = time.perf_counter() - start
            said = outcome(verdict.kind, expected)
            totals[mode][said] = totals[mode].get(said, 0) + 1
            cells += [said, f"{seconds:.2f}"]
        print(f"| {path.stem} | {expected} | " + " | ".join(cells) + " |", flush=True)
    for mode, counts in totals.items():
        print(f"{mode}: " + ", ".join(f"{n} {k}" for k, n in sorted(counts.items())))


if __name__ == "__main__":
    main()
