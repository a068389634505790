"""Symbolic states, `expand` (Fig. 7) and the stream `run` (Fig. 6)."""

from __future__ import annotations

from itertools import islice

from symcert.core.concrete import Env, aeval
from symcert.core.state import ID, TRUE_PC, SymState, initial, satisfies
from symcert.core.terms import add
from symcert.engine.explore import RunStats, Strategy, expand, run, run_n
from symcert.lang.parser import parse
from symcert.lang.syntax import Fail, Int, Skip, Var
from symcert.solver.z3backend import Solver


def test_assignment_updates_the_store_with_the_evaluated_term():
    s = initial(parse("x = x + 1; y = x - y"))
    s = expand(expand(s)[0])[0]
    (t,) = expand(s)
    assert t.pc == TRUE_PC and t.depth == 3 and t.prog == Skip()
    for x, y in [(0, 0), (3, -2), (-7, 5)]:
        v = Env.of({"x": x, "y": y})
        assert aeval(v, t.store("x")) == x + 1
        assert aeval(v, t.store("y")) == (x + 1) - y  # the new x, evaluated in the store


def test_if_splits_into_guard_and_negated_guard():
    s = initial(parse("x = 1; if x < y then skip else fail fi"))
    s = expand(expand(s)[0])[0]
    then_, else_ = expand(s)
    assert then_.prog == Skip() and isinstance(else_.prog, Fail)
    assert then_.pc.parent == else_.pc.parent == TRUE_PC
    for y in range(-3, 4):
        v = Env.of({"y": y})
        assert satisfies(v, then_.pc) == (1 < y)
        assert satisfies(v, else_.pc) == (not 1 < y)


def test_while_enters_or_exits():
    enter, leave = expand(initial(parse("while i < n do i = i + 1 od")))
    assert enter.prog == parse("i = i + 1; while i < n do i = i + 1 od")
    assert leave.prog == Skip()
    assert satisfies(Env.of({"n": 1}), enter.pc) and not satisfies(Env.of({"n": 1}), leave.pc)


def test_final_and_stuck_states_have_no_successors():
    assert expand(initial(parse("skip"))) == []
    assert expand(initial(parse("fail; x = 1"))) == []


def test_path_conditions_grow_by_appending():
    states = [s for s in run_n([initial(parse(
        "if a < 0 then a = -a else skip fi; while a > 0 do a = a - 1 od"))], 40) if s]
    for s in states:
        for t in expand(s):
            assert t.pc.extends(s.pc)
            assert t.pc.conjuncts()[: s.pc.length] == s.pc.conjuncts()
            assert t.pc.length - s.pc.length in (0, 1)


def test_bfs_yields_states_in_depth_order_and_ends_with_none():
    p = parse("if a < 0 then b = 1 else b = 2 fi; if b < a then skip else skip fi")
    out = run_n([initial(p)], 20)
    states = [s for s in out if s is not None]
    assert [s.depth for s in states] == sorted(s.depth for s in states)
    assert out[len(states):] == [None] * (20 - len(states))
    # if (2 paths), assignment, seq-skip, if (2 × 2 paths); no solver: nothing is pruned
    assert [s.depth for s in states] == [0, 1, 1, 2, 2, 3, 3, 4, 4, 4, 4]


def test_dfs_goes_deep_first():
    p = parse("while true do x = x + 1 od")
    depths = [s.depth for s in islice(run([initial(p)], Strategy.DFS), 30)]
    assert depths == list(range(30))
    bfs = [s.depth for s in islice(run([initial(p)], Strategy.BFS), 30)]
    assert max(bfs) < 29  # breadth-first also visits the exits (pc `false`, unpruned)


def test_solver_prunes_unsat_paths():
    p = parse("if x < 0 then if x > 0 then fail else skip fi else skip fi")
    stats = RunStats()
    states = [s for s in islice(run([initial(p)], Strategy.BFS, Solver(), stats), 20) if s]
    assert not any(isinstance(s.prog, Fail) for s in states)
    assert stats.pruned == 1 and stats.yielded == len(states)
    unpruned = [s for s in run_n([initial(p)], 20) if s]
    assert len(unpruned) == len(states) + 1


def test_unknown_is_kept_not_pruned():
    p = parse("if x < 0 then if x > 0 then fail else skip fi else skip fi")
    stats = RunStats()
    states = [s for s in islice(run([initial(p)], Strategy.BFS, Solver(rlimit=1), stats), 20) if s]
    assert any(isinstance(s.prog, Fail) for s in states)
    assert stats.pruned == 0 and stats.unknown > 0


def test_kept_states_carry_a_model_of_their_path_condition():
    p = parse("if x < 10 then if x > 5 then y = x else skip fi else skip fi; assert y != 7")
    for s in islice(run([initial(p)], Strategy.BFS, Solver()), 30):
        if s is not None and s.model is not None:
            assert satisfies(s.model, s.pc)


def test_store_sharing_keeps_terms_small_on_a_loop():
    p = parse("i = 0; while i < 1000 do i = i + 1 od")
    s = initial(p)
    for _ in range(300):
        s = expand(s)[0]
    # constant folding: i stays a literal instead of a tower of additions
    assert isinstance(s.store("i"), Int)
    assert add(Var("i"), Int(0)) == Var("i")


def test_initial_state():
    s = initial(parse("skip"))
    assert s == SymState(TRUE_PC, ID, Skip()) and s.depth == 0


def _leaves(program: str, unroll: int) -> list[SymState]:
    out = []
    for s in run([initial(parse(program))], solver=Solver(), unroll=unroll):
        if s is None:
            return out
        if not expand(s):
            out.append(s)
    raise AssertionError("unreachable")


def test_unrolling_bounds_each_loop_and_counts_it_again_when_reached_anew():
    """T-X1: `unroll=k` drops a path that would enter a loop a (k+1)-th time in a row; an inner
    loop's count starts again at each iteration of the outer one."""
    single = _leaves("while 0 < n do n = n - 1 od", 2)
    assert sorted(aeval(Env.of({"n": 5}), s.store("n")) - 5 for s in single) == [-2, -1, 0]
    nested = _leaves("i = 0; while i < k do i = i + 1; j = 0; while j < 3 do j = j + 1 od od", 3)
    finals = {(aeval(Env(), s.store("i")), aeval(Env(), s.store("j"))) for s in nested}
    assert finals == {(0, 0), (1, 3), (2, 3), (3, 3)}  # the outer loop entered 0 to 3 times
    assert _leaves("while 0 < n do n = n - 1 od", 0)[0].store("n") == Var("n")


def test_watch_sees_every_successor_with_the_solver_answer():
    seen = []
    program = parse("if x < 0 then if x > 0 then fail else skip fi else skip fi")
    states = list(islice(run([initial(program)], solver=Solver(),
                             watch=lambda parent, child, answer: seen.append(answer.name)), 6))
    assert states[-2:] == [None, None] and len([s for s in states if s is not None]) == 4
    assert seen == ["SAT", "SAT", "UNSAT", "SAT"]  # x > 0 under x < 0 is pruned
