"""Symbolic states `⟨φ, S, p⟩` of seed 000 (Sect. 1.3, Fig. 3): path conditions, stores, states,
concretization `V∘S` (W-D2.2) and what a valuation satisfies.

Path conditions grow by appending one conjunct (DESIGN rule 4), so W-L2.2 has a syntactic
witness: the parent's conjuncts are a prefix of the child's. `rule_count` says how many
successors Fig. 3 gives a program (zero for a finished or stuck one, one more where a division
may fail, X-A2); `explore.expand` computes them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator, Mapping

from symcert.core import entailment, terms
from symcert.core.concrete import Cells, Env, aeval, beval
from symcert.core.frames import Frame
from symcert.core.guards import may_fail_at
from symcert.core.threads import Thread, Threads, futures, is_threaded, settle
from symcert.lang.procedures import allocates
from symcert.core.algebra import bound
from symcert.lang.quantifiers import quantifiers
from symcert.lang.structure import reads, variables
from symcert.lang.syntax import (
    CLASS,
    ALLOC,
    AExpr,
    Assert,
    Assign,
    Assume,
    BExpr,
    Call,
    Fail,
    If,
    Int,
    New,
    Return,
    Seq,
    Skip,
    Stmt,
    Update,
    Var,
    While,
    is_field,
)
from symcert.lang.sharing import shape
from symcert.spec.concretization import concretize_pointwise
from symcert.spec.switch import CONTRACTS, icontract


@dataclass(frozen=True, slots=True, eq=False)
class PathCondition:
    """A path condition `φ`: a conjunction kept as a persistent list of conjuncts.

    A child shares its parent's list and adds one cell, so memory per state is what the step
    added and `extends` (W-L2.2) is a pointer walk. Equality is iterative. The hash combines
    the parent's with the last conjunct's `syntax.shape` and is stored at construction: it holds
    no literal value and no name, so it stays a concrete int when CrossHair makes them symbolic
    (a stored hash of symbolic values crashed it: contracts/README.md).

    The literals that answer an alias question (entailment.py) are likewise those of the parent
    and of the last conjunct: `facts` counts them and `older` links to the newest proper
    ancestor whose last conjunct holds one, so reading them skips every other conjunct. Both
    are computed at construction from the parent's and hold no term value.
    """

    last: BExpr | None = None
    parent: PathCondition | None = None
    length: int = 0
    _shape: int = field(default=0, compare=False, repr=False)
    facts: int = field(default=0, compare=False, repr=False)
    older: PathCondition | None = field(default=None, compare=False, repr=False)

    @staticmethod
    def of(*conjuncts: BExpr) -> PathCondition:
        """The path condition with these conjuncts, in order."""
        pc = TRUE_PC
        for c in conjuncts:
            pc = pc.extend(c)
        return pc

    def extend(self, conjunct: BExpr) -> PathCondition:
        """`φ and conjunct`."""
        older = self if self.parent is not None and self.facts > self.parent.facts else self.older
        return PathCondition(conjunct, self, self.length + 1,
                             hash((self._shape, shape(conjunct))),
                             self.facts + len(entailment.literals(conjunct)), older)

    def conjuncts(self) -> tuple[BExpr, ...]:
        """The conjuncts, oldest first."""
        out: list[BExpr] = []
        pc: PathCondition | None = self
        while pc is not None and pc.last is not None:
            out.append(pc.last)
            pc = pc.parent
        return tuple(reversed(out))

    def ancestor(self, length: int) -> PathCondition:
        """The prefix of this path condition with `length` conjuncts."""
        pc = self
        while pc.length > length and pc.parent is not None:
            pc = pc.parent
        return pc

    def extends(self, other: PathCondition) -> bool:
        """Whether `other`'s conjuncts are a prefix of this one's (so `self ⊨ other`)."""
        return self.length >= other.length and self.ancestor(other.length) == other

    def __hash__(self) -> int:
        return self._shape

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PathCondition):
            return NotImplemented
        a, b = self, other
        while a is not b:
            if a.length != b.length or a._shape != b._shape or a.last != b.last:
                return False
            if a.parent is None or b.parent is None:
                return a.parent is b.parent
            a, b = a.parent, b.parent
        return True

    def __str__(self) -> str:
        parts = self.conjuncts()
        return " and ".join(f"({terms.show(c)})" for c in parts) if parts else "true"


TRUE_PC = PathCondition()


@dataclass(frozen=True, slots=True)
class Store:
    """A symbolic store `S`: a finite map; unmapped variables map to themselves (`id`)."""

    bindings: tuple[tuple[str, AExpr], ...] = ()

    @staticmethod
    def of(terms_: Mapping[str, AExpr]) -> Store:
        """The store with these bindings (a variable bound to itself is the identity)."""
        return Store(tuple(sorted((k, t) for k, t in terms_.items() if t != Var(k))))

    def __call__(self, name: str) -> AExpr:
        for k, v in self.bindings:
            if k == name:
                return v
        return Var(name)

    def update(self, name: str, term: AExpr) -> Store:
        """`S[name := term]`; binding a variable to itself restores the identity."""
        rest = tuple((k, v) for k, v in self.bindings if k != name)
        if term == Var(name):
            return Store(rest)
        return Store(tuple(sorted(rest + ((name, term),))))

    def __str__(self) -> str:
        return "{" + ", ".join(f"{k} ↦ {terms.show(v)}" for k, v in self.bindings) + "}"


ID = Store()


@dataclass(frozen=True, slots=True)
class SymState:
    """A symbolic state `σ̂ = ⟨φ, S, p⟩`.

    `depth` counts the `→sym` steps from the initial state, `model` is a valuation known to
    satisfy `φ` (or None), `ghost` the concrete input that follows this path (ghost.py); none
    takes part in equality: they describe how the state was found.
    """

    pc: PathCondition
    store: Store
    prog: Stmt
    depth: int = field(default=0, compare=False)
    model: Env | None = field(default=None, compare=False, repr=False)
    ghost: Env | None = field(default=None, compare=False, repr=False)
    """A ghost interpretation ρ of the symbolic inputs with `ρ ⊨ φ` (seed 004, M-I1), or None."""
    frame: Frame[Store] | None = None
    config: Threads | None = None
    """With threads (seed 003 §5): every thread and the schedule that reached the state; then
    `prog` and `frame` are thread 0's, or `prog` is the `fail` the configuration is stuck at."""


