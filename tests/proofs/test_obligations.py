"""Proof obligations (docs/proofs.md): every rule and constructor has its obligations, both provers
agree that all of them are VALID, and a wrong rule is refuted with an IMP counterexample.

Generation runs in a child process with contracts off: the contracts would evaluate the lemma
predicates on schematic values."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import get_args

import pytest

from symcert.checking import obligations
from symcert.verify import provers, smtlib
from symcert.checking.obligations import (
    EXPR_CASES, FRAME_RULES, RULES, Obligation, missing, problems,
)
from symcert.checking.obligations.common import OPERATIONS, SymNum, snum
from symcert.checking.obligations.languages import DEFINABLE, MEANING, rule_name
from symcert.checking.obligations.rewriting import rules_needed
from symcert.core.state import rule_count
from symcert.spec.definedness import defined
from symcert.seed002.terms import DATA_OPS
from symcert.lang.syntax import (
    CMP_OPS,
    AExpr,
    Assert,
    Await,
    Get,
    Spawn,
    New,
    Assign,
    BExpr,
    Call,
    Cmp,
    Div,
    Fail,
    If,
    Int,
    Mod,
    Return,
    Seq,
    Skip,
    Stmt,
    Var,
    While,
)

ROOT = Path(__file__).resolve().parents[2]


def _replay(*args: str, script: str | None = None) -> subprocess.CompletedProcess[str]:
    """The replay command's run; with `script` (a planted wrong rule, `WRONG`), by z3 alone: a
    refutation needs one prover's model (the record holds both provers' answers)."""
    command = [sys.executable, script] if script else [sys.executable, "-m", "symcert.checking.obligations"]
    if script:
        args = (*args, "--prover", "z3")
    env = {**os.environ, "SYMCERT_CONTRACTS": "0"}
    return subprocess.run([*command, *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=1200, check=False)  # 12,768 replays: 3-5 min beside a worker


def test_every_statement_class_has_its_rules() -> None:
    """RULES names one rule per successor the code's rule_count gives each statement class:
    a statement whose expression may divide by zero has its `-by-zero` rule too (X-A2), and
    so has `x.f = new C` (x may be nil)."""
    threads = {Spawn, Get, Await}  # rules of the global step: obligations/threads.py
    assert set(RULES) == set(get_args(Stmt)) - threads
    b = Cmp("<", Var("x"), Int(0))
    d = Cmp("<", Div(Var("x"), Var("y")), Int(0))
    samples = {Skip: (Skip(), Skip()), Fail: (Fail(), Fail()),
               Assign: (Assign("x", Int(1)), Assign("x", Mod(Var("x"), Var("y")))),
               If: (If(b, Skip(), Fail()), If(d, Skip(), Fail())),
               While: (While(b, Skip()), While(d, Skip())), Assert: (Assert(b), Assert(d)),
               Call: (Call("f", (Var("x"),)), Call("f", (Var("x"), Mod(Var("x"), Var("y"))))),
               Return: (Return(Var("x")), Return(Div(Var("x"), Var("y")))),
               New: (New("x", "C", (".f",)), New(".f", "C", (".f",), at=Var("x")))}
    for cls, (p, dividing) in samples.items():
        names = [r for r in RULES[cls] if r not in ("skip", "fail")]
        assert rule_count(dividing) == len(names), cls
        assert rule_count(p) == len([r for r in names if not r.endswith("-by-zero")]), cls
    # A sequence steps by exactly one of its two rules: `seq-skip`, or `seq` through its first.
    assert rule_count(Seq(Skip(), Fail())) == 1
    assert rule_count(Seq(Assign("x", Int(1)), Fail())) == 1
    # In a procedure (seed 003 §3) `skip` returns 0, and an assignment steps by exactly one of
    # its rules there: to a local, to a global, or `var`.
    assert set(FRAME_RULES) <= set(RULES)
    assert rule_count(Skip(), in_procedure=True) == len(FRAME_RULES[Skip]) == 1
    assert rule_count(Assign("x", Int(1), local=True), in_procedure=True) == 1


def test_every_expression_constructor_has_its_case() -> None:
    """The induction of B-L1 has a case per constructor of the syntax and per comparison."""
    # A bounded quantifier (X-Q1) has no case yet: its checkers are the concrete evaluation and
    # the second engine (docs/lemmas.md, X-Q1), not a per-operation obligation.
    classes = {c.__name__ for c in get_args(AExpr) + get_args(BExpr)} - {"Cmp", "Quant"}
    assert "Select" in classes  # an array's read (seed 003 §5)
    assert classes | {f"Cmp{op}" for op in CMP_OPS} == set(EXPR_CASES)


def test_missing_names_every_gap() -> None:
    """Without obligations every rule, constructor and lemma is reported missing."""
    gaps = missing([])
    assert "W-L2.3 while-exit" in gaps and "W-L2.5 seq" in gaps and "B-L1 Cmp<=" in gaps
    assert "W-L2.2 skip" not in gaps  # skip has no successor whose path condition could grow
    assert "G-M1 add" in gaps and "G-M1 cmp<=" in gaps and "G-M1 div" in gaps
    assert "W-L2.5 assign-by-zero" in gaps and "W-L2.3 while-by-zero" in gaps
    assert "X-A1 floor" in gaps and "X-A2 Mod" in gaps and "X-A2 And" in gaps
    assert "W-L2.3 assume-blocked" in gaps and "W-L2.2 assume-pass" in gaps
    assert "W-L2.3 call" in gaps and "W-L2.5 return-by-zero" in gaps
    assert "W-L2.5 return-end" in gaps and "W-L2.3 assign-local" in gaps and "W-L2.2 var" in gaps
    # 22 stepping rules (8 of them by zero, one blocking, seed 003 §4's `new` and `new-by-zero`,
    # `x.f = new C` at nil) and seed 003's 4
    # in a procedure x 3 lemmas, skip and fail x 2; B-L1 and X-A2 per case; G-M1 per operation
    # of IMP and of a defined language; X-A1 (5); W-L2.1, M-S1 (2), M-Q1 (2); B-A1 (update,
    # congruence) and B-H3 (resolve, resolve-pc) of arrays; B-H2 (fresh-read); B-H1's field
    # rules (4); G-L2 and G-L3 per rule of imp.sem and gcl.sem; T-M1's merge rule (sound,
    # complete-a, complete-b); the thread rules of the global step (6); T-I1's (entry,
    # preserve, iterate, exit, by-zero) and T-S1's (pre, post, by-zero)
    assert len(gaps) == 3 * (22 + 4) + 2 * 2 + 2 * len(EXPR_CASES) + len(OPERATIONS) \
        + len(DEFINABLE) + 5 + 5 + 4 + 1 + 4 + 2 * len(rules_needed()) + 3 + 6 + 5 + 3
    assert "T-M1 sound" in gaps and "T-M1 complete-b" in gaps
    assert "B-X2 spawn" in gaps and "B-X4 deadlock" in gaps and "B-X1 await-then" in gaps
    assert "T-I1 iterate" in gaps and "T-I1 preserve" in gaps and "T-S1 post" in gaps
    ob = Obligation("W-L2.3/assign/demo", "W-L2.3", "assign", "", "")
    assert "W-L2.3 assign" not in missing([ob])
    assert "W-L2.3 assign" in missing([ob], vacuous=frozenset({ob.name}))  # proves nothing


def test_vacuous_obligations_are_told_apart() -> None:
    """An obligation whose hypotheses contradict each other is vacuous; one with a model is not."""
    s = smtlib.Script()
    x = s.aexpr(Var("x"))
    live = Obligation("a", "W-L2.3", "assign", "", s.text([f"(< {x} 0)"], "false"))
    dead = Obligation("b", "W-L2.3", "assign", "", s.text([f"(< {x} 0)", f"(> {x} 0)"], "false"))
    assert obligations.vacuous([live, dead]) == {"b"}


def test_smtlib_text_is_read_alike_by_both_provers() -> None:
    """The same SMT-LIB text: VALID for both provers, or INVALID with a refuting model."""
    s = smtlib.Script()
    ne = s.bexpr(Cmp("!=", Var("?a"), Int(-3)))
    assert ne == "(not (= ?a (- 3)))"
    valid = s.text([ne], "(not (= ?a (- 0 3)))")
    invalid = s.text([], ne)
    for prove in (provers.prove_z3, provers.prove_cvc5):
        assert prove(valid, 1_000_000).status == provers.VALID
        refuted = prove(invalid, 1_000_000)
        assert refuted.status == provers.INVALID and refuted.model == {"?a": -3}
    assert smtlib.symbol("x") == "x" and smtlib.symbol("not") == "|not|"


def test_disagreement_and_regression_are_errors() -> None:
    """A prover contradicting another, or a recorded VALID obligation refuted now, is an error."""
    ob = Obligation("W-L2.3/assign/demo", "W-L2.3", "assign", "", "")
    valid = provers.ProverAnswer(provers.VALID, 0.0)
    refuted = provers.ProverAnswer(provers.INVALID, 0.0, {"x": 1})
    errors, undecided = problems([ob], {ob.name: {"z3": valid, "cvc5": refuted}}, [])
    assert any("disagree" in e for e in errors) and not undecided
    recorded = [{"obligation": ob.name, "prover": "z3", "status": provers.VALID}]
    errors, _ = problems([ob], {ob.name: {"z3": refuted}}, recorded)
    assert any("VALID in the record for z3, invalid now" in e for e in errors)
    _, undecided = problems([ob], {ob.name: {"z3": provers.ProverAnswer(provers.UNKNOWN, 1.0)}}, [])
    assert undecided


def test_record_round_trip() -> None:
    """The record keeps obligation, lemma, rule, prover, version, limit, status and time."""
    entries = [{"obligation": "M-S1/prune/a", "lemma": "M-S1", "rule": "prune", "prover": p,
                "version": v, "limit": "rlimit 5", "status": "valid", "time": 0.5}
               for p, v in (("cvc5", "1"), ("z3", "2"))]
    assert obligations.load_record(obligations.dump_record(entries)) == entries


def test_rerecording_changes_only_what_a_proof_changed() -> None:
    """`--write` keeps the recorded time of an unchanged status, so the record stays stable."""
    old = {"obligation": "a", "prover": "z3", "version": "1", "limit": "rlimit 5",
           "status": "valid", "time": 0.5}
    same = obligations.keep_times([{**old, "time": 0.9}], [old])
    changed = obligations.keep_times([{**old, "status": "invalid", "time": 0.9}], [old])
    upgraded = obligations.keep_times([{**old, "version": "2", "time": 0.9}], [old])
    assert same[0]["time"] == 0.5 and changed[0]["time"] == 0.9 and upgraded[0]["time"] == 0.9


SHARDS = 6
"""The replay of the record (about 13,000 obligations, two provers each) in shards of whole
(lemma, rule) groups (`replay_shard.py`), so that pytest-xdist's workers share it out."""


