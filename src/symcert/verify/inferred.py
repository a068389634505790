"""What inference found and how each of its methods ended, as reports say it (T-I2): the
invariants and contracts that both checks accepted (`Inferred`), Spacer's ending read off its
reason (`spacer_outcome`), and whether a proposal was answered by Spacer or guessed."""

from __future__ import annotations

from dataclasses import dataclass

from symcert.lang.syntax import BExpr, While


@dataclass(frozen=True, slots=True)
class Inferred:
    """Invariants the CHC solver proposed that both checks accepted, loop by loop."""

    invariants: tuple[tuple[While, BExpr], ...]
    seconds: float
    how: str = "inferred"
    """`inferred` by the CHC solver or `guessed` from concrete runs (`verify.guesses`,
    `verify.contract_guesses`)."""
    contracts: tuple[str, ...] = ()
    """The procedures' inferred contracts, one line each (`verify.summaries.shown`)."""

    def lines(self) -> list[str]:
        """One line per loop: where it is and its invariant, as IMP (and, for a guessed one,
        where it comes from); then one per procedure with an inferred contract."""
        source = " (guessed from concrete runs)" if self.how == "guessed" else ""
        return [f"the loop at {_at(w)}{source}: invariant {inv}"
                for w, inv in self.invariants] + list(self.contracts)

    def heading(self) -> str:
        """The line before `lines` in a report."""
        if self.contracts:
            loops_too = "loop invariants and " if self.invariants else ""
            source = "guessed from concrete calls" if self.how == "guessed" else "z3's Spacer"
            return (f"proved with inferred {loops_too}procedure contracts ({source}), checked "
                    "by z3, cvc5 and the invariant and contract transitions:")
        return ("proved with inferred loop invariants (z3's Spacer, or guessed from concrete "
                "runs), checked by z3, cvc5 and the invariant transition:")


def _at(w: While) -> str:
    return f"{w.pos.line}:{w.pos.column}" if w.pos is not None else "?"


def spacer_outcome(reason: str, seconds: float, timeout_ms: int) -> str:
    """How Spacer ended without an answer after `seconds`, read off its reason: timeout (its
    own `timeout_ms` spent; z3 says "canceled" then too), canceled (stopped earlier by an
    interrupt) or unknown (it gave up, or the program is outside its fragment)."""
    low = reason.lower()
    if "timeout" in low or ("cancel" in low and seconds * 1000 >= 0.95 * timeout_ms):
        return f"timeout after {seconds:.1f} s"
    return ("canceled" if "cancel" in low else "unknown") + f" ({reason})"


def answered(how: str) -> str:
    return "answered, " if how == "inferred" else "proposed, "
