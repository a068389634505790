"""G-M1 by a second formulation: the valuation `ϑ` commutes with each data operation of a
defined language, `ϑ(f^sym(t̄)) = f^D(ϑ(t̄))`, with `f^sym` the interpretation the rewrite engine
runs (`seed002.terms.DATA_OPS` on terms over symbolic values) and `f^D` Python's own integers,
booleans and dicts (written here, apart from both `DATA_OPS` and the SMT-LIB of the proof
obligations), on random values."""

from __future__ import annotations

import operator

from hypothesis import assume, given
from hypothesis import strategies as st

from symcert.core.concrete import Env, aeval, beval
from symcert.core.terms import TERMS
from symcert.lang.syntax import Bool, Int, Var
from symcert.seed002.terms import BOOL, DATA_OPS, Id, MapValue, data_sort

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
