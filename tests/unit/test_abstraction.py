"""The invariant and contract transitions (T-I1, T-S1) as transitions of the seed-001 oracles
(checking/abstraction.py): exhaustive, with a weak invariant not precise, and a planted wrong
havoc set (an array, one array cell, a field's map, a global a callee writes) caught by the
exhaustiveness oracle."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from symcert.checking.abstraction import abstracted, annotated
from symcert.checking.oracles import is_probably_exhaustive, is_probably_precise
from symcert.cli.main import main
from symcert.core.frames import scope
from symcert.engine import contracts, invariants
from symcert.lang.parser import parse
from symcert.lang.syntax import ArrayVar, Int, Select, Update, Var
from symcert.solver.z3backend import solver_for

WEAK = "assume n >= 0;\ni = 0;\nwhile i < n invariant i >= 0 do\n  i = i + 1\nod;\nassert i == n\n"

ARRAY = "i = 0; while i < 3 invariant 0 <= i and i <= 3 do a[i] = i + 1; i = i + 1 od"
FIELD = ("class C(v)\nassume p != nil; i = 0;\n"
         "while i < 2 invariant 0 <= i and i <= 2 do p.v = i; i = i + 1 od")
CALLEE = ("proc f(x) ensures result == x begin g = x; return x end\n"
          "proc h(x) ensures result == x begin var t = f(x); return x end\ny = h(n)")
SETTER = ("class C(v)\nproc setv(o, k) requires o != nil ensures result == 0 "
          "begin o.v = k; return 0 end\nassume p != nil;\nz = setv(p, 5)")


def _trials(text: str, runs: int = 8):
    p = parse(text)
    t = abstracted(p, 1_000, solver_for(p))
    return is_probably_exhaustive(t, p, runs), is_probably_precise(t, p, runs)


def test_a_weak_invariant_is_exhaustive_and_imprecise():
    """T-I1 with `i >= 0`: every concrete exit is some value of `i#1`, and some value it
    allows (`i#1 > n`) no run reaches: the imprecision counterexample."""
    exhaustive, precise = _trials(WEAK)
    assert exhaustive.counterexample is None and exhaustive.decided == 8
    found = precise.counterexample
    assert found is not None and found.prop == "precise"
    assert "i#1" in str(found.state.store) and found.final.env("i") > found.input("n")


def test_a_strong_invariant_and_a_strongest_contract_are_also_precise():
    """`0 <= i <= n` pins the exit to `i == n`; a contract that says all the callee does
    leaves one value to each fresh symbol."""
    for text in ("assume n >= 0; i = 0; while i < n invariant 0 <= i and i <= n do "
                 "i = i + 1 od",
                 "proc bump(x) requires x >= 0 ensures result == x + 1 and c == x begin "
                 "c = x; return x + 1 end\nassume n >= 0; y = bump(n)"):
        exhaustive, precise = _trials(text)
        assert exhaustive.counterexample is None and precise.counterexample is None
        assert exhaustive.decided == precise.decided == 8


def _forget_cell_0(monkeypatch):
    """T-I1's havoc keeps cell 0 of each array it forgets (a havoc set missing a cell)."""
    correct = invariants.assign

    def planted(frame, store, x, value):
        if isinstance(value, ArrayVar):
            old = scope(frame, store)(x)
            old = ArrayVar(x) if isinstance(old, Var) else old  # the input array
            value = Update(value, Int(0), Select(old, Int(0)))
        return correct(frame, store, x, value)

    monkeypatch.setattr(invariants, "assign", planted)


