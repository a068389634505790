"""G-M1 by a second formulation: the valuation `ϑ` commutes with each data operation of a
defined language, `ϑ(f^sym(t̄)) = f^D(ϑ(t̄))`, with `f^sym` the interpretation the rewrite engine
runs (`seed002.terms.DATA_OPS` on terms over symbolic values) and `f^D` Python's own integers,
booleans and dicts (written here, apart from both `DATA_OPS` and the SMT-LIB of the proof
obligations), on random values."""

from __future__ import annotations

import operator

from hypothesis import assume, given
from hypothesis import strategies as st

from symcert.core.concrete import Cells, Env, aeval, beval
from symcert.core.terms import TERMS
from symcert.lang.syntax import ArrayVar, Bool, Int, Var
from symcert.seed002.terms import BOOL, DATA_OPS, ArraysValue, Id, MapValue, data_sort

F_D = {
    "+Int": operator.add, "-Int": operator.sub, "*Int": operator.mul,
    "/Int": operator.floordiv, "%Int": operator.mod,
    "<Int": operator.lt, "<=Int": operator.le, ">Int": operator.gt, ">=Int": operator.ge,
    "==Int": operator.eq, "=/=Int": operator.ne,
    "notBool": operator.not_, "andBool": lambda a, b: a and b, "orBool": lambda a, b: a or b,
    "==Bool": operator.eq, "=/=Bool": operator.ne,
}
"""`f^D` of Int's and Bool's operations: Python's (floor `//` and `%`, as X-A1)."""

NAMES = ("a", "b", "c")
values = st.integers(-50, 50)


@st.composite
def int_terms(draw):
    """A term of sort Int: a constant, a symbolic value, or one plus a constant."""
    x = Var(draw(st.sampled_from(NAMES)))
    return draw(st.sampled_from([Int(draw(values)), x, TERMS.add(x, Int(draw(values)))]))


@st.composite
def bool_terms(draw):
    """A term of sort Bool: a constant or a comparison of Int terms."""
    return draw(st.one_of(st.builds(Bool, st.booleans()),
                          st.builds(lambda a, b: TERMS.cmp("<", a, b), int_terms(), int_terms())))


def value(t, theta):
    """`ϑ(t)` for a datum of sort Int or Bool, as a Python value."""
    return beval(theta, t) if data_sort(t) == BOOL else aeval(theta, t)


@given(st.sampled_from(sorted(F_D)), st.data(), st.fixed_dictionaries({x: values for x in NAMES}))
def test_valuation_commutes_with_int_and_bool_operations(name, data, env):
    """Each operation of Int and Bool on constants, symbolic values and compound terms."""
    op = DATA_OPS[name]
    args = [data.draw(int_terms() if sort == "Int" else bool_terms()) for sort in op.args]
    theta = Env.of(env)
    concrete = [value(a, theta) for a in args]
    if name in ("/Int", "%Int"):
        assume(concrete[1] != 0)  # partial (X-A2): the rules keep a zero divisor away
    assert value(op.fn(None, *args), theta) == F_D[name](*concrete)


@given(st.dictionaries(st.sampled_from(NAMES), int_terms()), st.sampled_from(NAMES + ("d",)),
       int_terms(), st.fixed_dictionaries({x: values for x in NAMES}))
def test_valuation_commutes_with_map_operations(bindings, x, v, env):
    """`lookup` (0 when unbound) and `update` on a map of symbolic values, against a dict."""
    theta = Env.of(env)
    m = MapValue(tuple(sorted(bindings.items())))
    d = {k: aeval(theta, t) for k, t in bindings.items()}
    assert aeval(theta, DATA_OPS["lookup"].fn(None, m, Id(x))) == d.get(x, 0)
    updated = DATA_OPS["update"].fn(None, m, Id(x), v)
    assert {k: aeval(theta, t) for k, t in updated.bindings} == {**d, x: aeval(theta, v)}
    assert DATA_OPS["==Id"].fn(None, Id(x), Id("a")) == Bool(x == "a")
    assert DATA_OPS["=/=Id"].fn(None, Id(x), Id("a")) == Bool(x != "a")
    assert DATA_OPS["field"].fn(None, Id(x)) == Id("." + x)  # seed 003 §4: the map `.x`