@pytest.mark.slow
@pytest.mark.parametrize("shard", range(SHARDS))
def test_replay_agrees_with_the_record(shard: int) -> None:
    """Every obligation is VALID for z3 and cvc5, as recorded, and no rule lacks one: each
    shard replays its groups and reports its gaps; together they are the whole replay."""
    script = str(Path(__file__).with_name("replay_shard.py"))
    result = subprocess.run([sys.executable, script, str(shard), str(SHARDS)], cwd=ROOT,
                            env={**os.environ, "SYMCERT_CONTRACTS": "0"}, capture_output=True,
                            text=True, timeout=1200, check=False)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert ", 0 errors, 0 undecided" in result.stdout
    assert "| z3 |" in result.stdout and "| cvc5 |" in result.stdout


def test_the_shards_partition_the_obligations_by_group() -> None:
    """Each (lemma, rule) group is in one shard, dealt largest first to the lightest shard."""
    import replay_shard

    obs = [Obligation(f"{lemma}/{rule}/{i}", lemma, rule, "", "")
           for lemma, rule, n in (("W-L2.3", "assign", 9), ("W-L2.2", "assign", 7),
                                  ("B-L1", "Add", 4), ("B-L1", "Sub", 3), ("X-A1", "floor", 1))
           for i in range(n)]
    where = replay_shard.shard_of(obs, 3)
    assert set(where) == {replay_shard.group(o) for o in obs}
    sizes = [sum(1 for o in obs if where[replay_shard.group(o)] == k) for k in range(3)]
    assert sizes == [9, 8, 7]  # 9 | 7, then 1 | 4, then 3


