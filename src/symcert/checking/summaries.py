# crosshair: off
# (it drives both provers through checking.provers and Spacer through solver.horn_procs)
"""Procedure summaries nobody wrote (T-I2 for calls): proposed by Spacer
(`solver.horn_procs`), never trusted.

A summary of procedure `f` becomes the contract `requires P ensures Q` of the program's
contract transition (T-S1), and counts only after two checks of different formulations agree:

1. `check_summaries`: the obligations of the contracts, by path enumeration with the
   substitution algebra `core.guards.GUARDS` (no engine, no SSA clauses), each proved by z3
   *and* by cvc5: every body establishes its `ensures` at each return from its `requires`
   (the parameters and globals at entry free), every call site (in the main statement or a
   body) establishes the callee's `requires`, every `assert` of the main statement holds, and
   nothing divides by zero; a call is its callee's contract (its `requires` checked, the globals
   it may write and its result havocked, its `ensures` assumed), so recursion needs no unfolding;
   a loop (in the main statement or a body) is its invariant, proposed with the summaries:
   initiation, consecution from a state where what the body may write is havocked, and the
   exit;
2. the engine (`InferringCheck`): the program annotated with the contracts and invariants
   (`annotate`) is run with T-S1 and T-I1, which verify each body once from its `requires`
   and each loop from its invariant, and must end SAFE.

The fragment: procedures called, no objects or threads, no contract and no loop invariant
written by the user (a user's annotation is never replaced or strengthened: the engine checks
it as written).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import count
from typing import Mapping

from symcert.checking.inductive import Discharged, InvariantCheck, Obligation
from symcert.checking.provers import prove_cvc5, prove_z3
from symcert.core import terms
from symcert.core.algebra import fold_a, fold_b, is_formula
from symcert.core.guards import GUARDS, TRUE
from symcert.engine.contracts import contracted, writes
from symcert.lang import annotations
from symcert.lang.annotations import RESULT
from symcert.lang.parser import parse
from symcert.lang.procedures import Proc, arrays, called, statements, table_of
from symcert.lang.structure import variables
from symcert.lang.syntax import (
    AExpr, ArrayVar, Assert, Assign, Assume, BExpr, Bool, Call, Fail, If, Int, Pos, Return, Seq,
    Skip, Stmt, Var, While, show_stmt,
)

DEFAULT_RLIMIT = 20_000_000
MAX_PATHS = 10_000

Contracts = Mapping[str, tuple[BExpr, BExpr]]
"""Procedure name → (`requires`, `ensures`)."""


def applies(p: Stmt, all_bugs: bool = False) -> bool:
    """Whether summaries may help `p`: it calls procedures, none has a written contract and no
    loop a written invariant (a user's annotation is never replaced or strengthened), it is in
    the fragment (no objects or threads); the check looks for the first bug only."""
    from symcert.solver.horn_procs import unsupported

    return (not all_bugs and unsupported(p) is None
            and not any(contracted(q) for q in table_of(p).values())
            and not any(w.invariants for w in loops(p)))


def loops(p: Stmt) -> list[While]:
    """The loops of the main statement `p`, then of each procedure it may call, each in
    pre-order (`solver.horn_procs.loops`): a loop's index in this list names its invariant."""
    return [w for root in [p, *(q.body for q in called(p))] for w in annotations.loops(root)]


def annotate(p: Stmt, contracts: Contracts, invariants: Mapping[int, BExpr] | None = None
             ) -> Stmt:
    """The program of `p` with each named procedure given its contract and each loop (by its
    index in `loops`) its invariant (printed and parsed again, so the annotations pass their
    static rules)."""
    table = table_of(p)
    by_node = {id(w): (invariants or {})[k] for k, w in enumerate(loops(p))
               if k in (invariants or {})}
    procs = [replace(q, requires=contracts[q.name][0], ensures=contracts[q.name][1],
                     body=annotations.with_invariants(q.body, by_node))
             if q.name in contracts else q for q in table.values()]
    p = annotations.with_invariants(p, by_node)
    classes = [f"class {name}({', '.join(fields)})" for name, fields in table.classes]
    return parse("\n".join(classes + [str(q) for q in procs] + [show_stmt(p)]))


def shown(contracts: Contracts) -> list[str]:
    """One line per procedure: its inferred contract, as IMP."""
    return [f"the procedure {name}: requires {pre} ensures {post}"
            for name, (pre, post) in contracts.items()]


@dataclass(frozen=True)
class _Path:
    """A path being enumerated: where it runs, the body it is in (None: the main statement),
    the store, the path condition so far and the statements left."""

    label: str
    entry: Proc | None
    store: tuple[tuple[str, AExpr], ...]
    path: tuple[BExpr, ...]
    todo: tuple[Stmt | _Back, ...]


def obligations(p: Stmt, contracts: Contracts, invariants: Mapping[int, BExpr] | None = None,
                max_paths: int = MAX_PATHS) -> list[Obligation]:
    """The obligations of `p` under `contracts` (every procedure it calls must have one) and
    loop `invariants` (index in `procedures.called` order, `loops`; `true` where missing): at
    a loop, the invariant on entry, then the body from it and the condition (what the body may
    write havocked) back to it, and the exit from it and the negated condition.

    :raises ValueError: when there are more than `max_paths` paths.
    """
    invariants = invariants or {}
    table = table_of(p)
    names = tuple(sorted(variables(p)))
    queue = [_Path("main", None, tuple((x, Var(x)) for x in names), (), (p,))]
    for name in contracts:
        q = table[name]
        store = {x: Var(x) for x in names if x not in q.locals}
        store.update(dict.fromkeys(q.locals, Int(0)) | {x: Var(x) for x in q.params})
        pre, ok = _eval(store, contracts[name][0])
        queue.append(_Path(f"the body of {name}", q, tuple(store.items()), (ok, pre), (q.body,)))
    out: list[Obligation] = []
    fresh = count()
    index = {id(w): k for k, w in enumerate(loops(p))}
    started: set[int] = set()
    for _ in range(max_paths):
        if not queue:
            return [o for o in out if o.goal != TRUE]
        seg = queue.pop()
        store, path, todo = dict(seg.store), seg.path, list(seg.todo)
        while todo:
            s = todo.pop(0)
            at = f"{seg.label}, {_where(getattr(s, 'pos', None))}"
            if isinstance(s, Seq):
                todo[:0] = [s.first, s.second]
            elif isinstance(s, Fail):
                out.append(Obligation(f"no fail at {at}", path, Bool(False)))
                break
            elif isinstance(s, Return):
                value, ok = _eval(store, s.expr)
                out.append(Obligation(f"no division by zero at {at}", path, ok))
                _returns(seg, value, ok, store, path, contracts, out)
                break
            elif isinstance(s, Assign):
                value, ok = _eval(store, s.expr)
                out.append(Obligation(f"no division by zero at {at}", path, ok))
                store[s.name] = value
                path += (ok,)
            elif isinstance(s, (Assert, Assume, If)):
                cond, ok = _eval(store, s.cond)
                out.append(Obligation(f"no division by zero at {at}", path, ok))
                if isinstance(s, Assert):
                    out.append(Obligation(f"assert at {at}", path + (ok,), cond))
                path += (ok,)
                if isinstance(s, If):
                    queue.append(replace(seg, store=tuple(store.items()), todo=(s.else_, *todo),
                                         path=path + (terms.negate(cond),)))
                    todo.insert(0, s.then_)
                path += (cond,)
            elif isinstance(s, Call):
                path = _call(s, store, path, contracts, f"c{next(fresh)}", at, out)
            elif isinstance(s, (While, _Back)):
                w = s if isinstance(s, While) else s.loop
                k = index[id(w)]
                kind = "holds on entry" if isinstance(s, While) else "is preserved"
                inv, ok = _eval(store, invariants.get(k, TRUE))
                out.append(Obligation(f"invariant of loop {k} {kind} ({at})", path,
                                      terms.conj(ok, inv)))
                if isinstance(s, While) and k not in started:
                    started.add(k)
                    queue += _loop(w, k, seg, store, invariants.get(k, TRUE), tuple(todo))
                break
            elif not isinstance(s, Skip):
                raise ValueError(f"not in the summaries' fragment: {s}")
        else:
            if seg.entry is not None:  # the end of a body returns 0
                _returns(seg, Int(0), TRUE, store, path, contracts, out)
    raise ValueError(f"more than {max_paths} paths")


@dataclass(frozen=True)
class _Back:
    """The end of a loop's body: the path returns to the loop's head."""

    loop: While


def _loop(w: While, k: int, seg: _Path, store: dict[str, AExpr], invariant: BExpr,
          after: tuple[Stmt | _Back, ...]) -> list[_Path]:
    """Loop `k`'s body from `invariant ∧ cond` and its exit from `invariant ∧ ¬cond`, what
    the body may write havocked (T-I1's havoc set, and what its calls may write)."""
    written = annotations.written(w.body)
    havocked = set(written.variables | written.arrays)
    for c in statements(w.body):
        if isinstance(c, Call):
            havocked |= writes(c.procs[c.name])
    head = {x: Var(f"{x}!w{k}") if x in havocked else t for x, t in store.items()}
    inv, ok_inv = _eval(head, invariant)
    cond, ok = _eval(head, w.cond)
    items = tuple(head.items())
    return [replace(seg, label=f"{seg.label}, loop {k} body", store=items,
                    path=(ok_inv, inv, ok, cond), todo=(w.body, _Back(w))),
            replace(seg, label=f"{seg.label}, loop {k} exit", store=items,
                    path=(ok_inv, inv, ok, terms.negate(cond)), todo=after)]


def _returns(seg: _Path, value: AExpr, ok: BExpr, store: dict[str, AExpr],
             path: tuple[BExpr, ...], contracts: Contracts, out: list[Obligation]) -> None:
    """The obligation of a return of `value` in the body `seg` belongs to: its `ensures` with
    the parameters at their values at entry, the globals now and `result` at `value`."""
    q = seg.entry
    assert q is not None
    params = {x: Var(x) for x in q.params}
    now = (lambda x: value if x == RESULT else params.get(x, store.get(x, Var(x))))
    post, defined = fold_b(GUARDS, now, contracts[q.name][1])
    out.append(Obligation(f"ensures of {q.name} at a return ({seg.label})", path + (ok,),
                          terms.conj(defined, post)))


def _call(s: Call, store: dict[str, AExpr], path: tuple[BExpr, ...], contracts: Contracts,
          tag: str, at: str, out: list[Obligation]) -> tuple[BExpr, ...]:
    """A call by its callee's contract: the obligations of its arguments and `requires`, then
    the havoc of what it may write and its `ensures` assumed; the path after it."""
    q = s.procs[s.name]
    values = []
    for a in s.args:
        v, ok = _eval(store, a)
        out.append(Obligation(f"no division by zero at {at}", path, ok))
        path += (ok,)
        values.append(v)
    params = dict(zip(q.params, values))
    before = (lambda x: params.get(x, store.get(x, Var(x))))
    pre, defined = fold_b(GUARDS, before, contracts[q.name][0])
    out.append(Obligation(f"requires of {q.name} at {at}", path, terms.conj(defined, pre)))
    path += (pre,)
    names = arrays(s)
    for w in sorted(writes(q)):
        store[w] = ArrayVar(f"{w}!{tag}") if w in names else Var(f"{w}!{tag}")
    result = Var(f"{RESULT}!{tag}")
    after = (lambda x: result if x == RESULT else params.get(x, store.get(x, Var(x))))
    post, defined = fold_b(GUARDS, after, contracts[q.name][1])
    if s.target is not None:
        store[s.target] = result
    return path + (defined, post)


def _eval(store: Mapping[str, AExpr], e: AExpr | BExpr) -> tuple:  # type: ignore[type-arg]
    """`(⟦e⟧_S, definedness)`: the fold with the guards' algebra over the store `S`."""
    subst = (lambda x: store.get(x, Var(x)))
    if is_formula(e):
        return fold_b(GUARDS, subst, e)  # type: ignore[arg-type]
    return fold_a(GUARDS, subst, e)  # type: ignore[arg-type]


def _where(pos: Pos | None) -> str:
    return f"{pos.line}:{pos.column}" if pos else "?"


def check_summaries(p: Stmt, contracts: Contracts, invariants: Mapping[int, BExpr] | None = None,
                    rlimit: int = DEFAULT_RLIMIT) -> InvariantCheck:
    """Check candidate contracts and loop invariants with z3 and cvc5 (T-I2): every obligation
    of `obligations` VALID for both.

    :param rlimit: each prover's resource limit per obligation.
    """
    results = []
    for o in obligations(p, contracts, invariants):
        text = o.smtlib()
        results.append(Discharged(o, prove_z3(text, rlimit), prove_cvc5(text, rlimit)))
    return InvariantCheck(tuple(results))
