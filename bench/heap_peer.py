"""symcert (`--alias terms`, the default, and `--alias split`) against CrossHair on the array and
heap case studies.

    python bench/heap_peer.py [--repeats R] [--per-condition S] [--timeout S] [--out FILE]
                              [NAME ...]

Each case study of examples/ with arrays (swap, array_max, binsearch) or objects (list_insert,
list_reverse, alias_nil), correct and buggy, is also written below as the same Python function,
line for line. An array that the program reads before writing is a parameter: `swap`'s, indexed
by any integer, a `dict[int, int]` read with `.get(i, 0)` (IMP's array is a map from all
integers, unset cells 0 in a concrete run); the others', read at `0 .. n-1` only, a `list[int]`
of length `n`. `class Node(val, next)` is a Python class with `val: int` and `next:
Optional[Node]`, `nil` is `None`, `new Node` is `Node()`, reference `==` is `is`, and an input
reference an `Optional[Node]` parameter. An `assume` that IMP states before anything else, or
after a loop that only reads the input (the sortedness and length bounds), is the function's
leading `assert` (a precondition under `crosshair check --analysis_kind=asserts`), the loop kept
in a helper; a field of `None` raises AttributeError where IMP steps to `fail`.

The three runs alternate (the first rotating), one subprocess each, measured by bench/run.py's
`measure`: `symcert run FILE --json [--alias split]` (contracts off) and `crosshair check
--analysis_kind=asserts --per_condition_timeout S`. symcert's *time* is its time-to-verdict
from the parse (its `done` event); CrossHair reports no time, so all three are also given as
wall and CPU time of the whole process, start-up included. PyWiSE has no arrays or objects: its
column is `n/a`. Rows go to bench/results-heap.json and a markdown table on stdout.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from crosshair_peer import crosshair_cmd  # noqa: E402
from run import crosshair_summary, machine, measure, summarize, symcert_cmd  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent

NODE = '''\
from __future__ import annotations

from typing import Optional


class Node:
    """IMP's `class Node(val, next)`: a new object's fields are 0 and nil."""

    def __init__(self, val: int = 0, next: Optional[Node] = None) -> None:
        self.val = val
        self.next = next
'''
"""The preamble of every twin with objects (identity equality, as IMP's references)."""

_SORTED = '''
def sorted_length(head: Optional[Node]) -> Optional[int]:
    """The IMP program's first loop and `assume`s: the length, when the list from `head` is
    sorted and reaches None within 3 nodes."""
    n, p = 0, head
    while p is not None and n < 3:
        q = p.next
        if q is not None and not p.val <= q.val:
            return None
        p, n = q, n + 1
    return n if p is None else None
'''

_INSERT_CHECK = '''
    p, found, k = head, 0, 0
    while p is not None and k < 5:
        if p.val == v:
            found = 1
        q = p.next
        if q is not None:
            assert p.val <= q.val
        p, k = q, k + 1
    assert found == 1 and k == n + 1
'''

_LENGTH = '''
def length(head: Optional[Node]) -> Optional[int]:
    """The IMP program's first loop and `assume`: the length, when the list from `head` reaches
    None within 3 nodes."""
    n, p = 0, head
    while p is not None and n < 3:
        p, n = p.next, n + 1
    return n if p is None else None
'''

_REVERSE_CHECK = '''
    p, k, last = prev, 0, None
    while p is not None and k < 4:
        last, p, k = p, p.next, k + 1
    assert p is None
    if head is not None:
        assert last is head
    assert k == n
'''

_SORTED_ARRAY = '''
def is_sorted(a: list[int]) -> bool:
    """The IMP program's `assume a[k - 1] <= a[k]` for 1 <= k < n."""
    k = 1
    while k < len(a):
        if not a[k - 1] <= a[k]:
            return False
        k += 1
    return True
'''


def _binsearch(name: str, cond: str) -> str:
    return _SORTED_ARRAY + f'''

def {name}(a: list[int], n: int, x: int) -> None:
    assert 0 <= n <= 4 and len(a) == n and is_sorted(a)
    lo, hi, found = 0, n - 1, 0
    while {cond} and found == 0:
        mid = (lo + hi) // 2
        if a[mid] == x:
            found, pos = 1, mid
        elif a[mid] < x:
            lo = mid + 1
        else:
            hi = mid - 1
    if found == 1:
        assert a[pos] == x
    else:
        k = 0
        while k < n:
            assert a[k] != x
            k += 1
'''


def _array_max(name: str, bound: str) -> str:
    return f'''
def {name}(a: list[int], n: int) -> None:
    assert 1 <= n <= 4 and len(a) == n
    m, k = a[0], 1
    while k < {bound}:
        if a[k] > m:
            m = a[k]
        k += 1
    k = 0
    while k < n:
        assert a[k] <= m
        k += 1
'''


PYTHON = {
    "swap": '''
def swap(a: dict[int, int], i: int, j: int) -> None:
    assert True
    x, y = a.get(i, 0), a.get(j, 0)
    t = a.get(i, 0)
    a[i] = a.get(j, 0)
    a[j] = t
    assert a[i] == y and a[j] == x
''',
    "swap_buggy": '''
def swap_buggy(a: dict[int, int], i: int, j: int) -> None:
    assert True
    x, y = a.get(i, 0), a.get(j, 0)
    a[i] = a.get(i, 0) + a.get(j, 0)
    a[j] = a[i] - a.get(j, 0)
    a[i] = a[i] - a[j]
    assert a[i] == y and a[j] == x
''',
    "array_max": _array_max("array_max", "n"),
    "array_max_buggy": _array_max("array_max_buggy", "n - 1"),
    "binsearch": _binsearch("binsearch", "lo <= hi"),
    "binsearch_buggy": _binsearch("binsearch_buggy", "lo < hi"),
    "list_insert": NODE + _SORTED + '''

def list_insert(head: Optional[Node], v: int) -> None:
    assert sorted_length(head) is not None
    n = sorted_length(head)
    x = Node()
    x.val = v
    if head is None:
        head = x
    elif v <= head.val:
        x.next, head = head, x
    else:
        prev, cur = head, head.next
        while cur is not None and cur.val < v:
            prev, cur = cur, cur.next
        x.next = cur
        prev.next = x
''' + _INSERT_CHECK,
    "list_insert_buggy": NODE + _SORTED + '''

def list_insert_buggy(head: Optional[Node], v: int) -> None:
    assert sorted_length(head) is not None
    n = sorted_length(head)
    x = Node()
    x.val = v
    if head is None:
        head = x
    else:
        prev, cur = head, head.next
        while cur is not None and cur.val < v:
            prev, cur = cur, cur.next
        x.next = cur
        prev.next = x
''' + _INSERT_CHECK,
    "list_reverse": NODE + _LENGTH + '''

def list_reverse(head: Optional[Node]) -> None:
    assert length(head) is not None
    n = length(head)
    prev, cur = None, head
    while cur is not None:
        nxt = cur.next
        cur.next = prev
        prev, cur = cur, nxt
''' + _REVERSE_CHECK,
    "list_reverse_buggy": NODE + _LENGTH + '''

def list_reverse_buggy(head: Optional[Node]) -> None:
    assert length(head) is not None
    n = length(head)
    prev, cur = None, head
    while cur is not None and cur.next is not None:
        nxt = cur.next
        cur.next = prev
        prev, cur = cur, nxt
''' + _REVERSE_CHECK,
    "alias_nil": NODE + '''

def alias_nil(p: Optional[Node], q: Optional[Node]) -> None:
    assert p is not None and q is not None
    t = Node()
    q.next = None
    p.next = t
    r = p.next
    r.val = 1
''',
    "alias_nil_buggy": NODE + '''

def alias_nil_buggy(p: Optional[Node], q: Optional[Node]) -> None:
    assert p is not None and q is not None
    t = Node()
    p.next = t
    q.next = None
    r = p.next
    r.val = 1
''',
}
"""Each array and heap case study as a Python function (its only top-level function that opens
with `assert`, the one CrossHair checks)."""

BUDGET = 100_000
"""symcert's state budget (its default)."""


def compare(name: str, repeats: int, timeout: float, per_condition: float,
            tmp: Path) -> dict[str, object]:
    """symcert with each aliasing strategy and CrossHair on one case study, taking turns (the
    first rotating), `repeats` times."""
    imp = ROOT / "examples" / f"{name}.imp"
    twin = tmp / f"{name}.py"
    twin.write_text(PYTHON[name])
    cmds = {"terms": symcert_cmd(imp, BUDGET) + ["--alias", "terms"],
            "split": symcert_cmd(imp, BUDGET) + ["--alias", "split"],
            "crosshair": crosshair_cmd(twin, per_condition) + ["--report_all"]}
    tools = list(cmds)
    runs: dict[str, list] = {tool: [] for tool in tools}
    for r in range(repeats):
        for tool in tools[r % 3:] + tools[:r % 3]:
            runs[tool].append(measure(cmds[tool], timeout))
    expect = "bug" if name.endswith("_buggy") else "safe"
    row: dict[str, object] = {"program": name, "expect": expect,
                              "pywise": "n/a: PyWiSE's IMP has no arrays or objects"}
    for tool in tools:
        out = (crosshair_summary if tool == "crosshair" else summarize)(runs[tool], expect)
        out["cpu"] = statistics.median(r.cpu for r in runs[tool])
        row[tool] = out
    t, s, c = row["terms"], row["split"], row["crosshair"]
    assert isinstance(t, dict) and isinstance(s, dict) and isinstance(c, dict)
    if t.get("seconds") and s.get("seconds"):
        row["split_over_terms"] = s["seconds"] / t["seconds"]
        row["split_over_terms_wall"] = s["wall"] / t["wall"]
    if t.get("wall"):
        row["crosshair_over_terms_wall"] = c["wall"] / t["wall"]
        row["crosshair_over_terms_cpu"] = c["cpu"] / t["cpu"] if t["cpu"] else None
    print(f"  {name:20} terms {_symcert_cell(t)} | split {_symcert_cell(s)} | "
          f"CrossHair {_crosshair_cell(c)}", flush=True)
    return row


def _symcert_cell(r: dict) -> str:
    if r["outcome"] == "timeout":
        return "timeout"
    return (f"{r['verdict']} {r['seconds']:.2f} s ({r['states']:,} states; wall "
            f"{r['wall']:.2f} s)")


def _crosshair_cell(r: dict) -> str:
    if r["outcome"] == "timeout":
        return "timeout"
    said = r.get("said", "")
    detail = (said.split("when calling ", 1)[1] if "when calling " in said
              else said.split("info: ", 1)[-1].rstrip("."))
    verdict = r["verdict"] + (" (**missed**)" if r["outcome"].startswith("wrong") else "")
    return f"{verdict} {r['wall']:.2f} s (`{detail}`)" if detail else f"{verdict} {r['wall']:.2f} s"


def _ratio(x: object) -> str:
    return f"{x:.2f}" if isinstance(x, float) else "–"


def table(rows: list[dict]) -> str:
    """The markdown table of the rows."""
    out = ["| program | expected | symcert (terms, default) | symcert `--alias split` | split / "
           "terms | CrossHair (wall) | CrossHair / terms, wall | CPU | PyWiSE |",
           "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        missed = r["crosshair"]["outcome"] != "ok"  # no verdict of CrossHair's to time
        out.append(f"| {r['program']} | {r['expect']} | {_symcert_cell(r['terms'])} | "
                   f"{_symcert_cell(r['split'])} | {_ratio(r.get('split_over_terms'))} | "
                   f"{_crosshair_cell(r['crosshair'])} | "
                   f"{'–' if missed else _ratio(r.get('crosshair_over_terms_wall'))} | "
                   f"{'–' if missed else _ratio(r.get('crosshair_over_terms_cpu'))} | n/a |")
    return "\n".join(out) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--per-condition", type=float, default=20.0,
                    help="CrossHair's --per_condition_timeout in seconds (default 20)")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per run (default 60)")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results-heap.json")
    ap.add_argument("names", nargs="*", metavar="NAME",
                    help=f"only these rows (default: all): {', '.join(PYTHON)}")
    args = ap.parse_args()
    unknown = [n for n in args.names if n not in PYTHON]
    if unknown:
        ap.error(f"no such row: {', '.join(unknown)}")
    started = datetime.datetime.now(datetime.timezone.utc)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                            capture_output=True, text=True).stdout.strip()
    load = os.getloadavg()[0]
    rows = []
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        (tmp / "warmup.py").write_text("def warmup() -> None:\n    assert True\n")
        for cmd in (symcert_cmd(ROOT / "examples" / "swap.imp", 10),
                    crosshair_cmd(tmp / "warmup.py", 1)):
            measure(cmd, args.timeout)  # compile to PYCACHE once, as after `pip install`
        print("symcert (terms, split) vs CrossHair (median):", flush=True)
        for name in args.names or PYTHON:
            rows.append(compare(name, args.repeats, args.timeout, args.per_condition, tmp))
    results = {"date": started.isoformat(timespec="seconds"), "commit": commit,
               "command": "python bench/heap_peer.py " + " ".join(sys.argv[1:]),
               "machine": machine(), "load": {"start": load, "end": os.getloadavg()[0]},
               "repeats": args.repeats, "timeout": args.timeout,
               "per_condition": args.per_condition, "budget": BUDGET, "programs": rows}
    args.out.write_text(json.dumps(results, indent=1) + "\n")
    print(table(rows), end="")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
