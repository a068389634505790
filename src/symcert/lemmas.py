"""The lemmas of `shared/LEMMAS.md` as named, executable predicates.

Each predicate states one lemma (or one direction of it) on the inputs and result of the
function it guards; parameter names match that function's, plus `result`, so icontract can use
it directly and a violation names the lemma. `@lemma(ID)` only tags the function: a test compares
the tags with LEMMAS.md and docs/lemmas.md.

Contracts are enabled by `SYMCERT_CONTRACTS=1` (read once, at import): on in the test suite and
in `symcert run --contracts`, off otherwise, when the guarded functions are left undecorated.
"""

from __future__ import annotations

import os
import sys
from itertools import islice
from typing import TYPE_CHECKING, Callable, Sequence, TypeVar

from symcert.concrete import Env, State, aeval, beval, head, run_concrete, step, trace
from symcert.syntax import AExpr, BExpr, Fail, Skip, Stmt, variables
from symcert.terms import free_vars, negate

if TYPE_CHECKING:
    from symcert.symbolic import Store, SymState

CONTRACTS = os.environ.get("SYMCERT_CONTRACTS", "0") == "1"

F = TypeVar("F", bound=Callable[..., object])
Successors = Callable[["SymState"], "list[SymState]"]
"""The step relation `→sym` as a function, `explore.expand` (W-T3.1): the stream lemmas take it
as an argument, so they need not import the engine they speak about."""


def lemma(*ids: str) -> Callable[[F], F]:
    """Tag a predicate with the LEMMAS.md IDs it states; the function is returned unchanged."""

    def tag(f: F) -> F:
        f.lemma_ids = ids  # type: ignore[attr-defined]
        return f

    return tag


def sample_valuations(names: frozenset[str]) -> tuple[Env, ...]:
    """Three fixed valuations for spot checks: all zero, all one, and distinct per-name values."""
    return (
        Env(),
        Env.of({x: 1 for x in names}),
        Env.of({x: sum(map(ord, x)) * 7 % 23 - 11 + i * 29 for i, x in enumerate(sorted(names))}),
    )


# --- W-T3.1 correct expansion, W-L2.2 monotone path conditions (on `expand`) ----------------


@lemma("W-T3.1")
def expand_sound(state: SymState, result: Sequence[SymState]) -> bool:
    """The successors are one `→sym` step each (Fig. 3's shape, read off the states, not a second
    transcription of the rules): one step deeper, and either one successor on the same path
    condition or two that split it, `φ ∧ c` and `φ ∧ not c`. With W-L2.3 at every valuation
    (`expand_sound_sampled`, against the concrete semantics) this is `σ̂' ∈ expand(σ̂) ⇒ σ̂ →sym σ̂'`."""
    if not all(t.depth == state.depth + 1 for t in result):
        return False
    if len(result) == 1:
        return result[0].pc == state.pc
    if len(result) == 2:
        a, b = (_added(state, t) for t in result)
        return len(a) == len(b) == 1 and b[0] == negate(a[0])
    return not result


@lemma("W-T3.1")
def expand_complete(state: SymState, result: Sequence[SymState]) -> bool:
    """`expand` returns one distinct successor per applicable rule of Fig. 3; with W-L2.5 at
    every valuation (`expand_complete_sampled`) every `→sym` step is among them:
    `σ̂ →sym σ̂' ⇒ σ̂' ∈ expand(σ̂)`."""
    return len(set(result)) == len(result) == sym.rule_count(state.prog)


@lemma("W-L2.2")
def expand_monotone(state: SymState, result: Sequence[SymState]) -> bool:
    """A step keeps the path condition as a prefix and adds at most one conjunct: `φ' ⊨ φ`."""
    return all(t.pc.extends(state.pc) and t.pc.length <= state.pc.length + 1 for t in result)


# --- W-L2.1 compositionality, spot-checked (on symbolic evaluation) ---------------------------


