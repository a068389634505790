"""Proof certificates (T-C1): what `symcert prove --certificate` writes and `symcert
check-certificate` re-checks without the symbolic engine.

A certificate (JSON, `FORMAT` version `VERSION`, docs/certificates.md) holds the program's text
and its SHA-256, the invariant of each loop (written in the program or inferred, marked which),
the procedures' contracts, and every proof obligation as SMT-LIB text with z3's and cvc5's
answers, in two groups:

- `engine`: the obligations of `engine.prove` (each failing leaf of the exhaustive symbolic
  execution, asked UNSAT), re-asked of both provers: `prove` says PROVED only when both prove
  every one of them (`double_check`);
- `wp`: the verification conditions of the weakest-precondition calculus (`verify.wp`), a
  second formulation that needs neither the engine nor its exploration.

`check` trusts none of the recorded answers and none of the recorded texts. It recomputes the
`wp` conditions from the program's text and the certificate's invariants, and the `engine`
group by exploring the program annotated with the certificate's inferred invariants and
contracts (`regenerate`); it refuses a certificate that lacks one of them, records another text
for one, records one the program does not give, or is for another program, and asks z3 and cvc5
again for every one.
"""

# crosshair: off
# (it drives both provers through verify.provers; tests/unit/test_certificate.py checks it)

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from symcert.verify.provers import (
    INVALID, VALID, ProverAnswer, cvc5_version, prove_cvc5, prove_z3, z3_version,
)
from symcert.verify.smtlib import Script, SmtText, purified
from symcert.core.algebra import fold_b
from symcert.verify.wp import Goal, OutsideFragment, vcs
from symcert.core.concrete import head
from symcert.engine.prove import Obligation, Proof
from symcert.lang.annotations import loops
from symcert.lang.errors import EXIT_BUG, EXIT_OK, EXIT_UNDECIDED, SymcertError, plural
from symcert.core.terms import free_vars
from symcert.lang.procedures import references, table_of
from symcert.lang.structure import reads
from symcert.lang.syntax import (
    ArrayVar, Assert, BExpr, Bool, Cmp, Fail, Int, Select, Stmt, Var, is_field,
)

FORMAT = "symcert-certificate"
VERSION = 1
RLIMIT = 20_000_000
"""Each prover's resource limit per obligation (deterministic, unlike a time limit)."""
MAX_STATES = 100_000
"""The budget of the exploration that makes the engine's obligations again (`prove`'s)."""
ENGINE, WP = "engine", "wp"
WRITTEN, INFERRED = "written", "inferred"


class CertificateError(SymcertError):
    """A certificate that is not one: not JSON, or a field missing or of the wrong type."""


@dataclass(frozen=True)
class Checked:
    """One obligation (SMT-LIB text, UNSAT when it holds) and both provers' answers."""

    group: str
    name: str
    smtlib: str
    z3: ProverAnswer
    cvc5: ProverAnswer

    @property
    def holds(self) -> bool:
        """Both provers proved it."""
        return self.z3.status == VALID and self.cvc5.status == VALID

    def failures(self) -> list[str]:
        """One sentence per prover that did not prove it, with its counterexample."""
        out = []
        for prover, answer in (("z3", self.z3), ("cvc5", self.cvc5)):
            if answer.status == INVALID:
                model = ", ".join(f"{x} = {v}" for x, v in sorted((answer.model or {}).items()))
                out.append(f"{prover} refutes it: counterexample {{{model}}}")
            elif answer.status != VALID:
                out.append(f"{prover} answers {answer.status}")
        return out


def discharge(group: str, name: str, text: str, rlimit: int = RLIMIT) -> Checked:
    """Ask z3 and cvc5 whether the script `text` is UNSAT."""
    return Checked(group, name, text, prove_z3(text, rlimit), prove_cvc5(text, rlimit))


class PurifiedText(SmtText):
    """SMT-LIB text with each `a / b` and `a % b` named, as the solver names them (X-A1's
    purified translation, `smtlib.purified`): fresh constants `div!k`, `mod!k` defined by
    `b ≠ 0 ⇒ a = b·q + r` and the range of `r`, which provers decide far faster than the
    `ite` of `div` and `mod` that floor division needs."""

    def __init__(self, script: Script) -> None:
        self.script = script
        self.definitions: list[str] = []
        self.named: dict[tuple[str, str], tuple[str, str]] = {}

    def _names(self, a: str, b: str) -> tuple[str, str]:
        if (a, b) not in self.named:
            k = len(self.named)
            q, r = self.script.declare(f"div!{k}", "Int"), self.script.declare(f"mod!{k}", "Int")
            self.named[a, b] = q, r
            self.definitions.append(purified(a, b, q, r))
        return self.named[a, b]

    def div(self, a: str, b: str) -> str:
        return self._names(a, b)[0]

    def mod(self, a: str, b: str) -> str:
        return self._names(a, b)[1]


