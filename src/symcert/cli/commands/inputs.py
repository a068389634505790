"""The inputs of `symcert exec`: `--input VAR=INT`, an array's cell `VAR[INT]=INT`, an input
object's field `@N.FIELD=INT` and references `nil` / `@N` (seed 003 §4-5), read into the
concrete environment of the program."""

from __future__ import annotations

import re
from typing import Any, Sequence

NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")  # a variable, as NAME in grammar.lark
CELL = re.compile(r"([^\[\]]*)\[\s*(-?[0-9]+)\s*\]")  # an array's cell, `a[3]`
FIELD = re.compile(r"@([0-9]+)\.([A-Za-z_][A-Za-z0-9_]*)")  # an input object's field, `@1.next`
REFERENCE = re.compile(r"nil|@([0-9]+)")  # a reference: nil or an input object
INTEGER = re.compile(r"-?[0-9]+")


def input_values(items: Sequence[str]) -> dict[str, int | dict[int, int]]:
    """The values of `--input VAR=INT` and `--input VAR[INT]=INT` (a cell of an array): INT is
    `-?[0-9]+`, as long as a literal of a program may be, each VAR or cell given once."""
    from symcert.lang.errors import InputError
    from symcert.lang.parser import MAX_DIGITS

    values: dict[str, int | dict[int, int]] = {}
    for item in items:
        target, sep, value = (part.strip() for part in item.partition("="))
        cell = CELL.fullmatch(target) or FIELD.fullmatch(target)
        var = cell.group(1) if cell else target
        if cell is not None and cell.re is FIELD:  # `@k.f`: cell k of the map `.f`
            cell = CELL.fullmatch(f".{cell.group(2)}[{cell.group(1)}]")
            assert cell is not None
            var = cell.group(1)
        ref = REFERENCE.fullmatch(value)
        if ref is not None:  # `nil` is 0, `@k` the input object k (seed 003 §4)
            if ref.group(1) is not None and int(ref.group(1)) == 0:
                raise InputError(f"symcert exec: bad --input {item!r}: input objects are "
                                 "@1, @2, ...; nil is written nil")
            value = ref.group(1) or "0"
        if not sep or not NAME.fullmatch(var.removeprefix(".")) or not INTEGER.fullmatch(value):
            raise InputError(f"symcert exec: bad --input {item!r}: expected VAR=INT, "
                             "VAR[INT]=INT or @N.FIELD=INT with INT an optional - and decimal "
                             "digits, or nil or @N for a reference, for example --input x=-3, "
                             "--input a[3]=7, --input p=@1, --input @1.next=nil")
        if max(len(value.lstrip("-")), len(cell.group(2).lstrip("-")) if cell else 0) \
                > MAX_DIGITS:
            raise InputError(f"symcert exec: bad --input {var}: more than {MAX_DIGITS:,} digits")
        given = values.get(var)
        if cell is None:
            if given is not None:
                raise InputError(f"symcert exec: --input {var} is given twice")
            values[var] = int(value)
            continue
        if isinstance(given, int):
            raise InputError(f"symcert exec: --input {var} is given as an integer and as an array")
        cells = values.setdefault(var, {})
        assert isinstance(cells, dict)
        if int(cell.group(2)) in cells:
            raise InputError(f"symcert exec: --input {target} is given twice")
        cells[int(cell.group(2))] = int(value)
    return values


def input_env(values: dict[str, int | dict[int, int]], program: Any) -> Any:
    """The environment of the `--input` values, each given as the program uses its name: an
    array's cells for an array (seed 003 §5), an integer otherwise (InputError)."""
    from symcert.core.concrete import Cells, Env
    from symcert.lang.errors import InputError
    from symcert.core.state import valid_heap
    from symcert.lang.procedures import arrays, references
    from symcert.lang.structure import inputs
    from symcert.lang.syntax import is_field

    kinds = arrays(program) | {x for x in values if is_field(x)}
    for var, value in sorted(values.items()):
        if isinstance(value, dict) and var not in kinds and var in inputs(program):
            raise InputError(f"symcert exec: {var} is an integer of the program: give it as "
                             f"--input {var}=INT")
        if isinstance(value, int) and var in kinds:
            raise InputError(f"symcert exec: {var} is an array of the program: give its cells "
                             f"as --input {var}[INDEX]=INT")
    env = Env.of({var: Cells.of(v) if isinstance(v, dict) else v for var, v in values.items()})
    if not valid_heap(env, references(program)):
        raise InputError("symcert exec: a reference is nil or an input object @1, @2, ... "
                         "(new objects are the program's to make)")
    return env
