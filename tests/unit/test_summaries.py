"""T-I2 for calls: procedure summaries proposed by the CHC solver (solver/horn_procs.py) count
only after z3, cvc5 (verify/summaries.py) and the contract transition accept them."""

from __future__ import annotations

import json
import re

from symcert.verify import summaries
from symcert.verify.inductive import InvariantCheck
from symcert.verify.inference import InferringCheck
from symcert.cli.main import main
from symcert.engine.verdict import Budget, Kind
from symcert.lang.parser import parse
from symcert.lang.procedures import table_of
from symcert.lang.syntax import Bool
from symcert.solver import horn_procs

MCCARTHY_TEXT = """proc f91(x) begin
  if x > 100 then return x - 10 else var r = f91(x + 11); var s = f91(r); return s fi
end
res = f91(x);
assert res == 91 or x > 101 and res == x - 10"""
MCCARTHY = parse(MCCARTHY_TEXT)
HALVE = parse("""proc half(n) begin
  if n <= 1 then return 0 else var h = half(n - 2); return h + 1 fi
end
assume n >= 0; h = half(n); assert 2 * h <= n""")
BUGGY = parse("""proc half(n) begin
  if n <= 1 then return 0 else var h = half(n - 2); return h + 1 fi
end
assume n >= 0; h = half(n); assert 2 * h < n""")
LOOPS = parse("""proc sum(n) begin
  var i = 0; var s = 0;
  while i < n do s = s + 1 + i; i = i + 1 od;
  return s
end
assume k >= 0; j = 0; t = 0;
while j < k do v = sum(j); t = t + v; j = j + 1 od;
assert t >= 0""")
COUNTER = parse("proc inc() begin g = g + 1 end g0 = g; inc(); assert g == g0 + 1")
BUDGET = Budget(60)  # the probe, then the annotated program: a dozen states


def _contract(pre: str, post: str):
    """`(requires, ensures)` as the parser reads them."""
    q = table_of(parse(f"proc c(n, x) requires {pre} ensures {post} begin return 0 end c(0, 0)"))
    return q["c"].requires, q["c"].ensures


WRONG = {"f91": _contract("true", "result == 91")}
HALF = {"half": _contract("n >= 0", "2 * result <= n")}


def _planted(contracts):
    """A CHC solver that proposes `contracts` (name → (requires, ensures))."""
    def infer(p, **_):
        return horn_procs.Summaries(tuple(horn_procs.Summary(n, pre, post)
                                          for n, (pre, post) in contracts.items()), 0.0)
    return infer


def test_the_encoding_gives_a_summary_per_procedure_that_both_provers_accept():
    answer = horn_procs.infer(MCCARTHY, timeout_ms=10_000)
    assert isinstance(answer, horn_procs.Summaries)
    [summary] = answer.contracts
    assert summary.name == "f91" and "result" in str(summary.ensures)
    checked = summaries.check_summaries(MCCARTHY, {"f91": (summary.requires, summary.ensures)})
    assert checked.accepted and checked.results


def test_a_failing_call_path_is_a_derivation_not_a_summary():
    assert isinstance(horn_procs.infer(BUGGY, timeout_ms=10_000), horn_procs.Failing)


def test_a_global_before_the_call_is_not_expressible_in_ensures():
    answer = horn_procs.infer(COUNTER, timeout_ms=10_000)
    assert isinstance(answer, horn_procs.Unknown) and "g@in" in answer.reason


def test_outside_the_fragment_nothing_is_encoded():
    assert horn_procs.unsupported(parse("x = 1")) == "no procedure is called"
    assert "objects" in str(horn_procs.unsupported(parse(
        "class C(f) proc g(o) begin return o.f end x = new C; y = g(x)")))
    loop = parse("proc f(n) begin while n > 0 invariant n >= 0 do n = n - 1 od end f(3)")
    assert summaries.applies(loop)  # f's contract is not written; its loop's invariant is
    annotated = summaries.annotate(loop, {"f": (Bool(True), Bool(True))},
                                   {0: parse("assert n >= 5").cond})
    assert "invariant n >= 0" in str(table_of(annotated)["f"])  # never replaced


