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
from typing import TYPE_CHECKING, Callable, Sequence, TypeVar

from symcert.concrete import Env, State, aeval, beval, head, step
from symcert.syntax import AExpr, BExpr, Fail, Skip, Stmt, variables

if TYPE_CHECKING:
    from symcert.symbolic import Store, SymState

CONTRACTS = os.environ.get("SYMCERT_CONTRACTS", "0") == "1"

F = TypeVar("F", bound=Callable[..., object])


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
    """Every successor `expand` returns is a `→sym` step: `σ̂' ∈ expand(σ̂) ⇒ σ̂ →sym σ̂'`."""
    return all(sym.sym_step(state, t) for t in result)


@lemma("W-T3.1")
def expand_complete(state: SymState, result: Sequence[SymState]) -> bool:
    """`expand` returns one distinct successor per applicable rule of Fig. 3, so with
    `expand_sound` every `→sym` step is among them: `σ̂ →sym σ̂' ⇒ σ̂' ∈ expand(σ̂)`."""
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
        composed = Env.of({x: aeval(v, store(x)) for x in names})
        if aeval(v, result) != aeval(composed, e):
            return False
    return True


@lemma("W-L2.1", "B-L1")
def beval_compositional(store: Store, b: BExpr, result: BExpr) -> bool:
    """At fixed sample valuations `V`, `⟦⟦b⟧_S⟧_V = ⟦b⟧_{V∘S}`."""
    names = variables(b)
    inputs = frozenset().union(*(variables(store(x)) for x in names)) if names else frozenset()
    for v in sample_valuations(inputs | names):
        composed = Env.of({x: aeval(v, store(x)) for x in names})
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
def run_reachable_from(l: Sequence[SymState], result: Sequence[SymState | None]) -> bool:
    """`run(l) ⊨ □ReachableFrom(l)`: each state is in `l` or a `→sym` step of an earlier one."""
    seen: list[SymState] = []
    for s in result:
        if s is None:
            continue
        if s not in l and not any(sym.sym_step(parent, s) for parent in seen):
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


@lemma("W-T3.5", "W-L2.4", "W-D2.3")
def replay_reaches_bug(bug_state: SymState, input_env: Env, result: State) -> bool:
    """The concrete run from the witness input reaches, in as many steps as the symbolic path,
    a stuck state that corresponds to the bug state: `V = V0∘S`, `⟦φ⟧_{V0}`, same program."""
    names = variables(result.prog) | frozenset(k for k, _ in result.env.bindings)
    expected = Env.of({x: aeval(input_env, bug_state.store(x)) for x in names})
    return (
        sym.satisfies(input_env, bug_state.pc)
        and result.steps == bug_state.depth
        and isinstance(head(result.prog), Fail)
        and result.prog == bug_state.prog
        and Env.of({x: result.env(x) for x in names}) == expected
    )


# Imported last: symbolic.py guards its own functions with the predicates above.
from symcert import symbolic as sym  # noqa: E402
