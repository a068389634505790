"""The derived engine (seed 002, `symcert run --lang imp`) against the hand-written one
(`symcert run`), in one process.

    python bench/derived.py [NAME ...]

Each program that imp.sem parses (all but macros), of examples/*.imp and of bench/programs.py's
suite, is checked by `engine.verdict.check` and by `seed002.bugfinder.check` on the shipped IMP,
alternating which goes first, contracts off (run without SYMCERT_CONTRACTS). The time is each
check's own, from the parsed program to the verdict; states are what each explored (the derived
engine's are configurations of `L^sym`, one per rule application, so it explores more of them than
the hand-written engine explores states: the time ratio is the figure to compare). The hand-written
check has 100,000 states, the derived one `checking.agreement.DERIVED_STATES` times as many
configurations; each engine first checks one small program untimed (imports, z3's first use).
Prints a markdown table and the total of each column; the verdicts must agree (a row says DIFFER
otherwise).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from programs import ROOT, programs  # noqa: E402

from symcert.checking.agreement import DERIVED_STATES  # noqa: E402
from symcert.engine.verdict import Budget, check  # noqa: E402
from symcert.lang.errors import SymcertError  # noqa: E402
from symcert.lang.parser import parse  # noqa: E402
from symcert.seed002.bugfinder import LangBudget, Language, input_range  # noqa: E402
from symcert.seed002.bugfinder import check as lang_check  # noqa: E402

MAX_STATES = 100_000


def suite() -> list[tuple[str, str]]:
    """(name, source) of every case study and every bench program."""
    cases = [(f"case:{p.stem}", p.read_text()) for p in sorted((ROOT / "examples").glob("*.imp"))]
    bench = [(p.name, p.source) for p in programs() if not p.name.startswith("case:")]
    return cases + bench


def cells(row: list[float]) -> str:
    """`states, s, states/s | configurations, s, configurations/s | ratio` of one row."""
    h_n, h_s, d_n, d_s = row
    return (f"{h_n:,}, {h_s:.2f}, {h_n / h_s:,.0f} | {d_n:,}, {d_s:.2f}, {d_n / d_s:,.0f} "
            f"| {d_s / h_s:.1f}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*", help="only these programs (default: all)")
    args = ap.parse_args(argv)
    if os.environ.get("SYMCERT_CONTRACTS"):
        print("note: contracts are on (SYMCERT_CONTRACTS); unset it to measure", file=sys.stderr)
    imp = Language.load("imp")
    hand_budget, derived_budget = Budget(MAX_STATES), LangBudget(MAX_STATES * DERIVED_STATES)
    warm = "x = 1; if y < x then skip else assert y != 3 fi"
    check(parse(warm), hand_budget), lang_check(imp, imp.parse(warm), derived_budget)
    print("| program | verdict | hand-written: states, s, states/s "
          "| derived: configurations, s, configurations/s | time ratio |")
    print("|---|---|---|---|---|")
    totals = [0, 0.0, 0, 0.0]
    for turn, (name, source) in enumerate(suite()):
        if args.names and name not in args.names:
            continue
        try:
            term = imp.parse(source, name)
        except SymcertError:
            continue  # a construct imp.sem does not define (macros)
        runs = [lambda: check(parse(source), hand_budget),
                lambda: lang_check(imp, term, derived_budget, input_range(source))]
        results = [None, None]
        for i in ((0, 1) if turn % 2 == 0 else (1, 0)):
            results[i] = runs[i]()
        hand, derived = results
        row = [hand.stats.states, hand.stats.seconds, derived.states, derived.seconds]
        totals = [t + r for t, r in zip(totals, row)]
        kinds = {hand.kind.value, derived.kind.value}
        verdict = kinds.pop() if len(kinds) == 1 else f"DIFFER {hand.kind.value}/{derived.kind.value}"
        print(f"| {name} | {verdict} | {cells(row)} |", flush=True)
    print(f"| total | | {cells(totals)} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
