"""Apply every wrong variant of `variants.py` and record which checker catches it.

Three independent checkers, each in a subprocess of its own with `SYMCERT_MUTANT=<variant>`:

- `contracts`: the runtime contracts on the workload of `workload.py` (the first violated
  lemma is recorded);
- `properties`: the Hypothesis suites of `tests/properties/` with the contracts off
  (`SYMCERT_PROPERTIES_ONLY=1`, profile `mutant`, derandomised; the first failing test);
- `crosshair`: `crosshair check` of `contracts/check_lemmas.py`, `src/symcert/engine/explore.py` and
  `src/symcert/engine/bugfinder.py` (`run_crosshair.py`) with the variant applied by the plugin (bounded search; slow, so only when asked: `--checker crosshair`).

`python tests/mutants/run_variants.py [--checker NAME ...] [--write] [VARIANT ...]` prints the
table (default checkers: contracts and properties);
`--write` puts it into docs/contracts.md between the `variants` markers (cells not re-run are
kept). The test
`test_variants.py` re-runs the contracts column, which is deterministic, and checks the table.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
DOC = ROOT / "docs" / "contracts.md"
BEGIN, END = "<!-- variants:begin -->", "<!-- variants:end -->"
NOT_CAUGHT = "not caught"
CHECKERS = ("contracts", "properties", "crosshair")

sys.path.insert(0, str(HERE))
import variants  # noqa: E402


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one checker said about one variant: `caught` and the evidence (lemma or test)."""

    variant: str
    checker: str
    caught: bool
    evidence: str
    seconds: float

    def cell(self) -> str:
        return f"caught: `{self.evidence}`" if self.caught else self.evidence


def _command(checker: str) -> tuple[list[str], dict[str, str]]:
    py = sys.executable
    if checker == "contracts":
        return [py, str(HERE / "workload.py")], {"SYMCERT_CONTRACTS": "1"}
    if checker == "properties":
        return ([py, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "tests/properties"],
                {"SYMCERT_PROPERTIES_ONLY": "1", "HYPOTHESIS_PROFILE": "mutant"})
    return [py, "contracts/run_crosshair.py", "contracts/check_lemmas.py",
            "src/symcert/engine/explore.py", "src/symcert/engine/bugfinder.py"], {}


def check(variant: str, checker: str) -> Outcome:
    """Run `checker` against `variant` in a fresh process."""
    argv, extra = _command(checker)
    env = dict(os.environ, SYMCERT_MUTANT=variant, **extra)
    env.pop("CI", None)  # the `ci` Hypothesis profile would override `mutant`
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    out = done.stdout + done.stderr
    if checker == "contracts":
        lines = done.stdout.strip().splitlines()
        caught = done.returncode == 0
        evidence = lines[-1] if caught and lines else _failure(out)
    elif checker == "properties":
        failed = re.search(r"^FAILED tests/properties/(\S+?)(?: - |$)", out, re.M)
        caught = done.returncode == 1 and failed is not None
        evidence = failed.group(1) if caught and failed else _failure(out)
    else:
        found = crosshair_evidence(out)
        caught = done.returncode == 1 and found is not None
        evidence = found if caught and found else _failure(out)
    return Outcome(variant, checker, caught, evidence, seconds)


CROSSHAIR_ERROR = re.compile(
    r': error: (?:"@lemma\(([^)]+)\)" yields false when calling (\w+)'    # a tagged predicate
    r'|"[^\n]*?" yields false when calling (\w+)'                        # another condition
    r'|false when calling (\w+)'                                          # a check_* result
    r'|(\w+Error)\b)')                                                    # an exception


