"""What the language server (`symcert lsp`, cli/server.py) says of a document, read from the
outcome of its check by a child `symcert run FILE --json`, as `run DIR|FILE...` reads each
program's (cli/commands/batch.py): each bug with its replayed witness and its trace, each
syntax, type or name error with its range, and each assertion proved or undecided, with the
verdicts of cli/commands/reports.py. A finding's lines and columns are 0-based and count code
points, as the parser's do; the server converts them to the client's units."""

from __future__ import annotations

import argparse
import math
import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Mapping

from symcert.lang.errors import plural

if TYPE_CHECKING:
    from symcert.cli.commands.reports import Outcome
    from symcert.engine.trace import Step

ERROR, WARNING, INFORMATION, HINT = 1, 2, 3, 4
"""LSP's DiagnosticSeverity."""
VERDICTS = ("bug", "proved", "undecided")
"""The kinds of finding a hover shows: an assertion's (or a failing statement's) verdict."""
_TOKEN = re.compile(r"[A-Za-z0-9_]+|[=!<>]=|\S")


@dataclass(frozen=True)
class Settings:
    """The budget of each check and how long a change waits before one starts; given by
    `symcert lsp`'s flags, then by the client's `initializationOptions` and
    `workspace/didChangeConfiguration` (OPTIONS)."""

    timeout: float = 60.0
    max_states: int = 100_000
    all_bugs: bool = False
    """`run`'s default: the first bug, with inference (T-I2), so the editor's verdicts are
    `run`'s (`--all-bugs` explores without inference)."""
    debounce: float = 0.5


OPTIONS = {"timeout": "timeout", "maxStates": "max_states", "allBugs": "all_bugs",
           "debounce": "debounce"}
"""The client's option names and the Settings field each sets."""
CLIENT_SIDE = ("command",)
"""Settings of the `symcert` section that the client itself reads (the VS Code extension's
command that starts the server), passed on with the others and left alone."""


def configured(settings: Settings, options: Any) -> tuple[Settings, list[str]]:
    """`settings` with the client's `options` applied (a JSON object, its keys those of OPTIONS,
    possibly under a `symcert` key), and a message for each option refused."""
    if isinstance(options, Mapping) and isinstance(options.get("symcert"), Mapping):
        options = options["symcert"]
    if not isinstance(options, Mapping):
        return settings, []
    changes: dict[str, Any] = {}
    refused = []
    for key, value in options.items():
        name = OPTIONS.get(key)
        number = (isinstance(value, (int, float)) and not isinstance(value, bool)
                  and math.isfinite(value))
        if key in CLIENT_SIDE:
            continue
        if name is None:
            refused.append(f"unknown option `{key}` (known: {', '.join(OPTIONS)})")
        elif name == "all_bugs" and isinstance(value, bool):
            changes[name] = value
        elif name == "max_states" and number and value == int(value) and value > 0:
            changes[name] = int(value)
        elif name in ("timeout", "debounce") and number and (value > 0 or
                                                            name == "debounce" and value == 0):
            changes[name] = float(value)
        else:
            refused.append(f"option `{key}`: not a valid value: {value!r}")
    return replace(settings, **changes), refused


def child_args(settings: Settings) -> argparse.Namespace:
    """The options of the child `symcert run` that checks a document in `settings`: `run`'s
    defaults (cli/commands/options.py) but the budget, `--all-bugs` and `--trace` (each bug's
    steps, the diagnostic's related information)."""
    from symcert.cli.commands.options import RUN, defaults

    args = defaults(RUN)
    args.max_states, args.timeout = settings.max_states, settings.timeout
    args.all_bugs, args.trace = settings.all_bugs, True
    return args


@dataclass(frozen=True)
class Span:
    """A range on one line: 0-based line, start and end columns (code points)."""

    line: int
    start: int
    end: int

    def __contains__(self, at: tuple[int, int]) -> bool:
        return at[0] == self.line and self.start <= at[1] <= self.end


@dataclass(frozen=True)
class Related:
    """A step of a bug's replay, where it is and what it did."""

    span: Span
    message: str


@dataclass(frozen=True)
class Finding:
    """One diagnostic: where, how severe, its code (a bug's cause, an error's kind, `proved`,
    `undecided`), its message, its verdict (one of VERDICTS, or None for an error) and, for a
    bug, the steps of its replay."""

    span: Span
    severity: int
    code: str
    message: str
    verdict: str | None = None
    steps: tuple[Related, ...] = ()

    def hover(self) -> str:
        """The hover of the finding's statement (markdown): its verdict, witness and trace."""
        trace = "".join(f"\n{i}. line {s.span.line + 1}: `{s.message}`"
                        for i, s in enumerate(self.steps, 1))
        return (f"**symcert: {self.verdict}** ({self.code})\n\n```\n{self.message}\n```"
                + (f"\n\nreplay:{trace}" if trace else ""))


def lines_of(text: str) -> list[str]:
    """The lines of a document as the parser counts them (at `\\n`)."""
    return [line.removesuffix("\r") for line in text.split("\n")]


def token_span(lines: list[str], line: int, column: int) -> Span:
    """The token at the parser's 1-based `line` and `column` (one character past the end)."""
    row = min(max(line - 1, 0), len(lines) - 1)
    start = min(max(column - 1, 0), len(lines[row]))
    token = _TOKEN.match(lines[row], start)
    return Span(row, start, token.end() if token else start + 1)