WRONG = str(Path(__file__).with_name("wrong_rules.py"))


def test_a_deadlock_at_a_passable_await_is_refuted() -> None:
    """A deadlock successor that takes every thread at an `await` as blocked, whatever its
    condition, is refuted by B-X4's soundness only (the concrete configuration can step)."""
    result = _replay("await-always-blocks", "--only", "B-X4/deadlock/sound/0/await+await",
                     script=WRONG)
    assert result.returncode == 1, result.stdout + result.stderr
    invalid = [line for line in result.stdout.splitlines() if line.endswith(": INVALID")]
    assert invalid and all(line.startswith("B-X4/deadlock/sound/") for line in invalid)


def test_wrong_while_exit_rule_is_refuted_with_an_imp_counterexample() -> None:
    """The while-exit rule adding the guard instead of its negation breaks soundness; the
    refutation prints the concrete state, its step and the wrong successor."""
    result = _replay("while-exit-adds-guard", "--only", "W-L2.3/while-exit/while/", script=WRONG)
    assert result.returncode == 1, result.stdout + result.stderr
    out = result.stdout
    assert "W-L2.3/while-exit/while/atom" in out and ": INVALID" in out
    assert "concrete state  σ  = ⟨" in out and "while u1 <= w1 do" in out
    assert "concrete step   σ → ⟨" in out
    assert "concretizes to ⟨" in out and ", skip⟩" in out


