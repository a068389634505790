"""The cost of minimal witnesses (`engine.shrink`) on the buggy case studies.

    python bench/shrink.py [PROGRAM...]

Each program (default: every `examples/*_buggy.imp`) is checked as `symcert run` does
(`verdict.Check`, first bug), once with `Budget(shrink=False)` and once with shrinking; printed
per program: the check's seconds without and with, the shrink's solver queries, the largest
absolute input value of the solver's witness and of the shrunk one, and whether the shrunk
input differs. A Markdown table, then the totals.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from symcert.core.concrete import Cells  # noqa: E402
from symcert.engine.shrink import ShrinkBudget, shrink  # noqa: E402
from symcert.engine.verdict import Budget, Check  # noqa: E402
from symcert.lang.parser import parse_file  # noqa: E402


def largest(env: object) -> int:
    """The largest absolute value of an input: integers and array cells."""
    values = [0]
    for _, v in env.bindings:  # type: ignore[attr-defined]
        values += [abs(c) for _, c in v.cells] if isinstance(v, Cells) else [abs(v)]
    return max(values)


def main() -> None:
    files = sys.argv[1:] or sorted(str(p) for p in (ROOT / "examples").glob("*_buggy.imp"))
    print("| program | s without | s with | queries | max |v| before | after |")
    print("|---|---:|---:|---:|---:|---:|")
    total = [0.0, 0.0, 0]
    for name in files:
        program = parse_file(name)
        start = time.perf_counter()
        plain = Check(program, Budget(shrink=False)).run()
        without = time.perf_counter() - start
        start = time.perf_counter()
        shrunk = Check(program, Budget()).run()
        with_ = time.perf_counter() - start
        if plain.witness is None or shrunk.witness is None:
            print(f"| {Path(name).name} | {without:.2f} | {with_:.2f} | no bug | | |")
            continue
        check = Check(program, Budget(shrink=False))
        found = check.run().witness
        assert found is not None
        queries = check.solver.stats.queries
        shrink(found, check.solver, ShrinkBudget())
        asked = check.solver.stats.queries - queries
        total[0] += without
        total[1] += with_
        total[2] += asked
        print(f"| {Path(name).name} | {without:.2f} | {with_:.2f} | {asked} | "
              f"{largest(plain.witness.input):,} | {largest(shrunk.witness.input):,} |")
    print(f"\ntotal: {total[0]:.2f} s without, {total[1]:.2f} s with shrinking, "
          f"{total[2]} queries")


if __name__ == "__main__":
    main()
