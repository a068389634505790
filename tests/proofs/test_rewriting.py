"""G-L2 and G-L3 rule by rule (seed 002 Lemmas 2 and 3, `checking.obligations.rewriting`):
every rule of imp.sem and gcl.sem has its obligations, the conditional rules' are VALID for
both provers, and planted wrong derivations (a kept constant, `b` forgotten in `ψ ∧ b`, a
dropped rule, a dropped linearisation, a return keeping the callee's locals, a store writing
its index) are refuted by the lemma they break."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from symcert.verify import provers
from symcert.checking.obligations import missing, vacuous
from symcert.checking.obligations.common import Obligation
from symcert.checking.obligations.rewriting import (
    languages, rule_name, rule_obligations, rules_needed,
)
from symcert.seed002.definition import Definition
from symcert.seed002.derive import derive
from symcert.seed002.semfile import parse_definition

LANGS = languages()
IMP, IMP_SYM = LANGS["imp"]


def _status(o: Obligation, prove: Any = provers.prove_z3) -> str:
    return prove(o.text, 5_000_000).status


def _refuted(obs: list[Obligation]) -> set[str]:
    return {o.name.split("#")[0] for o in obs if _status(o) == provers.INVALID}


def _planted(d: Definition, label: str, **changes: Any) -> Definition:
    return replace(d, rules=tuple(replace(r, **changes) if r.label == label else r
                                  for r in d.rules))


def test_every_rule_has_live_obligations_of_both_lemmas() -> None:
    """Each rule of both languages has G-L2 and G-L3 obligations that are not vacuous, and
    `missing` asks for them."""
    needed = rules_needed()
    assert "imp-if-true" in needed and "gcl-when" in needed and "imp-heat-_slash_-1" in needed
    assert {f"G-L2 {r}" for r in needed} | {f"G-L3 {r}" for r in needed} <= set(missing([]))
    obs = [o for name, (d, dsym) in LANGS.items() for o in rule_obligations(name, d, dsym)]
    gaps = missing(obs, vacuous(obs))
    assert not [g for g in gaps if g.startswith(("G-L2 ", "G-L3 "))]


@pytest.mark.parametrize("name", ["imp", "gcl"])
def test_the_conditional_rules_are_proved_by_both_provers(name: str) -> None:
    """The obligations of the rules the derivation changes (a condition, a constant of a
    symbolic sort) are VALID for z3 and cvc5."""
    d, dsym = LANGS[name]
    labels = tuple(a.label for a, b in zip(d.rules, dsym.rules) if b.cond is not None)
    assert len(labels) >= 5
    obs = rule_obligations(name, d, dsym, labels)
    for prove in (provers.prove_z3, provers.prove_cvc5):
        assert [o.name for o in obs if _status(o, prove) != provers.VALID] == []


def test_a_kept_constant_is_refuted_by_forward_simulation() -> None:
    """[if-true] derived without replacing `true` by `B` plus `B = true` (its concrete rule kept)
    does not match `if ?u1 <= ?w1 then ...` nor `if ?b1 then ...` whose valuation it matches:
    G-L2 refuted for both shapes, G-L3 has nothing to refute."""
    concrete = next(r for r in IMP.rules if r.label == "if-true")
    kept = _planted(IMP_SYM, "if-true", lhs=concrete.lhs + (None,), rhs=concrete.rhs + (None,),
                    cond=None)
    obs = rule_obligations("imp", IMP, kept, ("if-true",))
    assert _refuted(obs) == {"G-L2/imp-if-true/bool", "G-L2/imp-if-true/atom"}
    assert not [o for o in obs if o.lemma == "G-L3"]
    assert _refuted(rule_obligations("imp", IMP, IMP_SYM, ("if-true",))) == set()


def test_forgetting_b_in_the_path_condition_is_refuted_by_backward_simulation() -> None:
    """[if-false] derived with `ψ` for `ψ ∧ b` in its right side steps where its valuation
    takes [if-true]: G-L3 refuted (for the atom `?u1 <= ?w1`; a literal condition is decided
    by `unsat` itself), G-L2 still holds."""
    good = next(r for r in IMP_SYM.rules if r.label == "if-false")
    forgot = _planted(IMP_SYM, "if-false", rhs=good.rhs[:2] + (good.lhs[2],))
    obs = rule_obligations("imp", IMP, forgot, ("if-false",))
    assert _refuted(obs) == {"G-L3/imp-if-false/atom"}
    refuted = next(o for o in obs if o.name.startswith("G-L3/") and _status(o) == provers.INVALID)
    assert provers.prove_cvc5(refuted.text, 1_000_000).status == provers.INVALID


def test_a_derived_rule_missing_from_the_index_is_refuted() -> None:
    """A derived definition without [div] (the symbolic engine cannot divide) breaks G-L2 for
    [div] on every shape of its operands."""
    dropped = replace(IMP_SYM, rules=tuple(r for r in IMP_SYM.rules if r.label != "div"))
    obs = rule_obligations("imp", IMP, dropped, ("div",))
    assert _refuted(obs) == {f"G-L2/{rule_name('imp', 'div')}/{a}+{b}"
                             for a in ("int", "term") for b in ("int", "term")}


TINY = """
module TINY
data Int  [symbolic, result]
data Bool [symbolic, result]
syntax Exp ::= Int | Bool
             | Exp "==" Exp   [seqstrict]