def test_assume_without_its_condition_is_refuted() -> None:
    """`assume b` stepping to `skip` on `φ` unchanged (and forgetting its division by zero) is
    unsound where the concrete run is blocked (X-U1) or fails: only the soundness obligations of
    `assume` refute it, with the blocked concrete state printed."""
    result = _replay("assume-ignores-condition", "--only", "W-L2.3/", script=WRONG)
    assert result.returncode == 1, result.stdout + result.stderr
    invalid = [line for line in result.stdout.splitlines() if line.endswith(": INVALID")]
    assert {line.split("/")[1] for line in invalid} == {"assume-blocked", "assume-pass", "seq"}
    assert all("assume" in line for line in invalid)
    assert "W-L2.3/seq/assume-blocked/" in result.stdout
    assert ", assume u1 <= w1⟩" in result.stdout and "σ → no step" in result.stdout


def test_wrong_constant_folding_is_refuted_by_the_substitution_lemma() -> None:
    """`terms.add` folding `(t + c1) + c2` into `t + (c1 - c2)` breaks B-L1 for `+` on a sum
    ending in a literal, and only there."""
    result = _replay("add-folds-minus", "--only", "B-L1/", script=WRONG)
    assert result.returncode == 1, result.stdout + result.stderr
    refuted = {line.split("#")[0] for line in result.stdout.splitlines()
               if line.endswith(": INVALID")}
    assert refuted == {"B-L1/Add/add-int+int", "B-L1/Sub/add-int+int"}
    assert "?r = ?e1 + ?e2" in result.stdout and "symbolic value  ?t1" in result.stdout


