"""Campaign checks of the invariant and contract transitions (T-I1, T-S1) and of the derived
engine's annotations on generated programs (`symcert campaign --checks
invariants,summaries,derived-annotated`).

- `invariants`: each bounded loop `k = 0; while k < N [and b] do S; k = k + 1 od` of the
  campaign's program gets the invariant `0 <= k and k <= N`, which holds, and one time in
  three a random condition besides, which may not (a wrong invariant is a concrete failure at
  the loop's head, which the engine must report or leave undecided, never call safe). On the
  annotated program `q`: the transition `abstraction.abstracted` must be exhaustive at every
  input (T-D2); `check(q)` must not say SAFE where a concrete run from an input fails or where
  the program without annotations has a bug; every bug it reports must replay concretely.
- `summaries`: a program drawn from the campaign's program (its text seeds the draw) in the
  form of `tests/properties/test_contract_summaries.py`: a loop-free `f(x, y)` of one to three
  paths, each writing the global `g` and returning, whose contract is its strongest
  postcondition (the disjunction over its paths of the path's condition, `g`'s and `result`'s
  values), called directly or through `w`, which only calls `f` (so `g` is a global a callee
  writes), then an assertion: half of the time the last call's postcondition (which holds),
  else a random comparison (a program with a contract already, as the shrinker's candidates
  are, is checked itself). The transition must be exhaustive at random inputs; summarised and
  inlined runs must give the same verdict; a SAFE one no concrete run contradicts; every bug
  replayed.
- `derived-annotated`: the IMP engine derived from the shipped `imp.sem` (seed 002) against the
  hand-written one (`agreement.compare`: pointwise at every input, the verdicts at the first)
  on the program annotated: its bounded loops as for `invariants`, each procedure given
  `requires d >= 0` (true at every generated call) and one time in three a random condition
  besides (which may fail at a call), and one time in two a random `ensures` (which neither
  concrete semantics checks); a program with neither loop nor procedure is left to `derived`.
"""

from __future__ import annotations

import random
import re
from dataclasses import replace
from typing import Any, Callable

from symcert.checking.abstraction import abstracted
from symcert.checking.agreement import compare, imp
from symcert.checking.generate import Choices, RandomChoices, Shape, bexpr
from symcert.checking.oracles import Counterexample, check_exhaustiveness
from symcert.core.concrete import Ending, Env, run_to_end
from symcert.core.state import initial
from symcert.engine.contracts import contracted, summaries
from symcert.engine.verdict import Budget, Kind, Verdict, check
from symcert.lang.parser import parse
from symcert.lang.annotations import RESULT
from symcert.lang.procedures import show_program, table_of
from symcert.lang.syntax import Stmt
from symcert.solver.z3backend import Solver

Found = tuple[str, Stmt, Env, str]
"""A disagreement's kind, program, input and detail (`campaign.Disagreement`'s fields)."""

Check = Callable[[Stmt, list[Env], Solver], Any]

MAX_STATES = 500
FUEL = 2000

_LOOP = re.compile(r"^(\s*while ([kc]\d+) < (-?\d+)(?:(?! invariant ).)*) do$", re.M)
"""A bounded loop's head as `show_program` prints it, not yet annotated."""
_PROC = re.compile(r"^proc (\w+)\(d, a\) begin$", re.M)
"""A generated procedure's head as `show_program` prints it, without a contract."""


def with_invariants(p: Stmt, c: Choices, shape: Shape) -> Stmt | None:
    """`p` with each bounded loop not yet annotated annotated (module docstring), None when
    it has no loop."""
    text = show_program(p)

    def annotate(m: re.Match[str]) -> str:
        inv = f"0 <= {m[2]} and {m[2]} <= {m[3]}"
        if c.integer(0, 2) == 0:
            total = replace(shape, divisions=False, objects=False)  # an annotation is total
            inv += f" invariant {bexpr(c, total, 0)}"
        return f"{m[1]} invariant {inv} do"

    return parse(_LOOP.sub(annotate, text)) if "while " in text else None