def test_the_obligations_check_requires_at_each_call_and_ensures_at_each_return():
    names = [o.name for o in summaries.obligations(HALVE, HALF)]
    assert sum(n.startswith("requires of half at main") for n in names) == 1
    assert sum(n.startswith("requires of half at the body of half") for n in names) == 1
    assert sum(n.startswith("ensures of half at a return") for n in names) == 2
    assert any(n.startswith("assert at main") for n in names)
    assert summaries.check_summaries(HALVE, HALF).accepted


def test_a_planted_wrong_summary_is_rejected_by_both_provers():
    checked = summaries.check_summaries(MCCARTHY, WRONG)
    assert not checked.accepted
    assert checked.failed() == ["ensures of f91 at a return (the body of f91)"]
    refuted = [r for r in checked.results if not r.holds]
    assert all(r.refuted for r in refuted)


def test_recursion_is_proved_with_the_inferred_contract_shown():
    check = InferringCheck(MCCARTHY, BUDGET)
    verdict = check.run()
    assert verdict.kind is Kind.SAFE and verdict.summaries == ("f91",)
    assert check.inferred is not None and check.inferred.invariants == ()
    [line] = check.inferred.lines()
    assert re.fullmatch(r"the procedure f91: requires .+ ensures .*result.*", line)
    assert "contract transition" in check.inferred.heading()


def test_a_planted_wrong_summary_leaves_exploration_with_its_reason(monkeypatch):
    monkeypatch.setattr(horn_procs, "infer", _planted(WRONG))
    check = InferringCheck(MCCARTHY, BUDGET)
    verdict = check.run()
    assert verdict.kind is Kind.UNDECIDED and check.inferred is None
    assert "the inferred procedure contracts were rejected" in verdict.reason.message


def test_a_wrong_summary_that_slips_past_the_provers_is_caught_by_the_transition(monkeypatch):
    """The second checker: with the provers planted to accept anything, the body verification
    of T-S1 refuses the wrong `ensures`."""
    monkeypatch.setattr(horn_procs, "infer", _planted(WRONG))
    monkeypatch.setattr(summaries, "check_summaries", lambda *_: InvariantCheck(()))
    check = InferringCheck(MCCARTHY, BUDGET)
    verdict = check.run()
    assert verdict.kind is not Kind.SAFE and check.inferred is None
    assert "postcondition of f91 is not established" in str(check.finding)


def test_a_written_contract_is_never_replaced():
    """Only the missing `requires` may be proposed; the written `ensures`, too weak for the
    assert, is never strengthened, so the program is not proved."""
    written = parse("""proc f91(x) ensures result >= 91 begin
  if x > 100 then return x - 10 else var r = f91(x + 11); var s = f91(r); return s fi
end
res = f91(x);
assert res == 91 or x > 101 and res == x - 10""")
    assert summaries.applies(written)
    check = InferringCheck(written, BUDGET)
    assert check.run().kind is Kind.UNDECIDED and check.inferred is None


def test_annotate_gives_each_named_procedure_its_contract():
    annotated = summaries.annotate(HALVE, HALF)
    q = table_of(annotated)["half"]
    assert (q.requires, q.ensures) == HALF["half"]
    assert q.body == table_of(HALVE)["half"].body


def test_prove_infer_carries_the_inferred_contract_into_the_certificate(tmp_path, capsys):
    program, path = tmp_path / "f91.imp", tmp_path / "f91.json"
    program.write_text(MCCARTHY_TEXT)
    assert main(["prove", "--infer", "--max-states", "60", str(program), "--certificate",
                 str(path)]) == 0
    assert re.search(r"with the contract inferred \(z3's Spacer, or guessed from concrete "
                     r"calls\), checked by z3 and cvc5: the procedure f91: requires .+ ensures ",
                     capsys.readouterr().out)
    [contract] = json.loads(path.read_text())["contracts"]
    assert contract["procedure"] == "f91" and "result" in contract["ensures"]