def test_wrong_product_folding_is_refuted_by_the_data_morphism() -> None:
    """`terms.mul` folding `(t * c1) * c2` into `t * (c1 + c2)` (the fold of doublings,
    planted wrong) breaks G-M1 for `*` on a product ending in a literal, and for `+` of such a
    product with itself (`a + a = a * 2`); seed 002's `*Int` and `+Int` run the same smart
    constructors, so theirs break too."""
    result = _replay("mul-folds-plus", "--only", "G-M1/", script=WRONG)
    assert result.returncode == 1, result.stdout + result.stderr
    refuted = {line.split("#")[0] for line in result.stdout.splitlines()
               if line.endswith(": INVALID")}
    assert {"G-M1/mul/mul-int+int", "G-M1/add/mul-int+same"} <= refuted
    assert {"G-M1/seed002-times-int/mul-int+int", "G-M1/seed002-plus-int/mul-int+same"} <= refuted
    assert all(r.startswith(("G-M1/mul/", "G-M1/add/", "G-M1/seed002-times-int/",
                             "G-M1/seed002-plus-int/")) for r in refuted)


@pytest.mark.parametrize("mistake, rule, refuted_cases", [
    ("minus-int-swapped", "seed002-minus-int", {"term+term", "int+term", "neg+add-int"}),
    ("lookup-unbound-one", "seed002-lookup", {"unbound"}),
])
def test_a_wrong_data_operation_of_a_defined_language_is_refuted(mistake: str, rule: str,
                                                                 refuted_cases: set[str]) -> None:
    """G-M1 per data operation of seed 002's `DATA_OPS`: `-Int` with its operands swapped, and
    `lookup` reading 1 for an unbound identifier, are refuted there and nowhere else (the
    swap holds when both operands are one term)."""
    result = _replay(mistake, "--only", "G-M1/seed002-", script=WRONG)
    assert result.returncode == 1, result.stdout + result.stderr
    refuted = {line.split("#")[0].removesuffix(": INVALID") for line in result.stdout.splitlines()
               if line.endswith(": INVALID")}
    assert {f"G-M1/{rule}/{case}" for case in refuted_cases} <= refuted
    assert all(r.startswith(f"G-M1/{rule}/") and not r.endswith("same") for r in refuted)


@pytest.mark.parametrize("mistake, rule, refuted_cases", [
    ("store-writes-index", "seed002-store", {"input+term", "update-term+same"}),
    ("lookupin-globals-first", "seed002-lookupin", {"bound+bound"}),
])
def test_a_wrong_operation_for_procedures_or_arrays_is_refuted(mistake: str, rule: str,
                                                                refuted_cases: set[str]) -> None:
    """G-M1 for the operations imp.sem's arrays and procedures use: `store` writing its index
    and `lookupIn` reading the global before the local are refuted, for that operation only
    (the scope read is wrong only where both maps bind the name)."""
    result = _replay(mistake, "--only", f"G-M1/{rule}/", script=WRONG)
    assert result.returncode == 1, result.stdout + result.stderr
    refuted = {line.split("#")[0].removesuffix(": INVALID") for line in result.stdout.splitlines()
               if line.endswith(": INVALID")}
    assert {f"G-M1/{rule}/{case}" for case in refuted_cases} <= refuted
    assert all(r.startswith(f"G-M1/{rule}/") for r in refuted)
    if rule == "seed002-lookupin":
        assert refuted == {f"G-M1/{rule}/bound+bound"}


def test_every_data_operation_of_a_defined_language_has_its_meaning() -> None:
    """G-M1 covers every operation a `.sem` file can write (not Fol's, the derivation's), each
    with its own `f^D`, and every rule name is free of `/`."""
    assert set(MEANING) == set(DEFINABLE) == set(DATA_OPS) - {"∧Fol", "unsat"}
    names = [rule_name(op) for op in DEFINABLE]
    assert len(set(names)) == len(names) and not any("/" in n for n in names)
    assert "G-M1 seed002-lookup" in missing([])