def with_contracts(p: Stmt, c: Choices, shape: Shape) -> Stmt | None:
    """`p` with each generated procedure given a contract (module docstring), None when it
    has none."""
    text = show_program(p)
    params = ("d",) if shape.objects else ("d", "a")  # `a` may be a reference
    plain = replace(shape, names=shape.names + params, divisions=False, arrays=(),
                    objects=False)

    def annotate(m: re.Match[str]) -> str:
        pre = "d >= 0" + (f" and {bexpr(c, plain, 0)}" if c.integer(0, 2) == 0 else "")
        post = (f" ensures {bexpr(c, replace(plain, names=plain.names + (RESULT,)), 0)}"
                if c.integer(0, 1) else "")
        return f"proc {m[1]}(d, a) requires {pre}{post} begin"

    return parse(_PROC.sub(annotate, text)) if _PROC.search(text) else None


def _choices(p: Stmt) -> RandomChoices:
    return RandomChoices(random.Random(show_program(p)))


def _fails(q: Stmt, sigma: Env) -> bool:
    final = run_to_end(sigma, q, FUEL)
    return final is not None and final.ending is Ending.FAIL


def _sound(kind: str, q: Stmt, verdict: Verdict, sigmas: list[Env]) -> Found | None:
    """A SAFE verdict no run from `sigmas` contradicts; every bug replayed concretely."""
    for sigma in sigmas:
        if verdict.kind is Kind.SAFE and _fails(q, sigma):
            return (f"{kind}: SAFE, but a concrete run fails", q, sigma, "")
    for bug in verdict.bugs:
        if not _fails(q, bug.input):
            return (f"{kind}: a bug that does not replay", q, bug.input, bug.describe())
    return None


def _exhaustive(kind: str, q: Stmt, sigmas: list[Env], solver: Solver) -> Found | None:
    t = abstracted(q, MAX_STATES, solver, samples=0)
    start = (initial(q),)
    for sigma in sigmas:
        found = check_exhaustiveness(t, start, sigma, FUEL)
        if isinstance(found, Counterexample):
            return (f"{kind} not exhaustive (T-D2)", q, sigma, str(found))
    return None


def check_invariants(p: Stmt, sigmas: list[Env], solver: Solver, shape: Shape) -> Found | None:
    """T-I1 on `p`'s bounded loops annotated (module docstring)."""
    q = with_invariants(p, _choices(p), shape)
    if q is None:
        return None
    found = _exhaustive("invariant transition (T-I1)", q, sigmas, solver)
    if found is not None:
        return found
    verdict = check(q, Budget(MAX_STATES), solver)
    found = _sound("T-I1", q, verdict, sigmas)
    if found is None and verdict.kind is Kind.SAFE:
        plain = check(parse(show_program(p)), Budget(MAX_STATES), solver)
        if plain.kind is Kind.BUG:
            return ("T-I1: SAFE with invariants, a bug without", q, plain.bugs[0].input,
                    plain.bugs[0].describe())
    return found


def _linear(c: Choices, names: tuple[str, ...]) -> str:
    v, w, k = names[c.integer(0, len(names) - 1)], names[c.integer(0, len(names) - 1)], \
        c.integer(-3, 3)
    return (v, f"{v} + {k}", f"{v} - {w}", str(k))[c.integer(0, 3)]


def _comparison(c: Choices, names: tuple[str, ...]) -> str:
    op = ("<", "<=", "==", "!=")[c.integer(0, 3)]
    return f"{_linear(c, names)} {op} {_linear(c, names)}"


