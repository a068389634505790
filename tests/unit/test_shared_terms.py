"""Terms that share subterms (syntax.py): `x = x + x` run n times gives a DAG of n nodes whose
tree has 2^n leaves. Every operation on terms must be linear in the DAG, not the tree: each test
runs under an alarm, so a regression to tree walking fails instead of hanging the suite."""

from __future__ import annotations

import signal
import subprocess
import sys
from collections.abc import Iterator

import pytest

from symcert.core import terms
from symcert.core.concrete import Env, aeval, beval
from symcert.core.valuations import Valuations
from symcert.core.state import PathCondition, Store
from symcert.lang.structure import variables
from symcert.lang.syntax import Add, Cmp, Int, Mul, Var
from symcert.seed004.interp import existentially_quantify
from symcert.solver.z3backend import Sat, Solver

N = 200  # a tree of 2^201 - 1 nodes: walking it would never end


def doubled(leaf: str, n: int = N) -> terms.Term:
    """`leaf + leaf` nested n times as a DAG of n shared nodes (built with `Add`: the smart
    constructor would fold it into `leaf * 2^n`)."""
    t: terms.Term = Var(leaf)
    for _ in range(n):
        t = Add(t, t)
    return t


@pytest.fixture(autouse=True)
def alarm() -> Iterator[None]:
    def expire(signum: int, frame: object) -> None:
        raise TimeoutError("an operation walked the tree of a shared term")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, 120)  # a guard: a walk never ends
    yield
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, previous)


def test_hash_and_equality_of_independently_built_dags():
    t, u = doubled("x"), doubled("x")
    assert t is not u
    assert hash(t) == hash(u) and t == u
    assert {t: 1}[u] == 1
    assert t != doubled("y")
    # equal down to the last level, where the operands differ
    assert Add(t, t) != Add(t, Add(u.left, Var("x")))


def test_evaluation_is_exact():
    t = doubled("x")
    assert aeval(Env.of({"x": 3}), t) == 3 * 2**N
    assert beval(Env.of({"x": -1}), Cmp("<", t, Int(0)))


def test_walks_see_each_shared_node_once():
    t = doubled("x")
    assert terms.free_vars(Cmp("==", t, doubled("y"))) == {"x", "y"}
    assert variables(t) == {"x"}
    assert terms.tree_size(t) == 2 ** (N + 1) - 1


def test_facts_about_a_growing_term_are_computed_once_per_node():
    """Along `x = x + x`, each query meets one new node; with the memos kept between
    queries (the solver's, a run's `Valuations`) only that node is computed, so the cost of a
    query does not grow with the term's depth."""
    memo: dict[int, frozenset[str]] = {}
    t = doubled("x")
    u = terms.add(t, t)
    roots = [t, Cmp("<", Int(0), u), Cmp("<", Var("y"), t)]  # alive while the memo is used
    found = [terms.free_vars(r, memo) for r in roots]  # (pytest must not print a term)
    assert found == [{"x"}, {"x"}, {"x", "y"}] and len(memo) == N + 3
    assert terms.free_vars(Var("z"), memo) == {"z"} and terms.free_vars(Int(1), memo) == set()
    values = Valuations()
    env = Env.of({"x": -3})
    decided = [values.beval(env, Cmp("<", t, Int(0)))]
    computed = [len(values._memos[id(env)][1])]
    decided.append(values.beval(env, Cmp("<", Int(0), u)))
    computed.append(len(values._memos[id(env)][1]))
    decided.append(values.beval(Env.of({"x": 1}), Cmp("==", u, Int(2 ** (N + 1)))))
    assert decided == [True, False, True] and computed == [N, N + 1]
    solver, t, grown = Solver(), Var("x"), []
    for _ in range(50):  # the path condition of the doubling loop: two new nodes a conjunct
        t = terms.add(t, t)
        solver.free_vars(Cmp("<", Int(0), t))
        grown.append(len(solver._vars))
    assert grown == list(range(2, 101, 2))


