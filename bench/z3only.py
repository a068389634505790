"""symcert against the z3-only time of its own queries.

    python bench/z3only.py [--repeats R] PROGRAM...

For each program (a path, or a case-study name of examples/), in process, contracts off:

- *symcert*: `check(program)` with a fresh solver, the time from the parsed program to the
  verdict (the z3 context made before the timer, as the replay's is);
- *z3-only*: the same queries, recorded during that run (every path condition that reached z3,
  and the conjuncts decided alone), replayed on one z3 solver the cheapest way measured: each
  distinct conjunct asserted once as `l ⇒ c` and each query a check under its literals, its
  model read. The z3 terms are built before the timer starts, so the replay is only what z3
  itself must do; whatever a front end adds (exploring, translating, caching) is symcert's.

Each repetition alternates which goes first; the medians and their ratio are printed.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def record(program: Any) -> tuple[float, list[list[Any]]]:
    """symcert's time to a verdict on `program`, and the queries that reached z3 (each the list
    of its conjuncts, symbolic terms)."""
    from symcert.engine.verdict import check
    from symcert.solver.z3backend import Solver

    queries: list[list[Any]] = []

    class Recording(Solver):
        def _check_assuming(self, pc: Any) -> Any:  # type: ignore[override]
            conjuncts, node = [], pc
            while node is not None and node.last is not None:
                conjuncts.append(node.last)
                node = node.parent
            queries.append(conjuncts)
            return super()._check_assuming(pc)

    solver = Recording()
    solver._solvers()  # the z3 context and solvers, as the replay's, before the timer
    start = time.perf_counter()
    check(program, solver=solver)
    return time.perf_counter() - start, queries


def symcert_seconds(program: Any) -> float:
    """symcert's time to a verdict, nothing recorded."""
    from symcert.engine.verdict import check
    from symcert.solver.z3backend import Solver

    solver = Solver()
    solver._solvers()
    start = time.perf_counter()
    check(program, solver=solver)
    return time.perf_counter() - start


def replay_seconds(queries: list[list[Any]]) -> float:
    """z3 alone on `queries`, through its C API: literals asserted once, a check per query, the
    model of a SAT one taken."""
    import z3
    from z3 import z3core

    from symcert.solver.z3backend import Solver

    translator = Solver()
    built = [[translator.translate(c) for c in q] for q in queries]
    literals: dict[int, Any] = {}
    implications: dict[int, Any] = {}
    for q in built:
        for t in q:
            if t.get_id() not in literals:
                lit = z3.Bool(f"!l{len(literals)}")
                literals[t.get_id()] = lit
                implications[t.get_id()] = z3.Implies(lit, t)
    plan = [([t.get_id() for t in q],
             (z3.Ast * len(q))(*(literals[t.get_id()].as_ast() for t in q))) for q in built]
    s = z3.Solver()
    s.set("random_seed", 0)
    ctx, ref = s.ctx.ref(), s.solver
    start = time.perf_counter()
    asserted: set[int] = set()
    for ids, assumptions in plan:
        for i in ids:
            if i not in asserted:
                asserted.add(i)
                z3core.Z3_solver_assert(ctx, ref, implications[i].as_ast())
        if z3core.Z3_solver_check_assumptions(ctx, ref, len(ids), assumptions) == z3.Z3_L_TRUE:
            z3core.Z3_solver_get_model(ctx, ref)
    return time.perf_counter() - start


def load(name: str) -> Any:
    from symcert.lang.parser import parse_file

    path = Path(name)
    if not path.exists():
        path = ROOT / "examples" / f"{name}.imp"
    return parse_file(str(path))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("programs", nargs="+")
    args = ap.parse_args()
    gc.disable()  # as the symcert command runs
    print("| program | z3 queries | symcert s | z3-only s | symcert / z3-only |")
    print("|---|---|---|---|---|")
    for name in args.programs:
        program = load(name)
        _, queries = record(program)
        mine: list[float] = []
        alone: list[float] = []
        for r in range(args.repeats):
            order = [symcert_seconds, replay_seconds] if r % 2 == 0 else \
                [replay_seconds, symcert_seconds]
            for f in order:
                if f is symcert_seconds:
                    mine.append(symcert_seconds(program))
                else:
                    alone.append(replay_seconds(queries))
        a, b = statistics.median(mine), statistics.median(alone)
        print(f"| {name} | {len(queries):,} | {a:.3f} | {b:.3f} | {a / b:.2f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
