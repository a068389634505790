"""Invariants inferred by Spacer on a small corpus of loop programs, checked by both provers.

    python bench/chc_corpus.py [--timeout-ms MS] [PROGRAM...]

Each program (default: every `bench/corpus/*.imp`, translated from SV-COMP's ReachSafety loop
tasks; the expected verdict is the last word of the file name) goes to `solver.horn.infer`.
A *safe* answer's invariants are checked by `verify.inductive.check_invariants` (z3 and
cvc5 on every obligation); an *unsafe* answer's input is replayed on the concrete interpreter.
Printed per program: the expected verdict, Spacer's answer, whether the answer was confirmed
(checked by both provers, or replayed to a `fail`), Spacer's time and the check's time. A row
is *wrong* only if a confirmed answer contradicts the expected verdict.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from symcert.verify.inductive import check_invariants  # noqa: E402
from symcert.core.concrete import Ending, run_to_end  # noqa: E402
from symcert.lang.parser import parse_file  # noqa: E402
from symcert.solver.horn import Safe, Unsafe, infer  # noqa: E402

REPLAY_FUEL = 10_000_000


def row(path: Path, timeout_ms: int) -> tuple[str, ...]:
    """One program's line of the table."""
    p = parse_file(path)
    expected = path.stem.rsplit("_", 1)[-1]
    answer = infer(p, timeout_ms=timeout_ms)
    start = time.perf_counter()
    if isinstance(answer, Safe):
        check = check_invariants(p, {i.index: i.invariant for i in answer.invariants})
        said, confirmed = "safe", "checked z3+cvc5" if check.accepted else \
            f"REJECTED ({len(check.failed())} failed)"
        ok = check.accepted
    elif isinstance(answer, Unsafe):
        final = run_to_end(answer.input, p, REPLAY_FUEL)
        ok = final is not None and final.ending is Ending.FAIL
        said, confirmed = "unsafe", f"replayed {answer.input.show()}" if ok else "replay does not fail"
    else:
        said, confirmed, ok = "unknown", answer.reason[:40], False
    wrong = ok and said != expected
    return (path.stem, expected, said, confirmed + (" WRONG" if wrong else ""),
            f"{answer.seconds:.2f}", f"{time.perf_counter() - start:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("programs", nargs="*", type=Path)
    parser.add_argument("--timeout-ms", type=int, default=10_000)
    args = parser.parse_args()
    programs = args.programs or sorted((ROOT / "bench" / "corpus").glob("*.imp"))
    header = ("program", "expected", "spacer", "confirmed", "spacer s", "check s")
    rows = [header] + [row(p, args.timeout_ms) for p in programs]
    widths = [max(len(r[i]) for r in rows) for i in range(len(header))]
    for r in rows:
        print(" | ".join(c.ljust(w) for c, w in zip(r, widths)))


if __name__ == "__main__":
    main()
