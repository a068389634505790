"""Procedures (seed 003 §3) over generated programs with recursive procedures: correctness
(B-T3, Thm. 3) and completeness (B-C3) of the stack-of-closures semantics against the concrete
one, through models and through ghosts; locals stay local (B-P1, Prop. 1; B-P2, Cor. 1); and
the printer's round trip with declarations."""

from __future__ import annotations

import sys
from itertools import islice

from hypothesis import example, given
from hypothesis import strategies as st

from strategies import envs, procedural_programs
from test_w_soundness import assert_prefix_reachable
from symcert.core.concrete import is_stuck, run_to_end
from symcert.core.state import frames, initial
from symcert.core.terms import free_vars
from symcert.engine.explore import Strategy, expand, run, run_n
from symcert.engine.ghost import check_ghost_run, ghost_initial
from symcert.engine.testgen import generate_tests
from symcert.lang.parser import parse
from symcert.lang.procedures import show_program, table_of
from symcert.lang.structure import inputs
from symcert.lang.syntax import Skip
from symcert.solver.z3backend import Solver, solver_for
from symcert.spec.expansion import bfs_complete, locals_stay_local

K = 5


@given(procedural_programs)
def test_b_t3_every_state_is_concretely_reachable(p):
    """B-T3: every satisfiable state of a `run` prefix, concretized through a model of its path
    condition (its stack too: `V∘Σ`), is reached by the concrete run in as many steps."""
    assert_prefix_reachable(p, 60)


@given(procedural_programs, envs)
def test_b_c3_every_concrete_state_is_simulated(p, v0):
    """B-C3: each concrete state within K steps of `⟨V0, p⟩`, its stack included, corresponds
    to a state of the breadth-first stream within W-L3.1's bound."""
    assert bfs_complete(p, v0, K, run_n([initial(p)], 3 ** (K + 1) // 2 + 1), expand)


@given(procedural_programs, envs, st.sampled_from(list(Strategy)))
def test_ghosts_follow_the_concrete_run_through_calls(p, rho, strategy):
    """M-P3/M-P4 with procedures: the ghost states are exactly the concrete trace, frames and
    all, and carrying a ghost changes no state."""
    solver = Solver()
    plain = list(islice(run([initial(p)], strategy, solver), 80))
    assert list(islice(run([ghost_initial(p, rho)], strategy, solver), 80)) == plain
    assert check_ghost_run(p, rho, 80, strategy, solver) is None


@given(procedural_programs)
def test_b_p1_b_p2_no_local_in_any_term(p):
    """B-P1, B-P2: along a run prefix no global binding, local binding or path condition
    mentions a variable that is only ever local (the generator's locals `d`, `a`, `v`, `c1`...)."""
    only_local = table_of(p).only_local()
    for s in run_n([initial(p)], 60):
        if s is None:
            break
        mentioned = frozenset().union(*(free_vars(c) for c in s.pc.conjuncts()),
                                      *(free_vars(t) for _, t in s.store.bindings),
                                      *(free_vars(t) for f in frames(s.frame)
                                        for _, t in f.locals.bindings))
        assert not mentioned & only_local
        assert locals_stay_local(s, expand(s))


@given(procedural_programs)
def test_b_p1_b_p2_terms_speak_of_inputs_only(p):
    """B-P1, B-P2 in a second formulation, independent of the names' scopes: every symbol of
    every term (global and local stores, path condition) is an input of the program, as the
    static analysis `inputs` computes it (a variable some path may read before assigning it).
    A local leaking into a term would be a symbol no analysis of the globals names."""
    allowed = inputs(p)
    for s in run_n([initial(p)], 60):
        if s is None:
            break
        terms = [*s.pc.conjuncts(), *(t for _, t in s.store.bindings),
                 *(t for f in frames(s.frame) for _, t in f.locals.bindings)]
        assert frozenset().union(*map(free_vars, terms)) <= allowed


@given(procedural_programs)
def test_printing_round_trip_with_declarations(p):
    """The printed program, declarations first, parses back to a program that prints the same
    and round-trips exactly (the parser nests sequences to the right, the generator not always)."""
    again = parse(show_program(p), max_input_bytes=sys.maxsize, max_program_size=sys.maxsize)
    assert show_program(again) == show_program(p)
    twice = parse(show_program(again))
    assert twice == again and table_of(twice) == table_of(again)


@given(procedural_programs)
@example(parse("proc p(a) begin if a > 0 then y = a else y = 0 - a fi end\n"
               "r = p(x); if y > 5 then fail else skip fi"))
def test_generated_tests_are_the_ends_of_the_runs(p):
    """W-T2.2, W-T3.5 for test generation with frames: one test per leaf of the stream that has
    a model, a leaf being a finished state outside every frame or a stuck one (the `skip` that
    ends a procedure's body without `return` is none); each test's concrete run ends after
    exactly its steps, as the test says."""
    suite = generate_tests(p, 60)
    states = [s for s in run_n([initial(p)], 60, Strategy.BFS, solver_for(p)) if s is not None]
    leaves = [s for s in states if s.model is not None
              and (isinstance(s.prog, Skip) and s.frame is None or is_stuck(s.prog))]
    assert sorted(t.steps for t in suite.tests) == sorted(s.depth for s in leaves)
    for t in suite.tests:
        assert run_to_end(t.input, p, t.steps) == t.final