@lemma("W-L2.1", "B-L1")
def aeval_compositional(store: Store, e: AExpr, result: AExpr) -> bool:
    """At fixed sample valuations `V`, `⟦⟦e⟧_S⟧_V = ⟦e⟧_{V∘S}`."""
    names = variables(e)
    inputs = frozenset().union(*(variables(store(x)) for x in names)) if names else frozenset()
    for v in sample_valuations(inputs | names):
        composed = sym.concretize(v, store, names)
        if aeval(v, result) != aeval(composed, e):
            return False
    return True


@lemma("W-L2.1", "B-L1")
def beval_compositional(store: Store, b: BExpr, result: BExpr) -> bool:
    """At fixed sample valuations `V`, `⟦⟦b⟧_S⟧_V = ⟦b⟧_{V∘S}`."""
    names = variables(b)
    inputs = frozenset().union(*(variables(store(x)) for x in names)) if names else frozenset()
    for v in sample_valuations(inputs | names):
        composed = sym.concretize(v, store, names)
        if beval(v, result) != beval(composed, b):
            return False
    return True


# --- W-F9 stuck means fail (on `is_stuck`) ---------------------------------------------------


@lemma("W-F9", "W-D2.5/2.6")
def stuck_means_fail(p: Stmt, result: bool) -> bool:
    """`is_stuck(p)` holds iff no concrete rule applies to a program other than `skip`."""
    return result == (not isinstance(p, Skip) and step(State(Env(), p)) is None)


# --- Streams, on finite prefixes (on `run_n`, `find_bugs_n`) ---------------------------------


@lemma("W-T3.3")
def run_terminates_soundly(result: Sequence[SymState | None]) -> bool:
    """`run(l) ⊨ □(None → □None)`: after the first None, only None."""
    if None not in result:
        return True
    first = result.index(None)
    return all(s is None for s in result[first:])


@lemma("W-D3.1", "W-T3.2")
def run_reachable_from(l: Sequence[SymState], result: Sequence[SymState | None],
                       expand: Successors) -> bool:
    """`run(l) ⊨ □ReachableFrom(l)`: each state is in `l` or a `→sym` step (`expand`, which
    W-T3.1 makes the relation) of an earlier one."""
    seen: list[SymState] = []
    for s in result:
        if s is None:
            continue
        if s not in l and not any(s in expand(parent) for parent in seen):
            return False
        seen.append(s)
    return True


@lemma("W-T3.7")
def find_bugs_terminates_soundly(result: Sequence[object]) -> bool:
    """`find_bugs(p) ⊨ □(Finished → □Finished)`."""
    from symcert.bugfinder import Finished

    flags = [isinstance(s, Finished) for s in result]
    return True not in flags or all(flags[flags.index(True):])


@lemma("W-T3.5", "W-D3.2")
def find_bugs_valid(result: Sequence[object]) -> bool:
    """`find_bugs(p) ⊨ □ValidStatus(p)`: a BugFound state is stuck, and its model, if it has
    one, satisfies its path condition (so its concretization is a reachable error state)."""
    from symcert.bugfinder import BugFound

    for s in result:
        if isinstance(s, BugFound):
            st = s.state
            if not isinstance(head(st.prog), Fail):
                return False
            if st.model is not None and not sym.satisfies(st.model, st.pc):
                return False
    return True


# --- Witness replay: W-T3.5 checked at run time (on `replay`) ---------------------------------


@lemma("W-T3.5", "W-D3.2", "W-L2.4", "W-T2.2", "W-D2.3")
def replay_reaches_bug(bug_state: SymState, input_env: Env, result: State) -> bool:
    """The concrete run from the witness input reaches, in as many steps as the symbolic path,
    a stuck state that corresponds to the bug state: `V = V0∘S`, `⟦φ⟧_{V0}`, same program."""
    names = variables(result.prog) | frozenset(k for k, _ in result.env.bindings)
    expected = sym.concretize(input_env, bug_state.store, names)
    return (
        sym.satisfies(input_env, bug_state.pc)
        and result.steps == bug_state.depth
        and isinstance(head(result.prog), Fail)
        and result.prog == bug_state.prog
        and Env.of({x: result.env(x) for x in names}) == expected
    )