@pytest.mark.parametrize("text, plant", [
    (ARRAY, lambda m: m.setattr(invariants, "havocked", _without(invariants.havocked, "a"))),
    (ARRAY, _forget_cell_0),
    (FIELD, lambda m: m.setattr(invariants, "havocked", _without(invariants.havocked, ".v"))),
    (CALLEE, lambda m: m.setattr(contracts, "writes", _without(contracts.writes, "g"))),
    (SETTER, lambda m: m.setattr(contracts, "writes", _without(contracts.writes, ".v"))),
], ids=["array", "array-cell", "field", "callee-global", "callee-field"])
def test_a_planted_havoc_set_is_caught_by_the_exhaustiveness_oracle(monkeypatch, text, plant):
    """Correct, the transition is exhaustive; with the planted havoc set, a concrete final
    state is represented by no output (T-D2)."""
    assert _trials(text, 4)[0].counterexample is None
    plant(monkeypatch)
    found = _trials(text, 4)[0].counterexample
    assert found is not None and found.prop == "exhaustive"


def _without(correct, name):
    return lambda *args: correct(*args) - {name}


def test_annotated_programs_are_recognised():
    assert annotated(parse(WEAK)) and annotated(parse(CALLEE))
    assert not annotated(parse("i = 0; while i < n do i = i + 1 od"))


def test_cli_says_the_imprecision_is_expected(capsys, tmp_path):
    """`symcert oracle` adds the transition on an annotated program; its precision NO is
    expected (exit 0), in text and in the JSON `check` event."""
    f = tmp_path / "weak.imp"
    f.write_text(WEAK.replace("n >= 0", "0 <= n and n <= 3"))
    quick = ["--runs", "6", "--loop-limit", "1", "--max-states", "60"]
    assert main(["oracle", str(f), *quick]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-3] == "  run with invariants and contracts (T-I1, T-S1, at most 60 states)"
    assert lines[-2] == "    exhaustive: held on 6 inputs"
    assert lines[-1].startswith(
        "    precise: NO (expected: T-I1 and T-S1 over-approximate, a havoc standing for every "
        "value the invariant or contract allows, so they claim exhaustiveness only), "
        "counterexample: input {n = ")
    assert main(["oracle", str(f), *quick, "--json"]) == 0
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    schema = json.loads((Path(__file__).resolve().parents[2] / "docs" / "schema"
                         / "events.json").read_text(encoding="utf-8"))
    for event in events:
        jsonschema.Draft202012Validator(schema).validate(event)
    last = [e for e in events if e["event"] == "check"][-1]
    assert last["property"] == "precise" and last["expected"] and not last["held"]
    assert events[-1]["verdict"] == "held"


def test_cli_says_a_wrong_contract_breaks_exhaustiveness(capsys, tmp_path):
    """`inc` returns `x`, its contract says more: no value of `result#1` gives the concrete
    call's state, a counterexample to a claimed property (exit 1), said with its condition."""
    f = tmp_path / "inc.imp"
    f.write_text("proc inc(x) ensures result > x begin return x end\ny = inc(n)\n")
    assert main(["oracle", str(f), "--runs", "3", "--loop-limit", "1"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[-2].startswith(
        "    exhaustive: NO (T-S1 is exhaustive where each procedure meets its contract, which "
        "the concrete runs do not check: `symcert run FILE` verifies the bodies), "
        "counterexample: input {n = ")


def test_a_havocked_array_read_at_a_havocked_index_is_found():
    """Found by `campaign --checks invariants` (seed 12): the final `y` reads the havocked `b#1`
    at `-y#1`, a cell no write and no path condition names; the membership query must ask for
    `b`'s final cells there too, else a model puts the read elsewhere and the concrete final
    state looks missed."""
    from symcert.checking.oracles import check_exhaustiveness
    from symcert.core.concrete import Cells, Env
    from symcert.core.state import initial

    p = parse("while true invariant 0 <= k1 and k1 <= 1 do b[0] = c[0]; y = b[-y]; fail od")
    sigma = Env.of({"b": Cells.of({-2: -1, -1: -3, 0: -4, 1: -2, 2: -4}),
                    "c": Cells.of({-2: -5, -1: -1, 0: -1, 1: 2, 2: -1})})
    t = abstracted(p, 500, solver_for(p), samples=0)
    assert check_exhaustiveness(t, (initial(p),), sigma) is None