def _script(hypotheses: Iterable[BExpr], goal: BExpr) -> str:
    """The script asserting `hypotheses` and the negation of `goal`, divisions named."""
    script = Script()
    text = PurifiedText(script)
    hyps = [fold_b(text, script, h) for h in hypotheses]
    claim = fold_b(text, script, goal)
    return script.text(hyps + text.definitions, claim)


def engine_text(ob: Obligation, refs: frozenset[str] = frozenset()) -> str:
    """The SMT-LIB script of an engine obligation: its failing state's path condition, with
    the range of the input references it reads, as the solver asks it (seed 003 §4, B-T4: an
    input reference `refs` names is nil or an input object, `>= 0`, never a new one)."""
    hyps: list[BExpr] = []
    for c in ob.state.pc.conjuncts():
        hyps.append(c)
        hyps += [Cmp(">=", Var(x), Int(0)) for x in sorted(free_vars(c) & refs)
                 if not is_field(x)]
        hyps += [Cmp(">=", Select(ArrayVar(a), i), Int(0)) for a, i in reads([c]) if a in refs]
    return _script(hyps, Bool(False))


def _engine_name(ob: Obligation, i: int) -> str:
    failing = head(ob.state.prog)
    what = failing.what() if isinstance(failing, Fail) else f"`{ob.statement}` fails"
    at = f"{ob.where.line}:{ob.where.column}: " if ob.where else ""
    return f"{at}{what}: unreachable on path {i}"


def double_check(p: Stmt, proof: Proof, rlimit: int = RLIMIT) -> tuple[Checked, ...]:
    """Each obligation the engine proved for `p`, asked again of z3 and of cvc5 on its
    SMT-LIB text."""
    refs = references(p)
    return tuple(discharge(ENGINE, _engine_name(ob, i), engine_text(ob, refs), rlimit)
                 for i, ob in enumerate(proof.proved, 1))


def goal_text(g: Goal) -> str:
    """The SMT-LIB script of a verification condition `H ⇒ G` (UNSAT when it is valid)."""
    return _script(g.hypotheses, g.goal)


def wp_check(p: Stmt, invariants: Mapping[int, BExpr],
             rlimit: int = RLIMIT) -> tuple[Checked, ...]:
    """The verification conditions of `p` under `invariants`, each asked of both provers.

    :raises OutsideFragment: when `p` is outside the calculus's fragment.
    """
    return tuple(discharge(WP, g.name, goal_text(g), rlimit) for g in vcs(p, invariants))


@dataclass(frozen=True)
class LoopInvariant:
    """Loop `index` (pre-order) at `line:column` and its invariant, written or inferred."""

    index: int
    line: int
    column: int
    invariant: str
    source: str


@dataclass(frozen=True)
class Recorded:
    """An obligation as a certificate records it."""

    group: str
    name: str
    smtlib: str
    z3: str
    cvc5: str