def initial(p: Stmt) -> SymState:
    """The initial state `⟨true, id, p⟩`; a program that makes objects starts with no new
    object yet, `ALLOC ↦ 0` (seed 003 §4: an initial valuation names no fresh object, so the
    counter is no input); a program with threads starts as the configuration of its main
    thread, every future 0 (seed 003 §5)."""
    store = Store.of({ALLOC: Int(0)}) if allocates(p) else ID
    if not is_threaded(p):
        return SymState(TRUE_PC, store, p)
    for f in futures(p):
        store = store.update(f, Int(0))
    main = settle(p)
    return SymState(TRUE_PC, store, main, config=Threads((Thread(main),)))


@icontract.ensure(concretize_pointwise, "W-D2.2 store concretization", enabled=CONTRACTS)
def concretize(valuation: Env, store: Store, names: frozenset[str]) -> Env:
    """`V∘S` restricted to `names` (W-D2.2): `(V∘S)(x) = ⟦S(x)⟧_V`."""
    return Env.of({x: aeval(valuation, store(x)) for x in names})


def concretize_frames(valuation: Env, frame: Frame[Store] | None,
                      memo: dict[int, Frame[Env]] | None = None) -> Frame[Env] | None:
    """`V∘Σ` (seed 003 Thm. 3): every frame's local store `τ` replaced by `V∘τ` on the
    procedure's locals; built bottom-up without recursion.

    :param memo: maps `id(f)` of frames already concretized at `valuation` to their
        concretization, while those frames stay alive: a step changes the top frame only, so
        the states of one step share the frames below, each concretized once.
    """
    stack: list[Frame[Store]] = []
    out: Frame[Env] | None = None
    while frame is not None:
        if memo is not None and id(frame) in memo:
            out = memo[id(frame)]
            break
        stack.append(frame)
        frame = frame.below
    for f in reversed(stack):
        out = Frame(f.proc, concretize(valuation, f.locals, f.proc.locals), f.target, f.caller,
                    out, f.height)
        if memo is not None:
            memo[id(f)] = out
    return out


def frames(frame: Frame[Store] | None) -> Iterator[Frame[Store]]:
    """The frames of a stack, top first."""
    while frame is not None:
        yield frame
        frame = frame.below


def satisfies(valuation: Env, pc: PathCondition) -> bool:
    """`⟦φ⟧_V = true`, the conjuncts read oldest first: a conjunct's divisions are guarded by
    the conjuncts before it (X-A2), so the reading never divides by zero."""
    return all(beval(valuation, c) for c in pc.conjuncts())


def witness_input(model: Env, pc: PathCondition) -> Env:
    """The concrete input a model of `pc` stands for: its integers, and of each input array only
    the cells `pc` reads, each read's index valued by the model (B-A1), every other cell 0 (a
    solver's array may have another default, which no concrete input has), but a field's cell
    at a new object (a negative index): the program wrote it when it made the object (B-H2), so
    the run never reads it from the input. `pc` reads nothing else, so the concrete run from
    this input takes the path of `pc` (W-T3.5)."""
    values = {k: v for k, v in model.bindings if not isinstance(v, Cells)}
    cells: dict[str, dict[int, int]] = {}
    for env, read in [(model, reads(pc.conjuncts())), *_quantified_reads(model, pc)]:
        for name, index in read:
            try:
                at = aeval(env, index)  # type: ignore[arg-type]
            except ZeroDivisionError:  # behind a short-circuit the evaluation does not reach
                continue
            if at < 0 and is_field(name):
                continue  # a new object's field: written before any read (B-H2), no input
            array = model(name)
            cells.setdefault(name, {})[at] = array(at) if isinstance(array, Cells) else 0
    return Env.of({**values, **{name: Cells.of(c) for name, c in cells.items()}})


