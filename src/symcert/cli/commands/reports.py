"""The reports of `symcert run` over several programs (`cli.commands.batch`), each written from
the programs' JSON events (docs/schema/events.json): a summary table, SARIF 2.1.0 (OASIS; the
schema is vendored in docs/schema/) and JUnit XML.

Each assertion of a program gets a verdict: `bug` where a bug event names it; `proved` when the
program's verdict is safe, or when exploration with `--all-bugs` was exhaustive and no bug is
at it; `undecided` otherwise (the program's reason: a budget, or the first bug ending the
search). A bug at a `fail` or an undefined operation is reported at its own statement."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence
from xml.etree import ElementTree as ET

INFORMATION_URI = "https://github.com/symcert/symcert"
SARIF_SCHEMA = ("https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/"
                "sarif-schema-2.1.0.json")
RULES = {
    "assertion": "An assertion fails for some input (replayed concretely)",
    "fail": "A `fail` statement is reached for some input (replayed concretely)",
    "undefined": "A division by zero or a field of nil for some input (replayed concretely)",
    "invariant": "A loop invariant does not hold for some input (replayed concretely)",
    "precondition": "A call's precondition does not hold for some input (replayed concretely)",
    "deadlock": "Every unfinished thread is blocked for some input and schedule (replayed "
                "concretely)",
    "proved": "An assertion holds for every input (exhaustive exploration, UNSAT-backed)",
    "undecided": "An assertion neither proved nor refuted within the budget",
    "input": "The program could not be read or checked",
}
VERDICTS = {0: "safe", 1: "bug", 3: "undecided", 65: "bad input", 70: "internal error"}
COUNTED = {"safe": "safe", "bug": "with a bug", "undecided": "undecided",
           "bad input": "with bad input", "internal error": "with an internal error",
           "error": "ended otherwise"}


@dataclass(frozen=True)
class Outcome:
    """What `symcert run FILE --json` gave for one program."""

    file: str
    exit_code: int
    events: tuple[dict[str, Any], ...]
    stderr: str

    @property
    def done(self) -> dict[str, Any] | None:
        """The program's `done` event, if it got that far."""
        return next((e for e in self.events if e.get("event") == "done"), None)

    @property
    def bugs(self) -> list[dict[str, Any]]:
        return [e for e in self.events if e.get("event") == "bug"]

    @property
    def error(self) -> dict[str, Any] | None:
        return next((e for e in self.events if e.get("event") == "error"), None)


@dataclass(frozen=True)
class Assertion:
    """One `assert` of a program and its verdict (`proved`, `bug`, `undecided`)."""

    line: int
    column: int
    text: str
    verdict: str
    detail: str


def _statements(outcome: Outcome) -> list[Any]:
    """The statements of `outcome`'s program, procedures' bodies included (none when it did
    not parse)."""
    from symcert.lang.errors import SymcertError
    from symcert.lang.parser import parse_file
    from symcert.lang.procedures import statements, table_of

    try:
        program = parse_file(outcome.file)
    except (SymcertError, OSError):
        return []
    bodies = [program, *(p.body for p in table_of(program).values())]
    return [s for body in bodies for s in statements(body) if s.pos is not None]


def _headers(outcome: Outcome) -> dict[tuple[int, int], str]:
    """Each statement's line and column, and the statement as a trace shows it (a test as its
    keyword and condition)."""
    from symcert.engine.trace import header
    from symcert.lang.syntax import Await

    return {(s.pos.line, s.pos.column): f"await {s.cond}" if isinstance(s, Await)
            else header(s).split("\n")[0] for s in _statements(outcome)}


def assertions(outcome: Outcome) -> list[Assertion]:
    """The assertions of `outcome`'s program with their verdicts (none when it did not parse)."""
    from symcert.lang.syntax import Assert

    found = sorted({(s.pos.line, s.pos.column, str(s.cond)) for s in _statements(outcome)
                    if isinstance(s, Assert)})
    done = outcome.done or {}
    failing = {(b["line"], b["column"]): b for b in outcome.bugs}
    proved = done.get("verdict") == "safe" or bool(done.get("exhaustive"))
    reason = done.get("reason") or ("the search stopped at the first bug (--all-bugs goes on)"
                                    if done.get("verdict") == "bug" else "not checked")
    out = []
    for line, column, cond in found:
        bug = failing.get((line, column))
        if bug is not None:
            out.append(Assertion(line, column, cond, "bug", f"{bug['message']} ({witness(bug)})"))
        elif proved:
            out.append(Assertion(line, column, cond, "proved", "holds for every input"))
        else:
            out.append(Assertion(line, column, cond, "undecided", reason))
    return out


