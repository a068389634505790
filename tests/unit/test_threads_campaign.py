"""The generator of concurrent programs (checking/generate_threads.py) and the campaign's checks
of threads (checking/concurrency.py: `por`, B-X5; `threads`, T-D2/T-D3 on configurations)."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import icontract
import pytest

from symcert.checking import campaign, concurrency, generate_threads
from symcert.checking.generate import RandomChoices
from symcert.core.concrete import Env
from symcert.engine import explore, por
from symcert.lang.parser import parse
from symcert.lang.procedures import show_program, statements, table_of
from symcert.lang.syntax import Await, Skip, Spawn, Update
from symcert.solver.z3backend import Solver

SHAPE = generate_threads.THREAD_SHAPE

LOST_WRITE = """proc w0(k, t) begin x = 1 end
proc w1(k, t) begin x = 2 end
f0 = spawn w0(0, 0);
f1 = spawn w1(0, 0);
v = get f0;
v = get f1;
assert x == 2"""
"""Two workers write `x`: the assertion fails only when `w1` writes first, an order a reduction
that calls two writes of one variable independent never explores."""


def _programs(n: int, seed: int = 0) -> list:
    return [campaign.numbered(seed, i, SHAPE)[0] for i in range(n)]


def test_programs_are_deterministic_print_back_and_use_every_thread_statement():
    """Program i of a seed is the same in every call; it prints to source that parses back to
    the same text; together they have spawns with and without futures, gets, both awaits, locks,
    loops, ifs, array writes and asserts."""
    ps = _programs(60)
    assert ps == _programs(60)
    assert _programs(3, seed=1) != ps[:3]
    seen: Counter[str] = Counter()
    for p in ps:
        text = show_program(p)
        assert show_program(parse(text)) == text
        for root in [p, *(q.body for q in table_of(p).values())]:
            for s in statements(root):
                seen[type(s).__name__] += 1
                if isinstance(s, Spawn):
                    seen["future" if s.target else "no future"] += 1
                if isinstance(s, Await):
                    seen["await" if isinstance(s.body, Skip) else "await then"] += 1
                if getattr(s, "expr", None) is not None and isinstance(s.expr, Update):
                    seen["array write"] += 1
    for kind in ("future", "no future", "Get", "await", "await then", "While", "If",
                 "array write", "Assert"):
        assert seen[kind] > 0, kind


def test_every_schedule_ends_and_some_programs_deadlock():
    """Bounded by construction: every schedule of every program ends (the enumeration of the
    configurations finishes); some programs deadlock under some schedule, some end normally."""
    kinds: Counter[str] = Counter()
    for i in range(40):
        p, sigmas = campaign.numbered(0, i, SHAPE)
        found = concurrency.endings(p, sigmas[0])
        assert found is not None
        kinds.update(e[0] for e in found)
    assert kinds["deadlock"] and kinds["end"] and kinds["fail"]


def test_the_checks_of_threads_agree_on_generated_programs():
    """`campaign --checks por,threads` finds no disagreement on the first programs of seed 0,
    each drawn from the concurrent generator."""
    report = campaign.campaign(4, 0, None, ("por", "threads"))
    assert report.programs == 4 and not report.counts


@pytest.mark.parametrize("check", [concurrency.check_por, concurrency.check_threads])
def test_a_reduction_that_calls_two_writes_independent_is_caught(check, monkeypatch):
    """Both checks pass on `LOST_WRITE` and fail once two writes of one variable count as
    independent (only a read against a write is a conflict)."""
    p = parse(LOST_WRITE)
    sigma = [campaign.random_input(RandomChoices(random.Random(0)), p, SHAPE)]
    assert check(p, sigma, Solver()) is None
    monkeypatch.setattr(por, "independent",
                        lambda a, b, pc=None: not (a[1] & b[0] or b[1] & a[0]))
    found = check(p, sigma, Solver())
    assert found is not None and ("B-X5" in found.kind or "T-D2" in found.kind), found


def test_the_threads_check_follows_every_schedule_with_ghosts(monkeypatch):
    """`threads` starts with ghost mode over every schedule (engine/ghost_threads.py): a global
    step that loses the second worker's write is caught there, before any solver is asked."""
    p = parse(LOST_WRITE)
    real = explore.expand_config
    monkeypatch.setattr(explore, "expand_config", lambda s, local: [
        replace(c, store=s.store) if c.config.schedule[-1:] == (2,) else c
        for c in real(s, local)])
    found = concurrency.check_threads(p, [Env()], Solver())
    assert found is not None and "M-P3/M-P4" in found.kind and "thread 2" in found.detail


def test_the_checks_of_the_seed004_interpreter_skip_programs_with_threads():
    """`interp` and `verdicts` compare with the seed-004 interpreter, a big-step semantics of one
    thread: a program with threads is skipped, where the bare check stops at the interpreter."""
    p = parse(LOST_WRITE)
    assert campaign.check_program(p, [Env()], Solver(), ("interp", "verdicts")) is None
    with pytest.raises((icontract.ViolationError, TypeError)):
        campaign.check_interp(p, [Env()], Solver())


def test_the_thread_checks_skip_sequential_programs_and_refuse_company():
    """The checks of threads leave a program without threads alone (the campaign's set-up runs
    them on `skip`), and the campaign command refuses them beside the other checks."""
    from symcert.cli.main import main

    assert concurrency.check_por(Skip(), [], Solver()) is None
    assert concurrency.check_threads(Skip(), [], Solver()) is None
    assert main(["campaign", "--checks", "main,por", "--programs", "1", "--workers", "1"]) == 2


def test_the_oracle_command_checks_the_global_step_and_catches_a_wrong_reduction(
        tmp_path, monkeypatch, capsys):
    """`symcert oracle` on a program with threads: the configurations against every concrete
    schedule (T-D2) and each leaf's model (T-D3), with and without the reduction; it holds on
    `LOST_WRITE` and finds the ending a reduction that calls two writes independent loses."""
    from symcert.cli.main import main

    path = tmp_path / "lost_write.imp"
    path.write_text(LOST_WRITE)
    assert main(["oracle", str(path), "--runs", "3"]) == 0
    assert "(--por on)\n    exhaustive: held on 3 inputs" in capsys.readouterr().out
    monkeypatch.setattr(por, "independent",
                        lambda a, b, pc=None: not (a[1] & b[0] or b[1] & a[0]))
    assert main(["oracle", str(path), "--runs", "3"]) == 1
    assert "exhaustive: NO, counterexample: input" in capsys.readouterr().out
