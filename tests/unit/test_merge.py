"""State merging T-M1 (engine/merge.py): the merge rule, the frontier that merges at join
points, the replay of a merged state's bug, the QCE rule, the seed-001 oracles on the merge
transition (and a planted wrong merge they refute), ghosts under merging, `--merge`."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from symcert import Budget, check
from symcert.checking.oracles import (
    Counterexample, check_exhaustiveness, check_precision, is_probably_exhaustive,
    is_probably_precise,
)
from symcert.checking.transitions import Transition, merge_rule, merged_stream
from symcert.cli.main import main
from symcert.core.concrete import Env
from symcert.core.state import PathCondition, Store, SymState, initial, satisfies
from symcert.engine import merge as m
from symcert.engine.explore import RunStats, run
from symcert.engine.ghost import check_ghost_merged
from symcert.engine.merge import Merging, define, merge, merging
from symcert.engine.verdict import Kind
from symcert.lang.parser import parse
from symcert.lang.syntax import Add, Cmp, Int, Skip, Var
from symcert.solver.z3backend import solver_for

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def ifs(n: int, bound: str = "<=") -> str:
    """`n` independent ifs, each adding one to `c` or not, then `assert c <bound> n`."""
    return "c = 0;\n" + ";\n".join(f"if x{k} > {k} then c = c + 1 else skip fi"
                                     for k in range(n)) + f";\nassert c {bound} {n}"


def _states(p, how=Merging.QCE):
    stats = RunStats()
    with merging(how):
        states = []
        for s in run([initial(p)], solver=solver_for(p), stats=stats):
            if s is None:
                return states, stats
            states.append(s)


X_POS, X_NEG = Cmp(">", Var("x"), Int(0)), Cmp("<=", Var("x"), Int(0))
PHI = PathCondition.of(Cmp("<", Var("y"), Int(5)))
A = SymState(PHI.extend(X_POS), Store.of({"c": Add(Var("y"), Int(1)), "z": Int(3)}), Skip())
B = SymState(PHI.extend(X_NEG), Store.of({"c": Var("y"), "z": Int(3)}), Skip())


def test_merge_rule_disjoins_the_rests_and_names_the_conditional_term():
    """`⟨π ∧ (δa ∨ δb), S, p⟩`: the common prefix kept, `c` bound to the fresh `c#m1` defined
    in each disjunct, `z` (equal in both) kept."""
    s = merge(A, B)
    assert s.pc.parent is PHI and s.pc.length == PHI.length + 1
    assert s.store("c") == Var("c#m1") and s.store("z") == Int(3)
    assert str(s.pc.last) == "x > 0 and c#m1 == y + 1 or x <= 0 and c#m1 == y"
    assert define(Env.of({"x": 1, "y": 2}), s.pc) == Env.of({"x": 1, "y": 2, "c#m1": 3})
    assert define(Env.of({"x": 0, "y": 2}), s.pc) == Env.of({"y": 2, "c#m1": 2})
    assert define(Env.of({"x": 0, "y": 7}), s.pc) is None


def test_merge_rule_is_exhaustive_and_precise_and_a_wrong_one_is_refuted():
    """The seed-001 oracles on the m-to-1 transition (T-D2, T-D3); a merge that keeps the
    first state's store (forgets `S2`) misses the second state's final states."""
    p = parse("c = 0; if x > 0 then c = y + 1 else c = y fi; assert c > y")
    at_join = [s for s in _states(p, Merging.OFF)[0] if isinstance(s.prog, type(p.second.second))
               and s.prog == p.second.second]
    assert len(at_join) == 2
    inputs = tuple(at_join)
    sigmas = [Env.of({"x": x, "y": y}) for x in (-1, 0, 3) for y in (-2, 0, 4)]
    for sigma in sigmas:
        assert check_exhaustiveness(merge_rule, inputs, sigma) is None
        assert check_precision(merge_rule, inputs, sigma) is None

    def forgets(ins: tuple[SymState, ...]) -> tuple[SymState, ...]:
        s = merge(*ins)
        return (replace(s, store=s.store.update("c", ins[0].store("c"))),)

    wrong = Transition("merge keeping the first store", forgets)
    found = [check_exhaustiveness(wrong, inputs, s) for s in sigmas]
    assert any(isinstance(f, Counterexample) for f in found)


@pytest.mark.parametrize("n", [4, 6])
def test_ifs_go_from_exponential_to_linear_states_with_the_same_verdict(n):
    """`n` independent ifs: 2^(n+1) + ... states unmerged, 3n + 4 merged (one merge per
    if), both SAFE; with `assert c < n` both BUG, the merged one replayed."""
    p = parse(ifs(n))
    plain, _ = _states(p, Merging.OFF)
    merged, stats = _states(p)
    assert len(plain) > 2 ** n and len(merged) == 3 * n + 4 and stats.merged == n
    with merging():
        assert check(p).kind is Kind.SAFE
        bug = check(parse(ifs(n, "<")))
    assert bug.kind is Kind.BUG
    w = bug.witness
    assert w is not None and all("#" not in x for x, _ in w.input.bindings)
    assert w.input == Env.of({f"x{k}": k + 1 for k in range(n)}) or all(
        w.input(f"x{k}") > k for k in range(n))


def test_hot_loop_variables_are_not_merged_unless_every_merge_is_asked():
    """QCE: the stores differ on `i`, read by the loop after the join: `--merge` keeps the two
    paths apart (it merges them after the loop, where `i` is 3 on both); `Merging.ALL` merges
    them at the join, `i` then a merge's symbol; the verdicts are the same."""
    p = parse("if x > 0 then i = 0 else i = 1 fi; while i < 3 do i = i + 1 od; assert i == 3")
    qce, _ = _states(p)
    every, _ = _states(p, Merging.ALL)
    assert not any(s.store("i") == Var("i#m1") for s in qce)
    assert any(s.store("i") == Var("i#m1@1:36") for s in every)
    for how in Merging:
        with merging(how):
            assert check(p).kind is Kind.SAFE