@given(st.dictionaries(st.sampled_from(NAMES), int_terms()),
       st.dictionaries(st.sampled_from(NAMES), int_terms()), st.sampled_from(NAMES + ("d",)),
       int_terms(), st.fixed_dictionaries({x: values for x in NAMES}))
def test_valuation_commutes_with_scope_operations(local, glob, x, v, env):
    """Seed 003 §3's scope `τ ∪ σ`: `lookupIn` (τ's binding first, 0 when neither binds),
    `updateBound` (τ changed only where it binds) and `updateFree` (σ changed only where τ
    does not bind), against dicts."""
    theta = Env.of(env)
    tau, sigma = (MapValue(tuple(sorted(m.items()))) for m in (local, glob))
    t = {k: aeval(theta, u) for k, u in local.items()}
    s = {k: aeval(theta, u) for k, u in glob.items()}
    w = aeval(theta, v)
    assert aeval(theta, DATA_OPS["lookupIn"].fn(None, tau, sigma, Id(x))) == \
        (t[x] if x in t else s.get(x, 0))
    bound = DATA_OPS["updateBound"].fn(None, tau, Id(x), v)
    assert {k: aeval(theta, u) for k, u in bound.bindings} == ({**t, x: w} if x in t else t)
    free = DATA_OPS["updateFree"].fn(None, tau, sigma, Id(x), v)
    assert {k: aeval(theta, u) for k, u in free.bindings} == (s if x in t else {**s, x: w})


WINDOW = range(-120, 121)
"""The cells compared: every index a term of `int_terms` takes (the rest are the input's)."""


@st.composite
def array_terms(draw):
    """A term of sort Array: the input array `arr` under up to three updates."""
    a = ArrayVar("arr")
    for _ in range(draw(st.integers(0, 3))):
        a = TERMS.update(a, draw(int_terms()), draw(int_terms()))
    return a


def function(theta, a):
    """`ϑ(a)` as a Python function, by the update sequence's meaning (seed 003 §4): the input
    array's cells for `arr`, `ϑ(a[i := v])(j) = ϑ(v) if j = ϑ(i) else ϑ(a)(j)`."""
    if isinstance(a, ArrayVar):
        cells = dict(theta(a.name).cells) if isinstance(theta(a.name), Cells) else {}
        return lambda j: cells.get(j, 0)
    below = function(theta, a.array)
    i, v = aeval(theta, a.index), aeval(theta, a.value)
    return lambda j: v if j == i else below(j)


@given(array_terms(), int_terms(), int_terms(), st.fixed_dictionaries({x: values for x in NAMES}),
       st.dictionaries(st.integers(-5, 5), values))
def test_valuation_commutes_with_array_operations(a, i, v, env, cells):
    """`select` and `store` (seed 003 §5) on update sequences over the input array `arr`, and
    `lookupArray`/`updateArray` on the arrays of a program (an unbound name its input array),
    against Python functions and dicts."""
    theta = Env.of({**env, "arr": Cells.of(cells)})
    f, j, w = function(theta, a), aeval(theta, i), aeval(theta, v)
    assert aeval(theta, DATA_OPS["select"].fn(None, a, i)) == f(j)
    stored = aeval(theta, DATA_OPS["store"].fn(None, a, i, v))
    assert [stored(k) for k in WINDOW] == [w if k == j else f(k) for k in WINDOW]
    arrays = ArraysValue((("a", a),), True)
    for name, expected in (("a", f), ("arr", function(theta, ArrayVar("arr")))):
        read = aeval(theta, DATA_OPS["lookupArray"].fn(None, arrays, Id(name)))
        assert [read(k) for k in WINDOW] == [expected(k) for k in WINDOW]
    written = DATA_OPS["updateArray"].fn(None, arrays, Id("c"), a)
    assert dict(written.bindings) == {"a": a, "c": a} and written.symbolic
