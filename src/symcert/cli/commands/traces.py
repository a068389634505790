"""How `symcert run` and `symcert exec` show a trace (`engine.trace`): a line a statement,
indented by the calls running, with the branch taken and what the step wrote; as JSON, an
array of objects. A bug inside a procedure names its call stack (`in pop, called from 13:5`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterable

from symcert.cli.commands.values import json_int, show_int

if TYPE_CHECKING:
    from symcert.core.concrete import Env, State
    from symcert.lang.syntax import Stmt
    from symcert.engine.bugfinder import Witness
    from symcert.engine.trace import Change, Site, Step


@dataclass(frozen=True)
class Told:
    """What a bug report tells of a bug's run: its call stack, and its trace if asked for."""

    stack: tuple[Site, ...]
    steps: list[Step] | None
    found_by: str | None = None
    """Where the input of a bug found by concrete replay alone came from (`Witness.found_by`)."""
    jumped: int = 0
    """The replay's steps taken in checked jumps over loop iterations (`Witness.jumped`)."""

    @staticmethod
    def of(found: Witness, references: frozenset[str], trace: bool) -> Told:
        return Told(stack_of(found), steps_of(found, references)  # threads: the interleaving
                    if trace and found.program is not None else None, found.found_by,
                    found.jumped)

    def jumps(self) -> str:
        """For the report's replay line: how many steps the replay took in jumps, or ""."""
        return jumps(self.jumped)

    def note(self) -> str:
        """The stack for the report's first line (`stack_note`), and for a bug found by
        concrete replay alone, where its input came from."""
        from symcert.engine.candidates import Source

        by = "" if self.found_by is None else \
            f" (found by the concrete replay of {Source(self.found_by).what()}; no symbolic path)"
        return stack_note(self.stack) + by

    def json(self) -> dict[str, Any]:
        """The `stack` of a JSON bug event, its `trace` if asked for, and `found_by`."""
        out: dict[str, Any] = {"stack": sites_json(self.stack)}
        if self.found_by is not None:
            out["found_by"] = self.found_by
        if self.jumped:
            out["jumped_steps"] = self.jumped
            out["jumps_confirmed_by"] = list(JUMP_CHECKS)
        return out if self.steps is None else {**out, "trace": json_steps(self.steps)}

    def text(self, name: str) -> str:
        """The trace's lines, or "" when not asked for."""
        return "" if self.steps is None else text(name, self.steps)


def jumps(jumped: int) -> str:
    """`jumped` steps of a replay taken in checked jumps (`Witness.jumped`), as the end of a
    report's replay line, or "" for none."""
    return (f" ({jumped:,} of them in jumps over loop iterations, T-A1, each confirmed by "
            "concrete runs of its first and last iterations and by z3 for every iteration)"
            if jumped else "")


JUMP_CHECKS = ("concrete first and last iterations", "z3 for every iteration")
"""The two checkers of every jump of a replay (`engine.acceleration`, T-A1), as JSON says."""


def stack_of(found: Witness) -> tuple[Site, ...]:
    """The call stack at a confirmed bug, read off its replay (innermost first)."""
    from symcert.engine.trace import call_stack

    if found.program is None or found.final.frame is None:  # no call runs at the failure
        return ()
    return call_stack(found.program, found.input, found.final.steps, found.jumped > 0)


def steps_of(found: Witness, references: frozenset[str]) -> list[Step]:
    """The trace of a confirmed bug's replay."""
    from symcert.engine.trace import walk

    assert found.program is not None
    return list(walk(found.program, found.input, found.final.steps, references,
                     found.jumped > 0))


def calls(program: Stmt, start: Env, state: State, jumps: bool = False) -> str:
    """The call stack of a concrete run from `start` stopped in `state` (with `jumps`, an
    accelerated one), as `stack_note` says it; found by running again, and only when the run
    stopped inside a procedure."""
    from symcert.engine.trace import call_stack

    return stack_note(call_stack(program, start, state.steps, jumps) if state.frame else ())