def test_valuations_keep_a_bounded_number_of_models():
    values = Valuations(models=2, size=3)
    envs = [Env.of({"x": i}) for i in range(4)]
    for i, env in enumerate(envs):
        assert values.beval(env, Cmp("==", Add(Var("x"), Int(1)), Int(i + 1)))
    assert [m[0] for m in values._memos.values()] == envs[2:]
    t = doubled("x", 5)
    assert values.beval(envs[3], Cmp("==", t, Int(3 * 32)))
    assert len(values._memos[id(envs[3])][1]) == 1 + 5
    assert values.beval(envs[3], Cmp("<", Int(0), t))  # the memo was full: started again
    assert len(values._memos[id(envs[3])][1]) == 5


def test_doubling_folds_into_a_product():
    """`a + a` is `a * 2` and `(a * c) * d` is `a * (c * d)`, so `x = x + x` run n
    times keeps a term of three nodes (the solver then asserts `0 < x * 2^n`, not a DAG n
    deep: the doubling loop's 20,000 states took 102 s before, 16 s after)."""
    t: terms.Term = Var("x")
    for _ in range(300):
        t = terms.add(t, t)
    assert t == Mul(Var("x"), Int(2 ** 300)) and terms.tree_size(t) == 3
    assert terms.mul(terms.mul(Var("x"), Int(3)), Int(-5)) == Mul(Var("x"), Int(-15))
    assert terms.mul(Int(4), terms.mul(Var("x"), Int(3))) == Mul(Var("x"), Int(12))
    y = Var("y")  # one object read twice, as `y + y` reads the store: no deep comparison
    assert terms.add(y, y) == Mul(y, Int(2))
    assert terms.add(y, Var("y")) == Add(y, Var("y"))


def test_printing_summarizes_a_huge_term():
    t = doubled("x")
    assert terms.show(doubled("x", 3)) == str(doubled("x", 3))
    assert terms.show(t) == "<a term of 3.21e+60 nodes over x>"
    assert "<a term of" in str(Store().update("x", t))
    assert "<a term of" in str(PathCondition.of(Cmp("<", Int(0), t)))


def test_solver_translates_and_decides():
    t = doubled("x")
    solver = Solver()
    answer, model = solver.check(PathCondition.of(Cmp("==", t, Int(-(2**N)))))
    assert answer is Sat.SAT and model is not None and model("x") == -1
    answer, _ = solver.check(PathCondition.of(Cmp("<", Int(0), Var("x")), Cmp("<=", t, Int(0))))
    assert answer is Sat.UNSAT


def test_one_point_substitution_of_the_seed_004_interpreter():
    """`∃v. (v == y ∧ 0 < d(v)) ≡ 0 < d(y)`: the substitution walks the DAG, not the tree."""
    pc = PathCondition.of(Cmp("==", Var("v"), Var("y")), Cmp("<", Int(0), doubled("v")))
    result, exists = existentially_quantify("v", pc, frozenset())  # (pytest must not print it)
    # the substitution rebuilds with the smart constructors, which fold `y + y`
    assert result == PathCondition.of(Cmp("<", Int(0), Mul(Var("y"), Int(2 ** N)))) and not exists


def test_cli_finds_a_bug_behind_sixty_doublings(tmp_path):
    prog = tmp_path / "doubling.imp"
    prog.write_text("n = 0;\nwhile n < 60 do x = x + x; n = n + 1 od;\n"
                    f"assert x != 0 - {2**60}\n")
    done = subprocess.run([sys.executable, "-m", "symcert", "run", str(prog)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "input:  x = -1" in done.stdout


def test_cli_budget_on_an_unbounded_doubling_loop(tmp_path):
    prog = tmp_path / "doubling.imp"
    prog.write_text("while 0 < x do x = x + x od;\nassert x <= 0\n")
    done = subprocess.run([sys.executable, "-m", "symcert", "run", "--no-infer", "--max-states",
                           "300", str(prog)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 3, done.stdout + done.stderr
    assert "state budget" in done.stdout
