"""The independence oracle (checking/independence.py), B-X5's premise judged on the concrete
configurations: on generated concurrent programs (checking/generate_threads.py) every pair of
steps the reduction calls independent commutes and every persistent singleton stays enabled and
commutes with the others' steps; and for each kind of statement a planted wrong footprint (its
reads or its writes forgotten by engine/por.py) is caught by the oracle."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from symcert.checking import generate, generate_threads
from symcert.checking.independence import Independence, check_independence, kind
from symcert.core.concrete import Env
from symcert.core.threads import Thread
from symcert.engine import por
from symcert.lang.parser import parse
from symcert.lang.procedures import statements, table_of
from symcert.lang.structure import inputs
from symcert.lang.syntax import Stmt

sys.path.insert(0, str(Path(__file__).resolve().parent))
from strategies import generated  # noqa: E402

SHAPE = generate_threads.THREAD_SHAPE
ISSUE_40 = """proc p() begin return 1 end
proc r() begin w = v; assert w == 0 end
v = 0;
f = spawn p();
g = spawn r();
v = get f"""


@st.composite
def programs_and_inputs(draw: st.DrawFn) -> tuple[Stmt, Env]:
    p = draw(generated(generate_threads.program, SHAPE))
    sigma = draw(generated(lambda c, shape: generate.env(c, shape, sorted(inputs(p))), SHAPE))
    return p, sigma


@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
@given(programs_and_inputs())
@example((parse(ISSUE_40), Env.of({})))
def test_steps_called_independent_commute_on_the_concrete_configurations(case):
    """B-X5's premise: every claim of independence and persistence holds concretely."""
    p, sigma = case
    found = check_independence(p, sigma, walks=6, max_pairs=150)
    assert found.miss is None, found.miss
    assert found.configurations >= 1


Footprint = tuple[frozenset, frozenset]


def _kind_of(s: Stmt) -> str:
    return kind(Thread(s))


def forgetting(monkeypatch: pytest.MonkeyPatch, which: str, part: int) -> None:
    """Plant a wrong footprint: statements of kind `which` read (`part` 0) or write (1)
    nothing, in a step's footprint (`por.step`) and in a thread's future (`por._simple`)."""
    real_step, real_simple = por.step, por._simple

    def drop(f: Footprint) -> Footprint:
        return (frozenset(), f[1]) if part == 0 else (f[0], frozenset())

    def step(t: Thread, store: object) -> Footprint:
        f = real_step(t, store)  # type: ignore[arg-type]
        return drop(f) if kind(t) == which else f

    def simple(s: Stmt) -> Footprint:
        f = real_simple(s)
        return drop(f) if _kind_of(s) == which else f

    monkeypatch.setattr(por, "step", step)
    monkeypatch.setattr(por, "_simple", simple)


OBJ = "class Node(val, next)\n"
PLANTED: dict[tuple[str, str], str] = {
    ("assign", "reads"): "proc w() begin y = x end\nspawn w();\nx = 1",
    ("assign", "writes"): "proc w() begin y = x end\nspawn w();\nx = 1",
    ("array", "reads"): "proc w() begin b[0] = x end\nspawn w();\nx = 1",
    ("array", "writes"): "proc w() begin b[0] = 1 end\nspawn w();\ny = b[0]",
    ("field", "reads"): OBJ + "proc w() begin r.val = x end\nr = new Node;\nspawn w();\nx = 1",
    ("field", "writes"): OBJ + "proc w() begin r.val = 1 end\nr = new Node;\nspawn w();\n"
                               "y = r.val",
    ("new", "writes"): OBJ + "proc w() begin r = new Node end\nr = new Node;\nr.val = 5;\n"
                             "spawn w();\ny = r.val",
    ("assert", "reads"): "proc w() begin x = 1 end\nspawn w();\nassert x == 0",
    ("assume", "reads"): "proc w() begin x = 1 end\nspawn w();\nassume x == 0",
    ("if", "reads"): "proc w() begin x = 1 end\nspawn w();\nif x == 0 then y = 1 else y = 2 fi",
    ("while", "reads"): "proc w() begin z = 1 end\nspawn w();\nwhile z < 1 do z = 1 od",
    ("call", "reads"): "proc q() requires g == 1 begin skip end\nproc r() begin g = 1 end\n"
                       "spawn r();\nq()",
    ("call", "writes"): "proc h() begin return 1 end\nproc w() begin y = x end\nspawn w();\n"
                        "x = h()",
    ("return", "reads"): "proc p() begin return x end\nf = spawn p();\nx = 1;\nv = get f",
    ("return", "writes"): "proc p() begin return 1 end\nf = spawn p();\nv = get f",
    ("end", "writes"): "proc p() begin skip end\nf = spawn p();\nv = get f",
    ("spawn", "reads"): "proc w(k) begin skip end\nproc u() begin x = 1 end\nspawn u();\n"
                        "spawn w(x)",
    ("spawn", "writes"): "proc p() begin skip end\nproc w() begin v = get f end\nspawn w();\n"
                         "f = spawn p()",
    ("get", "reads"): "proc p() begin return 1 end\nf = spawn p();\nv = get f",
    ("get", "writes"): ISSUE_40,
    ("await", "reads"): "proc w() begin x = 1 end\nspawn w();\nawait x == 1",
    ("await-then", "reads"): "proc w() begin x = 1 end\nspawn w();\nawait x == 1 then y = 1 end",
    ("await-then", "writes"): "proc w() begin await true then x = 1 end end\nspawn w();\ny = x",
}
"""For each kind of statement and each half of its footprint, a program where forgetting it
makes the reduction call two steps independent that do not commute (a kind missing here has
no such half: a `new` also writes what it reads, `assume`, `assert`, `if`, `while` and `await`
write nothing, a local's reads and writes are the thread's own)."""


def oracle(text: str) -> Independence:
    return check_independence(parse(text), Env.of({}), walks=8, max_pairs=200)


@pytest.mark.parametrize("which, part", sorted(PLANTED), ids=lambda x: x)
def test_a_planted_wrong_footprint_is_caught(which, part, monkeypatch):
    """With the right footprints the oracle finds nothing on the program; with the reads or
    writes of one kind of statement forgotten it refutes a claim of the reduction."""
    text = PLANTED[(which, part)]
    assert oracle(text).miss is None
    assert {kind(Thread(s)) for s in _statements(text)} >= {which}
    forgetting(monkeypatch, which, 0 if part == "reads" else 1)
    found = oracle(text)
    assert found.miss is not None and not found.ghost, found


def _statements(text: str) -> list[Stmt]:
    p = parse(text)
    return [s for root in [p, *(q.body for q in table_of(p).values())]
            for s in statements(root)]


def test_every_kind_is_planted_on_the_side_it_has():
    """Each kind of statement that reads or writes a global has a planted case for it."""
    assert {k for k, _ in PLANTED} >= {"assign", "array", "field", "new", "assert", "assume",
                                        "if", "while", "call", "return", "end", "spawn", "get",
                                        "await", "await-then"}

