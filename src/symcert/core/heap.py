"""A concrete heap as a small graph (seed 003 §4): how witnesses and final states show objects.

A reference is an integer (nil 0, input object `k > 0` shown `@k`, the k-th new object `-k`
shown `new#k`) and field `f` is the map `.f` of an environment (concrete.py). `graph` turns an
environment into the variables' values and, per object, its fields' values; `show` prints them
as `x = @1; @1 {next = @2, val = 7}, @2 {next = nil, val = 0}`, in the syntax `symcert exec
--input` reads back (`--input x=@1 --input @1.next=@2 ...`).
"""

from __future__ import annotations

from typing import Iterable

from symcert.core.concrete import Cells, Env
from symcert.lang.syntax import ALLOC, is_field

Shown = str | int
"""A value as shown: an integer, or a reference as `nil`, `@k` or `new#k`."""


def show_ref(v: int) -> str:
    """A reference: `nil`, `@k` for an input object, `new#k` for the k-th new one."""
    return "nil" if v == 0 else f"@{v}" if v > 0 else f"new#{-v}"


def graph(env: Env, names: Iterable[str],
          references: frozenset[str]) -> tuple[dict[str, Shown], dict[str, dict[str, Shown]]]:
    """The values of the variables among `names` (arrays as their cells, `a[i]`) and the
    objects the references among them reach, each with the value of every field of `names`
    (its map's cell; 0 / nil where the map has none).

    :param references: the program's reference variables and fields' maps (`.f`).
    """
    names = sorted(set(names) - {ALLOC})
    fields = [f for f in names if is_field(f)]
    values: dict[str, Shown] = {}
    objects: set[int] = set()
    for x in names:
        v = env(x)
        if is_field(x):
            cells = v if isinstance(v, Cells) else Cells()
            objects.update(i for i, _ in cells.cells)
            if x in references:
                objects.update(c for _, c in cells.cells)
        elif isinstance(v, Cells):
            values.update((k, c) for k, c in v.labelled(x))
        elif x in references:
            values[x] = show_ref(v)
            objects.add(v)
        else:
            values[x] = v
    heap: dict[str, dict[str, Shown]] = {}
    for k in sorted(objects - {0}, key=lambda k: (k < 0, abs(k))):
        row: dict[str, Shown] = {}
        for f in fields:
            v = env(f)
            cell = v(k) if isinstance(v, Cells) else 0
            row[f[1:]] = show_ref(cell) if f in references else cell
        heap[show_ref(k)] = row
    return values, heap


def show(values: dict[str, Shown], heap: dict[str, dict[str, Shown]]) -> tuple[str, str]:
    """The variables `x = v, ...` and the objects `@1 {f = v, ...}, ...` as text."""
    scalars = ", ".join(f"{x} = {v}" for x, v in values.items())
    objects = ", ".join(f"{o} {{{', '.join(f'{f} = {v}' for f, v in row.items())}}}"
                        for o, row in heap.items())
    return scalars, objects


def dot(values: dict[str, Shown], heap: dict[str, dict[str, Shown]]) -> str:
    """The heap as a Graphviz digraph: a box per variable and per object, an edge per
    reference that is not nil."""
    lines = ["digraph heap {", "  node [shape=record, fontname=monospace];"]
    for x, v in values.items():
        lines.append(f'  "{x}" [shape=plaintext, label="{x} = {v}"];')
        if isinstance(v, str) and v != "nil":
            lines.append(f'  "{x}" -> "{v}";')
    for o, row in heap.items():
        ints = "|".join(f"{f} = {v}" for f, v in row.items()
                        if not (isinstance(v, str) and v.startswith(("@", "new#"))))
        lines.append(f'  "{o}" [label="{{{o}|{ints}}}"];')
        for f, v in row.items():
            if isinstance(v, str) and v.startswith(("@", "new#")):
                lines.append(f'  "{o}" -> "{v}" [label="{f}"];')
    return "\n".join(lines + ["}"]) + "\n"
