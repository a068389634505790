"""Method calls as the parser reads them and the class of an object (seed 003 §4;
lowered by methods.py)."""

from __future__ import annotations

from dataclasses import dataclass, field

from symcert.lang.expressions import FIELD, AExpr, Pos, show_aexpr


CLASS = FIELD + "class"
"""The map from objects to their classes' numbers (0, 1, ... in declaration order: an input
object whose class is not given is of the first), written by
`new` in programs with methods or `is` (B-O4); `class` is a keyword, so no field has it."""


def class_tag(s: object) -> int:
    """The number of the class of `s` (a `New`) in its program's table (B-O4)."""
    names = [name for name, _ in getattr(getattr(s, "decl", None), "classes", ())]
    cls = getattr(s, "cls", "")
    return names.index(cls) if cls in names else 0


@dataclass(frozen=True, slots=True)
class Invoke:
    """`receiver.method(args)`, `target = receiver.method(args)`, `var target = ...` as the
    parser reads it (seed 003 §4); it lives only until the end of the parse, which lowers it to
    its dispatch (methods.py): no semantics sees it."""

    receiver: AExpr
    method: str
    args: tuple[AExpr, ...]
    target: str | None = None
    pos: Pos | None = field(default=None, compare=False, repr=False)
    local: bool = False

    def __str__(self) -> str:
        call = f"{show_aexpr(self.receiver)}.{self.method}({', '.join(map(show_aexpr, self.args))})"
        if self.target is None:
            return call
        return f"{'var ' if self.local else ''}{self.target} = {call}"
