"""Independence per array cell and per field (engine/por.py, B-X5): two accesses to one array
or field's map are dependent unless the path condition entails different cells."""

from __future__ import annotations

import random

import pytest

from symcert.checking import campaign, concurrency, generate_threads
from symcert.checking.generate import RandomChoices
from symcert.core.state import TRUE_PC, initial
from symcert.engine import por
from symcert.engine.explore import run
from symcert.lang.parser import parse
from symcert.lang.syntax import Cmp, Int, Var
from symcert.solver.z3backend import Solver, solver_for

CELLS = """proc w(k, t) begin b[k] = t; y = b[k] end
spawn w(1, 0);
spawn w({other}, 5)"""
"""Two workers that write and read cell `k` of `b`: cells 1 and 2 are independent, cells 1 and
1 are not."""

ALIASED = """proc w0(k, t) begin b[k] = 1 end
proc w1(k, t) begin b[k] = 2 end
f0 = spawn w0(x, 0);
f1 = spawn w1(y, 0);
v = get f0;
v = get f1;
assert x != y or b[x] == 2"""
"""The assertion fails when `x == y` and `w1` writes first: the two writes are dependent unless
the path condition says `x != y`."""


def states(text: str) -> int:
    p = parse(text)
    return sum(1 for _ in iter(run([initial(p)], solver=solver_for(p)).__next__, None))


def test_different_cells_are_independent_and_the_same_cell_is_not():
    """Writing cells 1 and 2 explores fewer states than writing cell 1 twice, and both agree
    with the full interleaving."""
    apart, together = states(CELLS.format(other=2)), states(CELLS.format(other=1))
    assert apart < together
    sigma = [campaign.random_input(RandomChoices(random.Random(0)),
                                              parse(CELLS.format(other=2)),
                                              generate_threads.THREAD_SHAPE)]
    for other in (1, 2):
        assert concurrency.check_por(parse(CELLS.format(other=other)), sigma, Solver()) is None


def test_differ_asks_the_literals_then_the_solver():
    """Literals differ by value; `x` and `y` differ only where the path condition says so, by
    a literal of it or by what the solver derives (`x < 0 and y > 0`)."""
    x, y = Var("x"), Var("y")
    assert por.differ(None, Int(1), Int(2)) and not por.differ(None, Int(1), Int(1))
    assert not por.differ(TRUE_PC, x, y) and not por.differ(None, x, y)
    assert por.differ(TRUE_PC.extend(Cmp("!=", x, y)), x, y)
    derived = TRUE_PC.extend(Cmp("<", x, Int(0))).extend(Cmp(">", y, Int(0)))
    assert por.differ(derived, x, y) and not por.differ(derived, x, x)


@pytest.mark.parametrize("wrong", ["cells always differ", "writes of one cell independent"])
def test_planted_cell_independence_is_caught(wrong, monkeypatch):
    """Calling every two cells different, or two writes of a cell independent, loses the failure
    of `ALIASED` when `x == y`: the campaign's check finds it."""
    p = parse(ALIASED)
    sigma = [campaign.random_input(RandomChoices(random.Random(0)), p,
                                   generate_threads.THREAD_SHAPE)]
    assert concurrency.check_por(p, sigma, Solver()) is None
    if wrong == "cells always differ":
        monkeypatch.setattr(por, "differ", lambda pc, i, j: True)
    else:
        meets = por._meets
        monkeypatch.setattr(por, "independent", lambda a, b, pc=None: not (
            meets(a[1], b[0], pc) or meets(b[1], a[0], pc)))
    found = concurrency.check_por(p, sigma, Solver())
    assert found is not None and "B-X5" in found.kind, found