def contract_program(c: Choices) -> str:
    """A program whose procedure's contract is its strongest postcondition (module docstring)."""
    names = ("x", "y", "h")
    body, post, taken = "", [], []
    paths = c.integer(1, 3)
    for i in range(paths):
        cond, g, r = _comparison(c, names), _linear(c, names), _linear(c, names)
        last = i == paths - 1
        branch = f"g = {g}; return {r}"
        body += branch if last else f"if {cond} then {branch} else "
        here = " and ".join(taken + ([] if last else [cond]))
        post.append(f"({here + ' and ' if here else ''}g == {g} and result == {r})")
        taken.append(f"not ({cond})")
    body += " fi" * (paths - 1)
    pre = ("", " requires x >= -2", " requires x != y")[c.integer(0, 2)]
    contract = f"{pre} ensures {' or '.join(post)}"
    callee = ("f", "w")[c.integer(0, 1)]
    twice = c.integer(0, 1) == 1
    calls = f"z = {callee}(a, b); u = f(z, a)" if twice else f"z = {callee}(a, b)"
    last = {"x": "z", "y": "a", "result": "u"} if twice else {"x": "a", "y": "b", "result": "z"}
    claim = (re.sub(r"\b(x|y|result)\b", lambda m: last[m[1]], " or ".join(post))
             if c.integer(0, 1) else _comparison(c, ("a", "b", "h", "g", "z", "k")))
    return (f"proc f(x, y){contract} begin {body} end\n"
            f"proc w(x, y){contract} begin var t = f(x, y); return t end\n"
            f"k = g; {calls};\nassert {claim}")


def check_summaries(p: Stmt, sigmas: list[Env], solver: Solver) -> Found | None:
    """T-S1 on a program with the strongest contracts (module docstring); on `p` itself and
    its inputs when it has a contract already (the shrinker checks such a program again)."""
    c = _choices(p)
    r = p if any(map(contracted, table_of(p).values())) else parse(contract_program(c))
    inputs = sigmas if r is p else [Env.of({x: c.integer(-5, 5) for x in ("a", "b", "h", "g")})
                                    for _ in range(len(sigmas))]
    found = _exhaustive("contract transition (T-S1)", r, inputs, solver)
    if found is not None:
        return found
    summarised = check(r, Budget(MAX_STATES), solver)
    with summaries(False):
        inlined = check(r, Budget(MAX_STATES), solver)
    decided = {v.kind for v in (summarised, inlined)} - {Kind.UNDECIDED}
    if len(decided) > 1 or summarised.kind is Kind.UNDECIDED:
        return ("T-S1: summarised and inlined verdicts differ", r, inputs[0],
                f"summarised {summarised.kind.name}, inlined {inlined.kind.name}")
    return _sound("T-S1", r, summarised, inputs)


def check_derived(p: Stmt, sigmas: list[Env], shape: Shape) -> Found | None:
    """The derived engine against the hand-written one on `p` annotated (module docstring)."""
    imp()  # derived once per process, before the campaign forks a child per program
    c = _choices(p)
    looped = with_invariants(p, c, shape) or p
    q = with_contracts(looped, c, shape) or looped
    if q is p and not any(map(contracted, table_of(p).values())):  # the shrinker's are checked
        return None
    for i, sigma in enumerate(sigmas):
        found = compare(q, sigma, FUEL, MAX_STATES if i == 0 else None)
        if not found.agree:
            return ("derived and hand-written engines disagree on annotations (W-T3.1)", q,
                    sigma, str(found.disagreement))
    return None


def checks(make: Callable[..., Any], shape: Shape) -> dict[str, Check]:
    """The three checks for the campaign's table, each disagreement made by `make`."""
    def made(found: Found | None) -> Any:
        return None if found is None else make(*found)

    return {"invariants": lambda p, sigmas, solver: made(check_invariants(p, sigmas, solver,
                                                                          shape)),
            "summaries": lambda p, sigmas, solver: made(check_summaries(p, sigmas, solver)),
            "derived-annotated": lambda p, sigmas, solver: made(check_derived(p, sigmas, shape))}