def test_merged_stream_is_exhaustive_and_precise():
    """The seed-001 oracles on the stream with merging (T-D2, T-D3), calls and a loop too."""
    p = parse("proc f(a) begin if a > 0 then return a else return 0 - a fi end\n"
              "c = f(x); if y > c then c = y else skip fi; i = 0; while i < 2 do i = i + 1 od;"
              " assert c >= 0")
    t = merged_stream(500, solver_for(p))
    assert t((initial(p),)) and _states(p, Merging.ALL)[1].merged >= 1
    for probe in (is_probably_exhaustive, is_probably_precise):
        trials = probe(t, p, runs=12, seed=3)
        assert trials.counterexample is None and trials.decided == 12


def test_ghost_runs_under_merging_follow_the_concrete_run():
    """M-P3/M-P4 under merging: the ghost states are the concrete trace's, in order; a merge
    that does not extend the ghost to the fresh symbols is caught."""
    p = parse(ifs(5, "<"))
    for rho in (Env.of({}), Env.of({"x0": 3, "x3": 9}), Env.of({f"x{k}": 9 for k in range(5)})):
        assert check_ghost_merged(p, rho, 200) is None
        assert check_ghost_merged(p, rho, 9) is None
    real = m.merge
    try:
        m.merge = lambda a, b: replace(real(a, b), ghost=a.ghost or b.ghost)
        assert check_ghost_merged(p, Env.of({"x1": 9}), 200) is not None
    finally:
        m.merge = real


def test_merged_states_satisfy_their_models():
    """A merged state's model (its first state's, extended by `define`) satisfies its path
    condition, so the worklist's model reuse stays sound."""
    states, stats = _states(parse(ifs(6, "<")))
    assert stats.merged == 6
    for s in states:
        if s.model is not None and m.merged(s):
            assert satisfies(s.model, s.pc)


def test_cli_merge(tmp_path, capsys):
    """`run --merge` and `prove --merge`: exit 0 on the safe program, 1 with the replayed input
    on the buggy one; `tests` has no `--merge` (one input per path)."""
    safe, buggy = tmp_path / "safe.imp", tmp_path / "buggy.imp"
    safe.write_text(ifs(12))
    buggy.write_text(ifs(12, "<"))
    assert main(["run", str(safe), "--merge"]) == 0
    assert main(["prove", str(safe), "--merge"]) == 0
    assert main(["run", str(buggy), "--merge"]) == 1
    out = capsys.readouterr().out
    assert "x11 = 12" in out and "#" not in out
    with pytest.raises(SystemExit):
        main(["tests", str(safe), "--merge"])


def test_a_planted_wrong_merge_rule_is_refuted_by_its_obligations(monkeypatch):
    """The T-M1 obligations (checking/obligations/merging.py) are valid for the rule, and a
    merge that keeps the first state's store (forgets the second's terms) is refuted by the
    soundness and the second state's completeness obligations (z3 alone here; the record has
    both provers)."""
    from symcert.checking.obligations import merging as obligations
    from symcert.checking.obligations.record import PROVERS, replay

    def statuses() -> dict[str, set[str]]:
        obs = [o for o in obligations.t_m1() if "/add-int+term/" in o.name]
        entries, _ = replay(obs, PROVERS[:1])
        out: dict[str, set[str]] = {}
        for e in entries:
            out.setdefault(str(e["obligation"]).split("/")[1], set()).add(str(e["status"]))
        return out

    assert statuses() == {"sound": {"valid"}, "complete-a": {"valid"}, "complete-b": {"valid"}}

    def keeps_the_first(a, b):
        s = merge(a, b)
        return replace(s, store=Store(tuple((k, a.store(k) if "#" not in k else v)
                                            for k, v in s.store.bindings)))

    monkeypatch.setattr(obligations, "merge", keeps_the_first)
    wrong = statuses()
    assert wrong["complete-a"] == {"valid"}
    assert "invalid" in wrong["sound"] and "invalid" in wrong["complete-b"]


@pytest.mark.parametrize("name, kind", [("flags", Kind.SAFE), ("flags_buggy", Kind.BUG)])
def test_the_merge_case_study_needs_merging(name, kind):
    """examples/merging/flags*.imp (20 flags, 2^20 paths): merged, the verdict within 100 states;
    unmerged, undecided within 250 (it would need 3 · 2^21 − 2)."""
    p = parse((EXAMPLES / "merging" / f"{name}.imp").read_text())
    with merging():
        assert check(p, Budget(max_states=100)).kind is kind
    assert check(p, Budget(max_states=250)).kind is Kind.UNDECIDED


def test_equal_statements_at_different_places_are_not_merged():
    """Positions take no part in equality, so the two `assert not true` below are equal
    programs; merged, the second's failure was reported at the first's line (found by
    `campaign --checks merge`). Each failing statement is reported where its runs fail."""
    p = parse("if 0 == z then\n  assert not true\nelse\n  assert not true\nfi")
    with merging(Merging.ALL):
        v = check(p, Budget(all_bugs=True))
    assert sorted(b.failing.pos.line for b in v.bugs) == [2, 4]
