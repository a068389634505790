"""Predicates about one step and the stream: `expand` (Fig. 7; W-T3.1, W-L2.2, W-L2.3, W-L2.5),
the correspondence W-D2.3, and `run` on finite prefixes (Fig. 6; W-T3.2-3.4, W-L3.1, W-T2.x).

The stream predicates take the step relation (`Successors`, which is `explore.expand`) as an
argument, so this module lies below the engine it speaks about."""

from __future__ import annotations

from typing import Callable, Iterator, Sequence

from symcert.core.concrete import Env, State, beval, head, run_concrete, step, trace
from symcert.core.replays import lockstep
from symcert.core.state import (
    Store, SymState, concretize, concretize_frames, frames, initial, read_facts, rules_of,
    satisfies, state_names,
)
from symcert.core.guards import assuming
from symcert.core.frames import Frame
from symcert.core.terms import free_vars, negate
from symcert.lang.procedures import table_of
from symcert.lang.structure import variables
from symcert.lang.syntax import (
    And, ArrayVar, Assume, BExpr, Int, Select, Stmt, Update, is_field, operands,
)
from symcert.spec.concretization import sample_valuations
from symcert.spec.definedness import defined
from symcert.spec.switch import lemma


Successors = Callable[[SymState], "list[SymState]"]
"""The step relation `→sym` as a function, `explore.expand` (W-T3.1)."""


@lemma("W-T3.1", "X-U1")
def expand_sound(state: SymState, result: Sequence[SymState]) -> bool:
    """The successors are one `→sym` step each (Fig. 3's shape, read off the states, not a second
    transcription of the rules): one step deeper, and either one successor on the same path
    condition or two that split it, `φ ∧ c` and `φ ∧ not c`, or, where a division may fail
    (X-A2), three: `φ ∧ ok ∧ c`, `φ ∧ ok ∧ not c` and `φ ∧ not ok`; an `assume c` has `φ ∧ c`
    alone (X-U1), or `φ ∧ ok ∧ c` and `φ ∧ not ok`; a loop's head with an invariant `I` has
    these, each under `I`, and `φ ∧ not I`. With W-L2.3 at every valuation
    (`expand_sound_sampled`, against the concrete semantics) this is `σ̂' ∈ expand(σ̂) ⇒ σ̂ →sym σ̂'`."""
    if not all(t.depth == state.depth + 1 for t in result):
        return False
    added = [_added(state, t) for t in result]
    if isinstance(head(state.prog), Assume):  # X-U1: `c`, and `¬ok` where a division may fail
        return len(result) == 1 and len(added[0]) == 1 or (
            len(result) == 2 and _guarded(added[0], added[1]) is not None)
    if len(result) <= 1:
        return not result or result[0].pc == state.pc
    if len(result) == 2:
        return len(added[0]) == len(added[1]) == 1 and added[1][0] == negate(added[0][0])
    if len(result) == 3:
        return _three(added)
    if len(result) == 4 and len(added[3]) == 1:  # a loop's invariant `I` over X-A2's three
        inv = negate(added[3][0])
        inner = [_stripped(inv, a) for a in added[:3]]
        return all(a is not None for a in inner) and _three(inner)  # type: ignore[arg-type]
    return False


def _three(added: Sequence[tuple[BExpr, ...]]) -> bool:
    """X-A2's shape: `ok ∧ c`, `ok ∧ ¬c` and `¬ok` (for a loop with an invariant `I`, checked
    at its head: `I ∧ c`, `I ∧ ¬c` and `¬I`)."""
    c = _guarded(added[0], added[2])
    return c is not None and added[1] == (assuming(negate(added[2][0]), negate(c)),)


def _stripped(inv: BExpr, added: tuple[BExpr, ...]) -> tuple[BExpr, ...] | None:
    """The conjunct `a` when `added` is `assuming(inv, a)`; else None."""
    if len(added) != 1:
        return None
    a = added[0].right if isinstance(added[0], And) and added[0].left == inv else added[0]
    return (a,) if added[0] == assuming(inv, a) else None


def _guarded(a: tuple[BExpr, ...], f: tuple[BExpr, ...]) -> BExpr | None:
    """The condition `c` when `a` adds `ok ∧ c` (`assuming`) and `f` adds `¬ok`; else None."""
    if len(a) != 1 or len(f) != 1:
        return None
    ok = negate(f[0])
    c = a[0].right if isinstance(a[0], And) and a[0].left == ok else a[0]
    return c if a[0] == assuming(ok, c) else None