# --- Helpers: the names a state mentions, W-D2.3 correspondence --------------------------------


@lemma("W-D2.3")
def corresponds(state: State, v0: Env, sym_state: SymState) -> bool:
    """`⟨V, p⟩ ≃_{V0} ⟨φ, S, p'⟩`: same program, `V = V0∘S` on every variable, `⟦φ⟧_{V0}`.

    Outside the names mentioned by either side or bound by `V0`, both sides are 0 or the identity.
    """
    names = (sym.state_names(sym_state) | variables(state.prog)
             | frozenset(k for k, _ in state.env.bindings) | frozenset(k for k, _ in v0.bindings))
    return (
        state.prog == sym_state.prog
        and sym.satisfies(v0, sym_state.pc)
        and all(state.env(x) == aeval(v0, sym_state.store(x)) for x in names)
    )


# --- W-D2.2 concretization, W-L2.1 for stores (on `concretize`, `sym_update`) ------------------


@lemma("W-D2.2")
def concretize_pointwise(valuation: Env, store: Store, names: frozenset[str],
                         result: Env) -> bool:
    """`(V∘S)(x) = ⟦S(x)⟧_V` for every requested name, and nothing else is bound."""
    return (all(result(x) == aeval(valuation, store(x)) for x in names)
            and all(k in names for k, _ in result.bindings))


@lemma("W-L2.1")
def update_compositional(store: Store, x: str, e: AExpr, result: Store) -> bool:
    """At fixed sample valuations `V`, `V∘(S[x := ⟦e⟧_S]) = (V∘S)[x := ⟦e⟧_{V∘S}]`."""
    names = variables(e) | {x} | frozenset(k for k, _ in store.bindings)
    inputs = names.union(*(free_vars(store(y)) for y in names))
    for v in sample_valuations(inputs):
        before = sym.concretize(v, store, names)
        expected = before.update(x, aeval(before, e))
        if sym.concretize(v, result, names) != expected:
            return False
    return True


# --- W-L2.3 one-step soundness, W-L2.5 one-step completeness (on `expand`) ---------------------


def _concrete_of(valuation: Env, s: SymState, names: frozenset[str]) -> State:
    return State(sym.concretize(valuation, s.store, names), s.prog)


@lemma("W-L2.3")
def expand_sound_at(state: SymState, valuation: Env, result: Sequence[SymState]) -> bool:
    """Every successor whose path condition `V` satisfies is a concrete step of the
    concretization: `σ̂ →sym σ̂' ∧ V ⊨ φ' ⇒ ⟨V∘S, p⟩ → ⟨V∘S', p'⟩`."""
    for t in result:
        if not sym.satisfies(valuation, t.pc):
            continue
        names = (sym.state_names(state) | sym.state_names(t)
                 | frozenset(k for k, _ in valuation.bindings))
        nxt = step(_concrete_of(valuation, state, names))
        if nxt is None or nxt != _concrete_of(valuation, t, names):
            return False
    return True


@lemma("W-L2.5")
def expand_complete_at(state: SymState, valuation: Env, result: Sequence[SymState]) -> bool:
    """If `V0 ⊨ φ`, the concrete step of `⟨V0∘S, p⟩`, when there is one, corresponds under `V0`
    to some successor: `σ ≃_{V0} σ̂ ∧ σ → σ' ⇒ ∃σ̂' ∈ expand(σ̂). σ' ≃_{V0} σ̂'`."""
    if not sym.satisfies(valuation, state.pc):
        return True
    names = sym.state_names(state) | frozenset(k for k, _ in valuation.bindings)
    nxt = step(_concrete_of(valuation, state, names))
    if nxt is None:
        return True
    return any(corresponds(nxt, valuation, t) for t in result)


def _added(state: SymState, t: SymState) -> tuple[BExpr, ...]:
    """The conjuncts `t`'s path condition adds to `state`'s (one at most, by W-L2.2)."""
    out = []
    pc = t.pc
    while pc.length > state.pc.length and pc.last is not None and pc.parent is not None:
        out.append(pc.last)
        pc = pc.parent
    return tuple(out)


