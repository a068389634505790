"""Deliberately wrong invariant and contract transitions, then a replay of their obligations by
z3: `python wrong_havoc.py MISTAKE` prints the refuted obligations, one name a line (without
the path's digest), then `N obligations`.

Run as a script by test_loop_obligations.py, in its own process with contracts off. MISTAKE is
`none` (the engine's transitions, both lemmas), `invariant-forgets-written` (T-I1 havocs
nothing: the written `x` keeps its value on entry), `exit-skips-invariant` (T-I1's exit assumes
`I` on entry and `¬b` after the havoc, but not `I` there) or `summary-forgets-written` (T-S1
havocs only the result: the global the callee writes keeps its value).
"""

import sys
from dataclasses import replace

from symcert.checking.obligations import problems, replay
from symcert.checking.obligations.calls import t_s1
from symcert.checking.obligations.loops import rule, t_i1
from symcert.checking.obligations.record import PROVERS
from symcert.core.concrete import head
from symcert.core.guards import assuming, may_fail
from symcert.core.symbolic import sym_beval, sym_guard
from symcert.core.terms import conj, negate
from symcert.engine import contracts, invariants

_expand_invariant = invariants.expand_invariant


def _exit_skips_invariant(state):  # type: ignore[no-untyped-def]
    loop = head(state.prog)
    out = _expand_invariant(state)
    for i, t in enumerate(out):
        if rule(t.prog) == "exit":
            exit_ = negate(sym_beval(t.store, loop.cond))
            if may_fail(loop.cond):
                exit_ = assuming(sym_guard(t.store, loop.cond), exit_)
            entry = sym_beval(state.store, loop.invariant())
            out[i] = replace(t, pc=state.pc.extend(conj(entry, exit_)))
    return out


mistake = sys.argv[1]
generate = {"none": lambda: t_i1() + t_s1(), "summary-forgets-written": t_s1}.get(mistake, t_i1)
if mistake == "invariant-forgets-written":
    invariants.havocked = lambda loop, p: frozenset()
elif mistake == "exit-skips-invariant":
    invariants.expand_invariant = _exit_skips_invariant
    import symcert.checking.obligations.loops as loops
    loops.expand_invariant = _exit_skips_invariant
elif mistake == "summary-forgets-written":
    contracts.writes = lambda q: frozenset()
elif mistake != "none":
    sys.exit(f"unknown mistake {mistake!r}")
obs = generate()
_, verdicts = replay(obs, PROVERS[:1])
errors, undecided = problems(obs, verdicts, [])
for name in sorted({e.split(": ")[0].split("#")[0] for e in errors + undecided}):
    print(name)
print(f"{len(obs)} obligations")
