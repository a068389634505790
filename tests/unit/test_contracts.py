"""The contract transition T-S1 (engine/contracts.py): a call of a procedure with a contract
checks `requires`, havocs what the callee may write and its result, and assumes `ensures`; each
such body is verified once from its precondition. A failure on a summarised path or in a body
is a bug only when a concrete run replays it, else the contract's fault (undecided, its own
cause)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from symcert.cli.main import main
from symcert.core.concrete import Env, State, aeval, beval, head, step
from symcert.core.state import initial
from symcert.engine import contracts, symbols
from symcert.engine.contracts import expand_call, summaries, writes
from symcert.engine.invariants import abstract
from symcert.engine.prove import prove
from symcert.engine.verdict import Budget, Cause, Kind, check
from symcert.lang.parser import parse, parse_file
from symcert.lang.procedures import table_of
from symcert.lang.syntax import Call, Fail

EX = Path(__file__).resolve().parents[2] / "examples"

ISSUE = """proc gcd(a, b) requires a > 0 and b > 0 ensures result > 0 and a % result == 0 and b % result == 0 begin
  while b != 0 invariant a > 0 and b >= 0 do var t = b; b = a % b; a = t od;
  return a
end
assume n >= 0;
i = 0; s = 0;
while i < n invariant 0 <= i and i <= n and s == i * (i - 1) / 2 do s = s + i; i = i + 1 od;
assert s == n * (n - 1) / 2"""

CALLS = """proc bump(x) requires x >= 0 ensures result == x + 1 and c == x begin c = x; return x + 1 end
assume n >= 0;
y = bump(n);
assert y == n + 1 and c == n"""


def test_the_language_section_program_is_proved(capsys, tmp_path):
    """The syntax of contracts and invariants exactly as users write it: PROVED by `run` and
    `prove` (`gcd` is never called, so its body needs no verification, and the reports say
    its contract was not verified)."""
    p = parse(ISSUE)
    assert check(p, Budget(2_000)).kind is Kind.SAFE
    assert prove(p, 2_000).verdict.kind is Kind.SAFE
    assert contracts.verified(p) == [] and contracts.unreached(p) == ("gcd",)
    path = tmp_path / "issue.imp"
    path.write_text(ISSUE)
    for command in ("run", "prove"):
        assert main([command, "--no-infer", str(path)]) == 0
        assert "not verified: the contract of gcd (no call reaches it)" in capsys.readouterr().out
    path.write_text(CALLS)
    assert contracts.unreached(parse(CALLS)) == ()
    assert main(["prove", str(path)]) == 0
    assert "not verified" not in capsys.readouterr().out


def test_the_successors_of_a_summarised_call():
    """The summary and the failing precondition, one conjunct each; the summary havocs the
    global the callee writes and binds the target to the fresh result: abstract."""
    p = parse(CALLS)
    state = next(s for s in _states(p) if isinstance(head(s.prog), Call))
    summary, broken = expand_call(state)
    assert all(t.pc.length == state.pc.length + 1 for t in (summary, broken))
    assert str(summary.store("c")) == "c#1@bump:3:1" and str(summary.store("y")) == "bump()#1@3:1"
    assert abstract(summary) and not abstract(broken)
    assert isinstance(broken.prog, Fail) and isinstance(broken.prog.origin, Call)
    assert str(summary.pc.last) == "n >= 0 and (bump()#1@3:1 == n + 1 and c#1@bump:3:1 == n)"
    assert str(broken.pc.last) == "not n >= 0"


def _states(p):
    from symcert.engine.explore import run
    for s in run([initial(p)]):
        if s is None:
            return
        yield s


def test_the_havoc_set_is_transitive_and_counts_arrays():
    p = parse("proc f(x) ensures result == 0 begin var t = g(x); return 0 end\n"
              "proc g(y) begin c = y; a[y] = 1; return 0 end\nz = f(1)")
    assert writes(table_of(p)["f"]) == {"c", "a"}
    assert writes(table_of(p)["g"]) == {"c", "a"}


def test_a_contract_proves_a_call_and_its_body():
    verdict = check(parse(CALLS))
    assert verdict.kind is Kind.SAFE and verdict.summaries == ("bump",)
    assert prove(parse(CALLS), 1_000).verdict.kind is Kind.SAFE


def test_a_broken_precondition_on_a_concrete_path_is_a_replayed_bug():
    verdict = check(parse(CALLS.replace("y = bump(n)", "y = bump(n - 1)")))
    assert verdict.kind is Kind.BUG and verdict.witness.input("n") <= 0
    assert verdict.witness.describe() == "precondition of bump does not hold"
    inlined = _inlined(CALLS.replace("y = bump(n)", "y = bump(n - 1)"))
    assert inlined.kind is Kind.BUG  # the concrete semantics checks `requires` at each call


def _inlined(text: str):
    with summaries(False):
        return check(parse(text), Budget(2_000))


WEAK = """proc sq(x) ensures result >= 0 begin return x * x + 1 end
proc pos(x) requires x > 0 ensures result == x begin return x end
y = sq(n); z = pos(y)"""


def test_a_precondition_after_a_summary_is_a_bug_only_if_replayed():
    """`sq`'s contract allows 0, which breaks `pos`'s precondition; no run does: undecided,
    the contract's fault. Where a run does (`return x * x`), a bug."""
    verdict = check(parse(WEAK))
    assert verdict.kind is Kind.UNDECIDED and verdict.reason.cause is Cause.CONTRACT
    assert str(verdict.reason).startswith("the contracts are too weak to show that the "
                                          "precondition of pos holds at 3:12")
    real = check(parse(WEAK.replace("x * x + 1", "x * x")))
    assert real.kind is Kind.BUG and real.witness.input("n") == 0
    assert _inlined(WEAK).kind is Kind.SAFE


