"""Deliberately wrong rules, then a replay: `python wrong_rules.py MISTAKE [replay options]`.

Run as a script by test_obligations.py, in its own process with contracts off. MISTAKE is
`while-exit-adds-guard` (the while-exit successor gets the guard instead of its negation),
`add-folds-minus` (`terms.add` folds `(t + c1) + c2` into `t + (c1 - c2)`),
`mul-folds-plus` (`terms.mul` folds `(t * c1) * c2` into `t * (c1 + c2)`: right for 2 * 2 only),
`euclidean-division` (`/` translated to SMT-LIB's plain `div`, Euclidean, whatever the divisor's
sign: X-A1), `guard-forgets-right` (the guard of `a and b` forgets the divisions of `b`: X-A2),
`assume-ignores-condition` (`assume b` steps to `skip` on `φ` unchanged: X-U1) or
`return-into-callee` (seed 003's return assigns the value to the call's target in the callee's
frame, which it then drops, instead of the caller's: right for a global target, wrong for a
caller's local that the callee has too, as in a recursive call), `select-ignores-aliasing`
(a read of an array skips every update at another index term, as if two different terms could
not have the same value: B-A1 ignored), `update-ignores-aliasing` (a field write `x.f = v`
drops the map's earlier writes at other terms, as if two references could not be one object:
B-H1 ignored), `less-answers-alias` (a literal `i < j` of the path condition taken to say
`i == j`: B-H3's resolution with the path condition), `new-forgets-fields` (`new` sets no field
of the object it makes, so a read of one reaches the input heap: B-H2), `minus-int-swapped` (seed 002's `-Int` computes
`b - a`: right when both operands are one term), `lookup-unbound-one` (seed 002's `lookup`
reads 1, not 0, for an unbound identifier), `store-writes-index` (seed 002's `store` writes the
index, not the value, into the cell) or `lookupin-globals-first` (seed 002's `lookupIn` reads
a global before the running procedure's local of the same name), or
`purified-remainder-closed` (the solver's definition of a named `a % b` lets `r = b`: X-A1),
or `await-always-blocks` (the deadlock successor takes a thread at `await b` as blocked even
where `b` holds: B-X4).
The obligations of the wrong rule must be refuted, with a counterexample printed as IMP states.
"""

import sys
from dataclasses import replace

from symcert.checking import obligations
from symcert.verify import smtlib

from symcert.core import entailment, frames, guards, terms

from symcert.core.state import SymState
from symcert.core.symbolic import sym_beval
from symcert.engine import explore, threads
from symcert.lang.syntax import Add, Assume, Await, Bool, Int, Mul, Skip, Update, While
from symcert.seed002.terms import DATA_OPS
from symcert.solver import z3terms

_expand = explore._expand
_add = terms.add
_mul = terms.mul
_select = terms.select
_update = terms.update
_allocation = explore.allocation


def _while_exit_adds_guard(phi, store, frame, p, depth):  # type: ignore[no-untyped-def]
    out = _expand(phi, store, frame, p, depth)
    if isinstance(p, While):
        exit_ = out[1]
        out[1] = SymState(phi.extend(sym_beval(store, p.cond)), exit_.store, exit_.prog, depth,
                          frame=frame)
    return out


def _assume_ignores_condition(phi, store, frame, p, depth):  # type: ignore[no-untyped-def]
    if isinstance(p, Assume):
        return [SymState(phi, store, Skip(), depth, frame=frame)]
    return _expand(phi, store, frame, p, depth)


def _add_folds_minus(a, b):  # type: ignore[no-untyped-def]
    if isinstance(b, Int) and isinstance(a, Add) and isinstance(a.right, Int):
        return _add(a.left, Int(a.right.value - b.value))
    return _add(a, b)


def _mul_folds_plus(a, b):  # type: ignore[no-untyped-def]
    if isinstance(b, Int) and isinstance(a, Mul) and isinstance(a.right, Int):
        return _mul(a.left, Int(a.right.value + b.value))
    return _mul(a, b)


def _select_ignores_aliasing(a, i):  # type: ignore[no-untyped-def]
    while isinstance(a, Update) and a.index != i:
        a = a.array
    return _select(a, i)


def _update_ignores_aliasing(a, i, v):  # type: ignore[no-untyped-def]
    while isinstance(a, Update) and a.index != i and not isinstance(a.index, Int):
        a = a.array
    return _update(a, i, v)


def _guard_forgets_right(a, b):  # type: ignore[no-untyped-def]
    return terms.conj(a[0], b()[0]), a[1]


def _purified_remainder_closed(a, b):  # type: ignore[no-untyped-def]
    import z3
    div, mod = z3terms._named()
    q, r = div(a, b), mod(a, b)
    return z3.Implies(b != 0, z3.And(a == b * q + r, z3.If(b > 0, z3.And(0 <= r, r <= b),
                                                             z3.And(b < r, r <= 0))))


def _return_into_callee(frame, globals_, value):  # type: ignore[no-untyped-def]
    if frame.target is not None:
        frame, globals_ = frames.assign(frame, globals_, frame.target, value)
    return frame.below, globals_, frame.caller


mistake, *options = sys.argv[1:]
if mistake == "while-exit-adds-guard":
    explore._expand = _while_exit_adds_guard
elif mistake == "assume-ignores-condition":
    explore._expand = _assume_ignores_condition
elif mistake == "add-folds-minus":
    terms.add = _add_folds_minus
elif mistake == "mul-folds-plus":
    terms.mul = _mul_folds_plus
elif mistake == "euclidean-division":
    smtlib.SMT_TEXT.div = lambda a, b: f"(div {a} {b})"  # type: ignore[method-assign]
elif mistake == "purified-remainder-closed":
    z3terms.definition = _purified_remainder_closed
elif mistake == "return-into-callee":
    explore.leave = _return_into_callee  # the symbolic return only: the concrete one is right
elif mistake == "select-ignores-aliasing":
    terms.select = _select_ignores_aliasing
elif mistake == "less-answers-alias":
    entailment._ANSWERED["<"] = True
elif mistake == "new-forgets-fields":
    explore.allocation = lambda s, last: [a for a in _allocation(s, last)
                                          if not isinstance(a.expr, Update)]
elif mistake == "update-ignores-aliasing":
    terms.update = _update_ignores_aliasing
elif mistake == "guard-forgets-right":
    guards.GUARDS.and_ = _guard_forgets_right  # type: ignore[method-assign]
elif mistake == "minus-int-swapped":
    DATA_OPS["-Int"] = replace(DATA_OPS["-Int"], fn=lambda c, a, b: terms.TERMS.sub(b, a))
elif mistake == "lookup-unbound-one":
    DATA_OPS["lookup"] = replace(DATA_OPS["lookup"],
                                 fn=lambda c, m, x: dict(m.bindings).get(x.name, Int(1)))
elif mistake == "store-writes-index":
    DATA_OPS["store"] = replace(DATA_OPS["store"],
                                fn=lambda c, a, i, v: terms.TERMS.update(a, i, i))
elif mistake == "lookupin-globals-first":
    DATA_OPS["lookupIn"] = replace(DATA_OPS["lookupIn"], fn=lambda c, loc, glob, x: (
        glob if glob.binds(x.name) else loc).lookup(x.name))
elif mistake == "await-always-blocks":
    _blocked_when = threads.blocked_when
    threads.blocked_when = lambda state, i: (  # type: ignore[assignment]
        Bool(True) if isinstance(state.config.threads[i].prog, Await)
        else _blocked_when(state, i))
else:
    sys.exit(f"unknown mistake {mistake!r}")
sys.exit(obligations.main(options))
