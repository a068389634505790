"""The fresh symbols of the havocs, named by where they were made, and how a user reads them.

T-I1 (`invariants.expand_invariant`) binds what a loop's body may write to fresh symbols, and
T-S1 (`contracts.expand_call`) binds a call's value and the globals its callee may write; a
body verified against its contract starts from its parameters' values at entry. Each symbol's
name carries what it stands for, so a path condition can be shown in the program's names alone
(no side table to keep in step, and a state is still plain data):

| symbol        | made by                                   | read as                            |
| `x#k@L:C`     | the `k`-th havoc of the path, a loop at L:C | `x (after the loop at L:C)`       |
| `g#k@f:L:C`   | the `k`-th havoc, a call of `f` at L:C    | `g (after the call of f at L:C)`   |
| `f()#k@L:C`   | the value of that call                    | `result of f at L:C`               |
| `x#0`         | a parameter's value at a body's entry     | `x (at entry)`                     |
| `x#mk@L:C`    | the `k`-th merge of paths (`merge`), at L:C | `x (paths merged at L:C)`         |

No program name has `#`, `@` or `(`, so none of these is a program's variable. Where one
condition holds several havocs of the same place (a loop inside an unrolled loop), each is
numbered: `i (after the loop at 4:1, 2nd time)`.
"""

from __future__ import annotations

import re
from typing import Iterable

from symcert.lang.syntax import Pos

_SYMBOL = re.compile(r"(?P<base>[^#@]+)#(?P<merge>m?)(?P<k>\d+)"
                     r"(?:@(?:(?P<proc>[A-Za-z_]\w*):)?(?P<line>\d+):(?P<column>\d+))?")


def havocked(name: str, k: int, at: Pos | None, proc: str | None = None) -> str:
    """The fresh symbol of `name` at the `k`-th havoc of a path: at a loop at `at`, or at a
    call of `proc` at `at`; a call's value is `havocked(f"{proc}()", k, at)`."""
    site = "" if at is None else f"@{proc + ':' if proc else ''}{at.line}:{at.column}"
    return f"{name}#{k}{site}"


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def readable(name: str, nth: int = 0) -> str:
    """`name` as a user reads it (module docstring); `nth` > 0 numbers one of several havocs
    of the same place. A program's own name is returned as it is."""
    m = _SYMBOL.fullmatch(name)
    if m is None or m["base"] == "new":  # `new#k`: the k-th new object (`new` is a keyword)
        return name
    base, k, line = m["base"], m["k"], m["line"]
    time = f", {_ordinal(nth)} time" if nth else ""
    where = f" at {line}:{m['column']}" if line else ""
    if m["merge"]:
        return f"{base} (paths merged{where}{time})"
    if k == "0":
        return f"{base} (at entry)"
    if base.endswith("()"):
        return f"result of {base[:-2]}{where}" + (f" ({_ordinal(nth)} time)" if nth else "")
    if m["proc"]:
        return f"{base} (after the call of {m['proc']}{where}{time})"
    if line:
        return f"{base} (after the loop{where}{time})"
    return f"{base} (after havoc {k}{time})"


def readable_names(names: Iterable[str]) -> dict[str, str]:
    """Each of `names` as a user reads it, the havocs of one place numbered in the order of the
    path when there are several."""
    symbols = sorted({n for n in names if _SYMBOL.fullmatch(n)},
                     key=lambda n: int(_SYMBOL.fullmatch(n)["k"]))  # type: ignore[index]
    plain: dict[str, list[str]] = {}
    for n in symbols:
        plain.setdefault(readable(n), []).append(n)
    out = {}
    for label, group in plain.items():
        for i, n in enumerate(group, 1):
            out[n] = label if len(group) == 1 else readable(n, i)
    return out