def test_a_local_that_hides_a_global_is_outside_the_fragment():
    p = parse("proc r() begin return g end proc q(g) begin var v = r(); return v end "
              "x = q(1); assert x == g")
    assert "a local of q hides the global g that r uses" == horn_procs.unsupported(p)
    assert not summaries.applies(p)


def test_loops_in_the_main_statement_and_in_a_body_get_invariants_checked_with_the_contracts():
    check = InferringCheck(LOOPS, BUDGET)
    verdict = check.run()
    assert verdict.kind is Kind.SAFE and verdict.summaries == ("sum",)
    assert check.inferred is not None
    outer, inner = summaries.loops(LOOPS)
    assert [w for w, _ in check.inferred.invariants] == [outer, inner]
    assert re.fullmatch(r"the procedure sum: requires .+ ensures .+", check.inferred.lines()[-1])
    assert "loop invariants and procedure contracts" in check.inferred.heading()


def test_a_body_loop_invariant_that_does_not_hold_on_entry_is_rejected():
    contracts = {"sum": _contract("true", "result >= 0")}
    good = {0: _contract("t >= 0", "true")[0], 1: _contract("s >= 0 and i >= 0", "true")[0]}
    assert summaries.check_summaries(LOOPS, contracts, good).accepted
    wrong = {**good, 1: _contract("s >= 0 and i > 0", "true")[0]}
    failed = summaries.check_summaries(LOOPS, contracts, wrong).failed()
    assert failed == ["invariant of loop 1 holds on entry (the body of sum, 3:3)"]


MULT = parse("""proc mult(n, m) begin
  if m < 0 then var r = mult(n, -m); return r else skip fi;
  if m == 0 then return 0 else skip fi;
  var s = mult(n, m - 1);
  return n + s
end
if m < 0 or n < 0 then skip else
  a = mult(m, n); b = mult(n, m);
  assert a == b
fi""")
"""SV-COMP's recursive/MultCommutative (bench/heldout): its summary is not linear."""


def test_calls_are_recorded_with_their_arguments_and_results():
    from symcert.verify.contract_guesses import calls

    rows = calls(MULT)["mult"]
    assert len(rows) > 20 and all(r == n * m for n, m, r in rows if m >= 0)
    assert calls(MCCARTHY)["f91"] and all(r == 91 for x, r in calls(MCCARTHY)["f91"] if x <= 101)


def test_a_product_contract_is_guessed_from_calls_and_proves_the_program():
    """Spacer's linear arithmetic finds no summary; the guess `n * m == result` (for natural
    `m`, `n`, the recorded calls' signs) is proved by z3 and cvc5 and by T-S1."""
    check = InferringCheck(MULT, BUDGET)
    verdict = check.run()
    assert verdict.kind is Kind.SAFE and check.inferred is not None
    assert check.inferred.how == "guessed" and "guessed from concrete calls" in \
        check.inferred.heading()
    assert check.inferred.lines() == [
        "the procedure mult: requires n >= 0 and m >= 0 ensures n * m == result"]


def test_a_guess_the_samples_suggest_but_the_body_refutes_is_rejected():
    """Sampled inputs stay below 25, so every recorded call returns `2 * x`: the guess
    `result == 2 * x` is refuted by both provers (above 30 the body returns 0), never used."""
    from symcert.verify.contract_guesses import candidates

    p = parse("proc f(x) begin if x > 30 then return 0 else return 2 * x fi end\n"
              "y = f(n); assert y != 7")
    for guessed in candidates(p):
        assert str(guessed["f"][1]).startswith("result == 2 * x")
        assert not summaries.check_summaries(p, guessed).accepted
