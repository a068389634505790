"""What `symcert run` and `symcert run --lang` print of a verdict alike: the reason a budget
stopped them, and the JSON line that ends a run."""

from __future__ import annotations

from typing import Sequence

from symcert.cli.commands.budget import BudgetExceeded, Deadline
from symcert.cli.commands.events import emit
from symcert.engine.verdict import Attempt, Bound, Cause, Kind, Reason


def stop_reason(stop: BaseException, deadline: Deadline) -> Reason:
    """The reason for a run stopped by its time budget or by running out of memory."""
    if isinstance(stop, BudgetExceeded):
        return Reason(Cause.TIME, deadline.reason())
    return Reason(Cause.MEMORY, deadline.out_of_memory())


def shown_reason(reason: Reason | None, max_states: int) -> Reason | None:
    """The reason as the user reads it: a state budget names its option."""
    if reason is not None and reason.cause is Cause.STATES:
        rest = reason.message.partition(" ran out")[2]  # what inference found, if anything
        return Reason(Cause.STATES, f"the state budget (--max-states {max_states:,}) ran out"
                      + rest)
    return reason


def bounded(bound: Bound | None) -> str:
    """The bounded claim (T-B1) as a line of the text report after the summary, or ""."""
    if bound is None:
        return ""
    spent = "; ".join(f"{what}: {n:,} states" for what, n in bound.consumers)
    return (f"\n  no assertion fails on any path of at most {bound.steps:,} steps"
            + (f" (the budget went to {spent})" if spent else ""))


def print_done(kind: Kind, exhaustive: bool, reason: Reason | None, states: int, strategy: str,
               seconds: float, solver_queries: int, solver_seconds: float,
               bound: Bound | None = None, inferred: Sequence[str] = (),
               summaries: Sequence[str] = (), tried: Sequence[Attempt] = ()) -> None:
    """The last JSON line of a run (`--json`); `bounded` is the bounded claim (T-B1),
    `inferred` the loop invariants inferred and checked (T-I2) that proved the program,
    `summaries` the procedures whose calls used their contracts (T-S1), `tried` each method
    the check tried and how it ended; `exhaustive` says every path was explored and each
    failing one decided, so never beside `undecided`."""
    decided = exhaustive and kind is not Kind.UNDECIDED
    emit("done", **{"verdict": kind.value, "exhaustive": decided,
                      "inferred_invariants": list(inferred), "summaries": list(summaries),
                      "bounded": None if bound is None else {
                          "steps": bound.steps, "consumers": dict(bound.consumers)},
                      "reason": None if reason is None else reason.message,
                      "cause": None if reason is None else reason.cause.value,
                      "states": states, "strategy": strategy, "seconds": round(seconds, 6),
                      "solver_queries": solver_queries,
                      "solver_seconds": round(solver_seconds, 6),
                      "tried": attempts(tried)})


def attempts(tried: Sequence[Attempt]) -> list[dict[str, str]]:
    """The methods a check tried, as the `tried` field of a `done` event."""
    return [{"method": a.method, "outcome": a.outcome, **({"spent": a.detail} if a.detail
                                                          else {})} for a in tried]


def tried_line(tried: Sequence[Attempt]) -> str:
    """The methods an undecided check tried and how each ended, as a line of the text report
    (after the summary), or ""."""
    if not tried:
        return ""
    return "\n  tried: " + "; ".join(map(str, tried))


def unchecked(unreached: Sequence[str]) -> str:
    """The contracts a verdict did not check, no call reaching them (`contracts.unreached`), as
    a line of the text report, or ""."""
    if not unreached:
        return ""
    one = len(unreached) == 1
    return (f"\n  not verified: the contract{'' if one else 's'} of {', '.join(unreached)} "
            f"(no call reaches {'it' if one else 'them'})")


def used(summaries: Sequence[str]) -> str:
    """The contracts a verdict relied on (T-S1), as a line of the text report, or ""."""
    if not summaries:
        return ""
    return (f"\n  calls of {', '.join(summaries)} used their contracts (T-S1), each body "
            "verified once against its contract")
