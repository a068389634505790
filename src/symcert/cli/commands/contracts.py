"""What `--contracts` checked: the contract checks icontract made, the calls they guarded, the
violations, by lemma ID (docs/lemmas.md).

`count()` wraps the three functions of icontract's checker that every checked call goes through
(`kwargs_from_call` once a call, `_assert_preconditions` and `_assert_postconditions` with the
call's conditions), so the engine's modules stay as they are. A condition is counted under the
lemma IDs its predicate is tagged with (`spec.switch.lemma`), else under the first word of its
description when that is an ID (`W-T3.1 correct expansion`), else as `other`. A violation
aborts the command (exit 70), so a summary that is printed says 0 violations."""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable

LEMMA_ID = re.compile(r"[A-Z]+-[A-Z]*[0-9][0-9.]*[a-z]?$")


@dataclass
class Checked:
    """The counts of one command."""

    calls: int = 0
    checks: int = 0
    violations: int = 0
    by_lemma: Counter[str] = field(default_factory=Counter)

    def summary(self, verbose: bool = False) -> str:
        """`N contract checks over M calls, 0 violations`, and with `verbose` a line per
        lemma ID, most checked first."""
        def n(k: int, noun: str) -> str:
            return f"{k:,} {noun if k == 1 else noun + 's'}"

        head = (f"contracts: {n(self.checks, 'contract check')} over {n(self.calls, 'call')}, "
                f"{n(self.violations, 'violation')}")
        if not verbose:
            return head + "\n"
        rows = [f"  {lemma:<12} {k:>12,}" for lemma, k in
                sorted(self.by_lemma.items(), key=lambda kv: (-kv[1], kv[0]))]
        return "\n".join([head, *rows]) + "\n"


def report(checked: Checked, args: argparse.Namespace) -> None:
    """The summary after the command's report: a `contracts` event under --json."""
    if getattr(args, "json", False):
        from symcert.cli.commands.events import emit

        emit("contracts", calls=checked.calls, checks=checked.checks,
             violations=checked.violations, lemmas=dict(sorted(checked.by_lemma.items())))
    else:
        sys.stdout.write(checked.summary(args.verbose))
        sys.stdout.flush()


def lemma_of(contract: Any) -> tuple[str, ...]:
    """The lemma IDs a contract checks (see the module's docstring)."""
    ids = getattr(contract.condition, "lemma_ids", None)
    if ids:
        return tuple(ids)
    words = (contract.description or "").split()
    return (words[0],) if words and LEMMA_ID.match(words[0]) else ("other",)


COUNTING: list[Checked] = []  # the counts of the running command, if it counts


def count() -> Checked:
    """Count icontract's checks from now on (contracts must be on) until `stop()`; the counts.
    icontract's checker is wrapped once per process."""
    import icontract._checkers as checkers

    if not getattr(checkers, "symcert_counting", False):
        _wrap(checkers)
    COUNTING[:] = [Checked()]
    return COUNTING[0]


def stop() -> None:
    """Stop counting."""
    COUNTING.clear()


def _wrap(checkers: Any) -> None:
    """Wrap the checker's functions to count into COUNTING's entry, when there is one."""
    kwargs_from_call = checkers.kwargs_from_call
    assert_pre = checkers._assert_preconditions
    assert_post = checkers._assert_postconditions

    def tally(contracts: list[Any], found: BaseException | None) -> BaseException | None:
        for checked in COUNTING:
            checked.checks += len(contracts)
            for contract in contracts:
                checked.by_lemma.update(lemma_of(contract))
            checked.violations += found is not None
        return found

    def calls(*args: Any, **kwargs: Any) -> Any:
        for checked in COUNTING:
            checked.calls += 1
        return kwargs_from_call(*args, **kwargs)

    def pre(preconditions: list[list[Any]], *args: Any, **kwargs: Any) -> Any:
        return tally([c for group in preconditions for c in group],
                     assert_pre(preconditions, *args, **kwargs))

    def post(postconditions: list[Any], *args: Any, **kwargs: Any) -> Any:
        return tally(postconditions, assert_post(postconditions, *args, **kwargs))

    patch: dict[str, Callable[..., Any]] = {"kwargs_from_call": calls,
                                            "_assert_preconditions": pre,
                                            "_assert_postconditions": post}
    for name, f in patch.items():
        setattr(checkers, name, f)
    checkers.symcert_counting = True