def test_schematic_division_branches_on_the_divisor() -> None:
    """`//` and `%` on schematic integers fork: by zero they raise as Python's do, otherwise
    they are the SMT translation that X-A1 proves is Python's floor division and modulo."""
    a, b = snum("a"), snum("b")
    for op, text in ((lambda: a // b, smtlib.SMT_TEXT.div), (lambda: a % b, smtlib.SMT_TEXT.mod)):
        found = [(facts, result) for _, facts, _, result
                 in smtlib.paths(lambda op=op: defined(op))]
        assert sorted(f for f, _ in found) == [("(= b 0)",), ("(not (= b 0))",)]
        values = dict(found)
        assert values[("(= b 0)",)] is None
        assert values[("(not (= b 0))",)].smt() == text("a", "b")  # type: ignore[union-attr]
    assert (snum("a") * 3).smt() == "(* a 3)"
    assert SymNum("div", (7, b)).value({"b": -2}) == 7 // -2
    assert SymNum("mod", (a, b)).value({"a": 7, "b": -2}) == 7 % -2


def test_division_translation_is_proved_by_both_provers() -> None:
    """X-A1: floor division and modulo for every integer, z3's translation equal to the
    SMT-LIB one, Python's values on the grid: VALID for z3 and cvc5."""
    result = _replay("--only", "X-A1/")
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert "11 obligations (0 vacuous), 0 errors, 0 undecided" in result.stdout


def test_euclidean_division_is_refuted() -> None:
    """A translation of `/` to SMT-LIB's plain `div` (Euclidean) differs from Python's floor
    division for negative divisors: X-A1's z3 and grid obligations for `/` refute it, and so does
    the purified definition's (its quotient and remainder must meet it); the floor obligation is
    not proved."""
    result = _replay("euclidean-division", "--only", "X-A1/", script=WRONG)
    assert result.returncode == 1, result.stdout + result.stderr
    refuted = {line.split(":")[0] for line in result.stdout.splitlines()
               if line.endswith(": INVALID")}
    assert {"X-A1/z3/div", "X-A1/concrete/div", "X-A1/purified/negative-values"} <= refuted
    # z3 alone answers `unknown` on the floor obligation at its resource limit: not proved
    assert refuted <= {"X-A1/floor/negative", "X-A1/z3/div", "X-A1/concrete/div",
                       "X-A1/purified/negative-values"}
    assert "X-A1/floor/negative: VALID\n" not in result.stdout


def test_a_loose_purified_definition_is_refuted() -> None:
    """A definition of the solver's named `a % b` that lets the remainder equal the divisor is
    not the SMT-LIB one: X-A1's `purified-z3` obligation refutes it."""
    result = _replay("purified-remainder-closed", "--only", "X-A1/", script=WRONG)
    assert result.returncode == 1, result.stdout + result.stderr
    refuted = {line.split(":")[0] for line in result.stdout.splitlines()
               if line.endswith(": INVALID")}
    assert refuted == {"X-A1/purified-z3/definition"}


def test_guard_forgetting_the_right_operand_is_refuted() -> None:
    """A guard of `a and b` that forgets the divisions of `b` is refuted by X-A2's step for
    `and` (and no other operation), and by the completeness of the if rule: the concrete step
    fails where no successor does."""
    result = _replay("guard-forgets-right", "--only", "X-A2/", script=WRONG)
    assert result.returncode == 1, result.stdout + result.stderr
    refuted = {line.split("/")[1] for line in result.stdout.splitlines()
               if line.endswith(": INVALID")}
    assert refuted == {"And"}
    result = _replay("guard-forgets-right", "--only", "W-L2.5/if-by-zero/if/and-right",
                     script=WRONG)
    assert result.returncode == 1 and ": INVALID" in result.stdout
    assert "?e1 % ?e2 == 0 then" in result.stdout and ", fail⟩" in result.stdout


def test_return_into_the_callee_is_refuted() -> None:
    """Seed 003's return assigning the value to the call's target in the callee's frame (then
    dropped) instead of the caller's is right for a global target and wrong for a local of the
    caller that the callee has too (a recursive call): exactly the soundness and completeness
    obligations of `return` and `return-end` to a caller's local are refuted, with the stacks
    printed."""
    result = _replay("return-into-callee", "--only", "W-L2.3/return", script=WRONG)
    assert result.returncode == 1, result.stdout + result.stderr
    refuted = {line.split("#")[0] for line in result.stdout.splitlines()
               if line.endswith(": INVALID")}
    assert refuted == {"W-L2.3/return/return/in-f-of-f/local-target",
                       "W-L2.3/return/return/in-f-of-f/local-target-seq",
                       "W-L2.3/return-end/skip/in-f-of-f/local-target"}
    assert "symbolic frame  τ  = f{l ↦ ?tl, u ↦ ?tu} (depth 2)" in result.stdout
    assert "→ l, then `?P1 = 0` · f{" in result.stdout
    result = _replay("return-into-callee", "--only", "W-L2.5/return-end/", script=WRONG)
    assert result.returncode == 1 and "W-L2.5/return-end/skip/in-f-of-f/local-target#" in \
        result.stdout


def test_array_read_ignoring_aliasing_is_refuted() -> None:
    """A read that skips every update at another index term (two terms can have one value:
    seed 003 §5) breaks B-A1 wherever the indices are not two literals, and B-H3 with it; the
    engine's read, which skips only updates at other literals, is proved."""
    result = _replay("select-ignores-aliasing", "--only", "B-A1/update/", script=WRONG)
    assert result.returncode == 1, result.stdout + result.stderr
    refuted = {line.split("#")[0].removesuffix(": INVALID") for line in result.stdout.splitlines()
               if line.endswith(": INVALID")}
    assert {"B-A1/update/term+term", "B-A1/update/int+term", "B-A1/update/add-int+int"} <= refuted
    assert "B-A1/update/int+int" not in refuted and "B-A1/update/term+same" not in refuted
    result = _replay("select-ignores-aliasing", "--only", "B-H3/", script=WRONG)
    assert result.returncode == 1 and "B-H3/resolve/term+term+term: INVALID" in result.stdout
    result = _replay("--only", "B-A1/")
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]


def test_field_write_ignoring_aliasing_is_refuted() -> None:
    """A field write that drops the map's earlier writes at other references (as if two
    references could not name one object: seed 003 §4) breaks B-H1 where the read is at the
    earlier write's object, and only there; the engine's write is proved."""
    result = _replay("update-ignores-aliasing", "--only", "B-H1/field-write/", script=WRONG)
    assert result.returncode == 1, result.stdout + result.stderr
    refuted = {line.split("#")[0].removesuffix(": INVALID") for line in result.stdout.splitlines()
               if line.endswith(": INVALID")}
    assert "B-H1/field-write/earlier+update-term" in refuted
    assert all("+update-term" in name for name in refuted)
    result = _replay("--only", "B-H1/")
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]