@lemma("W-T3.1")
def expand_complete(state: SymState, result: Sequence[SymState]) -> bool:
    """`expand` returns one distinct successor per applicable rule of Fig. 3; with W-L2.5 at
    every valuation (`expand_complete_sampled`) every `→sym` step is among them:
    `σ̂ →sym σ̂' ⇒ σ̂' ∈ expand(σ̂)`."""
    return len(set(result)) == len(result) == rules_of(state)


@lemma("W-L2.2")
def expand_monotone(state: SymState, result: Sequence[SymState]) -> bool:
    """A step keeps the path condition as a prefix and adds at most one conjunct: `φ' ⊨ φ`."""
    return all(t.pc.extends(state.pc) and t.pc.length <= state.pc.length + 1 for t in result)


def _concrete_of(valuation: Env, s: SymState, names: frozenset[str],
                 memo: dict[int, Frame[Env]] | None = None) -> State:
    """`⟨V∘S, p⟩` with `V∘Σ` (`memo` as in `concretize_frames`)."""
    return State(concretize(valuation, s.store, names), s.prog,
                 frame=concretize_frames(valuation, s.frame, memo))


@lemma("W-L2.3")
def expand_sound_at(state: SymState, valuation: Env, result: Sequence[SymState]) -> bool:
    """Every successor whose path condition `V` satisfies is a concrete step of the
    concretization: `σ̂ →sym σ̂' ∧ V ⊨ φ' ⇒ ⟨V∘S, p⟩ → ⟨V∘S', p'⟩`."""
    for t in result:
        if not satisfies(valuation, t.pc):
            continue
        names = (state_names(state) | state_names(t)
                 | frozenset(k for k, _ in valuation.bindings))
        nxt = step(_concrete_of(valuation, state, names))
        if nxt is None or nxt != _concrete_of(valuation, t, names):
            return False
    return True


@lemma("W-L2.5")
def expand_complete_at(state: SymState, valuation: Env, result: Sequence[SymState]) -> bool:
    """If `V0 ⊨ φ`, the concrete step of `⟨V0∘S, p⟩`, when there is one, corresponds under `V0`
    to some successor: `σ ≃_{V0} σ̂ ∧ σ → σ' ⇒ ∃σ̂' ∈ expand(σ̂). σ' ≃_{V0} σ̂'`."""
    if not satisfies(valuation, state.pc):
        return True
    names = state_names(state) | frozenset(k for k, _ in valuation.bindings)
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
    """The names the one-step checks concretize: the program's, the stores' keys, the symbolic
    inputs of `state` and its successors (`_term_names`) and their frames' callers' names."""
    out = variables(state.prog)
    memo: dict[int, frozenset[str]] = {}
    seen: set[int] = set()
    for s in (state, *result):
        out |= _term_names(state, s, memo, seen) | frozenset(k for k, _ in s.store.bindings)
    callers: set[int] = set()
    for s in (state, *result):
        for f in _unseen(s.frame, callers):
            out |= variables(f.caller)
    return out


def _unseen(frame: Frame[Store] | None, seen: set[int]) -> Iterator[Frame[Store]]:
    """The frames of a stack, top first, down to the first in `seen` (whose stack below was
    walked already: states of one step share it), each added to `seen`."""
    for f in frames(frame):
        if id(f) in seen:
            return
        seen.add(id(f))
        yield f


def _term_names(state: SymState, s: SymState, memo: dict[int, frozenset[str]],
                seen: set[int]) -> frozenset[str]:
    """The symbolic inputs in `s`'s global store, its frames' local stores, and the conjunct it
    adds to `state`'s path condition; the frames in `seen` are skipped (`_unseen`) and `memo`
    is `free_vars`' for all the terms read with it."""
    out: frozenset[str] = frozenset()
    for _, t in s.store.bindings:
        out |= free_vars(t, memo)
    for f in _unseen(s.frame, seen):
        for _, t in f.locals.bindings:
            out |= free_vars(t, memo)
    for c in _added(state, s):
        out |= free_vars(c, memo)
    return out


