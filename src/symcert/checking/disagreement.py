"""What a campaign check reports: two engines, or an engine and the concrete semantics,
disagree on a program at an input (campaign.py, concurrency.py)."""

from __future__ import annotations

from dataclasses import dataclass

from symcert.core.concrete import Env
from symcert.lang.procedures import show_program
from symcert.lang.syntax import Stmt


@dataclass(frozen=True, slots=True)
class Disagreement:
    """Two engines disagree on program `program` at input `input`; `kind` says which check."""

    kind: str
    program: Stmt
    input: Env
    detail: str

    def __str__(self) -> str:
        store = self.input.show("inputs")
        what = f"{self.kind}: {self.detail}" if self.detail else self.kind
        return (f"{what}\n  input: {store}\n  program:\n"
                + "\n".join("    " + line for line in show_program(self.program).splitlines()))
