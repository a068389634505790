"""Ghost mode for configurations of threads (engine/ghost_threads.py: seed 004's M-P3 and M-P4
over the global step B-X1 to B-X4), on the case studies of examples/threads/, and the planted
faults it catches."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from symcert.core.concrete import Env
from symcert.core.threads import ScheduleError, run_schedule
from symcert.engine import explore, ghost_threads
from symcert.engine.ghost_threads import (
    check_ghost_schedule, check_ghost_schedules, concretize_config, ghost_start,
    ghost_successors,
)
from symcert.engine.threads import expand_config
from symcert.lang.parser import parse
from symcert.lang.syntax import Fail

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "threads"
WRITER = parse((EXAMPLES / "input_and_schedule_buggy.imp").read_text())
"""`y = 0; spawn writer(x); assert y != 13` with `writer(v)`: `y = v; y = 0`."""
FAILING = [0, 0, 1, 0]
"""The main thread sets `y`, spawns the writer, which sets `y = x`; the main thread asserts."""


def test_the_ghost_follows_a_schedule_to_the_failure():
    """Along the witness schedule from `x = 13` the ghost configuration is the concrete one at
    every step, and its ghost successors lead to the failing assertion; from `x = 12`, or with
    the main thread's assertion before the writer's step, they do not."""
    for rho, schedule, fails in (({"x": 13}, FAILING, True), ({"x": 12}, FAILING, False),
                                 ({"x": 13}, [0, 0, 0, 1], False)):
        assert check_ghost_schedule(WRITER, Env.of(rho), schedule) is None
        _, g = ghost_start(WRITER, Env.of(rho))
        for i in schedule:
            g = next(s for s in ghost_successors(g, explore.successors())
                     if s.config.schedule[-1] == i)
        assert isinstance(g.prog, Fail) == fails


def test_a_schedule_that_names_a_blocked_thread_is_refused():
    with pytest.raises(ScheduleError):
        check_ghost_schedule(WRITER, Env(), [1])


@pytest.mark.parametrize("name", sorted(p.name for p in EXAMPLES.glob("*_buggy.imp"))
                         + ["issue_two_bugs.imp"])
def test_every_schedule_of_each_case_study(name):
    """Every interleaving of each case study with a bug, from an input its assertions care
    about, to its end: the full global step against core/threads.py, M-P3 and M-P4."""
    found = check_ghost_schedules(parse((EXAMPLES / name).read_text()),
                                  Env.of({"x": 13, "n": 2}), 40)
    assert found.miss is None
    assert found.complete and found.pairs > 5


def _drop_worker_writes(state, local):
    """A global step whose worker threads' writes to the globals are lost."""
    return [replace(s, store=state.store) if s.config.schedule[-1:] == (1,) else s
            for s in expand_config(state, local)]


def _swap_workers(state, local):
    """A global step that labels thread 1's successors as thread 2's and back."""
    swap = {1: 2, 2: 1}
    out = []
    for s in expand_config(state, local):
        sched = s.config.schedule
        if len(sched) > len(state.config.schedule) and sched[-1] in swap:
            s = replace(s, config=replace(s.config, schedule=sched[:-1] + (swap[sched[-1]],)))
        out.append(s)
    return out


def _no_deadlock(state, local):
    """A global step that never finds a deadlock (B-X4's successor dropped)."""
    return [s for s in expand_config(state, local)
            if not (isinstance(s.prog, Fail) and s.prog.deadlock)]


@pytest.mark.parametrize("fault, name, rho, lemma", [
    (_drop_worker_writes, "input_and_schedule_buggy.imp", {"x": 13}, "M-P4"),
    (_swap_workers, "counter_buggy.imp", {}, "M-P3"),
    (_no_deadlock, "philosophers_buggy.imp", {}, "M-P3"),
], ids=["a worker's write dropped", "two threads' steps swapped", "no deadlock successor"])
def test_the_ghost_check_catches_a_wrong_global_step(fault, name, rho, lemma, monkeypatch):
    p = parse((EXAMPLES / name).read_text())
    assert check_ghost_schedules(p, Env.of(rho), 40).miss is None
    monkeypatch.setattr(explore, "expand_config", fault)
    found = check_ghost_schedules(p, Env.of(rho), 40)
    assert found.miss is not None and lemma in found.miss


def test_the_ghost_configuration_concretizes_every_thread():
    """After `y = 0` and the spawn, `ρ∘g` is the concrete configuration: the globals, the main
    thread's rest, and the writer's stack with `v = ρ(x)`."""
    c, g = ghost_start(WRITER, Env.of({"x": 13}))
    for _ in range(2):
        g, = ghost_successors(g, explore.successors())
    *_, (_, concrete) = run_schedule(c, [0, 0], 2)
    mine = concretize_config(g)
    assert mine == concrete and len(mine.threads) == 2
    assert mine.threads[1].frame is not None and mine.threads[1].frame.locals == Env.of({"v": 13})


def test_following_one_schedule_catches_a_lost_write(monkeypatch):
    """Along the witness schedule, the writer's `y = v` lost by the global step shows at the
    configuration after the spawn: its ghost successor's globals are not the concrete ones."""
    monkeypatch.setattr(explore, "expand_config", _drop_worker_writes)
    miss = check_ghost_schedule(WRITER, Env.of({"x": 13}), FAILING)
    assert miss is not None and miss.startswith("after the schedule [0, 0]: where thread 1")
    assert "the globals are" in miss and "M-P4" in miss


def test_the_oracle_command_follows_the_ghosts(monkeypatch, capsys):
    """`symcert oracle` on threads also follows the ghosts over every schedule from its inputs
    (each distinct input once: the study without inputs has one), and says NO, exit 1, when the
    global step the ghosts follow swaps two threads' steps (the exploration's own step is left
    right: with it wrong, a replay would stop the command first, exit 70)."""
    from symcert.cli.main import main

    study = str(EXAMPLES / "counter_buggy.imp")
    assert main(["oracle", study, "--runs", "3"]) == 0
    assert ("ghosts (no solver): held on 45 configurations, every schedule followed from 1 of "
            "1 distinct input\n") in capsys.readouterr().out
    monkeypatch.setattr(ghost_threads, "successors",
                        lambda: lambda s: _swap_workers(s, explore.expand))
    assert main(["oracle", study, "--runs", "3", "--json"]) == 1
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    [ghosts] = [e for e in events if e.get("property") == "ghosts"]
    assert not ghosts["held"] and "input {}" in ghosts["counterexample"]
