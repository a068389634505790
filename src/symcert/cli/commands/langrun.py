"""`symcert run --lang LANG.sem FILE`: the bug finder on a language defined by rewrite rules
(seed 002; `seed002.bugfinder`), reported as `symcert run` reports (text or JSON lines, exit 0
safe, 1 bug, 3 undecided, 65 bad definition or program). `--lang imp` and `--lang gcl` name the
shipped definitions. A bug is named as `symcert run` names one, `FILE:LINE:COL: bug: ...`, at the
construct it is stuck at (the position the parser gave the program's construct, carried by the
rules that rewrote it: `seed002.rewrite`), with the rule that led there.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from symcert.cli.commands.budget import BudgetExceeded, Deadline
from symcert.cli.commands.events import event_line
from symcert.cli.commands.programs import read_bytes, source_name
from symcert.cli.commands.values import json_int, show_int, text


def read_text(args: argparse.Namespace) -> str:
    """The text of `args.file` within `--max-input-bytes`, decoded as UTF-8 (a ParseError at
    the first bad byte)."""
    from symcert.lang.errors import error_at, too_large

    name = source_name(args.file)
    data = read_bytes(args)
    if len(data) > args.max_input_bytes:
        raise too_large(data[:args.max_input_bytes], name, args.max_input_bytes)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        before = data[:err.start].decode("utf-8", errors="replace")
        raise error_at(data.decode("utf-8", errors="replace"), name, before.count("\n") + 1,
                       len(before) - (before.rfind("\n") + 1) + 1,
                       f"the file is not valid UTF-8 (byte 0x{data[err.start]:02x})") from None


class _Reporter:
    """Prints each confirmed bug at once, names the phases of the deadline."""

    def __init__(self, deadline: Deadline, lang: Any, name: str, as_json: bool) -> None:
        self.deadline, self.lang, self.name, self.as_json = deadline, lang, name, as_json

    def phase(self, name: str) -> None:
        self.deadline.enter(name)

    def explored(self, states: int, frontier: int) -> None:
        pass

    def confirmed(self, found: Any, states: int) -> None:
        sys.stdout.write(bug_report(found, self.lang, self.name, self.as_json, states))
        sys.stdout.flush()


def bug_report(found: Any, lang: Any, name: str, as_json: bool, explored: int) -> str:
    """A confirmed bug as a JSON line or three lines of text, at the line and column of the
    stuck construct (the file alone for a program built without positions); the input shows
    the variables of the formula its model satisfies."""
    from symcert.core.terms import free_vars
    from symcert.lang.structure import reads

    pc = found.condition
    names = sorted(set().union(*(free_vars(c) for c in pc.conjuncts())) if pc.length else set())
    cells = found.env.labelled(names, {a for a, _ in reads(pc.conjuncts())})
    message = found.describe(lang.concrete)
    line, column = found.failing.pos or (None, None)
    if as_json:
        return event_line("bug", {"file": name, "line": line, "column": column,
                           "message": message, "cause": "stuck",
                           "input": {x: json_int(v) for x, v in cells},
                           "replay_steps": len(found.labels), "rules": list(found.labels),
                           "path_condition": text(pc), "states": explored})
    shown = ", ".join(f"{x} = {show_int(v)}" for x, v in cells)
    where = f"{name}:{line}:{column}" if line is not None else name
    return (f"{where}: bug: {message}\n"
            f"  input:  {shown or 'any (the bug does not depend on the input)'}\n"
            f"  replay: the concrete rules of {lang.concrete.name}, run from this input along "
            f"the same {len(found.labels)} rules, reach the stuck configuration\n")


def run_lang(args: argparse.Namespace) -> int:
    """`symcert run --lang`: load and derive the language, parse FILE in it, check, report."""
    from symcert.engine.explore import Strategy
    from symcert.cli.commands.verdicts import print_done, shown_reason, stop_reason
    from symcert.engine.verdict import Kind
    from symcert.seed002.bugfinder import (
        LangBudget, LangCheck, Language, LangVerdict, input_range,
    )
    from symcert.seed002.semfile import find_language

    deadline: Deadline = args.budget
    name = source_name(args.file)
    start = time.perf_counter()
    budget = LangBudget(args.max_states, Strategy(args.strategy), args.all_bugs)
    check: LangCheck | None = None
    try:
        deadline.enter(f"reading the definition {args.lang}")
        try:
            lang = Language.load(args.lang)
        except OSError as err:
            print(f"{find_language(args.lang)}: cannot read the definition: {err.strerror}",
                  file=sys.stderr)
            return 65
        text = read_text(args)
        deadline.enter(f"parsing {name}")
        program = lang.parse(text, name, args.max_program_size)
        check = LangCheck(lang, program, budget, input_range(text), start=start)
        verdict = check.run(_Reporter(deadline, lang, name, args.json))
    except (BudgetExceeded, MemoryError) as stop:
        reason = stop_reason(stop, deadline)
        verdict = (check.stopped(reason) if check is not None else
                   LangVerdict(Kind.UNDECIDED, False, 0, time.perf_counter() - start,
                               reason=reason))
    deadline.enter("reporting")
    reason = shown_reason(verdict.reason, args.max_states)
    if args.json:
        print_done(verdict.kind, verdict.exhaustive, reason, verdict.states,
                   budget.strategy.value, verdict.seconds, verdict.solver_queries,
                   verdict.solver_seconds)
        return verdict.exit_code
    order = "breadth-first" if budget.strategy is Strategy.BFS else "depth-first"
    summary = (f"explored {verdict.states:,} symbolic configurations of the derived semantics "
               f"({order}) in {verdict.seconds:.2f} s")
    if verdict.kind is Kind.BUG:
        print(f"  {summary}")
    elif verdict.kind is Kind.SAFE:
        print(f"{name}: no bug: no input reaches a stuck `bug` construct")
        print(f"  exhaustive: {summary}")
    else:
        print(f"{name}: undecided: {reason}")
        print(f"  no bug found so far; {summary}")
    return verdict.exit_code