def _local_names(state: SymState, result: Sequence[SymState]) -> frozenset[str]:
    out = variables(state.prog)
    for s in (state, *result):
        for k, t in s.store.bindings:
            out |= {k} | free_vars(t)
        for c in _added(state, s):
            out |= free_vars(c)
    return out


@lemma("W-L2.3", "W-T3.1")
def expand_sound_sampled(state: SymState, result: Sequence[SymState]) -> bool:
    """The runtime spot check of W-L2.3, at three fixed valuations, in its local form: for
    every successor whose *added* conjunct `V` satisfies, `⟨V∘S, p⟩ → ⟨V∘S', p'⟩`. It drops
    the hypothesis `V ⊨ φ` (the concrete step does not read `φ`), so it implies W-L2.3 and
    costs nothing per conjunct already on the path (deep states stay cheap)."""
    names = _local_names(state, result)
    for v in sample_valuations(names):
        for t in result:
            if not all(beval(v, c) for c in _added(state, t)):
                continue
            nxt = step(_concrete_of(v, state, names))
            if nxt is None or nxt != _concrete_of(v, t, names):
                return False
    return True


@lemma("W-L2.5", "W-T3.1")
def expand_complete_sampled(state: SymState, result: Sequence[SymState]) -> bool:
    """The runtime spot check of W-L2.5, at three fixed valuations, in its local form: the
    concrete step of `⟨V∘S, p⟩`, when there is one, is the concretization of a successor whose
    added conjunct `V` satisfies (which implies W-L2.5 for every `V ⊨ φ`)."""
    names = _local_names(state, result)
    for v in sample_valuations(names):
        nxt = step(_concrete_of(v, state, names))
        if nxt is None:
            continue
        if not any(all(beval(v, c) for c in _added(state, t))
                   and nxt == _concrete_of(v, t, names) for t in result):
            return False
    return True


# --- W-L2.4 / W-T2.2 many-step soundness, W-L2.6 / W-T2.3 completeness with W-L3.1's bound -----


@lemma("W-L2.4", "W-T2.2", "W-T2.1", "B-T1")
def many_step_sound(p: Stmt, sym_state: SymState, v0: Env) -> bool:
    """A state `⟨true, id, p⟩ →*sym σ̂` (`depth` steps) whose path condition `V0` satisfies is
    reached by the concrete run from `⟨V0, p⟩` in the same number of steps, and corresponds."""
    if not sym.satisfies(v0, sym_state.pc):
        return True
    final = run_concrete(State(v0, p), sym_state.depth)
    return final.steps == sym_state.depth and corresponds(final, v0, sym_state)


def bfs_queue_sizes(l: Sequence[SymState], result: Sequence[SymState | None]) -> list[int]:
    """`|queue|` right after breadth-first `run(l)` (no pruning) takes element `i` off it."""
    sizes = []
    appended = len(l)
    for i, s in enumerate(result):
        if s is None:
            break
        sizes.append(appended - (i + 1))
        appended += sym.rule_count(s.prog)
    return sizes


@lemma("W-L3.1", "W-T3.4")
def bfs_successor_bound(l: Sequence[SymState], bfs: bool, pruned: bool,
                        result: Sequence[SymState | None], expand: Successors) -> bool:
    """Breadth-first `run(l)` without pruning yields each direct successor of the state at index
    `i` at an index at most `i + |queue| + 2` (fairness, W-L3.1), where `|queue|` is the
    worklist's size after taking `i`. Other strategies and pruned runs are not constrained."""
    if not bfs or pruned:
        return True
    for i, q in enumerate(bfs_queue_sizes(l, result)):
        s = result[i]
        assert s is not None
        first = i + q + 1
        children = expand(s)
        if first + len(children) > len(result):
            break
        # The exact positions a FIFO worklist gives them, within the bound i + |queue| + 2.
        if list(result[first:first + len(children)]) != children:
            return False
    return True