def witness(bug: dict[str, Any], schedule: bool = True) -> str:
    """A bug's input (and heap, and with threads and `schedule` its schedule) as one line of
    text."""
    shown = ", ".join(f"{x} = {v}" for x, v in bug["input"].items()) or "any"
    heap = "; ".join(f"{o} {{{', '.join(f'{f} = {v}' for f, v in row.items())}}}"
                     for o, row in bug.get("heap", {}).items())
    order = ("" if "schedule" not in bug or not schedule else
             f"; schedule: {','.join(map(str, bug['schedule'])) or 'none'}")
    return f"input: {shown}" + (f"; heap: {heap}" if heap else "") + order


def interleaving_text(bug: dict[str, Any]) -> str:
    """A threaded bug's interleaving, one step a line, as `exec --schedule` prints it (""
    without threads)."""
    return "".join(f"thread {s['thread']} at {s['line']}:{s['column']}: {s['statement']}\n"
                   if s["line"] else f"thread {s['thread']} ends\n"
                   for s in bug.get("interleaving", ()))


def text_lines(outcome: Outcome) -> str:
    """The lines a program gets as it is checked: each bug, or its error."""
    lines = [f"{outcome.file}:{b['line']}:{b['column']}: bug: {b['message']} ({witness(b)})"
             for b in outcome.bugs]
    if outcome.error is not None:
        e = outcome.error
        where = f"{e['file']}:{e['line']}:{e['column']}" if "line" in e else outcome.file
        lines.append(f"{where}: {e['kind']}: {e['message']}")
    elif outcome.done is None and outcome.exit_code != 0:
        lines.append(f"{outcome.file}: exit {outcome.exit_code}: "
                     f"{outcome.stderr.strip().splitlines()[-1:] or ['no output']}")
    return "".join(line + "\n" for line in lines)


def table(outcomes: Sequence[Outcome], code: int) -> str:
    """The summary table: one row per program, then the counts and the worst exit code."""
    rows = [("program", "verdict", "exit", "states", "seconds")]
    for o in outcomes:
        done = o.done or {}
        rows.append((o.file, VERDICTS.get(o.exit_code, "error"), str(o.exit_code),
                     f"{done['states']:,}" if "states" in done else "-",
                     f"{done['seconds']:.2f}" if "seconds" in done else "-"))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(c.ljust(w) if i == 0 or i == 1 else c.rjust(w)
                       for i, (c, w) in enumerate(zip(r, widths))).rstrip() for r in rows]
    counts: dict[str, int] = {}
    for o in outcomes:
        verdict = VERDICTS.get(o.exit_code, "error")
        counts[verdict] = counts.get(verdict, 0) + 1
    n = len(outcomes)
    summary = ", ".join(f"{counts[v]:,} {COUNTED[v]}" for v in COUNTED if v in counts)
    lines.append(f"{n:,} {'program' if n == 1 else 'programs'}: {summary or 'none'}; "
                 f"worst exit code {code}")
    return "\n".join(lines) + "\n"


def _location(file: str, line: int | None, column: int | None) -> dict[str, Any]:
    region = {"startLine": max(line or 1, 1), "startColumn": max(column or 1, 1)}
    return {"physicalLocation": {"artifactLocation": {"uri": file}, "region": region}}


def code_flows(file: str, bug: dict[str, Any]) -> list[dict[str, Any]]:
    """The code flow of a bug from its `trace` (the steps of its replay, each with a `line`,
    a `column` and a `statement`), when the run recorded one; none otherwise."""
    steps = [s for s in bug.get("trace", ()) if s.get("line")]
    if not steps:
        return []
    return [{"threadFlows": [{"locations": [
        {"location": {**_location(file, s["line"], s.get("column")),
                      "message": {"text": str(s.get("statement", ""))}}} for s in steps]}]}]


