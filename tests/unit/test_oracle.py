"""Transitions and the exhaustiveness/precision oracles (T-D1, T-D2, T-D3, T-O1, T-X1), and
`symcert oracle`."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from symcert.checking.oracles import (
    Counterexample,
    Undecided,
    check_exhaustiveness,
    check_precision,
    exhaustive_at,
    is_probably_exhaustive,
    is_probably_precise,
    precise_at,
)
from symcert.checking.transitions import (
    Transition,
    concr,
    expand_step,
    interpreter,
    stream,
    successor,
    unroll,
)
from symcert.cli.main import main
from symcert.core.concrete import Cells, Ending, Env, Final
from symcert.core.state import PathCondition, Store, SymState, initial, rule_count
from symcert.engine.explore import expand
from symcert.lang.parser import parse, parse_file
from symcert.lang.syntax import Add, Assign, Bool, Int, Skip, Var
from symcert.solver.z3backend import Solver, solver_for

EX = Path(__file__).resolve().parents[2] / "examples"

LOOP = parse("i = 0; while i < n do i = i + 1 od")
EXAMPLES = [f"{EX}/countdown_buggy.imp", f"{EX}/isqrt_buggy.imp",
            f"{EX}/factorial.imp", f"{EX}/min3_buggy.imp", f"{EX}/gcd.imp"]


def test_unrolling_is_precise_but_not_exhaustive():
    """T-X1: unrolling twice misses the runs with n > 2; the counterexample is such an input."""
    t = unroll(2, Solver())
    exhaustive = is_probably_exhaustive(t, LOOP, runs=50, seed=1)
    cex = exhaustive.counterexample
    assert cex is not None and cex.prop == "exhaustive"
    assert cex.input("n") > 2
    assert cex.final == Final(Env.of({"i": cex.input("n"), "n": cex.input("n")}), Ending.NORMAL)
    assert is_probably_precise(t, LOOP, runs=50, seed=1).counterexample is None


def test_unrolling_enough_is_exhaustive_on_the_inputs_it_covers():
    """With n in [0, 3], unrolling 3 times loses nothing."""
    t = unroll(3)
    for n in range(-2, 4):
        assert check_exhaustiveness(t, (initial(LOOP),), Env.of({"n": n})) is None
    assert isinstance(check_exhaustiveness(t, (initial(LOOP),), Env.of({"n": 4})),
                      Counterexample)


@pytest.mark.parametrize("path", EXAMPLES)
def test_expand_and_the_stream_are_exhaustive_and_precise(path):
    """T-D2/T-D3 hold for one `expand` step and for the stream, cut or run to the end."""
    p = parse_file(path)
    for t in (expand_step, stream(300, Solver()), stream(3)):
        for check in (is_probably_exhaustive, is_probably_precise):
            verdict = check(t, p, runs=25, seed=3)
            assert verdict.counterexample is None, (t.name, verdict.counterexample)
            assert verdict.decided == 25


@pytest.mark.parametrize("path", EXAMPLES[:4])
def test_seed_004_interpreter_is_exhaustive_and_precise_where_decided(path):
    """The bounded interpreter as a transition: results below its loop limit lose and invent
    nothing (T-D2, T-D3 with M-P1/M-P2's existential reading of fresh variables)."""
    p = parse_file(path)
    t = interpreter(10, Solver())
    for check in (is_probably_exhaustive, is_probably_precise):
        verdict = check(t, p, runs=20, seed=2)
        assert verdict.counterexample is None, verdict.counterexample
        assert verdict.decided > 0


def test_seed_004_loop_limit_is_not_a_counterexample():
    """A result cut at the loop limit has no known meaning: undecided, never a counterexample."""
    t = interpreter(2)
    verdict = is_probably_exhaustive(t, LOOP, runs=30, seed=1)
    assert verdict.counterexample is None and verdict.decided < 30


def test_seed_004_interpreter_keeps_the_input_of_an_overwritten_variable():
    """`assert x == 1; x = x` ends with x = 1 only from x = 1: the result must say so."""
    t = interpreter(4)
    assert check_precision(t, (initial(parse("assert x == 1; x = x")),), Env.of({"x": 8})) is None


def _wrong_assignment(s: SymState) -> list[SymState]:
    """`expand`, but an assignment `x = e` binds `x` to `e + 1`."""
    out = []
    for c in expand(s):
        changed = [(k, v) for k, v in c.store.bindings if s.store(k) != v]
        if changed:
            (x, term), = changed
            c = SymState(c.pc, c.store.update(x, Add(term, Int(1))), c.prog)
        out.append(c)
    return out


def _drop_else(s: SymState) -> list[SymState]:
    """`expand`, but only the first successor of a branching statement."""
    return expand(s)[:1]


def _closure(step) -> Transition:
    """The transitive closure of a one-step function: all the leaves it reaches."""

    def outputs(inputs: tuple[SymState, ...]) -> tuple[SymState, ...]:
        todo, leaves = list(inputs), []
        while todo:
            s = todo.pop()
            if rule_count(s.prog) == 0:
                leaves.append(s)
            else:
                todo.extend(step(s))
        return tuple(leaves)

    return Transition("planted", outputs)


def _spurious() -> Transition:
    """The closure of `expand` plus a state claiming the program may end with i = -1."""
    exact = _closure(expand)
    extra = SymState(PathCondition(), Store().update("i", Int(-1)), Skip())
    return Transition("planted", lambda inputs: exact(inputs) + (extra,))


@pytest.mark.parametrize("bad, exhaustive, precise", [
    (_closure(_wrong_assignment), False, False),
    (_closure(_drop_else), False, True),
    (_spurious(), True, False),
    (_closure(expand), True, True),
])
def test_planted_wrong_transitions_are_caught(bad, exhaustive, precise):
    """T-O1: a wrong assignment rule, a dropped branch, a spurious output each fail their oracle;
    the exact closure of `expand` passes both."""
    p = parse("if n > 0 then i = n else i = 0 - n fi")
    e = is_probably_exhaustive(bad, p, runs=30)
    pr = is_probably_precise(bad, p, runs=30)
    assert (e.counterexample is None) == exhaustive
    assert (pr.counterexample is None) == precise


def test_wrong_assignment_counterexample_names_the_missed_and_spurious_states():
    """The counterexample shows the concrete final state that was missed or invented."""
    p = parse("x = y")
    t = _closure(_wrong_assignment)
    sigma = Env.of({"y": 4})
    missed = check_exhaustiveness(t, (initial(p),), sigma)
    spurious = check_precision(t, (initial(p),), sigma)
    assert isinstance(missed, Counterexample) and isinstance(spurious, Counterexample)
    assert missed.final.env == Env.of({"x": 4, "y": 4})
    assert spurious.final.env == Env.of({"x": 5, "y": 4})
    assert str(missed) == ("input {y = 4}: the concrete run ends in {x = 4, y = 4} "
                           "(terminated normally), which no output state represents")


@settings(max_examples=15, deadline=None)
@given(st.integers(-20, 20), st.integers(-20, 20))
def test_stream_is_exhaustive_and_precise_on_generated_inputs(a, b):
    """T-O1 with Hypothesis-generated stores: the cut stream on gcd is exhaustive and precise."""
    p = parse_file(f"{EX}/gcd.imp")
    t = stream(40)
    sigma = Env.of({"a": a, "b": b})
    assert exhaustive_at(t, (initial(p),), sigma) and precise_at(t, (initial(p),), sigma)
    assert check_exhaustiveness(t, (initial(p),), sigma) is None


def test_successor_configuration():
    """T-D1: `Cnf \\ I ∪ O`; the inputs must belong to the configuration."""
    s = initial(parse("if x > 0 then y = 1 else y = 2 fi"))
    other = initial(parse("y = 3"))
    cnf = frozenset({s, other})
    assert successor(cnf, expand_step, frozenset({s})) == frozenset(expand(s)) | {other}
    with pytest.raises(ValueError):
        successor(frozenset({other}), expand_step, frozenset({s}))


def test_concretization_empty_off_path_and_undecided_out_of_fuel():
    """`concr` is empty when `σ ⊭ φ` and None when the run exceeds its budget."""
    s = SymState(PathCondition.of(Bool(False)), Store(), Assign("x", Var("y")))
    assert concr(s, Env()) == frozenset()
    forever = initial(parse("while true do skip od"))
    assert concr(forever, Env(), fuel=50) is None
    assert check_exhaustiveness(expand_step, (forever,), Env(), fuel=50) is Undecided.FUEL


def test_cli_oracle_reports_the_unrolling_counterexample(capsys, tmp_path):
    """`symcert oracle --unroll` prints the input, and that this NO is expected (T-X1:
    unrolling claims precision only), so it exits 0; without it every check holds."""
    f = tmp_path / "loop.imp"
    f.write_text("i = 0; while i < n do i = i + 1 od\n")
    code = main(["oracle", str(f), "--unroll", "2", "--runs", "15", "--seed", "1"])
    out = capsys.readouterr().out
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == f"{f}: 15 random inputs per check (seed 1); inputs: n"
    assert lines[10] == "  unroll (K = 2)"
    assert lines[11].startswith("    exhaustive: NO (expected: unrolling drops the runs that "
                                "iterate more often (T-X1), so it claims precision only), "
                                "counterexample: input {n = ")
    assert lines[12] == "    precise: held on 15 inputs"
    assert main(["oracle", str(f), "--runs", "15"]) == 0
    assert "NO" not in capsys.readouterr().out


def test_cli_oracle_rejects_bad_options(capsys):
    """Non-positive --runs is a usage error (exit 2)."""
    assert main(["oracle", f"{EX}/gcd.imp", "--runs", "0"]) == 2
    assert "--runs must be at least 1" in capsys.readouterr().err


def test_cli_oracle_is_undecided_when_a_check_held_on_no_input(capsys, tmp_path):
    """Every run of `while true do skip od` exceeds its budget: holding on 0 inputs is no
    evidence, so the answer is undecided (exit 3) with the reason, never 0."""
    f = tmp_path / "forever.imp"
    f.write_text("while true do skip od\n")
    assert main(["oracle", str(f), "--runs", "2"]) == 3
    lines = capsys.readouterr().out.splitlines()
    assert lines[2] == ("    exhaustive: held on 0 inputs (2 skipped: a run exceeded its step "
                        "budget or loop limit)")
    assert lines[-1] == (f"{f}: undecided: 6 checks held on no input: every run exceeded "
                         "its step budget or loop limit")


HEAP_STUDIES = [f"{name}{bug}" for name in ("swap", "array_max", "binsearch", "list_insert",
                                            "list_reverse", "alias_nil")
                for bug in ("", "_buggy")]


@pytest.mark.slow
@pytest.mark.parametrize("name", HEAP_STUDIES)
def test_cli_oracle_checks_the_array_and_object_case_studies(capsys, name):
    """`symcert oracle` (40 random inputs: its default of 100 costs a minute on the list
    studies) draws array cells and input heaps (seed 003 §4-5) and checks every transition on
    them: exit 0, each check decided on every input, none skipped in silence."""
    assert main(["oracle", "--runs", "40", f"{EX}/{name}.imp"]) == 0
    lines = capsys.readouterr().out.splitlines()
    listed = lines[0].split("inputs: ")[1].split(", ")
    assert any(x.startswith(".") for x in listed) or "a" in listed  # an array or a heap
    assert [line for line in lines if not line.startswith("    ")] == [
        lines[0], "  expand (one step)", "  run (stream, at most 1,000 states)",
        "  seed-004 interpreter (loop limit 10)"]
    assert [line for line in lines if line.startswith("    ")] == [
        "    exhaustive: held on 40 inputs", "    precise: held on 40 inputs"] * 3


NEXT_OF_P = parse("class Node(val, next)\n"
                  "if p != nil then q = p.next; if q != nil then y = 1 else y = 2 fi "
                  "else y = 0 fi")


@pytest.mark.parametrize("heap", [{}, {".next": Cells.of({3: 1})}, {".next": Cells.of({3: 3})}])
def test_seed_004_interpreter_pins_the_heap(heap):
    """The interpreter's results mean the final stores from the input heap `σ` gives, an
    all-nil field (no binding of `σ`) included: from `p = @3` with `@3.next` nil only `y = 2`
    is represented, never a `y = 1` read off another heap the solver might pick."""
    t = interpreter(10, solver_for(NEXT_OF_P))
    sigma = Env.of({"p": 3, **heap})
    start = (initial(NEXT_OF_P),)
    assert check_precision(t, start, sigma) is None
    assert check_exhaustiveness(t, start, sigma) is None
    assert is_probably_precise(t, NEXT_OF_P, runs=100).counterexample is None


def test_seed_004_pinned_meaning_still_catches_an_imprecise_result():
    """Pinning the heap keeps the precision check sharp: a result that forgets its test of
    `q != nil` represents `y = 1` from `p = @3` with `@3.next` nil, which no run reaches."""
    from symcert.seed004.results import SymResult
    from symcert.core.state import PathCondition as PC

    t = interpreter(10, solver_for(NEXT_OF_P))
    outputs = t((initial(NEXT_OF_P),))
    forgetful = []
    for o in outputs:
        kept = [c for c in o.result.pc.conjuncts() if str(c) != "q#1 != 0"]
        r = o.result
        forgetful.append(replace(o, result=SymResult(r.behaviour, r.env, PC.of(*kept), r.ghost,
                                                     r.exists, r.fresh, r.locals)))
    found = check_precision(t, (initial(NEXT_OF_P),), Env.of({"p": 3}),
                            outputs=tuple(forgetful))
    assert isinstance(found, Counterexample)
    assert found.final.env == Env.of({"p": 3, "y": 1})


def test_a_counterexample_prints_the_input_heap():
    """A counterexample on a program with objects shows the heap of its input and of the final
    state, an all-nil field included (seed 003 §4): the input can be replayed as printed."""
    dropped = Transition("planted", lambda inputs: ())
    found = check_exhaustiveness(dropped, (initial(NEXT_OF_P),), Env.of({"p": 3}))
    assert isinstance(found, Counterexample)
    assert str(found) == ("input {p = @3} heap {@3 {next = nil}}: the concrete run ends in "
                          "{p = @3, y = 2} heap {@3 {next = nil}} (terminated normally), which "
                          "no output state represents")
    array = parse("a[0] = x")
    found = check_exhaustiveness(dropped, (initial(array),), Env.of({"x": 3}))
    assert str(found).startswith("input {a[*] = 0, x = 3}: the concrete run ends in "
                                 "{a[0] = 3, x = 3}")


def test_a_planted_heap_update_that_ignores_aliasing_is_caught(monkeypatch):
    """A field or cell write that drops the earlier writes at other indices (B-H1 ignored) is
    caught by the oracles of `run` from random input heaps and arrays (one `expand` step from
    the start reaches no write). (The
    seed-004 interpreter shares the term algebra: with contracts on, its M-P3 contract stops it.)"""
    from symcert.core import terms
    from symcert.lang.syntax import Update

    original = terms.update

    def wrong(a, i, v):  # type: ignore[no-untyped-def]
        while isinstance(a, Update) and a.index != i and not isinstance(a.index, Int):
            a = a.array
        return original(a, i, v)

    monkeypatch.setattr(terms, "update", wrong)
    for name in ("alias_nil", "swap"):
        p = parse_file(f"{EX}/{name}.imp")
        t = stream(1000, solver_for(p))
        found = [test(t, p, 20, 0).counterexample
                 for test in (is_probably_exhaustive, is_probably_precise)]
        assert any(isinstance(c, Counterexample) for c in found), name


def test_seed_004_pins_hold_where_a_read_is_undefined():
    """A cell pin reads the cell only where the read is defined: behind `p == nil or`, the
    model's `p = nil` must not read nil's field (the solver's M-S1 contract evaluates the pin)."""
    p = parse("class Node(val, next)\nif p == nil or p.val > 0 then y = 1 else y = 2 fi")
    t = interpreter(10, solver_for(p))
    for sigma in (Env.of({"p": 0}), Env.of({"p": 2, ".val": Cells.of({2: 5})}), Env.of({"p": 1})):
        assert check_precision(t, (initial(p),), sigma) is None
        assert check_exhaustiveness(t, (initial(p),), sigma) is None