def statement_span(lines: list[str], line: int, column: int) -> Span:
    """The statement at the 1-based `line` and `column`, up to its `;`, a comment or the end of
    its line."""
    span = token_span(lines, line, column)
    rest = re.split(r"[;#]", lines[span.line][span.start:], maxsplit=1)[0].rstrip()
    return replace(span, end=max(span.end, span.start + len(rest)))


def findings(outcome: Outcome, text: str) -> list[Finding]:
    """The findings of `outcome`, the check of the document `text` (its file still there: the
    assertions are read from it)."""
    from symcert.cli.commands.reports import assertions

    lines = lines_of(text)
    found: list[Finding] = []
    error = outcome.error
    if error is not None:
        span = (token_span(lines, error["line"], error["column"]) if "line" in error
                else Span(0, 0, 0))
        found.append(Finding(span, ERROR, error["kind"], f"{error['kind']}: {error['message']}"))
    found += [_bug(b, lines) for b in outcome.bugs]
    done = outcome.done
    if done is None:
        if error is None:
            last = (outcome.stderr.strip().splitlines() or ["no output"])[-1]
            found.append(Finding(Span(0, 0, 0), WARNING, "internal error",
                                 f"symcert run ended with exit code {outcome.exit_code}: {last}"))
        return found
    claim = _bounded(done)
    checked = assertions(outcome)
    for a in checked:
        if a.verdict != "bug":
            message = f"assertion `{a.text}`: {a.verdict}: {a.detail}"
            code = "proved" if a.verdict == "proved" else done.get("cause") or "undecided"
            found.append(Finding(statement_span(lines, a.line, a.column),
                                 HINT if a.verdict == "proved" else INFORMATION, code,
                                 message + (claim if a.verdict == "undecided" else ""),
                                 a.verdict))
    if done["verdict"] == "undecided" and not checked:
        found.append(Finding(Span(0, 0, 0), INFORMATION, done.get("cause") or "undecided",
                             f"undecided: {done.get('reason')}{claim}", "undecided"))
    return found


def stopped(settings: Settings, grace: float) -> Finding:
    """The finding of a check that did not end within its budget and `grace` seconds more
    (and was stopped)."""
    return Finding(Span(0, 0, 0), INFORMATION, "time",
                   f"undecided: the check did not end within {settings.timeout + grace:g} s "
                   "(the timeout option is its budget)", "undecided")


def _bounded(done: dict[str, Any]) -> str:
    """The bounded claim of an undecided check (T-B1), as `run` words it, or ""."""
    from symcert.cli.commands.verdicts import bounded
    from symcert.engine.verdict import Bound

    b = done.get("bounded")
    return "" if not b else "\n" + bounded(
        Bound(b["steps"], tuple(b["consumers"].items()))).strip()


def _bug(bug: dict[str, Any], lines: list[str]) -> Finding:
    """A bug event as a finding: `run`'s report of it (the call stack, the witness, the
    schedule of threads, the replay) and its trace, or its interleaving of threads, as related
    steps."""
    from symcert.cli.commands.reports import witness
    from symcert.cli.commands.traces import effect, stack_note

    stack = tuple(_site(s) for s in bug.get("stack", ()))
    steps = tuple(Related(statement_span(lines, s["line"], s["column"] or 1),
                          f"{s['statement']}  -> {effect(_step(s))}")
                  for s in bug.get("trace", ()) if s.get("line"))
    steps += tuple(Related(statement_span(lines, s["line"], s["column"]),
                           f"thread {s['thread']}: {s['statement']}")
                   for s in bug.get("interleaving", ()) if s["line"])
    schedule = ("" if "schedule" not in bug else
                f"\nschedule: {','.join(map(str, bug['schedule'])) or 'none'} "
                "(replay it with exec --schedule)")
    fails = ", ".join(f"{f['variable']} = {f['value']}" for f in bug.get("fails_at", ()))
    fails = f"\nfails at: {fails} (its first such value, evaluated concretely)" if fails else ""
    message = (f"bug: {bug['message']}{stack_note(stack)}\n{witness(bug, schedule=False)}"
               f"{schedule}{fails}\n"
               f"replay: concrete run from this input reaches the failing statement after "
               f"{plural(bug['replay_steps'], 'step')}")
    return Finding(statement_span(lines, bug["line"], bug["column"]), ERROR, bug["cause"],
                   message, "bug", steps)


def _site(s: dict[str, Any]) -> Any:
    """A call site of a JSON call stack (`traces.sites_json`) as `engine.trace.Site`."""
    from symcert.engine.trace import Site
    from symcert.lang.syntax import Pos

    return Site(s["procedure"], None if s["line"] is None else Pos(s["line"], s["column"]))


def _step(s: dict[str, Any]) -> Step:
    """A step of a JSON trace (`traces.json_steps`) as `engine.trace.Step`."""
    from symcert.engine.trace import Change, Step
    from symcert.lang.syntax import Pos

    return Step(s["step"], Pos(s["line"], s["column"]), s["kind"], s["statement"], s["branch"],
                tuple(Change(k, v) for k, v in s["changes"].items()),
                tuple(_site(x) for x in s["stack"]), s["depth"], s["failed"],
                s.get("failure", ""))