def sarif(outcomes: Sequence[Outcome], code: int) -> dict[str, Any]:
    """The SARIF 2.1.0 log of a run over `outcomes`: a result per bug (kind `fail`, level
    `error`, its location, witness and code flow), per proved assertion (kind `pass`) and per
    undecided one (kind `open`), both of level `none` as SARIF §3.27.10 requires of a result
    that is not a failure, and per program that could not be checked (a notification)."""
    from symcert import __version__

    results: list[dict[str, Any]] = []
    notifications: list[dict[str, Any]] = []
    for o in outcomes:
        for b in o.bugs:
            results.append({
                "ruleId": b["cause"], "kind": "fail", "level": "error",
                "message": {"text": f"{b['message']} ({witness(b)})"},
                "locations": [_location(o.file, b["line"], b["column"])],
                "codeFlows": code_flows(o.file, b),
                "properties": {k: b[k] for k in ("input", "heap", "replay_steps",
                                                 "path_condition", "schedule",
                                                 "interleaving") if k in b}})
            if not results[-1]["codeFlows"]:
                del results[-1]["codeFlows"]
        for a in assertions(o):
            if a.verdict != "bug":
                results.append({
                    "ruleId": a.verdict, "kind": "pass" if a.verdict == "proved" else "open",
                    "level": "none",
                    "message": {"text": f"assertion `{a.text}`: {a.verdict}: {a.detail}"},
                    "locations": [_location(o.file, a.line, a.column)]})
        if o.done is None:
            e = o.error or {}
            notifications.append({
                "level": "error",
                "message": {"text": e.get("message") or o.stderr.strip() or "no output"},
                "locations": [_location(o.file, e.get("line"), e.get("column"))],
                "properties": {"kind": e.get("kind", "internal error"),
                               "exitCode": o.exit_code}})
    invocation: dict[str, Any] = {"executionSuccessful": code in (0, 1, 3), "exitCode": code}
    if notifications:
        invocation["toolExecutionNotifications"] = notifications
    return {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [{
        "tool": {"driver": {"name": "symcert", "version": __version__,
                            "informationUri": INFORMATION_URI,
                            "rules": [{"id": k, "shortDescription": {"text": v}}
                                      for k, v in RULES.items()]}},
        "invocations": [invocation], "results": results}]}


def junit(outcomes: Sequence[Outcome]) -> str:
    """JUnit XML: a test suite per program, a test case per assertion (a bug at another
    statement is a test case of its own; a program with neither is one test case), failed for a
    bug, skipped when undecided, in error when the program could not be checked."""
    suites = ET.Element("testsuites", name="symcert run")
    for o in outcomes:
        suite = ET.SubElement(suites, "testsuite", name=o.file)
        cases: list[tuple[ET.Element, str]] = []
        for a in assertions(o):
            case = ET.Element("testcase", classname=o.file,
                              name=f"{a.line}:{a.column} assert {a.text}")
            if a.verdict == "bug":
                ET.SubElement(case, "failure", message=a.detail, type="bug")
            elif a.verdict == "undecided":
                ET.SubElement(case, "skipped", message=a.detail)
            cases.append((case, a.verdict))
        at_asserts = {(a.line, a.column) for a in assertions(o)}
        headers = _headers(o)
        for b in o.bugs:
            where = (b["line"], b["column"])
            if where not in at_asserts:
                shown = f": {headers[where]}" if where in headers else ""
                case = ET.Element("testcase", classname=o.file,
                                  name=f"{b['line']}:{b['column']} {b['cause']}{shown}")
                failure = ET.SubElement(case, "failure", type="bug",
                                        message=f"{b['message']} ({witness(b)})")
                cases.append((case, "bug"))
            else:  # the assertion's own case
                failure = next(c for c, _ in cases if c.get("name", "").startswith(
                    f"{b['line']}:{b['column']} ")).find("failure")  # type: ignore[assignment]
            if "interleaving" in b and failure is not None and not failure.text:
                failure.text = "interleaving (replay it with exec --schedule):\n" + \
                    interleaving_text(b)
        if o.done is None:
            case = ET.Element("testcase", classname=o.file, name="check")
            e = o.error or {}
            ET.SubElement(case, "error", message=e.get("message") or o.stderr.strip()[-500:],
                          type=e.get("kind", "internal error"))
            cases.append((case, "error"))
        elif not cases:
            case = ET.Element("testcase", classname=o.file, name="check")
            if o.exit_code == 3:
                ET.SubElement(case, "skipped", message=(o.done or {}).get("reason") or "")
            cases.append((case, "proved" if o.exit_code == 0 else "undecided"))
        for case, _ in cases:
            suite.append(case)
        verdicts = [v for _, v in cases]
        suite.set("tests", str(len(cases)))
        suite.set("failures", str(verdicts.count("bug")))
        suite.set("errors", str(verdicts.count("error")))
        suite.set("skipped", str(verdicts.count("undecided")))
        suite.set("time", f"{(o.done or {}).get('seconds', 0):.3f}")
    ET.indent(suites)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suites, "unicode") + "\n"
