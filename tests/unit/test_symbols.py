"""engine/symbols.py: a havoc's fresh symbol carries its place, and a user reads it in the
program's names."""

from __future__ import annotations

from symcert.engine.symbols import havocked, readable, readable_names
from symcert.lang.syntax import Pos


def test_each_kind_of_symbol_reads_in_the_programs_names():
    loop, call = Pos(4, 1), Pos(5, 3)
    assert havocked("i", 1, loop) == "i#1@4:1" and readable("i#1@4:1") == (
        "i (after the loop at 4:1)")
    assert havocked("g", 2, call, "tri") == "g#2@tri:5:3"
    assert readable("g#2@tri:5:3") == "g (after the call of tri at 5:3)"
    assert readable(havocked("tri()", 2, call)) == "result of tri at 5:3"
    assert readable("x#0") == "x (at entry)" and readable("y#m1@2:1") == "y (paths merged at 2:1)"
    assert [readable(n) for n in ("x", "new#1", "#havoc", "@2")] == ["x", "new#1", "#havoc", "@2"]
    assert readable(havocked("i", 3, None)) == "i (after havoc 3)"


def test_several_havocs_of_one_place_are_numbered_in_the_paths_order():
    names = readable_names(["i#3@4:1", "i#1@4:1", "s#2@4:1", "n", "tri()#12@5:3",
                            "tri()#2@5:3"])
    assert names == {"i#1@4:1": "i (after the loop at 4:1, 1st time)",
                     "i#3@4:1": "i (after the loop at 4:1, 2nd time)",
                     "s#2@4:1": "s (after the loop at 4:1)",
                     "tri()#2@5:3": "result of tri at 5:3 (1st time)",
                     "tri()#12@5:3": "result of tri at 5:3 (2nd time)"}