@lemma("W-L2.6", "W-T2.3", "W-T2.1", "W-D2.4", "W-T3.4", "B-T2")
def bfs_complete(p: Stmt, v0: Env, k: int, result: Sequence[SymState | None],
                 expand: Successors) -> bool:
    """Each state of the concrete run from `⟨V0, p⟩` within `k` steps corresponds (W-D2.3) to a
    state of the breadth-first stream `result = run_n([⟨true, id, p⟩], n)` (no pruning) found
    within W-L3.1's bound: at index 0, then at most `i + |queue_i| + 2` after its predecessor's
    index `i`. False also when the prefix is too short to decide (pick `n ≥ 2^(k+1)`)."""
    sizes = bfs_queue_sizes([sym.initial(p)], result)
    states = list(trace(State(v0, p), k))
    if not result or result[0] is None or not corresponds(states[0], v0, result[0]):
        return False
    i = 0
    for sigma in states[1:]:
        if i >= len(sizes):
            return False
        bound = i + sizes[i] + 2
        parent = result[i]
        assert parent is not None
        for j in range(i + 1, min(bound, len(result) - 1) + 1):
            t = result[j]
            if t is not None and t in expand(parent) and corresponds(sigma, v0, t):
                i = j
                break
        else:
            return False
    return True


# --- Bug detection: W-T2.4/2.5/2.6, W-T3.6 (find_bugs prefixes), W-T3.8 (on `has_bug`) -------


@lemma("W-T2.4/2.5/2.6", "W-D2.7..2.11", "W-T3.6")
def bug_detection_agrees(p: Stmt, v0: Env, k: int, result: Sequence[object]) -> bool:
    """`BadInput` within `k` steps ⇔ `BadInput_sym`: the concrete run from `V0` is stuck within
    `k` steps iff the breadth-first `find_bugs` prefix `result` (no pruning) holds a `BugFound`
    of depth at most `k` whose path condition `V0` satisfies. False when `result` does not
    cover depth `k` (it must reach `Finished` or a state deeper than `k`)."""
    from symcert.bugfinder import BugFound, Finished

    covered = any(isinstance(s, Finished) or s.state.depth > k  # type: ignore[attr-defined]
                  for s in result)
    if not covered:
        return False
    final = run_concrete(State(v0, p), k)
    bad = isinstance(head(final.prog), Fail)
    found = any(isinstance(s, BugFound) and s.state.depth <= k and sym.satisfies(v0, s.state.pc)
                for s in result)
    return bad == found


@lemma("W-T3.8")
def has_bug_sound(p: Stmt, max_states: int, result: object) -> bool:
    """Never a false YES: a YES is backed by a stuck state within the budget whose model, run
    by the concrete interpreter alone, gets stuck at the same depth. A NO is spot-checked: no
    sample input makes the concrete run stuck within `max_states` steps."""
    answer = getattr(result, "value", result)
    if answer == "yes":
        from symcert.explore import Strategy, run
        from symcert.solver import Sat, Solver

        solver = Solver()
        for s in islice(run([sym.initial(p)], Strategy.BFS, solver), max_states + 1):
            if s is None:
                return False
            if not isinstance(head(s.prog), Fail):
                continue
            model = s.model
            if model is None:
                answer_, model = solver.check(s.pc)
                if answer_ is not Sat.SAT or model is None:
                    continue
            final = run_concrete(State(model, p), s.depth)
            if (sym.satisfies(model, s.pc) and final.steps == s.depth
                    and isinstance(head(final.prog), Fail)):
                return True
        return False
    if answer == "no":
        return not any(isinstance(head(run_concrete(State(v, p), max_states).prog), Fail)
                       for v in sample_valuations(variables(p)))
    return True


# --- Parser round trip (on `parse`; no LEMMAS.md ID: it is the printing contract) -------------


def parse_round_trip(result: Stmt) -> bool:
    """The printed program parses back to the same AST: `parse(str(p)) == p` (without the
    input budgets: `p` itself may have been parsed under raised ones)."""
    from symcert.parser import parse

    return parse(str(result), max_input_bytes=sys.maxsize, max_program_size=sys.maxsize) == result


# Imported last: symbolic.py guards its own functions with the predicates above.
from symcert import symbolic as sym  # noqa: E402
