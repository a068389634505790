# crosshair: off
# (it drives both provers through verify.provers and Spacer through solver.horn_procs)
"""Procedure summaries nobody wrote (T-I2 for calls): proposed by Spacer
(`solver.horn_procs`), never trusted.

A summary of procedure `f` becomes the contract `requires P ensures Q` of the program's
contract transition (T-S1), and counts only after two checks of different formulations agree:

1. `check_summaries`: the obligations of the contracts and invariants, enumerated path by path
   by `verify.inductive` (no engine, no SSA clauses), each proved by z3 *and* by cvc5: every
   body establishes its `ensures` at each return from its `requires` (the parameters and
   globals at entry free), every call site (in the main statement or a body) establishes the
   callee's `requires`, every `assert` holds, and nothing divides by zero; a call is its
   callee's contract (its `requires` checked, the globals it may write and its result
   havocked, its `ensures` assumed), so recursion needs no unfolding; a loop (in the main
   statement or a body) is its invariant, proposed with the summaries: initiation, consecution
   from a state where what the body may write is havocked, and the exit;
2. the engine (`InferringCheck`): the program annotated with the contracts and invariants
   (`annotate`) is run with T-S1 and T-I1, which verify each body once from its `requires`
   and each loop from its invariant, and must end SAFE.

The fragment: procedures called, no objects or threads, and something not written: a procedure
without a `requires` or an `ensures`, or a loop without an invariant. Inference fills in only
that; every written annotation is checked as written, never replaced or strengthened (a
procedure with only a `requires` keeps the user's precondition: `annotations.filled_contract`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Mapping

from symcert.verify import inductive
from symcert.verify.inductive import (
    DEFAULT_RLIMIT, MAX_PATHS, Contracts, InvariantCheck, Obligation, loops,
)
from symcert.lang import annotations
from symcert.lang.parser import parse
from symcert.lang.procedures import called, table_of
from symcert.lang.syntax import BExpr, Stmt, show_stmt


def applies(p: Stmt, all_bugs: bool = False) -> bool:
    """Whether summaries may help `p`: it calls procedures, one of which misses a written
    `requires` or `ensures` or a loop a written invariant (inference fills in only what is not
    written; a user's annotation is checked as written, never replaced or strengthened), it is
    in the fragment (no objects or threads); the check looks for the first bug only."""
    from symcert.solver.horn_procs import unsupported

    return (not all_bugs and unsupported(p) is None
            and (any(q.requires is None or q.ensures is None for q in called(p))
                 or any(not w.invariants for w in loops(p))))


def annotate(p: Stmt, contracts: Contracts, invariants: Mapping[int, BExpr] | None = None
             ) -> Stmt:
    """The program of `p` with each named procedure given its contract and each loop (by its
    index in `loops`) its invariant where none is written (`annotations.filled_contract`,
    `unwritten`: a written clause or invariant stays as written), printed and parsed again, so
    the annotations pass their static rules."""
    table = table_of(p)
    whiles = loops(p)
    by_node = {id(whiles[k]): inv for k, inv in
               annotations.unwritten(whiles, invariants or {}).items()}
    procs = [replace(q, body=annotations.with_invariants(q.body, by_node))
             for q in table.values()]
    procs = [replace(q, requires=pre, ensures=post) if q.name in contracts else q
             for q in procs
             for pre, post in [annotations.filled_contract(q, contracts.get(q.name))]]
    p = annotations.with_invariants(p, by_node)
    classes = [f"class {name}({', '.join(fields)})" for name, fields in table.classes]
    return parse("\n".join(classes + [str(q) for q in procs] + [show_stmt(p)]))


def shown(p: Stmt, contracts: Contracts) -> list[str]:
    """One line per procedure with a clause not written: its inferred clauses, as IMP (a
    written clause is the user's, said so)."""
    table = table_of(p)
    out = []
    for name, (pre, post) in contracts.items():
        q = table[name]
        if q.requires is not None and q.ensures is not None:
            continue
        clauses = [f"requires {pre}" if q.requires is None else "requires as written",
                   f"ensures {post}" if q.ensures is None else "ensures as written"]
        out.append(f"the procedure {name}: {' '.join(clauses)}")
    return out


def obligations(p: Stmt, contracts: Contracts, invariants: Mapping[int, BExpr] | None = None,
                max_paths: int = MAX_PATHS) -> list[Obligation]:
    """The obligations of `p` under `contracts` (every procedure it calls must have one) and
    loop `invariants` (index in `loops`; `true` where missing): `inductive.obligations`.

    :raises ValueError: when there are more than `max_paths` paths.
    """
    return inductive.obligations(p, invariants or {}, max_paths, contracts=contracts)


def check_summaries(p: Stmt, contracts: Contracts, invariants: Mapping[int, BExpr] | None = None,
                    rlimit: int = DEFAULT_RLIMIT) -> InvariantCheck:
    """Check candidate contracts and loop invariants with z3 and cvc5 (T-I2): every obligation
    of `obligations` VALID for both (`inductive.check_invariants`).

    :param rlimit: each prover's resource limit per obligation.
    """
    return inductive.check_invariants(p, invariants or {}, rlimit, contracts)
