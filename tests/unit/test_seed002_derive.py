"""The derivation `L ↦ L^sym` (seed 002 §4.3, G-C1) and symbolic execution as execution of
`L^sym` on the same engine, `unsat` backed by the three-valued solver."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from symcert.cli.main import main
from symcert.core.state import TRUE_PC
from symcert.lang.syntax import Var
from symcert.seed002 import derive as derive_module
from symcert.seed002.definition import DefinitionError
from symcert.seed002.derive import PSI, derive
from symcert.seed002.lemmas import (
    derived_conditions_in_path_condition, derived_keeps_unconditional_rules, derived_lhs_linear,
    derived_lhs_no_symbolic_constant, is_linear,
)
from symcert.seed002.notation import TYPO_NOTE, show_rule
from symcert.seed002.rewrite import Config, computation, initial, run
from symcert.seed002.semfile import find_language, load, parse_definition, parse_program
from symcert.seed002.symbolic import path_condition, sym_initial, sym_run, sym_step
from symcert.seed002.terms import App, kseq
from symcert.solver.z3backend import Sat, Solver
from symcert.spec.switch import CONTRACTS

ROOT = Path(__file__).resolve().parents[2]
IMP = load(find_language("imp"))
IMP_SYM = derive(IMP)

SEED_6_2 = {  # §6.2's five derived rules, in our variable names, the if-true typo corrected
    "div": "⟨⟨I1 / I2 ⋯⟩k ⟨ψ⟩cnd ⋯⟩cfg ∧ ¬unsat(ψ ∧ I2 ≠ 0) ⇒ "
           "⟨⟨I1 /Int I2 ⋯⟩k ⟨ψ ∧ I2 ≠ 0⟩cnd ⋯⟩cfg",
    "and-true": "⟨⟨B and BE ⋯⟩k ⟨ψ⟩cnd ⋯⟩cfg ∧ ¬unsat(ψ ∧ B = true) ⇒ "
                "⟨⟨BE ⋯⟩k ⟨ψ ∧ B = true⟩cnd ⋯⟩cfg",
    "and-false": "⟨⟨B and BE ⋯⟩k ⟨ψ⟩cnd ⋯⟩cfg ∧ ¬unsat(ψ ∧ B = false) ⇒ "
                 "⟨⟨false ⋯⟩k ⟨ψ ∧ B = false⟩cnd ⋯⟩cfg",
    "if-true": "⟨⟨if B then S1 else S2 fi ⋯⟩k ⟨ψ⟩cnd ⋯⟩cfg ∧ ¬unsat(ψ ∧ B = true) ⇒ "
               "⟨⟨S1 ⋯⟩k ⟨ψ ∧ B = true⟩cnd ⋯⟩cfg",
    "if-false": "⟨⟨if B then S1 else S2 fi ⋯⟩k ⟨ψ⟩cnd ⋯⟩cfg ∧ ¬unsat(ψ ∧ B = false) ⇒ "
                "⟨⟨S2 ⋯⟩k ⟨ψ ∧ B = false⟩cnd ⋯⟩cfg",
}

TOY = (ROOT / "tests" / "unit" / "test_seed002_rewrite.py").read_text().split('TOY = """')[1] \
    .split('"""')[0]


def test_imp_derivation_gives_the_seeds_conditional_rules():
    rules = {r.label: r for r in IMP_SYM.rules}
    for label, text in SEED_6_2.items():
        assert show_rule(IMP_SYM, rules[label]) == text
    assert {r.label for r in IMP_SYM.rules if r.cond is not None} == {
        *SEED_6_2, "div-zero", "mod", "mod-zero", "or-true", "or-false", "assert-true",
        "assert-false", "assume", "find", "find-next", "get", "get-nil", "put", "put-nil",
        "new-next", "new-class", "invariant-true", "invariant-false", "requires-true",
        "requires-false"}
    assert [c.name for c in IMP_SYM.cells] == [*(c.name for c in IMP.cells), "cnd"]


def test_imp_find_is_linearised():
    """[find] matches the called name twice (seed 003 §3's procedure lookup): step 1 of §4.3
    renames the second occurrence `F'` and adds `F = F'` to the condition."""
    find = next(r for r in IMP_SYM.rules if r.label == "find")
    assert "$proc ( F' ," in show_rule(IMP_SYM, find)
    assert "¬unsat(ψ ∧ F = F')" in show_rule(IMP_SYM, find)


def test_unconditional_rules_are_unchanged():
    for alpha, sym in zip(IMP.rules, IMP_SYM.rules):
        assert alpha.label == sym.label
        if alpha.cond is None and alpha.label not in SEED_6_2 and "true" not in alpha.label \
                and "false" not in alpha.label and alpha.label != "assume" and is_linear(alpha):
            n = len(IMP.cells)
            assert sym.cond is None and sym.lhs[:n] == alpha.lhs and sym.rhs[:n] == alpha.rhs
            assert sym.lhs[n] is None and sym.rhs[n] is None


def test_cli_prints_the_derived_rules_and_the_typo_note(capsys):
    assert main(["derive", "imp"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("IMP^sym: 168 rules\n\nCfg^sym ::= ⟨⟨Code⟩k ⟨Map⟩env ⟨Arrays⟩arrays "
                          "⟨Map⟩frame ⟨Map⟩next ⟨Procs⟩procs ⟨Classes⟩classes ⟨Map⟩objects "
                          "⟨Fol⟩cnd⟩cfg\n")
    for text in SEED_6_2.values():
        assert f"    {text}\n" in out
    assert TYPO_NOTE in out and "ψ ∧ B = false" in TYPO_NOTE


def test_linearisation_and_its_equation():
    """§4.3.1: `same(I, I)` becomes `same(I, I')` with `I = I'` in the condition."""
    toy = parse_definition(TOY, "toy.sem")
    assert not is_linear(toy.rules[0])
    sym = derive(toy)
    same = sym.rules[0]
    assert is_linear(same)
    assert show_rule(sym, same) == ("⟨⟨same ( I , I' ) ⋯⟩k ⟨ψ⟩cnd⟩cfg ∧ ¬unsat(ψ ∧ I = I') ⇒ "
                                    "⟨⟨true ⋯⟩k ⟨ψ ∧ I = I'⟩cnd⟩cfg")
    assert sym.rules[2].lhs[:1] == toy.rules[2].lhs and sym.rules[2].cond is None


def test_symbolic_steps_on_a_linearised_rule():
    toy = derive(parse_definition(TOY, "toy.sem"))
    cfg = Config((kseq([App("same(_,_)", (Var("a"), Var("b")))]), TRUE_PC))
    steps = sym_step(toy, cfg, Solver())
    assert [(t.label, str(path_condition(toy, t.target))) for t in steps] == [
        ("same", "(a == b)"), ("differ", "(a != b)")]


def test_a_non_data_variable_twice_cannot_be_linearised():
    text = TOY + "rule [dup] <k> choose(E1, E1) => E1 ...</k>\n"
    with pytest.raises(DefinitionError, match=r"toy.sem:14:1: definition error: rule \[dup\] "
                                              "cannot be linearised: variable E1 of sort E"):
        derive(parse_definition(text, "toy.sem"))


def test_planted_wrong_derivations_are_caught():
    """Each of G-C1's predicates rejects the derivation with one mistake planted."""
    toy = parse_definition(TOY, "toy.sem")
    good = derive(toy)
    rules = {r.label: i for i, r in enumerate(IMP_SYM.rules)}
    for pred in (derived_lhs_linear, derived_lhs_no_symbolic_constant,
                 derived_keeps_unconditional_rules, derived_conditions_in_path_condition):
        assert pred(IMP, IMP_SYM) and pred(toy, good)

    def planted(d, i, rule):
        return replace(d, rules=d.rules[:i] + (rule,) + d.rules[i + 1:])

    non_linear = replace(good.rules[0], lhs=toy.rules[0].lhs + (PSI,))
    assert not derived_lhs_linear(toy, planted(good, 0, non_linear))
    i = rules["if-true"]
    kept_constant = replace(IMP_SYM.rules[i], lhs=IMP.rules[i].lhs + (PSI,))
    assert not derived_lhs_no_symbolic_constant(IMP, planted(IMP_SYM, i, kept_constant))
    forgot_b = replace(IMP_SYM.rules[i], rhs=IMP_SYM.rules[i].rhs[:len(IMP.cells)] + (None,))
    assert not derived_conditions_in_path_condition(IMP, planted(IMP_SYM, i, forgot_b))
    j = rules["plus"]
    changed = replace(IMP_SYM.rules[j], rhs=IMP_SYM.rules[rules["minus"]].rhs)
    assert not derived_keeps_unconditional_rules(IMP, planted(IMP_SYM, j, changed))


@pytest.mark.skipif(not CONTRACTS, reason="contracts are off (SYMCERT_CONTRACTS=1)")
def test_derive_contracts_name_g_c1(monkeypatch):
    import icontract

    monkeypatch.setattr(derive_module, "symbolic_rule",
                        lambda d, r: replace(r, lhs=r.lhs + (None,), rhs=r.rhs + (None,)))
    with pytest.raises(icontract.ViolationError, match="G-C1"):
        derive(IMP)


def _leaves(name: str, solver=None):
    term = parse_program(IMP, (ROOT / "examples" / f"{name}.imp").read_text())
    return list(sym_run(IMP_SYM, sym_initial(IMP_SYM, term), solver or Solver()))


def _ending(leaf) -> str:
    k = computation(IMP_SYM, leaf.config)
    return "done" if not k else k[0].label


def test_symbolic_execution_of_min3_gives_the_expected_path_conditions():
    """Seed 002 §6.3: four paths, one stuck at the failed assertion (here: a > b > c)."""
    got = {(_ending(leaf), str(path_condition(IMP_SYM, leaf.config))) for leaf in
           _leaves("min3_buggy")}
    assert got == {
        ("fail", "(not a <= b) and (not b <= c) and (a <= a) and (not a <= b)"),
        ("done", "(a <= b) and (a <= c) and (a <= a) and (a <= b) and (a <= c) and (a == a)"),
        ("done", "(not a <= b) and (b <= c) and (b <= a) and (b <= b) and (b <= c) and "
                 "(not b == a) and (b == b)"),
        ("done", "(a <= b) and (not a <= c) and (c <= a) and (c <= b) and (c <= c) and "
                 "(not c == a) and (not c == b) and (c == c)"),
    }
    assert all(_ending(leaf) == "done" for leaf in _leaves("min3"))


def test_each_symbolic_path_has_a_concrete_run_along_the_same_rules():
    """Weak precision (Cor. 3) on min3: a model of a leaf's path condition, run concretely,
    takes the same rule labels `β`."""
    solver = Solver()
    term = parse_program(IMP, (ROOT / "examples" / "min3_buggy.imp").read_text())
    for leaf in _leaves("min3_buggy", solver):
        answer, model = solver.check(path_condition(IMP_SYM, leaf.config))
        assert answer is Sat.SAT and model is not None
        values = {x: model(x) for x in ("a", "b", "c")}
        result = run(IMP, initial(IMP, term, values), 10_000)
        assert result.labels == leaf.labels


class _Unknown:
    """A solver that decides nothing."""

    def check(self, pc, parent_model=None):
        return Sat.UNKNOWN, None


def test_unsat_prunes_and_unknown_counts_as_satisfiable():
    """Remark 1: `unsat` is sound; an UNKNOWN answer keeps the path."""
    term = parse_program(IMP, "assume x > 0; if x < 0 then fail else skip fi")
    start = sym_initial(IMP_SYM, term)
    pruned = {_ending(leaf) for leaf in sym_run(IMP_SYM, start, Solver())}
    assert pruned == {"done"}  # `assume` has no rule for false: that path just ends
    kept = {_ending(leaf) for leaf in sym_run(IMP_SYM, start, _Unknown())}
    assert kept == {"done", "fail"}


def test_deriving_twice_is_refused():
    with pytest.raises(ValueError, match="already a symbolic definition"):
        derive(IMP_SYM)
