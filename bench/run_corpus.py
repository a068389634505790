"""`symcert run`'s verdicts on the loop corpus, with and without inferred invariants (T-I2).

    python bench/run_corpus.py [--max-states N] [--timeout S] [--reasons] [PROGRAM...]

Each program (default: every `bench/corpus/*.imp`; the expected verdict is the last word of the
file name, `safe` or `unsafe`, and its header names the SV-COMP task it comes from) is checked
twice by the library, as `symcert run` does: `verdict.Check` (plain exploration, `--no-infer`)
and `inference.InferringCheck` (the default), each in a forked child with a wall-clock deadline
(`--timeout`, as the CLI's option: a check that has not ended counts as undecided). A row is
*wrong* when a decided verdict contradicts the expected one: SAFE for an unsafe program, or BUG
for a safe one; *ERROR* when the check raised (an internal error of symcert). Printed: a Markdown table, the totals per mode and, with `--reasons`, why each
undecided check with inference stopped.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from symcert.verify.inference import InferringCheck  # noqa: E402
from symcert.engine.verdict import Budget, Check, Kind  # noqa: E402
from symcert.lang.parser import parse_file  # noqa: E402
from symcert.solver.deadline import ChildFailed, within  # noqa: E402

WANTED = {"safe": Kind.SAFE, "unsafe": Kind.BUG}


def outcome(kind: Kind, expected: str) -> str:
    """proved / bug found / undecided / wrong."""
    if kind is Kind.UNDECIDED:
        return "undecided"
    if kind is not WANTED[expected]:
        return "WRONG"
    return "proved" if kind is Kind.SAFE else "bug found"


def check(path: Path, mode: str, max_states: int, timeout: float) -> tuple[Kind, str]:
    """The verdict's kind and reason (run in the child; `timeout` is the check's, which the
    replays of candidate inputs share as `symcert run --timeout` does)."""
    p = parse_file(path)
    budget = Budget(max_states)
    verdict = (Check(p, budget) if mode == "plain" else
               InferringCheck(p, budget, seconds=timeout)).run()
    return verdict.kind, "" if verdict.reason is None else verdict.reason.message


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--max-states", type=int, default=100_000)
    ap.add_argument("--timeout", type=float, default=30.0)
    ap.add_argument("--reasons", action="store_true")
    ap.add_argument("--mode", choices=("both", "plain", "inferred"), default="both")
    ap.add_argument("programs", nargs="*", type=Path)
    args = ap.parse_args()
    paths = args.programs or sorted((ROOT / "bench" / "corpus").glob("*.imp"))
    totals: dict[str, dict[str, int]] = {"plain": {}, "inferred": {}}
    seconds_total = {"plain": 0.0, "inferred": 0.0}
    reasons = []
    print("| program | expected | plain | s | with inference | s |")
    print("|---|---|---|---|---|---|")
    for path in paths:
        expected = path.stem.rsplit("_", 1)[-1]
        cells = []
        for mode in ("plain", "inferred"):
            if args.mode not in ("both", mode):
                cells += ["–", "–"]
                continue
            start = time.perf_counter()
            try:
                got = within(args.timeout, lambda: check(path, mode, args.max_states, args.timeout))
            except ChildFailed as err:  # an internal error of symcert: its own row
                got, failure = None, str(err)
            else:
                failure = None
            seconds = time.perf_counter() - start
            kind, why = got if got is not None else (Kind.UNDECIDED, f"timeout {args.timeout} s")
            said = outcome(kind, expected) if failure is None else "ERROR"
            why = why if failure is None else failure
            totals[mode][said] = totals[mode].get(said, 0) + 1
            seconds_total[mode] += seconds
            cells += [said, f"{seconds:.2f}"]
            if mode == "inferred" and said in ("undecided", "ERROR"):
                reasons.append(f"- {path.stem}: {why}")
        print(f"| {path.stem} | {expected} | " + " | ".join(cells) + " |", flush=True)
    for mode, counts in totals.items():
        if not counts:
            continue
        print(f"{mode}: " + ", ".join(f"{n} {k}" for k, n in sorted(counts.items()))
              + f"; {seconds_total[mode] / max(len(paths), 1):.2f} s a program on average")
    if args.reasons:
        print("\n".join(reasons))


if __name__ == "__main__":
    main()