def test_a_less_than_literal_taken_for_an_alias_is_refuted() -> None:
    """Resolution with the path condition (B-H3, `resolve-pc`) that reads `i < j` as `i == j`
    breaks exactly the obligations whose literal is `lt`; those with `eq`, `ne` and `not-eq`
    still hold."""
    result = _replay("less-answers-alias", "--only", "B-H3/resolve-pc/", script=WRONG)
    assert result.returncode == 1, result.stdout + result.stderr
    refuted = {line.split("#")[0].removesuffix(": INVALID") for line in result.stdout.splitlines()
               if line.endswith(": INVALID")}
    assert "B-H3/resolve-pc/term+term+term+lt-w2" in refuted
    assert refuted and all("+lt-" in name for name in refuted)


def test_new_that_forgets_the_fields_is_refuted_by_fresh_reads() -> None:
    """`new` that sets no field of the object it makes lets a read of the new object reach the
    input heap (B-H2); every `fresh-read` obligation but the one written through `y` itself
    is refuted."""
    result = _replay("new-forgets-fields", "--only", "B-H2/", script=WRONG)
    assert result.returncode == 1, result.stdout + result.stderr
    refuted = {line.split("#")[0].removesuffix(": INVALID") for line in result.stdout.splitlines()
               if line.endswith(": INVALID")}
    assert refuted == {"B-H2/fresh-read/made", "B-H2/fresh-read/made+term",
                       "B-H2/fresh-read/made-two+term"}
