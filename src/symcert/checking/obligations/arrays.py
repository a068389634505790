# crosshair: off
"""Obligations about arrays (seed 003 §5): B-A1, the symbolic update of a subscripted variable
is the conditional `σ[a[e] = e'](a[i]) = if i = e then e' else σ(a[i])`, and a read is a
function of its index's value; B-H3, a read resolved along an update sequence (`terms.select`
over `terms.update`'s terms) denotes the substitution the sequence stands for, defined as the
seed does, by induction on the sequence (§4, "Implementation"), also where a literal of the path
condition resolves the read (`resolve-pc`). The engine's own smart
constructors build the terms; the indices take every shape they tell apart, integer literals
schematic, so their comparisons fork. The cases of the inductions on expressions for `a[e]`:
B-L1 (substitution, the read's concrete value SMT-LIB's `select` on the array's value) and
X-A2 (a read or a write fails exactly where its index or value does)."""

from __future__ import annotations

import itertools

from symcert.checking.obligations.common import (
    A_SHAPES, B_SHAPES, PHI, Draft, Obligation, collect, schematic_store, snum,
)
from symcert.checking.obligations.division import GUARD_SHAPES, _exact, _operand
from symcert.verify.smtlib import Script, equal, implies, sbool
from symcert.core import terms
from symcert.core.concrete import NO_CELLS, VALUES
from symcert.core.guards import GUARDS, TRUE
from symcert.core.state import SymState
from symcert.core.symbolic import sym_aeval
from symcert.engine.explore import expand
from symcert.lang.syntax import (
    AExpr, ArrayExpr, ArrayVar, Assign, Cmp, Int, Not, Select, Update, Var,
)
from symcert.spec.definedness import defined

A = ArrayVar("?A")
"""The array below the updates: arbitrary (an input array, or what a store binds)."""

INDICES = {**A_SHAPES, "same": A_SHAPES["term"]}
"""The index shapes: those of `A_SHAPES`, and `same`, which reads at the very index term the
(last) update wrote (`?t1`), where syntax alone decides."""


def _index(shape: str, i: int) -> AExpr:
    return INDICES[shape](1 if shape == "same" else i)


def conditional(s: Script, writes: list[tuple[AExpr, AExpr]], i: AExpr) -> str:
    """`ρ̄(a[i])` for the sequence of writes `ρ` over `?A` (seed 003 §4): `id(a[i]) = ?A[i]`,
    `ρ{a[e] = v}(a[i]) = if i = e then v else ρ(a[i])`, as SMT-LIB text."""
    text = f"(select {s.aexpr(A)} {s.aexpr(i)})"  # type: ignore[arg-type]
    for e, v in writes:
        text = f"(ite (= {s.aexpr(i)} {s.aexpr(e)}) {s.aexpr(v)} {text})"
    return text


def _sequence(writes: list[tuple[AExpr, AExpr]]) -> ArrayExpr:
    """The update sequence the engine builds for `writes` (`terms.update`, oldest first)."""
    array: ArrayExpr = A
    for e, v in writes:
        array = terms.update(array, e, v)
    return array


def b_a1() -> list[Obligation]:
    """B-A1 for each shape of the written and the read index: `terms.select` of one update is
    the conditional; and for two reads of one two-update sequence, equal indices give equal
    values (`V(e) = V(e') ⇒ V(a[e]) = V(a[e'])`)."""
    out: list[Obligation] = []
    for we, ri in itertools.product(A_SHAPES, INDICES):
        def update(we: str = we, ri: str = ri) -> list[Draft]:
            s = Script()
            writes = [(_index(we, 1), Var("?v1"))]
            i = _index(ri, 2)
            read = terms.select(_sequence(writes), i)
            return [Draft("B-A1", "update", s, [],
                          equal(s.aexpr(read), conditional(s, writes, i)), value=read)]
        out += collect(f"{we}+{ri}", update)
    for r1, r2 in itertools.combinations_with_replacement(INDICES, 2):
        def congruence(r1: str = r1, r2: str = r2) -> list[Draft]:
            s = Script()
            array = _sequence([(Int(snum("?k3")), Var("?v3")), (Var("?t1"), Var("?v1"))])  # type: ignore[arg-type]
            i, j = _index(r1, 2), _index(r2, 4)
            first, second = terms.select(array, i), terms.select(array, j)
            return [Draft("B-A1", "congruence", s, [],
                          implies(equal(s.aexpr(i), s.aexpr(j)),
                                  equal(s.aexpr(first), s.aexpr(second))), value=first)]
        out += collect(f"{r1}+{r2}", congruence)
    return out


SEQUENCE_SHAPES = ("int", "add-int", "term")
"""The index shapes of B-H3's sequences: a literal, a literal apart from a term, a term."""


def b_h3() -> list[Obligation]:
    """B-H3 for every sequence of two writes and a read, each index of `SEQUENCE_SHAPES` (the
    read's also `same`): the engine's resolved read denotes `ρ̄(a[i])`."""
    out: list[Obligation] = []
    for w1, w2, ri in itertools.product(SEQUENCE_SHAPES, SEQUENCE_SHAPES,
                                        SEQUENCE_SHAPES + ("same",)):
        def resolve(w1: str = w1, w2: str = w2, ri: str = ri) -> list[Draft]:
            s = Script()
            writes = [(_index(w1, 3), Var("?v3")), (_index(w2, 1), Var("?v1"))]
            i = _index(ri, 2)
            read = terms.select(_sequence(writes), i)
            return [Draft("B-H3", "resolve", s, [],
                          equal(s.aexpr(read), conditional(s, writes, i)), value=read)]
        out += collect(f"{w1}+{w2}+{ri}", resolve)
    return out


