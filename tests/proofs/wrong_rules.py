"""A deliberately wrong while-exit rule (the guard added instead of its negation), then a replay.

Run as a script by test_obligations.py, in its own process with contracts off: the obligations
of the wrong rule must be refuted, with a counterexample printed as IMP states.
"""

import sys

from symcert import explore, obligations
from symcert.symbolic import SymState, sym_beval
from symcert.syntax import While

_right = explore._expand


def _wrong(phi, store, p, depth):  # type: ignore[no-untyped-def]
    out = _right(phi, store, p, depth)
    if isinstance(p, While):
        exit_ = out[1]
        out[1] = SymState(phi.extend(sym_beval(store, p.cond)), exit_.store, exit_.prog, depth)
    return out


explore._expand = _wrong
sys.exit(obligations.main(sys.argv[1:]))
