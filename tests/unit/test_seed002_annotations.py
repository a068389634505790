"""Loop invariants and procedure contracts in the rule-defined IMP (seed 002's `imp.sem`): they
parse and print back, mean what symcert's concrete semantics means (an invariant checked at each
evaluation of the head, `requires` at each call once the parameters are bound, `ensures` not
checked), and `run --lang imp` finds the annotated examples' bugs where `symcert run` does."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

from symcert.checking import agreement, annotated, campaign
from symcert.core.concrete import Ending, Env, run_to_end
from symcert.engine.verdict import Kind
from symcert.lang.parser import parse
from symcert.lang.procedures import show_program
from symcert.seed002.bugfinder import Language, LangBudget, check, input_range
from symcert.seed002.notation import show
from symcert.seed002.terms import same

ROOT = Path(__file__).resolve().parents[2]
ANNOTATED = sorted(p for p in (ROOT / "examples").glob("*.imp")
                   if re.search(r"\b(invariant|requires|ensures)\b", p.read_text()))

PROGRAM = """proc f() requires g > 0 begin g = g - 1 end
proc h(a, b) ensures result == a + b + 1 begin return a + b end
proc k(a) requires a >= 0 ensures result >= 0 begin
  var z = 0;
  while z < a invariant z <= a invariant z <= 2 do var w = z; z = w + 1 od;
  return z
end
g = x; f(); y = h(x, g); w = k(y);
while y < 3 invariant y <= 3 do y = y + 1 od"""
"""Each form: invariants of one and two clauses (the second failing after iterations, in a
procedure whose loop declares a local), `requires` and `ensures` alone and together, with
and without parameters; an `ensures` that does not hold, which no concrete run checks."""


def test_the_annotated_examples_parse_and_print_back():
    """`imp.sem` reads every annotated example; printed in its syntax (`notation.show`), the
    term parses back to itself, and the text to the same program for symcert's parser."""
    imp = agreement.imp()
    assert len(ANNOTATED) >= 10
    for path in ANNOTATED:
        text = path.read_text()
        term = imp.parse(text)
        shown = show(imp.concrete, term)
        assert same(imp.parse(shown), term), path.name
        assert show_program(parse(shown)) == show_program(parse(text)), path.name


@pytest.mark.parametrize("x", [-1, 0, 1, 2, 5])
def test_both_engines_agree_on_each_form(x):
    """Concrete and symbolic, derived and hand-written: the same ending and store at each input
    (a precondition broken at `x <= 0`, the second invariant clause of `k`'s loop after three
    iterations at `x >= 2`), and the same verdict."""
    result = agreement.compare(parse(PROGRAM), Env.of({"x": x}), max_states=200)
    assert result.agree, result.disagreement
    ending = Ending.NORMAL if x == 1 else Ending.FAIL
    assert result.hand_concrete is not None and result.hand_concrete.ending is ending
    assert result.hand_verdict is result.derived_verdict is Kind.BUG


def _without(label: str, rhs_of: str | None = None) -> Language:
    """`imp.sem` with rule `label` dropped, or given the right-hand side of rule `rhs_of`."""
    d = agreement.imp().concrete
    if rhs_of is None:
        return Language.of(replace(d, rules=tuple(r for r in d.rules if r.label != label)))
    other = next(r for r in d.rules if r.label == rhs_of)
    return Language.of(replace(d, rules=tuple(replace(r, rhs=other.rhs) if r.label == label
                                              else r for r in d.rules)))


@pytest.mark.parametrize("planted, x", [
    (("holds", "holds-last"), 2),  # only the first clause checked: the second never fails
    (("enter-requires", "enter"), 0),  # `requires` never checked
    (("enter-ensures", "enter-requires"), 1),  # `ensures` checked as if it were `requires`
])
def test_a_planted_wrong_rule_is_a_disagreement(monkeypatch, planted, x):
    """A rule that forgets a clause, skips `requires` or checks `ensures` at the call is
    caught by the comparison with the hand-written semantics."""
    monkeypatch.setattr(agreement, "_IMP", [_without(*planted)])
    result = agreement.compare(parse(PROGRAM), Env.of({"x": x}))
    assert not result.agree


def test_the_campaign_check_passes_on_generated_programs():
    """`derived-annotated` on programs of the campaign whose loops and procedures it
    annotates: no disagreement; a planted [holds] that drops the other clauses is one."""
    found = [(p, s) for p, s in (campaign.numbered(7, i) for i in range(12))
             if annotated.with_invariants(p, annotated._choices(p), campaign.SHAPE)]
    assert found
    for p, sigmas in found[:4]:
        assert annotated.check_derived(p, sigmas[:1], campaign.SHAPE) is None


@pytest.mark.parametrize("name, pos, rule", [
    ("gcd_contract_buggy", (10, 1), "requires-false"),
    ("array_copy_buggy", (5, 1), "invariant-false"),
    ("sum_closed_form_buggy", (6, 1), "assert-false"),
])
def test_run_lang_finds_the_bug_symcert_run_finds(name, pos, rule):
    """The bug stands where `symcert run` reports it (the call, the loop, the assertion), and
    its input fails the hand-written concrete semantics too."""
    imp = agreement.imp()
    text = (ROOT / "examples" / f"{name}.imp").read_text()
    verdict = check(imp, imp.parse(text), LangBudget(20_000), input_range(text))
    assert verdict.kind is Kind.BUG
    (bug,) = verdict.bugs
    assert bug.failing.pos == pos and bug.labels[-1] == rule
    final = run_to_end(Env.of(dict(bug.inputs)), parse(text), 10_000)
    assert final is not None and final.ending is Ending.FAIL and final.where is not None
    assert (final.where.line, final.where.column) == pos
