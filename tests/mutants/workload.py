"""The contracts checker's workload: the while-language case studies and a few small programs,
explored with contracts on, and the tests generated for a procedure that falls off its end.
`caught()` returns the first violated contract (`<lemma ID> <name>: <predicate>`), or the
engine's own replay check (`ReplayMismatch`: a concrete run that does not end where its leaf
says), or None. Run as a script (SYMCERT_MUTANT selects a variant), it prints that and exits 0 when
caught, 1 when not."""

from __future__ import annotations

from pathlib import Path

import icontract

ROOT = Path(__file__).resolve().parents[2]
EXTRA = (
    "x = 5 - y; z = -x; if x < z then assert x - 1 < z else assert z <= x fi",
    "i = 0; while i < 3 do i = i + 1 od; assert i == 3",
    "if x > 0 then y = x - 1 else y = 1 - x fi; assert y >= 0",
)

PROCEDURE = ("proc bump(a) begin if a > 0 then y = a else y = 0 - a fi end\n"
             "r = bump(x); if y > 5 then fail else skip fi")
"""Its body ends without `return`: the `skip` that ends it, inside the frame, is no leaf."""

CASE_STUDIES = ("countdown_buggy", "factorial", "factorial_buggy", "gcd", "gcd_buggy", "isqrt",
                "isqrt_buggy", "min3", "min3_buggy")
"""Every variant patches the while-language core (`expand`, the worklist, the stream, the
witness), so the procedure, division and array case studies add time (100 s against 10 s), not
reach."""


def programs() -> list[object]:
    from symcert.lang.parser import parse

    texts = [(ROOT / "examples" / f"{name}.imp").read_text() for name in CASE_STUDIES]
    return [parse(t) for t in (*texts, *EXTRA)]


def run_workload() -> None:
    """Explore every program with every contracted entry point."""
    from symcert.engine.bugfinder import find_bugs_n, witness
    from symcert.engine.status import BugFound
    from symcert.engine.verdict import has_bug
    from symcert.engine.explore import Strategy, run_n
    from symcert.engine.testgen import generate_tests
    from symcert.lang.parser import parse
    from symcert.solver.z3backend import Solver
    from symcert.core.state import initial

    for p in programs():
        run_n([initial(p)], 120)
        run_n([initial(p)], 120, Strategy.BFS, Solver())
        solver = Solver()
        for status in find_bugs_n(p, 200, Strategy.BFS, solver):
            if isinstance(status, BugFound):
                witness(p, status, solver)
        has_bug(p, 300)
    generate_tests(parse(PROCEDURE), 200)


def caught() -> str | None:
    from symcert.engine.bugfinder import ReplayMismatch

    try:
        run_workload()
    except ReplayMismatch:
        return "ReplayMismatch: a leaf's concrete run does not end there"
    except icontract.ViolationError as err:
        # "File ..., line N:", then "<description>: <predicate>:", or, for a lambda that calls a
        # named predicate, "<description>: <predicate>(" and the arguments on the next lines
        lines = str(err).splitlines()
        return lines[1].rstrip(":").removesuffix("(") if len(lines) > 1 else lines[0]
    return None


if __name__ == "__main__":
    import os
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    if os.environ.get("SYMCERT_MUTANT"):
        import variants

        variants.apply(os.environ["SYMCERT_MUTANT"])
    message = caught()
    print(message or "not caught")
    sys.exit(0 if message else 1)
