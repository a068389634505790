"""The solver's fast paths against a fresh, non-incremental z3 query.

Every answer of `Solver.check` (incremental stack, caches, constraint independence, interval
bounds) must be the answer of one plain z3 check of the whole path condition, and every SAT model
must satisfy the whole path condition (M-S1: SAT comes with a model, UNSAT is never guessed).
"""

from __future__ import annotations

import z3
from hypothesis import given, settings
from hypothesis import strategies as st

from symcert.core.concrete import Env
from symcert.core.state import TRUE_PC, PathCondition, satisfies
from symcert.core.terms import add, cmp, negate
from symcert.core.terms import interval_of
from symcert.lang.syntax import Add, BExpr, Cmp, Int, Not, Var
from symcert.solver.z3backend import Sat, Solver, _Cache

NAMES = ("a", "b", "c")
OPS = ("<", "<=", ">", ">=", "==", "!=")


def fresh(pc: PathCondition) -> Sat:
    """One non-incremental z3 check of all the conjuncts, translated independently."""
    s = z3.Solver()
    for c in pc.conjuncts():
        s.add(Solver().translate(c))
    r = s.check()
    return Sat.SAT if r == z3.sat else Sat.UNSAT if r == z3.unsat else Sat.UNKNOWN


def _term(draw: st.DrawFn) -> object:
    x = Var(draw(st.sampled_from(NAMES)))
    match draw(st.integers(0, 2)):
        case 0:
            return x
        case 1:
            return add(x, Int(draw(st.integers(-3, 3))))
        case _:
            return add(x, Var(draw(st.sampled_from(NAMES))))


@st.composite
def conjuncts(draw: st.DrawFn) -> BExpr:
    """Single-variable bounds (the interval path), and sums of two variables (z3's path)."""
    c = cmp(draw(st.sampled_from(OPS)), _term(draw), Int(draw(st.integers(-4, 4))))
    if draw(st.booleans()):
        c = cmp(draw(st.sampled_from(OPS)), Int(draw(st.integers(-4, 4))), _term(draw))
    return negate(c) if draw(st.booleans()) else c


def walk(solver: Solver, pc: PathCondition) -> list[tuple[PathCondition, Sat, Env | None]]:
    """Check every prefix of `pc` as `run` does: the parent's model goes with each child."""
    out = []
    model: Env | None = None
    node = TRUE_PC
    for c in pc.conjuncts():
        node = node.extend(c)
        answer, m = solver.check(node, model)
        out.append((node, answer, m))
        if answer is not Sat.SAT:
            break
        model = m
    return out


@settings(max_examples=80, deadline=None)
@given(st.lists(st.lists(conjuncts(), min_size=1, max_size=6), min_size=1, max_size=3),
       st.randoms(use_true_random=False))
def test_answers_equal_a_fresh_check_and_models_satisfy(paths, rnd):
    solver = Solver()
    # Paths sharing prefixes (BFS cousins), checked in an interleaved order.
    pcs = []
    for conj in paths:
        base = pcs[rnd.randrange(len(pcs))] if pcs and rnd.random() < 0.5 else TRUE_PC
        base = base.ancestor(rnd.randrange(base.length + 1))
        pcs.append(PathCondition.of(*base.conjuncts(), *conj))
    rnd.shuffle(pcs)
    for pc in pcs:
        for node, answer, model in walk(solver, pc):
            assert answer is fresh(node), str(node)
            if answer is Sat.SAT:
                assert model is not None and satisfies(model, node), (str(node), model)


def test_interval_of_reads_single_variable_bounds():
    x = Var("x")
    assert interval_of(Cmp("<", x, Int(5))) == ("x", None, 4)
    assert interval_of(Not(Cmp("<", Int(3), x))) == ("x", None, 3)
    assert interval_of(Cmp("==", Add(x, Int(2)), Int(7))) == ("x", 5, 5)
    assert interval_of(Cmp(">=", Int(1), Add(x, Int(-1)))) == ("x", None, 2)
    assert interval_of(Not(Cmp("<=", x, Int(0)))) == ("x", 1, None)
    assert interval_of(Cmp("!=", x, Int(1))) is None
    assert interval_of(Cmp("<", Add(x, Var("y")), Int(3))) is None


def test_bounds_decide_a_long_counting_path_without_z3():
    solver = Solver()
    pc, model = TRUE_PC, None
    for k in range(300):
        pc = pc.extend(Cmp("<", Int(k), Var("n")))
        answer, model = solver.check(pc, model)
        assert answer is Sat.SAT and model is not None and model("n") > k
    assert solver.stats.queries == 1 and solver.stats.intervals == 299
    # ... and the exit that contradicts the bounds is refuted without z3 too.
    exit_ = pc.extend(Not(Cmp("<", Int(5), Var("n"))))
    assert solver.check(exit_, model) == (Sat.UNSAT, None)
    assert fresh(exit_) is Sat.UNSAT and solver.stats.queries == 1


def test_a_mixed_variable_is_left_to_z3():
    solver = Solver()
    a, b = Var("a"), Var("b")
    pc = PathCondition.of(Cmp("<", Add(a, b), Int(0)), Cmp(">", b, Int(0)))
    _, model = solver.check(pc.parent)
    answer, model = solver.check(pc.extend(Cmp(">", a, Int(0))), model)
    assert answer is Sat.UNSAT  # a + b < 0, b > 0, a > 0: no interval reasoning can see it


def test_independent_conjunct_is_decided_alone_and_merged():
    solver = Solver()
    a, b, c, d = (Var(x) for x in "abcd")
    parent = PathCondition.of(Cmp("<", add(a, b), Int(3)), Cmp(">", add(a, Int(0)), b))
    answer, model = solver.check(parent)
    assert answer is Sat.SAT and model is not None
    pc = parent.extend(Cmp("==", add(c, d), Int(17)))
    answer, merged = solver.check(pc, model)
    assert answer is Sat.SAT and merged is not None and satisfies(merged, pc)
    assert solver.stats.independent == 1
    contradiction = parent.extend(Cmp("<", add(c, d), add(c, d)))
    assert solver.check(contradiction, model)[0] is Sat.UNSAT


def test_unknown_is_never_turned_into_sat_or_unsat():
    solver = Solver(rlimit=1)
    a, b = Var("a"), Var("b")
    pc = PathCondition.of(Cmp("<", a, b), Cmp("<", b, a))
    for _ in range(2):  # the second answer comes from the cache
        assert solver.check(pc) == (Sat.UNKNOWN, None)
    assert solver.stats.unknown == 1 and solver.stats.cache_hits == 1


def test_caches_stay_bounded():
    cache: _Cache[int, int] = _Cache(4)
    for k in range(100):
        cache.put(k, k)
        assert len(cache) <= 8
    assert cache.get(99) == 99 and cache.get(0) is None
    solver = Solver(cache_size=16)
    pc, model = TRUE_PC, None
    for k in range(200):
        pc = pc.extend(Cmp("<", add(Var("a"), Var("b")), Int(1000 - k)))
        answer, model = solver.check(pc, model)
        assert answer is Sat.SAT
    assert len(solver._answers) <= 32 and len(solver._terms) <= 32