def test_a_wrong_postcondition_is_reported_never_replaced(capsys, tmp_path):
    """The program is safe, the contract is wrong: undecided with the values at entry, in
    text and JSON, never safe and never a bug; inlined, the program is safe."""
    text = "proc inc(x) ensures result > x begin return x end\ny = inc(n);\nassert y == n"
    verdict = check(parse(text))
    assert verdict.kind is Kind.UNDECIDED and verdict.exhaustive
    assert verdict.reason.cause is Cause.CONTRACT
    assert str(verdict.reason).startswith("postcondition of inc is not established: from the "
                                          "values at entry {x = ")
    assert "where `result > x` does not hold" in str(verdict.reason)
    assert _inlined(text).kind is Kind.SAFE
    path = tmp_path / "inc.imp"
    path.write_text(text)
    assert main(["run", "--no-infer", "--json", str(path)]) == 3
    done = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert done["cause"] == "contract" and done["summaries"] == ["inc"]
    assert main(["prove", str(path)]) == 3
    assert "postcondition of inc is not established" in capsys.readouterr().out
    assert main(["run", "--no-summaries", "--no-infer", str(path)]) == 0


def test_an_assertion_in_a_verified_body_is_a_bug_when_the_program_replays_it():
    """The body's failure is replayed from the program's inputs its model gives (here the
    global `g`); a parameter's value at entry is no input of the program, so a failure that
    depends on it is undecided, the contract's fault, never a bug without a run."""
    text = ("proc f(x) requires x >= 0 ensures result == x begin assert g != 3; return x end\n"
            "assume n >= 0; y = f(n)")
    verdict = check(parse(text))
    assert verdict.kind is Kind.BUG and verdict.witness.input("g") == 3
    unreached = check(parse(text.replace("g != 3", "x != 3").replace(
        "assume n >= 0;", "assume n >= 0 and n < 2;")))
    assert unreached.kind is Kind.UNDECIDED and unreached.reason.cause is Cause.CONTRACT
    assert "in the body of f, from the values at entry {x = 3" in str(unreached.reason)