def crosshair_evidence(log: str) -> str | None:
    """What the first `: error:` of a CrossHair log says, without the counterexample's
    arguments (they vary from run to run): the lemma and function of a failed postcondition
    (`W-T3.1 false on expand`), a `check_*` that returned false, or the exception raised."""
    bad = CROSSHAIR_ERROR.search(log)
    if bad is None:
        return None
    lemma_id, tagged, other, check, error = bad.groups()
    if lemma_id:
        ids = lemma_id.replace('"', "")
        return f"{ids} false on {tagged}"
    if other:
        return f"a postcondition false on {other}"
    return f"{check} is false" if check else error


def _failure(log: str) -> str:
    """`not caught`, or the crash that stopped the checker (not counted as a catch)."""
    crash = re.findall(r"^(\w+(?:\.\w+)*Error: .*)$", log, re.M)
    return f"{NOT_CAUGHT} (crashed: {crash[-1][:80]})" if crash else NOT_CAUGHT


def table(results: dict[tuple[str, str], Outcome], old: dict[str, dict[str, str]]) -> str:
    """The markdown table: one row per variant, one column per checker; a cell not re-run
    keeps its `old` value."""
    head = "| variant | the mistake | " + " | ".join(CHECKERS) + " |"
    rows = [head, "|" + "---|" * (2 + len(CHECKERS))]
    for name, (mistake, _) in variants.VARIANTS.items():
        cells = [results[name, c].cell() if (name, c) in results
                 else old.get(name, {}).get(c, "not run") for c in CHECKERS]
        rows.append(f"| `{name}` | {mistake} | " + " | ".join(cells) + " |")
    return "\n".join(rows)


def parse_table(text: str) -> dict[str, dict[str, str]]:
    """The table between the markers of docs/contracts.md: variant -> checker -> cell."""
    body = text.split(BEGIN, 1)[1].split(END, 1)[0].strip().splitlines()
    header = [c.strip() for c in body[0].strip("|").split("|")]
    out = {}
    for line in body[2:]:
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]
        out[cells[0].strip("`")] = dict(zip(header[2:], cells[2:]))
    return out


def write(text: str) -> None:
    """Replace the table between the markers of docs/contracts.md."""
    doc = DOC.read_text()
    before, rest = doc.split(BEGIN, 1)
    after = rest.split(END, 1)[1]
    DOC.write_text(f"{before}{BEGIN}\n{text}\n{END}{after}")


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("variant", nargs="*", metavar="VARIANT", help="default: all of them")
    ap.add_argument("--checker", action="append", choices=CHECKERS,
                    help="a checker to run; repeat for several (default: contracts, properties)")
    ap.add_argument("--write", action="store_true", help="update docs/contracts.md")
    ap.add_argument("--jobs", type=int, default=4)
    args = ap.parse_args(argv)
    names = args.variant or list(variants.VARIANTS)
    unknown = set(names) - set(variants.VARIANTS)
    if unknown:
        ap.error(f"unknown variant(s): {', '.join(sorted(unknown))}")
    checkers = tuple(args.checker or CHECKERS[:2])
    jobs = [(v, c) for v in names for c in checkers]
    start = time.perf_counter()
    with ThreadPoolExecutor(args.jobs) as pool:
        outcomes = list(pool.map(lambda job: check(*job), jobs))
    results = {(o.variant, o.checker): o for o in outcomes}
    for o in outcomes:
        print(f"{o.variant:30} {o.checker:10} {o.seconds:6.1f} s  {o.cell()}", file=sys.stderr)
    print(f"{len(jobs)} checks in {time.perf_counter() - start:.0f} s", file=sys.stderr)
    text = table(results, parse_table(DOC.read_text()) if DOC.exists() else {})
    print(text)
    if args.write:
        write(text)
    missed = [v for v in names if not any(results[v, c].caught for c in checkers)]
    if missed and args.write:  # another checker, not re-run now, may have caught it
        table_now = parse_table(DOC.read_text())
        missed = [v for v in missed
                  if not any(cell.startswith("caught") for cell in table_now[v].values())]
    if missed:
        print(f"not caught by any checker: {', '.join(missed)}", file=sys.stderr)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