@dataclass(frozen=True)
class Certificate:
    """A PROVED verdict's evidence (module docstring); `outside` says why the `wp` group is
    empty when the program is outside the calculus's fragment."""

    sha256: str
    text: str
    invariants: tuple[LoopInvariant, ...]
    contracts: tuple[tuple[str, str | None, str | None], ...]
    obligations: tuple[Recorded, ...]
    provers: tuple[tuple[str, str], ...] = ()
    outside: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The JSON object (docs/certificates.md)."""
        return {
            "format": FORMAT, "version": VERSION,
            "program": {"sha256": self.sha256, "text": self.text},
            "provers": dict(self.provers),
            "invariants": [{"loop": i.index, "line": i.line, "column": i.column,
                            "invariant": i.invariant, "source": i.source}
                           for i in self.invariants],
            "contracts": [{"procedure": n, "requires": r, "ensures": e}
                          for n, r, e in self.contracts],
            "outside_wp": self.outside,
            "obligations": [{"group": o.group, "name": o.name, "smtlib": o.smtlib,
                             "z3": o.z3, "cvc5": o.cvc5} for o in self.obligations],
        }


def sha256(text: str) -> str:
    """The hex SHA-256 of a program's UTF-8 text."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def certify(text: str, p: Stmt, engine: Iterable[Checked],
            inferred: Mapping[int, BExpr] | None = None) -> tuple[Certificate, tuple[Checked, ...]]:
    """The certificate of a program `prove` proved, and its `wp` conditions as discharged.

    :param text: the program's source text; `p` its parse.
    :param engine: the engine's obligations as `double_check` discharged them.
    :param inferred: invariants of loops without a written one (loop index → invariant).
    """
    inferred = inferred or {}
    invariants = []
    for k, w in enumerate(loops(p)):
        inv = inferred.get(k, w.invariant() if w.invariants else None)
        if inv is not None:
            invariants.append(LoopInvariant(k, w.pos.line if w.pos else 0,
                                            w.pos.column if w.pos else 0, str(inv),
                                            INFERRED if k in inferred else WRITTEN))
    try:
        wp: tuple[Checked, ...] = wp_check(p, inferred)
        outside = None
    except OutsideFragment as e:
        wp, outside = (), str(e)
    contracts = tuple((q.name, None if q.requires is None else str(q.requires),
                       None if q.ensures is None else str(q.ensures))
                      for q in table_of(p).values())
    recorded = tuple(Recorded(c.group, c.name, c.smtlib, c.z3.status, c.cvc5.status)
                     for c in (*engine, *wp))
    provers = (("z3", z3_version()), ("cvc5", cvc5_version()))
    return Certificate(sha256(text), text, tuple(invariants), contracts, recorded, provers,
                       outside), wp