FACTS = {"eq": lambda e, i: Cmp("==", e, i), "ne": lambda e, i: Cmp("!=", e, i),
         "lt": lambda e, i: Cmp("<", i, e), "not-eq": lambda e, i: Not(Cmp("==", i, e))}
"""The literals of `φ` that answer an alias question (core/entailment.py), over a written
index `e` and the read's `i`, each way round."""


def b_h3_path_condition() -> list[Obligation]:
    """B-H3 with the path condition (seed 003 §4's `ρ ⊢`): for every two-write sequence of
    `SEQUENCE_SHAPES`, a read at a term or apart from one, and a literal of `FACTS` about the
    read's index and either write's, `expand` runs `x = a[r]` from `φ ∧ literal` (its reads
    resolved by `resolve_reads`) and the value it gives `x` denotes `ρ̄(a[i])` wherever the
    literal holds."""
    out: list[Obligation] = []
    for w1, w2, ri, fact, which in itertools.product(
            SEQUENCE_SHAPES, SEQUENCE_SHAPES, ("term", "add-int"), FACTS, (0, 1)):
        def resolve(w1: str = w1, w2: str = w2, ri: str = ri, fact: str = fact,
                    which: int = which) -> list[Draft]:
            s = Script()
            writes = [(_index(w1, 3), Var("?v3")), (_index(w2, 1), Var("?v1"))]
            i = _index(ri, 2)
            literal = FACTS[fact](writes[which][0], i)
            store = schematic_store(("a", _sequence(writes)), ("r", i))  # type: ignore[arg-type]
            state = SymState(PHI.extend(literal), store, Assign("x", Select(ArrayVar("a"),
                                                                            Var("r"))))
            (t,) = expand(state)
            read = t.store("x")
            return [Draft("B-H3", "resolve-pc", s, [s.bexpr(literal)],
                          equal(s.aexpr(read), conditional(s, writes, i)), state, (), t,
                          read)]
        out += collect(f"{w1}+{w2}+{ri}+{fact}-w{which + 1}", resolve)
    return out


ARRAY_SHAPES: dict[str, ArrayExpr | None] = {
    "input": None,
    "update-int": Update(ArrayVar("?a"), Int(snum("?k5")), Var("?v5")),  # type: ignore[arg-type]
    "update-term": Update(ArrayVar("?a"), Var("?t5"), Var("?v5")),
}
"""What a store binds the array `?a` to: nothing (the input array) or an update sequence whose
last index is a literal or a term."""


def b_l1_select() -> list[Obligation]:
    """B-L1's case `a[e]`: `⟦⟦a[e]⟧_S⟧_{V0} = (V0∘S)(a)[⟦e⟧_{V0∘S}]`, per shape of `S(a)` and of
    `⟦e⟧_S`, the induction hypotheses `ih_a = ⟦S(a)⟧_{V0}` and `ih1 = ⟦S(e)⟧_{V0}`."""
    out: list[Obligation] = []
    for sa, sh in itertools.product(ARRAY_SHAPES, A_SHAPES):
        def build(sa: str = sa, sh: str = sh) -> list[Draft]:
            s = Script()
            bound = ARRAY_SHAPES[sa]
            store = schematic_store(("?e1", A_SHAPES[sh](1)),
                                    *((("?a", bound),) if bound is not None else ()))  # type: ignore[arg-type]
            e = Select(ArrayVar("?a"), Var("?e1"))
            value = sym_aeval(store, e)
            ih_a, ih1 = s.declare("ih_a", "(Array Int Int)"), s.declare("ih1", "Int")
            hyps = [equal(ih_a, s.aexpr(terms.array_term("?a", store("?a")))),  # type: ignore[arg-type]
                    equal(ih1, s.aexpr(store("?e1")))]
            return [Draft("B-L1", "Select", s, hyps, equal(s.aexpr(value), f"(select {ih_a} {ih1})"),
                          SymState(PHI, store, Assign("?r", e)), ("?e1",), None, value)]
        out += collect(f"{sa}+{sh}", build)
    return out


def x_a2_arrays() -> list[Obligation]:
    """X-A2's cases `a[e]` and `a[e] = v`: the guard (`guards.GUARDS`) holds iff the concrete
    read or write has a value, per shape of the operands' guards; operand `i` concretely fails
    unless `?d_i`, and `?d_i ⇔ ok_i` (the induction hypothesis)."""
    out: list[Obligation] = []
    for case, arity in (("Select", 1), ("Update", 2)):
        for combo in itertools.product(GUARD_SHAPES, repeat=arity):
            def build(case: str = case, combo: tuple[str, ...] = combo) -> list[Draft]:
                s = Script()
                oks = [B_SHAPES[gs](i + 3) for i, gs in enumerate(combo)]
                ds = [sbool(f"?d{i + 1}") for i in range(len(combo))]
                hyps = [equal(s.bool_value(d), s.bexpr(ok)) for d, ok in zip(ds, oks)]
                operands = [(Var(f"?t{i + 1}"), ok) for i, ok in enumerate(oks)]
                values = [lambda d=d: _operand(d, snum("ih")) for d in ds]
                if case == "Select":
                    guard = GUARDS.select((A, TRUE), operands[0])[1]
                    has_value = defined(lambda: VALUES.select(NO_CELLS, values[0]()))
                else:
                    guard = GUARDS.update((A, TRUE), *operands)[1]
                    has_value = defined(lambda: (values[0](), values[1]()))
                return [_exact(s, hyps, guard, has_value is not None, case)]
            out += collect("+".join(f"ok-{gs}" for gs in combo), build)
    return out
