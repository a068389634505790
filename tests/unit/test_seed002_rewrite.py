"""The rewrite engine (seed 002 Def. 2): syntactic matching, non-linear patterns, a
nondeterministic transition system, and IMP's concrete rules against symcert's own concrete
interpreter (seed 000 Fig. 2) on the examples: same final stores, same fail/assume outcomes."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from symcert.core.concrete import NO_CELLS, Cells, Ending, Env, Value, run_to_end
from symcert.lang.parser import parse
from symcert.lang.procedures import arrays
from symcert.lang.structure import inputs
from symcert.lang.syntax import Bool, Int
from symcert.seed002.rewrite import (
    Config, Engine, Undecided, computation, initial, is_final, reachable, run, step, store,
)
from symcert.seed002.semfile import find_language, load, parse_definition, parse_program
from symcert.seed002.terms import App, kseq, same

ROOT = Path(__file__).resolve().parents[2]
IMP = load(find_language("imp"))

TOY = """module TOY
data Int [symbolic, result]
data Bool [symbolic, result]
syntax E ::= Int
           | "same" "(" E "," E ")"
           | "choose" "(" E "," E ")"
configuration <k> $PGM:E </k>
var I I1 I2 : Int
var E1 E2 : E
rule [same]   <k> same(I, I) => true ...</k>
rule [differ] <k> same(I1, I2) => false ...</k> requires I1 =/=Int I2
rule [left]   <k> choose(E1, E2) => E1 ...</k>
rule [right]  <k> choose(E1, E2) => E2 ...</k>
"""


def examples() -> list[Path]:
    """The examples imp.sem can write: no objects, no annotations (docs/invariants.md)."""
    return [p for p in sorted((ROOT / "examples").glob("*.imp"))
            if not any(w in p.read_text() for w in ("class ", "invariant ", "requires ",
                                                    "ensures "))]


def outcome(cfg: Config) -> tuple[Ending, dict[str, Value]]:
    """How a terminated IMP run ended, and its store without zeros (as symcert's Env): the
    integers of the environment, the arrays of the Arrays cell."""
    k = computation(IMP, cfg)
    values: dict[str, Value] = {x: v.value for x, v in store(IMP, cfg).items() if v.value != 0}
    values.update((a, v) for a, v in cfg.cells[IMP.cell_index["arrays"]].bindings
                  if v != NO_CELLS)
    if not k:
        return Ending.NORMAL, values
    head = k[0]
    if isinstance(head, App) and head.label == "assume_" and head.args[0] == Bool(False):
        return Ending.BLOCKED, values
    assert isinstance(head, App) and head.label == "fail", k
    return Ending.FAIL, values


@pytest.mark.parametrize("path", examples(), ids=lambda p: p.stem)
def test_concrete_rules_agree_with_symcerts_interpreter(path):
    """On sampled inputs, the rules and `core.concrete` reach the same final store and the same
    ending (normal, `fail` reached, blocked by `assume`)."""
    text = path.read_text()
    term, program = parse_program(IMP, text, str(path)), parse(text, str(path))
    names, array_names = sorted(inputs(program)), arrays(program)
    rng = random.Random(path.stem)
    engine_steps = 0
    for trial in range(6):
        values: dict[str, Value] = {
            x: Cells.of({i: rng.randint(-2, 9) for i in range(5)}) if x in array_names
            else rng.randint(-2, 9) for x in names}
        expected = run_to_end(Env.of(values), program, 20_000)
        if expected is None:  # gcd_buggy loops on some inputs
            continue
        result = run(IMP, initial(IMP, term, values), 2_000_000)
        assert result.ended
        engine_steps += result.steps
        assert outcome(result.final) == (expected.ending, expected.env.as_dict()), values
    assert engine_steps > 0


def test_min3_buggy_fails_on_the_seeds_input():
    """The planted bug: a > b > c sets the minimum to a."""
    term = parse_program(IMP, (ROOT / "examples" / "min3_buggy.imp").read_text())
    result = run(IMP, initial(IMP, term, {"a": 3, "b": 2, "c": 1}), 10_000)
    assert outcome(result.final)[0] is Ending.FAIL


def test_division_by_zero_fails_and_floor_semantics():
    for text, ending, x in (("x = 7 / 0", Ending.FAIL, None), ("x = -7 / 2", Ending.NORMAL, -4),
                            ("x = -7 % 2", Ending.NORMAL, 1), ("x = 7 % -2", Ending.NORMAL, -1),
                            ("assume 1 > 2; x = 1", Ending.BLOCKED, None)):
        result = run(IMP, initial(IMP, parse_program(IMP, text)), 1000)
        got = outcome(result.final)
        assert got[0] is ending
        if x is not None:
            assert got[1]["x"] == x


def test_step_bound():
    term = parse_program(IMP, "while true do skip od")
    result = run(IMP, initial(IMP, term), 500)
    assert result.steps == 500 and not result.ended
    assert result.labels[:3] == ("while", "if-true", "seq")


def test_a_long_program_runs_without_recursion():
    n = 20_000
    text = ";\n".join(f"x = x + {i % 3}" for i in range(n))
    result = run(IMP, initial(IMP, parse_program(IMP, text)), 10 * n)
    assert result.ended and is_final(IMP, result.final)
    assert store(IMP, result.final)["x"] == Int(sum(i % 3 for i in range(n)))


def test_non_linear_patterns_match_equal_terms_only():
    toy = parse_definition(TOY, "toy.sem")
    same = step(toy, initial(toy, parse_program(toy, "same(4, 4)")))
    assert [(t.label, computation(toy, t.target)) for t in same] == [("same", [Bool(True)])]
    differ = step(toy, initial(toy, parse_program(toy, "same(4, 5)")))
    assert [(t.label, computation(toy, t.target)) for t in differ] == [("differ", [Bool(False)])]


def test_nondeterministic_transition_system():
    """Def. 2: one successor per rule that applies."""
    toy = parse_definition(TOY, "toy.sem")
    ts = step(toy, initial(toy, parse_program(toy, "choose(1, same(2, 2))")))
    assert [t.label for t in ts] == ["left", "right"]
    assert computation(toy, ts[0].target) == [Int(1)]
    assert computation(toy, ts[1].target)[0].label == "same(_,_)"


def test_matching_respects_sorts_and_free_constructors():
    engine = Engine(IMP)
    rules = {r.label: r for r in IMP.rules}
    x_plus_1 = parse_program(IMP, "x = x + 1").args[1]
    rho: dict = {}
    assert not engine.match(rules["plus"].lhs[0].items[0], x_plus_1, rho)  # x is not an Int
    rho = {}
    assert engine.match(rules["heat-_+_-1"].lhs[0].items[0], x_plus_1, rho)
    assert set(rho) == {"E1", "E2"}
    rho = {}
    one_plus_two = parse_program(IMP, "x = 1 + 2").args[1]
    assert not engine.match(rules["heat-_+_-1"].lhs[0].items[0], one_plus_two, rho)
    assert engine.match(rules["plus"].lhs[0].items[0], one_plus_two, {})
    assert not engine.match(rules["mul"].lhs[0].items[0], one_plus_two, {})


def test_a_concrete_rule_on_symbolic_data_is_undecided():
    from symcert.lang.syntax import Var

    cfg = Config((kseq([App("if_then_else_fi", (Var("b"), App("skip"), App("skip")))]),
                  initial(IMP, App("skip")).cells[1]))
    assert step(IMP, cfg) == []  # `if true`/`if false` match constants only: no rule applies
    div = Config((kseq([App("_/_", (Int(1), Var("n")))]), initial(IMP, App("skip")).cells[1]))
    with pytest.raises(Undecided):
        step(IMP, div)


def test_positions_are_carried_by_rewriting_and_ignored_by_matching():
    """A program's constructors start at their first token (a keyword included); a constructor
    a rule builds stands where the construct it rewrote stands; positions change no match."""
    term = parse_program(IMP, "x = 1;\n  assert (x) < 2")
    assign, check = term.args
    assert [t.pos for t in (term, assign, check, check.args[0])] == [(1, 1), (1, 1), (2, 3),
                                                                     (2, 10)]
    moved = parse_program(IMP, "\n\nx = 1; assert x < 2")
    assert same(moved, term) and moved.pos == (3, 1)
    tops = [computation(IMP, c)[0] for c in reachable(IMP, initial(IMP, term), 40)
            if computation(IMP, c)]
    asserts = [t for t in tops if isinstance(t, App) and t.label in ("assert_", "fail")]
    assert asserts and {t.pos for t in asserts} == {(2, 3)}
    assert [t.label for t in asserts][-1] == "assert_"


SCOPES = {
    "callee writes the global its caller shadows":
        "proc q() begin r = 5 end proc p() begin var r = 1; q(); x = r end p(); y = r",
    "a local reads 0 before its `var`, whatever the global":
        "proc p() begin x = r; var r = 3; y = r end r = 7; p()",
    "a `var` in one branch is local in the other":
        "proc p(n) begin if n > 0 then var t = n else t = 9 fi; return t end x = p(0); y = t",
    "return leaves the loop and the rest of the body":
        "proc p(n) begin while n > 0 do if n == 2 then return n else skip fi; n = n - 1 od; "
        "x = 1 end y = p(4); z = p(0)",
    "mutual recursion, the value assigned to a caller's local":
        "proc e(n) begin if n == 0 then return 1 else var r = o(n - 1); return r fi end "
        "proc o(n) begin if n == 0 then return 0 else var r = e(n - 1); return r fi end "
        "x = e(5); y = o(5)",
    "arrays are global, a write in a callee seen after it":
        "proc w(i) begin b[i] = b[i] + 1 end w(2); w(2); x = b[2] + b[3]",
}


@pytest.mark.parametrize("text", SCOPES.values(), ids=SCOPES.keys())
def test_procedure_scopes_follow_the_hand_written_frames(text):
    """Seed 003 §3's scopes as `core.frames` has them: a local's scope is its procedure's
    whole body and each frame's own, globals are shared, `return` drops the rest of the body;
    the concrete rules of imp.sem end with `core.concrete`'s final globals."""
    program, term = parse(text), parse_program(IMP, text)
    names = inputs(program)
    for given in ({}, {"b": Cells.of({2: 4})}, {"r": -3, "t": 8}):
        values = {x: v for x, v in given.items() if x in names}
        expected = run_to_end(Env.of(values), program, 20_000)
        result = run(IMP, initial(IMP, term, values), 200_000)
        assert result.ended and outcome(result.final) == (expected.ending, expected.env.as_dict())