def _get(d: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if not isinstance(d, dict) or key not in d:
        raise CertificateError(f"malformed certificate: {where} has no `{key}`")
    value = d[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise CertificateError(f"malformed certificate: `{key}` of {where} has the wrong type")
    return value


def from_json(data: Any) -> Certificate:
    """The certificate a JSON value holds.

    :raises CertificateError: when it is not a certificate of this format and version.
    """
    if _get(data, "format", str, "the certificate") != FORMAT:
        raise CertificateError(f"not a certificate: its format is not {FORMAT!r}")
    version = _get(data, "version", int, "the certificate")
    if version != VERSION:
        raise CertificateError(f"certificate version {version} is not supported (this "
                               f"symcert reads version {VERSION})")
    program = _get(data, "program", dict, "the certificate")
    invariants = tuple(
        LoopInvariant(_get(i, "loop", int, "an invariant"), _get(i, "line", int, "an invariant"),
                      _get(i, "column", int, "an invariant"),
                      _get(i, "invariant", str, "an invariant"),
                      _source(_get(i, "source", str, "an invariant")))
        for i in _get(data, "invariants", list, "the certificate"))
    contracts = tuple((_get(c, "procedure", str, "a contract"),
                       _get(c, "requires", (str, type(None)), "a contract"),
                       _get(c, "ensures", (str, type(None)), "a contract"))
                      for c in _get(data, "contracts", list, "the certificate"))
    obligations = tuple(
        Recorded(_get(o, "group", str, "an obligation"), _get(o, "name", str, "an obligation"),
                 _get(o, "smtlib", str, "an obligation"), _get(o, "z3", str, "an obligation"),
                 _get(o, "cvc5", str, "an obligation"))
        for o in _get(data, "obligations", list, "the certificate"))
    provers = _get(data, "provers", dict, "the certificate")
    return Certificate(_get(program, "sha256", str, "the program"),
                       _get(program, "text", str, "the program"), invariants, contracts,
                       obligations, tuple((str(k), str(v)) for k, v in provers.items()),
                       _get(data, "outside_wp", (str, type(None)), "the certificate"))


def _source(s: str) -> str:
    if s not in (WRITTEN, INFERRED):
        raise CertificateError(f"malformed certificate: an invariant's source is {s!r}, "
                               f"neither {WRITTEN!r} nor {INFERRED!r}")
    return s


@dataclass(frozen=True)
class Outcome:
    """What `check` found: an exit code (0 valid, 1 invalid, 3 undecided) and what to say."""

    exit_code: int
    lines: tuple[str, ...]
    checked: tuple[Checked, ...] = ()


def check(cert: Certificate, text: str, p: Stmt, rlimit: int = RLIMIT,
          max_states: int = MAX_STATES) -> Outcome:
    """Re-check `cert` against the program `text` (parsed: `p`) (T-C1): every obligation it
    relies on is generated again from the program and the certificate's invariants and
    contracts, compared with the one recorded, and asked again of z3 and cvc5.

    :param max_states: the state budget of the exploration that generates the engine's
        obligations again.
    :raises CertificateError: when an invariant or a contract of the certificate is not an
        IMP formula, or an invariant names no loop of the program.
    """
    if sha256(cert.text) != cert.sha256:
        return Outcome(EXIT_BUG, ("invalid: the program text the certificate records does not "
                                  "have the SHA-256 it records (edited)",))
    if sha256(text) != cert.sha256:
        return Outcome(EXIT_BUG, (f"invalid: the certificate is for another program (its "
                                  f"sha256 {cert.sha256[:16]}…, the program's "
                                  f"{sha256(text)[:16]}…)",))
    invariants, wrong = _invariants(cert, p)
    if wrong is not None:
        return Outcome(EXIT_BUG, (f"invalid: {wrong}",))
    outside: OutsideFragment | None = None
    try:
        goals = vcs(p, invariants)
    except OutsideFragment as e:
        goals, outside = [], e
    results = [discharge(WP, g.name, goal_text(g), rlimit) for g in goals]
    refuted = [r for r in results if INVALID in (r.z3.status, r.cvc5.status)]
    engine: list[tuple[str, str]] | None = []
    if not refuted:
        engine, why, bad = regenerate(cert, p, invariants, max_states)
        if engine is None:
            return Outcome(EXIT_BUG if bad else EXIT_UNDECIDED, (
                f"{'invalid' if bad else 'undecided'}: the engine's obligations could not be "
                f"generated again: {why}",))
        recorded_engine = [(o.name, o.smtlib) for o in cert.obligations if o.group == ENGINE]
        differs = _difference(recorded_engine, engine)
        if differs is not None:
            return Outcome(EXIT_BUG, (f"invalid: {differs}",))
    results += [discharge(ENGINE, name, text, rlimit) for name, text in engine or ()]
    refuted = [r for r in results if INVALID in (r.z3.status, r.cvc5.status)]
    if refuted:
        r = refuted[0]
        return Outcome(EXIT_BUG, (f"invalid: {r.group} obligation `{r.name}`: "
                                  + "; ".join(r.failures()),), tuple(results))
    recorded = {(o.name, o.smtlib): o for o in cert.obligations if o.group == WP}
    for r in results[:len(goals)]:
        o = recorded.get((r.name, r.smtlib))
        if o is None:
            return Outcome(EXIT_BUG, (f"invalid: the certificate lacks the verification "
                                      f"condition `{r.name}` (or records another text for it)",))
        if (o.z3, o.cvc5) != (VALID, VALID):
            return Outcome(EXIT_BUG, (f"invalid: the certificate does not record `{r.name}` "
                                      f"as proved by both provers (z3 {o.z3}, cvc5 {o.cvc5})",))
    unknown = [r for r in results if not r.holds]
    if outside is not None:
        return Outcome(EXIT_UNDECIDED, (f"not checked: {outside} (docs/certificates.md); "
                                        f"{len(results) - len(unknown)} of its "
                                        f"{plural(len(results), 'engine obligation')} UNSAT "
                                        "for both provers, but without the calculus nothing "
                                        "shows that they are all there are",), tuple(results))
    if unknown:
        r = unknown[0]
        return Outcome(EXIT_UNDECIDED, (f"undecided: {r.group} obligation `{r.name}`: "
                                        + "; ".join(r.failures()),), tuple(results))
    wp_count = sum(r.group == WP for r in results)
    return Outcome(EXIT_OK, (f"valid: {plural(wp_count, 'verification condition')} of the wp "
                             f"calculus and {plural(len(results) - wp_count, 'engine obligation')}"
                             ", each UNSAT for z3 and for cvc5",), tuple(results))


def regenerate(cert: Certificate, p: Stmt, invariants: Mapping[int, BExpr],
               max_states: int = MAX_STATES
               ) -> tuple[list[tuple[str, str]] | None, str, bool]:
    """The engine's obligations as `prove` makes them for `p` annotated with the certificate's
    inferred invariants and contracts (`engine.prove`, then `engine_text` of each failing
    leaf, named as `double_check` names them); None, why, and whether the certificate is at
    fault (its contracts wrong for `p`, or a bug or a failing annotation where it claims a
    proof) when the exploration does not prove the annotated program."""
    from symcert.engine.prove import prove
    from symcert.engine.verdict import Kind
    from symcert.verify.inference import annotate
    from symcert.verify.summaries import annotate as with_contracts

    from symcert.engine.verdict import Cause

    contracts, wrong = _contracts(cert, p)
    if wrong is not None:
        return None, wrong, True
    inferred = {k: inv for k, inv in invariants.items() if not list(loops(p))[k].invariants}
    annotated = (with_contracts(p, contracts, inferred) if contracts
                 else annotate(p, inferred) if inferred else p)
    proof = prove(annotated, max_states)
    if proof.verdict.kind is not Kind.SAFE:
        reason = proof.verdict.reason
        bad = proof.verdict.kind is Kind.BUG or reason is not None and reason.cause in (
            Cause.INVARIANT, Cause.CONTRACT)
        return None, (f"the exploration of the program with the certificate's annotations "
                      f"ends {proof.verdict.kind.value}"
                      + (f" ({reason.message})" if reason is not None else "")), bad
    refs = references(p)
    return [(_engine_name(ob, i), engine_text(ob, refs))
            for i, ob in enumerate(proof.proved, 1)], "", False


def _difference(recorded: list[tuple[str, str]], made: list[tuple[str, str]]) -> str | None:
    """How the recorded engine obligations differ from those generated again, or None."""
    texts, kept = dict(made), dict(recorded)
    for name, smt in recorded:
        if texts.get(name, smt) != smt:
            return (f"the certificate records another text for the engine obligation "
                    f"`{name}` than the program and its invariants give (edited)")
    extra = [n for n in kept if n not in texts] + [n for n in texts if n not in kept]
    return None if not extra else (f"the certificate {'records' if extra[0] in kept else 'lacks'}"
                                   f" the engine obligation `{extra[0]}`"
                                   + (" the program has not" if extra[0] in kept else ""))


def _contracts(cert: Certificate, p: Stmt) -> tuple[dict[str, tuple[BExpr | None,
                                                                      BExpr | None]], str | None]:
    """The contracts the certificate gives procedures that have none written, parsed; or
    what makes its contracts wrong for `p` (a written one it changes, a procedure `p` lacks).
    """
    table = table_of(p)
    out: dict[str, tuple[BExpr | None, BExpr | None]] = {}
    for name, requires, ensures in cert.contracts:
        q = table.get(name)
        if q is None:
            return out, f"the certificate gives a contract to {name}, which the program lacks"
        given = (_formula(requires, q.params, name), _formula(ensures, q.params, name))
        if q.requires is not None or q.ensures is not None:
            if given != (q.requires, q.ensures):
                return out, f"the contract of {name} differs from the program's written one"
        elif given != (None, None):
            out[name] = given
    return out, None


def _formula(text: str | None, params: tuple[str, ...], proc: str) -> BExpr | None:
    """A clause of the contract of `proc` (parameters `params`), parsed as an `ensures`."""
    from symcert.lang.parser import ParseError, parse
    if text is None:
        return None
    try:
        stmt = parse(f"proc f({', '.join(params)}) ensures {text} begin skip end\nskip",
                     "<certificate>")
        q = table_of(stmt).get("f")
    except ParseError as e:
        raise CertificateError(f"malformed certificate: a clause of the contract of {proc} is "
                               f"not an IMP formula ({e.message})") from None
    assert q is not None and q.ensures is not None
    return q.ensures


def _invariants(cert: Certificate, p: Stmt) -> tuple[dict[int, BExpr], str | None]:
    """The certificate's invariants, parsed; or what makes them wrong for `p`."""
    from symcert.lang.errors import ParseError
    from symcert.lang.parser import parse

    whiles = list(loops(p))
    out: dict[int, BExpr] = {}
    for i in cert.invariants:
        if not 0 <= i.index < len(whiles):
            return out, f"the certificate names loop {i.index}; the program has {len(whiles)}"
        try:
            stmt = parse(f"assert {i.invariant}", "<certificate>")
        except ParseError as e:
            raise CertificateError(f"malformed certificate: the invariant of loop {i.index} "
                                   f"is not an IMP formula ({e.message})") from None
        if not isinstance(stmt, Assert):
            raise CertificateError(f"malformed certificate: the invariant of loop {i.index} "
                                   "is not a formula")
        w = whiles[i.index]
        if i.source == INFERRED and w.invariants:
            return out, (f"the certificate gives loop {i.index} an inferred invariant; the "
                         "program's is written (a written invariant is never replaced)")
        if i.source == WRITTEN and (not w.invariants or stmt.cond != w.invariant()):
            return out, (f"the invariant of loop {i.index} is marked written but differs from "
                         "the program's")
        out[i.index] = stmt.cond
    return out, None