def show_run(name: str, program: Stmt, start: Env, steps: int,
             references: frozenset[str], jumps: bool = False) -> None:
    """Print the trace of the concrete run of `program` from `start` (`exec --trace`), a line
    a step as it is taken (with `jumps`, a checked jump as one line)."""
    from symcert.engine.trace import walk

    print("  trace:")
    for done in walk(program, start, steps, references, jumps):
        print(line(name, done))


def stack_note(stack: tuple[Site, ...]) -> str:
    """` in pop, called from 13:5` for a bug inside a procedure, "" in the main statement."""
    from symcert.engine.trace import where

    return f" {where(stack)}" if stack else ""


def _value(v: int | str) -> str:
    return v if isinstance(v, str) else show_int(v)


def _changes(changes: Iterable[Change]) -> str:
    return ", ".join(f"{c.name} = {_value(c.value)}" for c in changes)


def effect(step: Step) -> str:
    """What a step did, in words: the branch, the call or return, the values written."""
    if step.failed:
        return ("fails" if step.kind == "assert" and step.branch is False or not step.failure
                else f"fails: {step.failure}")
    written = _changes(step.changes)
    if step.kind == "call":
        callee = step.stack[0].proc if step.stack else "?"
        return f"call {callee}({written})"
    if step.kind == "return":
        back = step.stack[0].proc if step.stack else "the main statement"
        return f"return to {back}" + (f": {written}" if written else "")
    if step.kind in ("if", "while"):
        return ("true" if step.branch else "false") + (f"; {written}" if written else "")
    if step.kind in ("assert", "assume"):
        return "holds"
    return written or "no change"


def text(name: str, steps: Iterable[Step]) -> str:
    """The trace as lines of text, one a statement, indented by the calls running."""
    lines = ["  trace:"]
    for s in steps:
        lines.append(line(name, s))
    return "\n".join(lines) + "\n"


def line(name: str, step: Step) -> str:
    """One step of a trace as a line of text."""
    at = f"{name}:{step.pos.line}:{step.pos.column}" if step.pos else name
    return f"    {'  ' * step.depth}{at}  {step.statement}  -> {effect(step)}"


def sites_json(stack: tuple[Site, ...]) -> list[dict[str, Any]]:
    """A call stack as JSON, innermost first."""
    return [{"procedure": s.proc, "line": s.call.line if s.call else None,
             "column": s.call.column if s.call else None} for s in stack]


def json_steps(steps: Iterable[Step]) -> list[dict[str, Any]]:
    """The trace as a JSON array."""
    return [{"step": s.number, "line": s.pos.line if s.pos else None,
             "column": s.pos.column if s.pos else None, "kind": s.kind,
             "statement": s.statement, "branch": s.branch, "failed": s.failed,
             "changes": {c.name: c.value if isinstance(c.value, str) else json_int(c.value)
                         for c in s.changes},
             "depth": s.depth, "stack": sites_json(s.stack),
             **({"failure": s.failure} if s.failed else {})} for s in steps]


def final(state: Any, refs: frozenset[str] = frozenset()) -> str:
    """The variables of a concrete state (an array's cells), big integers summarised; with
    objects (seed 003 §4), the references as `@k`, `new#k` and the objects' fields."""
    from symcert.core import heap
    from symcert.core.threads import program_globals

    env = program_globals(state.env)
    names = [k for k, _ in env.bindings]
    if refs or any(k.startswith(".") for k in names):
        values, objects = heap.graph(env, names, refs)
        scalars, shown = heap.show({k: v if isinstance(v, str) else show_int(v)
                                    for k, v in values.items()}, objects)
        return "; ".join(part for part in (scalars, shown) if part) or "all variables 0"
    return (", ".join(f"{k} = {show_int(v)}" for k, v in env.labelled())
            or "all variables 0")
