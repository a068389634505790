# crosshair: off
# (it drives the z3 and cvc5 provers; its answers are checked by proofs/ and tests/proofs/)
"""The provers that discharge proof obligations: each reads the SMT-LIB text of `symcert.verify.smtlib`
itself (z3 through `from_string`, cvc5 through its own SMT-LIB parser), so neither prover's
Python API shapes what is proved. Besides `solver.py`, the only module that imports z3 (and the
only one that imports cvc5).
"""

from __future__ import annotations

from dataclasses import dataclass

VALID, INVALID, UNKNOWN = "valid", "invalid", "unknown"


@dataclass(frozen=True)
class ProverAnswer:
    """A prover's answer on a script: VALID (UNSAT), INVALID (SAT, with a model) or UNKNOWN."""

    status: str
    seconds: float
    model: dict[str, int | bool] | None = None


def z3_version() -> str:
    """The z3 version (from the z3-solver wheel)."""
    import z3

    return z3.get_full_version()


def cvc5_version() -> str:
    """The cvc5 version (from the cvc5 wheel)."""
    import cvc5

    return str(cvc5.__version__)


def prove_z3(text: str, rlimit: int) -> ProverAnswer:
    """Run z3 on the script text with a resource limit (`rlimit`, deterministic)."""
    import time

    import z3

    s = z3.Solver()
    s.set("random_seed", 0)
    s.set("rlimit", rlimit)
    start = time.perf_counter()
    s.from_string(text)
    answer = s.check()
    seconds = time.perf_counter() - start
    if answer == z3.unsat:
        return ProverAnswer(VALID, seconds)
    if answer == z3.sat:
        m = s.model()
        values: dict[str, int | bool] = {}
        for d in m.decls():
            v = m.get_interp(d)
            if z3.is_int_value(v):
                values[d.name()] = v.as_long()
            elif z3.is_true(v) or z3.is_false(v):
                values[d.name()] = z3.is_true(v)
        return ProverAnswer(INVALID, seconds, values)
    return ProverAnswer(UNKNOWN, seconds)


def prove_cvc5(text: str, rlimit: int) -> ProverAnswer:
    """Run cvc5 on the script text through its own SMT-LIB parser, with `rlimit-per`."""
    import time

    import cvc5

    tm = cvc5.TermManager()
    s = cvc5.Solver(tm)
    s.setOption("produce-models", "true")
    s.setOption("rlimit-per", str(rlimit))
    s.setOption("seed", "0")
    if "(set-logic" not in text:  # else cvc5 warns on stderr, and chooses ALL itself
        s.setLogic("ALL")
    sm = cvc5.SymbolManager(tm)
    parser = cvc5.InputParser(s, sm)
    parser.setStringInput(cvc5.InputLanguage.SMT_LIB_2_6, text, "obligation")
    answer = ""
    start = time.perf_counter()
    while True:
        cmd = parser.nextCommand()
        if cmd.isNull():
            break
        answer = cmd.invoke(s, sm).strip() or answer
    seconds = time.perf_counter() - start
    if answer == "unsat":
        return ProverAnswer(VALID, seconds)
    if answer == "sat":
        values: dict[str, int | bool] = {}
        for t in sm.getDeclaredTerms():
            v = s.getValue(t)
            name = t.getSymbol()
            if v.isIntegerValue():
                values[name] = int(v.getIntegerValue())
            elif v.isBooleanValue():
                values[name] = v.getBooleanValue()
        return ProverAnswer(INVALID, seconds, values)
    return ProverAnswer(UNKNOWN, seconds)
