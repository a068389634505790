"""The JSON events of `--json` (one object a line), as docs/schema/events.json describes them.

Every event carries `schema` (SCHEMA_VERSION: its major number changes when a field changes
meaning or goes away, its minor one when a field or an event is added) and `event`, its name.
A path condition is printed in IMP's own syntax, as `input` beside it is: references as `nil`,
`@k` (input object k) and `new#k` (the k-th object the path creates), its conjuncts without the
trivial `true` and each once. Beside each prose reason stands a `cause` code."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any, Iterable

if TYPE_CHECKING:
    from symcert.core.state import PathCondition
    from symcert.lang.errors import SymcertError
    from symcert.lang.syntax import Fail

SCHEMA_VERSION = "1.4"


def event_line(event: str, fields: dict[str, Any]) -> str:
    """One event as its JSON line (with its newline)."""
    return json.dumps({"schema": SCHEMA_VERSION, "event": event, **fields}) + "\n"


def emit(event: str, **fields: Any) -> None:
    """Write one event to standard output at once."""
    sys.stdout.write(event_line(event, fields))
    sys.stdout.flush()


def error_fields(err: SymcertError) -> dict[str, Any]:
    """The `error` event of a user's error: its kind ("syntax error", "type error", "name
    error", "limit exceeded", "bad input", "usage"), where it is when it has a place, the
    message and the exit code."""
    from symcert.lang.errors import EXIT_USAGE, ParseError

    if isinstance(err, ParseError):
        return {"kind": err.kind, "file": err.filename, "line": err.line, "column": err.column,
                "message": err.message, "exit_code": err.exit_code}
    kind = "usage" if err.exit_code == EXIT_USAGE else "bad input"
    return {"kind": kind, "message": str(err), "exit_code": err.exit_code}


def bug_cause(failing: Fail) -> str:
    """The cause code of a failing statement: `assertion`, `fail`, `undefined` (a division by
    zero or a field of nil, X-A2), `invariant` (T-I1), `precondition` (a call's `requires`,
    T-S1) or `deadlock` (B-X4)."""
    from symcert.lang.syntax import Assert, Call, While

    if failing.by_zero:
        return "undefined"
    if failing.deadlock:
        return "deadlock"
    if isinstance(failing.origin, Assert):
        return "assertion"
    if isinstance(failing.origin, Call):
        return "precondition"
    return "invariant" if isinstance(failing.origin, While) else "fail"


def imp_condition(pc: PathCondition, references: Iterable[str]) -> str:
    """`pc` in IMP's syntax: its conjuncts, each once and without `true`, joined by `and`,
    each reference literal written `nil`, `@k` or `new#k` (seed 003 §4), each havoc's symbol
    in the program's names (`engine.symbols`: `i (after the loop at 4:1)`). The one notation
    IMP lacks is a map updated by the path, `a[i := v]`."""
    from symcert.cli.commands.values import text
    from symcert.core.terms import show
    from symcert.lang.syntax import Bool

    refs = frozenset(references)
    kept: list[Any] = []
    for c in pc.conjuncts():
        if c != Bool(True) and c not in kept:
            kept.append(c)
    if not kept:
        return "true"
    names = symbol_words(kept)  # before `new#k` literals, which are no symbols, are written
    shown = [text(_renamed(_references(c, refs), names), show) for c in kept]
    return " and ".join(s if len(kept) == 1 else f"({s})" for s in shown)


def symbol_words(terms: list[Any]) -> dict[str, str]:
    """Each havoc's fresh symbol in `terms` as a user reads it (`engine.symbols`: several
    havocs of one place numbered across all of `terms`)."""
    from symcert.core.terms import free_vars
    from symcert.engine.symbols import readable_names

    return readable_names(set().union(*(free_vars(t) for t in terms)) if terms else ())


def in_words(terms: list[Any]) -> list[Any]:
    """`terms` with each havoc's fresh symbol renamed as a user reads it (`symbol_words`)."""
    names = symbol_words(terms)
    return [_renamed(t, names) for t in terms] if names else terms


def _renamed(node: Any, names: dict[str, str]) -> Any:
    """`node` with the variables and arrays `names` maps renamed (printing only)."""
    from dataclasses import replace

    if not names:
        return node

    from symcert.lang.structure import children, with_children
    from symcert.lang.syntax import ArrayVar, Var

    if isinstance(node, (Var, ArrayVar)):
        return replace(node, name=names[node.name]) if node.name in names else node
    kids = children(node)
    return with_children(node, [_renamed(k, names) for k in kids]) if kids else node


def _is_ref(e: Any, refs: frozenset[str]) -> bool:
    """Whether `e` denotes a reference: a reference variable, nil, or a read of a field that
    holds references."""
    from symcert.lang.syntax import Nil, Select, Var

    if isinstance(e, Nil):
        return True
    if isinstance(e, Var):
        return e.name in refs
    if isinstance(e, Select):
        return _base(e.array).name in refs
    return False


def _base(a: Any) -> Any:
    """The array variable at the bottom of an update sequence."""
    from symcert.lang.syntax import Update

    while isinstance(a, Update):
        a = a.array
    return a


def _literal(e: Any) -> Any:
    """A reference literal as IMP shows it: 0 as `nil`, k > 0 as `@k`, -k as `new#k`."""
    from symcert.lang.syntax import Int, Nil, Var

    if not isinstance(e, Int):
        return e
    if e.value == 0:
        return Nil()
    return Var(f"@{e.value}" if e.value > 0 else f"new#{-e.value}")


def _references(node: Any, refs: frozenset[str]) -> Any:
    """`node` with the integer literals that stand for references rewritten by `_literal`
    (printing only: `@k` is no variable)."""
    from symcert.lang.structure import children, with_children
    from symcert.lang.expressions import field_of
    from symcert.lang.syntax import Cmp, Select, Update

    kids = children(node)
    if not kids:
        return node
    new = [_references(k, refs) for k in kids]
    if isinstance(node, Cmp) and node.op in ("==", "!=") and any(_is_ref(k, refs) for k in kids):
        new = [_literal(k) for k in new]
    elif isinstance(node, (Select, Update)) and field_of(_base(node.array)) is not None:
        new[1] = _literal(new[1])  # the object whose field is read or written
        if isinstance(node, Update) and _is_ref(Select(node.array, node.index), refs):
            new[2] = _literal(new[2])
    return with_children(node, new)