@pytest.mark.parametrize("name", ["gcd_contract", "mccarthy91"])
def test_the_case_studies_agree_inlined_and_recursion_ends_through_the_contract(name):
    """Safe with summaries in a few states, and inlined (their inputs are bounded); without
    the bound, inlining only spends the budget while the contract still proves them."""
    p = parse_file(EX / f"{name}.imp")
    verdict = check(p, Budget(1_000))
    assert verdict.kind is Kind.SAFE and verdict.stats.states < 50
    with summaries(False):
        inlined = check(p, Budget(2_000))
    assert inlined.kind is Kind.SAFE and inlined.stats.states > verdict.stats.states
    if name == "mccarthy91":  # gcd's nested `%` makes each unbounded inlined query slow: bench/
        unbounded = parse((EX / f"{name}.imp").read_text().replace(
            "assume 95 <= x and x <= 105;", ""))
        assert check(unbounded, Budget(1_000)).kind is Kind.SAFE
        with summaries(False):
            inlined = check(unbounded, Budget(200))
        assert inlined.kind is Kind.UNDECIDED and inlined.reason.cause is Cause.STATES


def _after_call(env: Env, p) -> State | None:
    """The concrete state right after the main statement's first call returns (None: it
    failed)."""
    state = step(State(env, p))
    while state is not None and state.frame is not None:
        state = step(state)
    return state


def summary_describes(p, env: Env) -> bool:
    """T-S1 exhaustiveness against the concrete semantics: where the precondition holds, the
    state the concrete call returns to is the summary's for the fresh symbols' values read off
    that state (`g#1@f:L:C` the global's, `f()#1@L:C` the target's), and satisfies its
    conjunct."""
    (summary, *_) = expand_call(initial(p))
    final = _after_call(env, p)
    if final is None or isinstance(final.prog, Fail):
        return True
    call = head(p)
    fresh = {symbols.havocked(g, 1, call.pos, call.name): final.env(g)
             for g in writes(call.procs[call.name])}
    fresh[symbols.havocked(f"{call.name}()", 1, call.pos)] = final.env(call.target)
    values = Env.of({**env.as_dict(), **fresh})
    if not beval(values, summary.pc.last):
        return False
    return all(aeval(values, summary.store(x)) == final.env(x) for x in ("c", "d", "y"))


TWO = """proc f(x) requires x >= 0 ensures result == x + d and c == x begin c = x; return x + d end
y = f(n)"""


def test_the_summary_describes_every_concrete_call_and_a_planted_havoc_is_caught(monkeypatch):
    p = parse(TWO)
    inputs = [Env.of({"n": n, "c": c, "d": d}) for n in range(-1, 4) for c in (0, 7)
              for d in (-2, 5)]
    assert all(summary_describes(p, env) for env in inputs)
    correct = contracts.writes
    monkeypatch.setattr(contracts, "writes", lambda q: correct(q) - {"c"})
    assert not all(summary_describes(p, env) for env in inputs)
    # the planted summary assumes `c == n` of the input `c`: a wrong "safe" the runs refute
    wrong = TWO.replace("y = f(n)", "assume n >= 0; k = c; y = f(n); assert k == n")
    assert check(parse(wrong)).kind is Kind.SAFE
    final = _run_to_end(Env.of({"n": 1, "c": 0}), parse(wrong))
    assert isinstance(final.prog, Fail)
    monkeypatch.undo()
    assert check(parse(wrong)).kind is Kind.BUG


def _run_to_end(env: Env, p) -> State:
    state = State(env, p)
    while (after := step(state)) is not None:
        state = after
    return state


def test_a_field_the_callee_writes_is_havocked_whole():
    """The callee writes `o.v`: the summary forgets every cell of the field's map, so `q.v`
    is unknown after the call (undecided, never safe); inlined, the program is proved."""
    text = """class C(v)
proc setv(o, k) requires o != nil ensures result == 0 begin o.v = k; return 0 end
assume p != nil and q != nil and p != q;
q.v = 3;
z = setv(p, 5);
assert q.v == 3"""
    assert writes(table_of(parse(text))["setv"]) == {".v"}
    verdict = check(parse(text))
    assert verdict.kind is Kind.UNDECIDED and verdict.reason.cause is Cause.CONTRACT
    assert _inlined(text).kind is Kind.SAFE