@lemma("B-P1", "B-P2")
def locals_stay_local(state: SymState, result: Sequence[SymState]) -> bool:
    """No successor's global store, local stores or new path-condition conjunct mentions a
    variable that is local wherever it occurs (seed 003 Prop. 1 and Cor. 1; the seed assumes
    no local shares its name with a global, and a name that does is not checked)."""
    procs = state.frame.proc.procs if state.frame is not None else table_of(state.prog)
    only_local = procs.only_local()
    memo: dict[int, frozenset[str]] = {}
    seen: set[int] = set()
    return not only_local or all(not (_term_names(state, t, memo, seen) & only_local)
                                 for t in result)


@lemma("B-H2")
def no_fresh_dereference(state: SymState, result: Sequence[SymState]) -> bool:
    """No successor's store or new path-condition conjunct reads an input field's map at a new
    object (seed 003 Prop. 2, Cor. 2): a new object's fields are written when it is made, so
    a read of one resolves to that write and the input heap is never read at a negative
    literal (new objects are `-1, -2, ...`)."""
    for t in result:
        roots: list[object] = [v for _, v in t.store.bindings]
        if t.pc is not state.pc and t.pc.last is not None:
            roots.append(t.pc.last)
        todo, seen = roots, set()
        while todo:
            node = todo.pop()
            if id(node) in seen:
                continue
            seen.add(id(node))
            todo.extend(operands(node))  # type: ignore[arg-type]
            if not (isinstance(node, Select) and isinstance(node.index, Int)
                    and node.index.value < 0):
                continue
            base = node.array
            while isinstance(base, Update) and base.index != node.index:
                base = base.array
            if isinstance(base, ArrayVar) and is_field(base.name) and "#" not in base.name:
                return False  # a map havocked by T-S1 or T-I1 (`.f#k`) is no input heap
    return True


def _satisfies_facts(v: Env, facts: list[BExpr]) -> bool:
    """Whether `V` satisfies the literals `read_facts` took from `φ`; a literal undefined at `V`
    (one `φ` reads only under its guard, say `p != nil` before `p.next`) is not satisfied: such
    a `V` is no valuation of `φ`."""
    return bool(defined(lambda: all(beval(v, c) for c in facts)))


@lemma("W-L2.3", "W-T3.1", "B-T3", "B-H3")
def expand_sound_sampled(state: SymState, result: Sequence[SymState]) -> bool:
    """The runtime spot check of W-L2.3, at three fixed valuations, in its local form: for
    every successor whose *added* conjunct `V` satisfies, `⟨V∘S, p⟩ → ⟨V∘S', p'⟩`. It drops
    the hypothesis `V ⊨ φ` (the concrete step does not read `φ`), so it implies W-L2.3 and
    costs nothing per conjunct already on the path (deep states stay cheap), but for the
    literals of `φ` the resolution of reads may use (`read_facts`, B-H3): `V` must satisfy
    those, as W-L2.3's hypothesis says."""
    names = _local_names(state, result)
    facts = read_facts(state)
    for v in sample_valuations(names):
        if not _satisfies_facts(v, facts):
            continue  # the successors' reads are resolved for the valuations of φ only
        memo: dict[int, Frame[Env]] = {}
        before = defined(lambda: _concrete_of(v, state, names, memo))
        if before is None:
            continue  # no `V ⊨ φ` is undefined on the store (X-A2): nothing to check at V
        nxt = step(before)
        for t in result:
            if not all(beval(v, c) for c in _added(state, t)):
                continue
            if nxt is None or nxt != _concrete_of(v, t, names, memo):
                return False
    return True


@lemma("W-L2.5", "W-T3.1", "B-C3", "B-H3")
def expand_complete_sampled(state: SymState, result: Sequence[SymState]) -> bool:
    """The runtime spot check of W-L2.5, at three fixed valuations, in its local form: the
    concrete step of `⟨V∘S, p⟩`, when there is one, is the concretization of a successor whose
    added conjunct `V` satisfies (which implies W-L2.5 for every `V ⊨ φ`); `V` satisfies the
    literals of `φ` that resolve reads, as in `expand_sound_sampled`."""
    names = _local_names(state, result)
    facts = read_facts(state)
    for v in sample_valuations(names):
        if not _satisfies_facts(v, facts):
            continue
        memo: dict[int, Frame[Env]] = {}
        before = defined(lambda: _concrete_of(v, state, names, memo))
        nxt = step(before) if before is not None else None
        if nxt is None:
            continue
        if not any(all(beval(v, c) for c in _added(state, t))
                   and nxt == _concrete_of(v, t, names, memo) for t in result):
            return False
    return True