QUANTIFIED_CELLS = 100_000
"""The most values of a quantifier's range at which `witness_input` reads its cells."""


def _quantified_reads(model: Env, pc: PathCondition) -> Iterator[tuple[object, list]]:
    """For each quantifier of `pc` (X-Q1) and each value `v` of its range in `model` (the
    first `QUANTIFIED_CELLS`), the model with its variable bound to `v` and the reads of its
    body: the cells the quantifier reads are the input's too."""
    for c in pc.conjuncts():
        for q in quantifiers(c):
            try:
                lo, hi = aeval(model, q.lo), aeval(model, q.hi)
            except ZeroDivisionError:
                continue
            inner = reads([q.body])
            for v in range(lo, min(hi, lo + QUANTIFIED_CELLS - 1) + 1):
                yield bound(model, q.var, v), inner


def valid_heap(env: Env, references: frozenset[str], classes: int = 0) -> bool:
    """Whether an input's references are nil or input objects (seed 003 §4): every reference
    variable and every cell of a reference field's map is 0 or positive, never a new object;
    with `classes`, each input object's class given is one of them (B-O4)."""
    if classes:
        tags = env(CLASS)
        if isinstance(tags, Cells) and any(i > 0 and not 0 <= v < classes
                                           for i, v in tags.cells):
            return False
    for name in references:
        value = env(name)
        if isinstance(value, Cells):
            if value.default < 0 or any(v < 0 for _, v in value.cells):
                return False
        elif value < 0:
            return False
    return True


def pc_names(pc: PathCondition) -> frozenset[str]:
    """The symbolic inputs a path condition mentions."""
    out: frozenset[str] = frozenset()
    for c in pc.conjuncts():
        out |= terms.free_vars(c)
    return out


def state_names(s: SymState) -> frozenset[str]:
    """Every variable a symbolic state mentions: program, store (both sides), path condition,
    and its frames' locals, terms and continuations."""
    out = variables(s.prog) | pc_names(s.pc)
    for k, t in s.store.bindings:
        out |= {k} | terms.free_vars(t)
    for f in frames(s.frame):
        out |= variables(f.caller) | {f.target} - {None}  # type: ignore[operator]
        for k, t in f.locals.bindings:
            out |= terms.free_vars(t)
    return out


def rule_count(p: Stmt, in_procedure: bool = False) -> int:
    """How many successors the rules of Fig. 3 (and seed 003 §3's, `in_procedure` where a
    frame runs `p`) give a state with program `p`."""
    while isinstance(p, Seq) and not isinstance(p.first, Skip):
        p = p.first
    match p:
        case Skip():
            return int(in_procedure)  # the end of a procedure's body returns 0
        case Fail():
            return 0
        case Seq():
            return 1
        case Call() if p.name in p.procs and p.procs[p.name].requires is not None:  # `P` broken
            return 2 + may_fail_at(p)
        case Assign() | Assume() | Call() | Return() | New():
            return 1 + may_fail_at(p)  # X-A2: and `fail` where a divisor may be 0
        case While(invariants=clauses) if clauses:  # and `fail` where the invariant does not hold
            return 3 + may_fail_at(p)
        case If() | While() | Assert():
            return 2 + may_fail_at(p)
    raise TypeError(f"not a statement: {p!r}")



def rules_of(s: SymState) -> int:
    """`rule_count` of a state: how many successors `expand` gives it (0 for a leaf)."""
    return rule_count(s.prog, s.frame is not None)


def fact_literals(pc: PathCondition) -> list[BExpr]:
    """The literals of `pc` that answer an alias question, oldest conjunct first; only the
    conjuncts that hold one are visited (`PathCondition.older`)."""
    nodes: list[PathCondition] = []
    node = pc if pc.parent is not None and pc.facts > pc.parent.facts else pc.older
    while node is not None:
        nodes.append(node)
        node = node.older
    return [lit for n in reversed(nodes) for lit in entailment.literals(n.last)]  # type: ignore[arg-type]


def may_answer(s: SymState) -> bool:
    """Whether `s`'s path condition holds a literal that answers an alias question and its
    store binds an update sequence (a read can go past one only then); constant in `φ`."""
    return bool(s.pc.facts) and any(type(v) is Update for _, v in s.store.bindings)


def read_facts(s: SymState) -> list[BExpr]:
    """The literals of `s`'s path condition that answer an alias question, oldest conjunct
    first; none unless `may_answer(s)`."""
    return fact_literals(s.pc) if may_answer(s) else []
