"""Reads resolved with the path condition (seed 003 §4, "Implementation": `ρ{H.x = E}(H'.x)`
is `E` when `φ ⊢ ρ(H) = ρ(H')`, `ρ(H'.x)` when `φ ⊢ ρ(H) ≠ ρ(H')`; B-H3): which literals answer
which alias question, that a resolved read is what the concrete semantics computes, that no
state is added and shared terms stay shared, and that a wrong answer is caught."""

from __future__ import annotations

from dataclasses import replace
from itertools import islice

import pytest
from icontract.errors import ViolationError

from symcert.checking.campaign import check_main
from symcert.core import entailment
from symcert.core.concrete import Env
from symcert.core.state import TRUE_PC, Store, SymState, fact_literals, initial, read_facts
from symcert.engine import explore
from symcert.engine.explore import expand, run
from symcert.lang.parser import parse
from symcert.lang.syntax import And, ArrayVar, Cmp, Int, Not, Select, Skip, Update, Var
from symcert.solver.z3backend import Solver

PROGRAM = "a[j] = 6; a[i] = 5; if {} then x = a[j] else x = a[j] fi"
"""After the two writes, `a[j]` is 5 exactly when `i == j`, and 6 otherwise."""


def _final(p):
    """The final states of `p`'s run, by their last conjunct's text."""
    out = {}
    for s in run([initial(p)], solver=Solver()):
        if s is None:
            return out
        if isinstance(s.prog, Skip):
            out[str(s.pc).rsplit(" and ", 1)[-1]] = s.store("x")


@pytest.mark.parametrize("cond, then, else_", [
    ("i == j", 5, 6),
    ("i != j", 6, 5),
    ("i < j", 6, None),
    ("i > j", 6, None),
    ("j == i", 5, 6),
    ("not (i != j)", 5, 6),
    ("i <= j", None, None),
    ("i == j and k == 0", 5, None),
])
def test_a_literal_of_the_path_condition_answers_the_alias_question(cond, then, else_):
    """The then-branch's and else-branch's read of `a[j]`: the value a literal of `φ` decides
    (both ways round, under `not`, in a conjunction), else the conditional term, left to the
    solver (`i <= j` says nothing; neither does `not (i < j)`, nor a disjunction)."""
    finals = list(_final(parse(PROGRAM.format(cond))).values())
    assert len(finals) == 2  # no state added: one per branch
    for got, want in zip(finals, (then, else_)):
        if want is None:
            assert isinstance(got, Select) and isinstance(got.array, Update), got
        else:
            assert got == Int(want), got


def test_resolution_adds_no_state_and_keeps_the_parents_terms():
    """`expand` after the branch: one successor, its array term the very object its parent
    holds (resolution re-reads new terms only), its read resolved."""
    s = initial(parse(PROGRAM.format("i == j")))
    for _ in range(4):
        (s,) = expand(s)
    then, _ = expand(s)
    assert read_facts(then)
    (t,) = expand(then)
    assert t.store("a") is then.store("a") and t.store("x") == Int(5)


def test_a_wrong_answer_is_caught(monkeypatch):
    """The planted bug: `i < j` taken to mean `i == j`. The one-step checks at the sampled
    valuations that satisfy `i < j` reject the step (contracts on), and the second checker,
    the ghost run against the concrete interpreter (`campaign`'s main check), disagrees from
    the input `i = 0, j = 1` where the read is 6, not 5."""
    p = parse(PROGRAM.format("i < j"))
    assert check_main(p, [Env.of({"i": 0, "j": 1})], Solver()) is None
    monkeypatch.setitem(entailment._ANSWERED, "<", True)
    with pytest.raises(ViolationError, match="W-L2"):
        _final(p)
    monkeypatch.setattr(explore, "expand", explore.expand.__wrapped__)  # the checks skipped
    found = check_main(p, [Env.of({"i": 0, "j": 1})], Solver())
    assert found is not None and "T-D" in found.kind


def _scan(pc):
    """The alias literals of `pc` by a scan of every conjunct (the reference)."""
    return [lit for c in pc.conjuncts() for lit in entailment.literals(c)]


def _counting(monkeypatch):
    """Count the conjuncts whose literals are read (each a call of `entailment.literals`)."""
    seen = [0]
    literals = entailment.literals

    def counted(conjunct):
        seen[0] += 1
        return literals(conjunct)

    monkeypatch.setattr(entailment, "literals", counted)
    return seen


def test_read_facts_visits_only_the_conjuncts_that_hold_a_literal(monkeypatch):
    """A path condition of 3,000 conjuncts of which three hold alias literals (one of them two,
    in a conjunction): the facts are read from those three conjuncts, oldest first, as a scan
    of all of them finds them, and a path condition without any reads no conjunct at all."""
    i, j, k = Var("i"), Var("j"), Var("k")
    pc = TRUE_PC
    for n in range(3_000):
        lit = {500: Cmp("==", i, j), 1_700: And(Cmp("!=", j, k), Not(Cmp("==", i, k))),
               2_999: Cmp("<", i, Int(3))}.get(n, Cmp("<=", i, Int(n)))
        pc = pc.extend(lit)
        if n == 499:
            plain = pc
    assert (plain.facts, pc.facts) == (0, 4)
    seen = _counting(monkeypatch)
    state = SymState(pc, Store.of({"a": Update(ArrayVar("a"), i, Int(1))}), Skip())
    assert read_facts(state) == [
        Cmp("==", i, j), Cmp("!=", j, k), Not(Cmp("==", i, k)), Cmp("<", i, Int(3))]
    assert seen[0] == 3
    assert read_facts(replace(state, pc=plain)) == [] and seen[0] == 3
    assert read_facts(replace(state, store=Store())) == [] and seen[0] == 3
    assert _scan(pc) == read_facts(state)


def test_a_long_array_loop_reads_each_conjunct_once(monkeypatch):
    """A loop that writes an array up to an input bound: from the first write on, the store
    binds an update sequence and every loop test adds a literal (`k < n`), yet exploring
    1,000 states reads the literals of each conjunct once, when it is added (a rescan of the
    path condition at each step would read about 170,000); the facts at the end are those of a
    full scan. (Contracts off: the sampled one-step checks read the facts at each step.)"""
    monkeypatch.setattr(explore, "expand", explore.expand.__wrapped__)
    p = parse("i = 0; while i < n do a[i] = i; i = i + 1 od")
    seen = _counting(monkeypatch)
    *_, last = islice(run([initial(p)]), 1_000)
    assert seen[0] <= 1_000
    assert last.pc.facts >= 150 and isinstance(last.store("a"), Update)
    assert fact_literals(last.pc) == _scan(last.pc)
