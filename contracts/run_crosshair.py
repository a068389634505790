"""Run `crosshair check` over symcert's contracted modules and `contracts/`, within a budget.

One process per target, two at a time, `--per_condition_timeout` 5 s (CROSSHAIR_PER_CONDITION),
`--report_all`; the bounded-type plugin comes through the `crosshair.plugin` entry point. A
target fails when its log has `: error:`, `Unable to meet precondition` (a vacuous check), a
`Traceback`, no checked condition at all (contracts off: CrossHair then checks nothing and exits
0), or when it runs past `TARGET_TIMEOUT`. A log that reports no counterexample but shows
CrossHair itself failing (a traceback outside any condition's report, a condition's path
found nondeterministic, no summary because the process died) is a crash of the tool, not a
finding: that target runs once more, both logs are printed, and it fails only if the second
run fails too (`make test` was flaky-red on explore.py: a crash when a condition's budget ran
out, never reproduced on demand). With SYMCERT_MUTANT set, the wrong variant of
tests/mutants/ is applied by `--extra_plugin tests/mutants/crosshair_variant.py`. Run from the
repository root: `python contracts/run_crosshair.py [TARGET ...]`.

The modules are checked with the runtime contracts on (they are what CrossHair checks there);
`contracts/check_lemmas.py` and `contracts/check_seed002.py` with them off, because CrossHair takes a ViolationError raised by a
*nested* contracted call for a failed precondition and drops the path: with contracts on, a
`check_*` function calling a broken `expand` or `sym_aeval` is never reported (measured with the
wrong variants of tests/mutants/: none caught with contracts on, most with them off). The
`check_*` functions carry their own `@ensure`, which is not switched by SYMCERT_CONTRACTS.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGETS = (
    "src/symcert/engine/explore.py",
    "contracts/check_lemmas.py",
    "contracts/check_seed002.py",
    "src/symcert/seed004/interp.py",
    "src/symcert/core/symbolic.py",
    "src/symcert/core/state.py",
    "src/symcert/engine/bugfinder.py",
    "src/symcert/engine/ghost.py",
)
"""Every module with contracts that CrossHair can analyse (not `proof.prove`: its wall-clock
budget is nondeterministic to CrossHair), and the `check_*` lemmas."""
CONTRACTS_OFF = ("contracts/check_lemmas.py", "contracts/check_seed002.py")
PER_CONDITION = os.environ.get("CROSSHAIR_PER_CONDITION", "5")
TARGET_TIMEOUT = 60 * float(PER_CONDITION) + 120
"""Seconds one target may take: far above conditions × budget for every target today."""
JOBS = 2
BAD = re.compile(r": error:|Unable to meet precondition|Traceback")
FINDING = re.compile(r": error: (?!NotDeterministic)|Unable to meet precondition")
"""What CrossHair reports about the code: a counterexample or a vacuous precondition."""
MUTANT_PLUGIN = "tests/mutants/crosshair_variant.py"


def crosshair_exe() -> str:
    """The `crosshair` next to this Python, else the one on the PATH."""
    here = Path(sys.executable).parent / "crosshair"
    return str(here) if here.exists() else "crosshair"


def check(target: str, extra: tuple[str, ...] = ()) -> tuple[str, bool, float, str]:
    """Run one `crosshair check`, and once more if the first run crashed without a finding;
    return (target, passed, seconds, log)."""
    target, passed, seconds, log = check_once(target, extra)
    if passed or FINDING.search(log) or "TIMEOUT after" in log:
        return target, passed, seconds, log
    target, passed, again, second = check_once(target, extra)
    return (target, passed, seconds + again,
            f"{log}\n--- CrossHair crashed without a finding; second run:\n{second}")


def check_once(target: str, extra: tuple[str, ...] = ()) -> tuple[str, bool, float, str]:
    """Run one `crosshair check`; return (target, passed, seconds, log)."""
    env = dict(os.environ, SYMCERT_CONTRACTS="0" if target in CONTRACTS_OFF else "1")
    if os.environ.get("SYMCERT_MUTANT"):
        extra = (*extra, "--extra_plugin", MUTANT_PLUGIN)
    start = time.perf_counter()
    try:
        done = subprocess.run(
            [crosshair_exe(), "check", target, "--per_condition_timeout", PER_CONDITION,
             "--report_all", *extra], cwd=ROOT, env=env, capture_output=True, text=True,
            timeout=TARGET_TIMEOUT)
    except subprocess.TimeoutExpired as out:
        partial = [x.decode() if isinstance(x, bytes) else x or "" for x in (out.stdout, out.stderr)]
        log = "".join(partial) + f"\nTIMEOUT after {TARGET_TIMEOUT:.0f} s"
        return target, False, time.perf_counter() - start, log
    log = done.stdout + done.stderr
    passed = not BAD.search(log) and ": info:" in log
    return target, passed, time.perf_counter() - start, log


def main(argv: list[str]) -> int:
    targets = argv or list(TARGETS)
    start = time.perf_counter()
    failed = 0
    with ThreadPoolExecutor(JOBS) as pool:
        for target, passed, seconds, log in pool.map(check, targets):
            conditions = log.rsplit("second run:", 1)[-1].count(": info:")
            rerun = "; re-run after a crash" if "second run:" in log else ""
            print(f"{'ok  ' if passed else 'FAIL'} {target}: {conditions} conditions, "
                  f"{seconds:.1f} s{rerun}")
            if not passed or rerun:
                failed += 1
                print(log)
    print(f"crosshair: {len(targets) - failed}/{len(targets)} targets clean in "
          f"{time.perf_counter() - start:.1f} s (a bounded search, not a proof)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