@lemma("W-D2.3", "B-T3", "B-C3")
def corresponds(state: State, v0: Env, sym_state: SymState) -> bool:
    """`⟨V, p⟩ ≃_{V0} ⟨φ, S, p'⟩`: same program, `V = V0∘S` on every variable, `⟦φ⟧_{V0}`.

    Outside the names mentioned by either side or bound by `V0`, both sides are 0 or the identity.
    """
    names = (state_names(sym_state) | variables(state.prog)
             | frozenset(k for k, _ in state.env.bindings) | frozenset(k for k, _ in v0.bindings))
    return (
        state.prog == sym_state.prog
        and state.frame == concretize_frames(v0, sym_state.frame)
        and satisfies(v0, sym_state.pc)
        and state.env == concretize(v0, sym_state.store, names)
    )


@lemma("W-L2.4", "W-T2.2", "W-T2.1", "B-T1", "B-T3")
def many_step_sound(p: Stmt, sym_state: SymState, v0: Env) -> bool:
    """A state `⟨true, id, p⟩ →*sym σ̂` (`depth` steps) whose path condition `V0` satisfies is
    reached by the concrete run from `⟨V0, p⟩` in the same number of steps, and corresponds."""
    if not satisfies(v0, sym_state.pc):
        return True
    final = run_concrete(State(v0, p), sym_state.depth)
    return final.steps == sym_state.depth and corresponds(final, v0, sym_state)


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
    steps: set[SymState] = set()  # the successors of the states seen so far: one `expand` each
    for s in result:
        if s is None:
            continue
        if s not in l and s not in steps:
            return False
        steps.update(expand(s))
    return True


def bfs_queue_sizes(l: Sequence[SymState], result: Sequence[SymState | None]) -> list[int]:
    """`|queue|` right after breadth-first `run(l)` (no pruning) takes element `i` off it."""
    sizes = []
    appended = len(l)
    for i, s in enumerate(result):
        if s is None:
            break
        sizes.append(appended - (i + 1))
        appended += rules_of(s)
    return sizes


@lemma("W-L3.1", "W-T3.4")
def bfs_successor_bound(l: Sequence[SymState], bfs: bool, pruned: bool,
                        result: Sequence[SymState | None], expand: Successors) -> bool:
    """Breadth-first `run(l)` without pruning yields each direct successor of the state at index
    `i` at an index at most `i + |queue| + 2` (fairness, W-L3.1; `+ 3` for the three successors
    of a statement that may divide by zero, X-A2), where `|queue|` is the
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
        # The exact positions a FIFO worklist gives them, within i + |queue| + len(children).
        if list(result[first:first + len(children)]) != children:
            return False
    return True


@lemma("W-L2.6", "W-T2.3", "W-T2.1", "W-D2.4", "W-T3.4", "B-T2", "B-C3")
def bfs_complete(p: Stmt, v0: Env, k: int, result: Sequence[SymState | None],
                 expand: Successors) -> bool:
    """Each state of the concrete run from `⟨V0, p⟩` within `k` steps corresponds (W-D2.3) to a
    state of the breadth-first stream `result = run_n([⟨true, id, p⟩], n)` (no pruning) found
    within W-L3.1's bound: at index 0, then at most `i + |queue_i| + b` after its predecessor's
    index `i` (`b` its successors: 2, or 3 where a division may fail). False also when the prefix
    is too short to decide (pick `n > 3^(k+1) / 2`: a step has at most three successors)."""
    sizes = bfs_queue_sizes([initial(p)], result)
    states = list(lockstep(State(v0, p), k))
    if not result or result[0] is None or not corresponds(states[0], v0, result[0]):
        return False
    i = 0
    for sigma in states[1:]:
        if i >= len(sizes):
            return False
        parent = result[i]
        assert parent is not None
        bound = i + sizes[i] + rules_of(parent)
        for j in range(i + 1, min(bound, len(result) - 1) + 1):
            t = result[j]
            if t is not None and t in expand(parent) and corresponds(sigma, v0, t):
                i = j
                break
        else:
            return False
    return True