configuration <k> $PGM:Exp </k>
var I I1 I2 : Int
rule [same]   <k> I == I => true ...</k>
rule [differ] <k> I1 == I2 => false ...</k> requires I1 =/=Int I2
endmodule
"""
"""A language with a non-linear rule of a symbolic sort (imp.sem's one non-linear rule,
[find], matches names, of sort Id)."""


def test_dropped_linearisation_is_refuted_by_forward_simulation() -> None:
    """[same] (`I == I`, non-linear) derived without linearising (its concrete rule kept) does
    not match `?t1 == ?t2`, whose valuation it matches where the two are equal: G-L2 refuted
    wherever an operand is a term; linearised (`I == I'` with `I = I'` in `ψ ∧ b`), both lemmas
    hold."""
    d = parse_definition(TINY, "tiny.sem")
    dsym = derive(d)
    concrete = next(r for r in d.rules if r.label == "same")
    kept = _planted(dsym, "same", lhs=concrete.lhs + (None,), rhs=concrete.rhs + (None,),
                    cond=None)
    assert _refuted(rule_obligations("tiny", d, kept, ("same",))) == {
        "G-L2/tiny-same/int+term", "G-L2/tiny-same/term+int", "G-L2/tiny-same/term+term"}
    assert _refuted(rule_obligations("tiny", d, dsym)) == set()


def test_a_return_that_keeps_the_callees_locals_is_refuted() -> None:
    """[return] derived with the callee's locals `L2` left in `frame` for the caller's `L` (of
    its `$ret` marker) breaks both lemmas wherever the two maps differ: refuted for every
    shape of the returned value and of the two maps."""
    good = next(r for r in IMP_SYM.rules if r.label == "return")
    frame = IMP.cell_index["frame"]
    kept = _planted(IMP_SYM, "return",
                    rhs=good.rhs[:frame] + (good.lhs[frame],) + good.rhs[frame + 1:])
    obs = rule_obligations("imp", IMP, kept, ("return",))
    assert _refuted(obs) == {f"{lemma}/imp-return/{i}+{m}+{n}" for lemma in ("G-L2", "G-L3")
                             for i in ("int", "term") for m in ("bound", "unbound")
                             for n in ("bound", "unbound")}
    assert _refuted(rule_obligations("imp", IMP, IMP_SYM, ("return",))) == set()


def test_a_store_that_writes_its_index_is_refuted() -> None:
    """[store] derived as `store(A, I1, I1)` (the index written for the value) breaks both
    lemmas on every shape: the arrays differ at `I1` unless `I1 = I2`."""
    good = next(r for r in IMP_SYM.rules if r.label == "store")
    arrays = IMP.cell_index["arrays"]
    update = good.rhs[arrays]
    store = update.args[2]
    wrong = replace(update, args=update.args[:2] + (replace(
        store, args=store.args[:2] + (store.args[1],)),))
    obs = rule_obligations("imp", IMP, _planted(
        IMP_SYM, "store", rhs=good.rhs[:arrays] + (wrong,) + good.rhs[arrays + 1:]), ("store",))
    assert [o.name for o in obs if _status(o) != provers.INVALID] == []
    assert {"G-L2/imp-store/int+int+bound", "G-L3/imp-store/term+term+unbound"} <= _refuted(obs)
    assert _refuted(rule_obligations("imp", IMP, IMP_SYM, ("store",))) == set()
