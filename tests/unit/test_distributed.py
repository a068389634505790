"""The campaign in chunks on Dask: the same outcome whatever the workers, resumed from its log,
and a worker that dies loses no chunk. One local cluster of two worker processes for the file;
the checks are cheap (a planted check that disagrees on programs of odd printed length, so
there are disagreements to compare), and the campaigns small."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest

from symcert.checking import campaign as c
from symcert.checking.campaign import Disagreement, numbered
from symcert.distributed.campaign import Chunk, check_chunk, run_campaign


def odd(p, sigmas, solver):  # type: ignore[no-untyped-def]
    """A check that disagrees on the programs whose printed form has odd length."""
    return Disagreement("odd", p, sigmas[0], "") if len(str(p)) % 2 else None


def planted(chunk: Chunk):  # type: ignore[no-untyped-def]
    """`check_chunk` with the check `odd` in the worker's process."""
    from symcert.checking import campaign as here
    here.CHECKS["odd"] = odd
    return check_chunk(chunk)


@pytest.fixture(scope="module")
def cluster():  # type: ignore[no-untyped-def]
    import sys

    import cloudpickle
    from distributed import LocalCluster
    # The workers need not import this file: its functions travel by value.
    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=":0") as cluster:
        yield cluster


@pytest.fixture(scope="module")
def scheduler(cluster):  # type: ignore[no-untyped-def]
    return cluster.scheduler_address


@pytest.fixture(autouse=True)
def odd_check(monkeypatch):  # type: ignore[no-untyped-def]
    monkeypatch.setitem(c.CHECKS, "odd", odd)


def outcome(report):  # type: ignore[no-untyped-def]
    return (report.programs, report.over_budget, report.counts,
            {k: (str(d.program), d.input) for k, d in report.found.items()})


def test_programs_depend_on_seed_and_index_alone():
    """Program i of a seed is the same whichever programs were drawn before it."""
    assert numbered(5, 7) == numbered(5, 7)
    assert numbered(5, 7) != numbered(5, 8) and numbered(5, 7) != numbered(6, 7)


@pytest.mark.parametrize("keep_going", [True, False])
def test_one_and_two_workers_give_the_same_campaign(scheduler, keep_going):
    """Disagreements, counts and programs checked are the same in one process and on two Dask
    workers, with and without `keep_going` (then both stop at the first disagreement)."""
    template = Chunk(3, 0, 0, ("odd",), keep_going=keep_going)
    expected = [len(str(numbered(3, i)[0])) % 2 for i in range(8)]
    assert 0 < sum(expected) < 8
    alone = run_campaign(8, template, 1, chunk_size=2, task=planted)
    on_dask = run_campaign(8, template, 2, scheduler, chunk_size=2, task=planted)
    assert outcome(alone) == outcome(on_dask)
    if keep_going:
        assert alone.programs == 8 and alone.counts == {"odd": sum(expected)}
    else:
        assert alone.programs == expected.index(1) + 1 and alone.counts == {"odd": 1}


def test_a_resumed_campaign_checks_only_the_missing_chunks(tmp_path: Path):
    """A campaign resumed from the log of its first chunks ends as the one run at once, and
    checks only the chunks the log misses."""
    template = Chunk(3, 0, 0, ("odd",), keep_going=True)
    log = tmp_path / "log.jsonl"
    with log.open("w") as out:
        run_campaign(4, template, 1, log=out, chunk_size=2)
    seen: list[int] = []

    def counting(chunk: Chunk):  # type: ignore[no-untyped-def]
        seen.append(chunk.start)
        return check_chunk(chunk)

    resumed = run_campaign(8, template, 1, resume=log, chunk_size=2, task=counting)
    assert seen == [4, 6]
    assert outcome(resumed) == outcome(run_campaign(8, template, 1, chunk_size=2))


def test_a_worker_that_dies_loses_no_chunk(scheduler, tmp_path: Path):
    """A worker process killed in the middle of a chunk: the scheduler reruns the chunk on a
    worker the nanny restarts, the client is told (`lost_workers` in the log), and the campaign
    is the one without the crash."""
    marker = tmp_path / "crashed"

    def crashing(chunk: Chunk):  # type: ignore[no-untyped-def]
        if chunk.start == 2 and not marker.exists():
            marker.touch()
            os._exit(1)
        return planted(chunk)

    template = Chunk(3, 0, 0, ("odd",), keep_going=True)
    log = io.StringIO()
    report = run_campaign(6, template, 2, scheduler, log=log, chunk_size=2, task=crashing)
    lines = [json.loads(line) for line in log.getvalue().splitlines()]
    assert marker.exists()
    assert sorted(r["chunk"] for r in lines) == [0, 2, 4]
    assert [r["lost_workers"] for r in lines if r["chunk"] == 2] == [1]
    assert outcome(report) == outcome(run_campaign(6, template, 1, chunk_size=2, task=planted))



def test_the_results_read_are_released(scheduler):
    """A chunk's result, once the client has read it, is released: the cluster holds no more
    than the chunks in flight, so a worker that dies late in a long campaign costs only those
    (it made every result it held again when the client kept them all)."""
    from distributed import Client

    held: list[int] = []
    with Client(scheduler) as watch:
        def progress(checked, lost):  # type: ignore[no-untyped-def]
            held.append(watch.run_on_scheduler(lambda dask_scheduler: sum(
                t.state == "memory" for t in dask_scheduler.tasks.values())))

        template = Chunk(4, 0, 0, ("odd",), keep_going=True)
        run_campaign(12, template, 2, scheduler, progress=progress, chunk_size=1, task=planted)
    # At the last chunk all twelve are made; those read before are released (the scheduler
    # hears of a release a moment later, hence the slack), where all twelve used to stay.
    assert len(held) == 12 and held[-1] <= 6


def test_cli_campaign_on_a_scheduler(scheduler, tmp_path: Path, capsys):
    """`symcert campaign --scheduler ADDRESS --log FILE`: the chunks run on the cluster, the log
    has a line per chunk, and a resumed campaign with every chunk logged checks nothing new."""
    from symcert.cli.main import main

    log = tmp_path / "log.jsonl"
    args = ["campaign", "--programs", "3", "--seed", "2", "--checks", "main",
            "--scheduler", scheduler]
    assert main(args + ["--log", str(log)]) == 0
    out = capsys.readouterr()
    assert out.out.splitlines() == [out.out.splitlines()[0], "no disagreement"]
    assert out.out.startswith("checked 3 programs in ") and "3/3 programs" in out.err
    assert len(log.read_text().splitlines()) == 1
    assert main(args + ["--resume", str(log)]) == 0
    assert capsys.readouterr().out.startswith("checked 3 programs in ")
    assert len(log.read_text().splitlines()) == 1
    assert main(["campaign", "--workers", "0"]) == 2
    assert main(["campaign", "--resume", str(tmp_path / "none")]) == 2


WIDE = """x = 0;
if a > 0 then x = x + 1 else skip fi; if b > 0 then x = x + 2 else skip fi;
if c > 0 then x = x + 4 else skip fi; if d > 0 then x = x + 8 else skip fi;
if e > 0 then x = x + 16 else skip fi; if f > 0 then x = x + 32 else skip fi;
if g > 0 then x = x + 64 else skip fi;
assert x != 77; assert x != 12
"""


def test_cli_run_partitioned_on_a_scheduler(scheduler, tmp_path: Path, capsys):
    """`symcert run --scheduler ADDRESS --all-bugs`: levels of 128 states are stepped on the
    workers; the verdict, its bugs and the states explored are the plain run's."""
    from symcert.cli.main import main
    from symcert.engine import partition

    source = tmp_path / "wide.imp"
    source.write_text(WIDE)

    def shown(extra: list[str]) -> tuple[int, list[str]]:
        code = main(["run", str(source), "--all-bugs", "--json"] + extra)
        lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        for line in lines:
            for key in ("seconds", "solver_queries", "solver_seconds"):
                line.pop(key, None)
        return code, lines

    assert partition.LOCAL < 128
    plain = shown([])
    assert plain[0] == 1 and len([e for e in plain[1] if e.get("event") == "bug"]) == 2
    assert shown(["--scheduler", scheduler]) == plain
    assert main(["run", str(source), "--workers", "0"]) == 2
    assert main(["run", str(source), "--workers", "2", "--strategy", "dfs"]) == 2
    assert main(["run", str(source), "--scheduler", scheduler, "--merge"]) == 2



def test_a_worker_that_dies_mid_exploration_loses_no_state(cluster, tmp_path: Path):
    """A worker process killed in the middle of a round, while it holds parts' frontiers: Dask
    makes the lost rounds again from their lineage on the nanny's new worker, and the
    partitioned `check` still has the plain run's verdict, states and bugs."""
    from distributed import Client

    from symcert.distributed.explore import on_dask, step_on_worker
    from symcert.engine.partition import frontier, partitioned
    from symcert.engine.verdict import Budget, Check
    from symcert.lang.parser import parse

    marker = tmp_path / "crashed"

    def crashing(step, levels, references):  # type: ignore[no-untyped-def]
        states = frontier(step).states
        if states and states[0].depth >= 12 and not marker.exists():
            marker.touch()
            os._exit(1)
        return step_on_worker(step, levels, references)

    program = parse(WIDE)
    budget = Budget(max_states=10_000, all_bugs=True)
    with Client(cluster.scheduler_address) as client:
        explorer = partitioned(2, on_dask(client, crashing), local=1, round_states=8)
        assert verdict(Check(program, budget, explorer=explorer).run()) == verdict(
            Check(program, budget).run())
    assert marker.exists()


def test_the_workers_queries_are_counted_once(cluster):
    """The queries the workers' solvers ask are in the verdict's statistics, beside the
    client's; in this process's pool (`Here`) the one solver's are not counted twice."""
    from distributed import Client

    from symcert.distributed.explore import on_dask
    from symcert.engine.partition import Here, partitioned
    from symcert.engine.verdict import Budget, Check
    from symcert.lang.parser import parse
    from symcert.solver.z3backend import solver_for

    program = parse("x = 0; if a > b then x = x + 1 else skip fi; if b > c then x = x + 2 "
                    "else skip fi; if c > a then x = x + 4 else skip fi; assert x != 7")
    budget = Budget(max_states=10_000, all_bugs=True)
    here = solver_for(program)
    stats = Check(program, budget, here, explorer=partitioned(2, Here, local=1)).run().stats
    assert stats.solver_queries == here.stats.queries > 0
    client_side = solver_for(program)
    with Client(cluster.scheduler_address) as client:
        stats = Check(program, budget, client_side,
                      explorer=partitioned(2, on_dask(client), local=1)).run().stats
    assert stats.solver_queries > client_side.stats.queries
    assert stats.solver_seconds > client_side.stats.z3_seconds


def verdict(v):  # type: ignore[no-untyped-def]
    return (v.kind, v.exhaustive, v.stats.states, v.bound,  # inputs aside: the workers' models
            [(str(w.bug.pc), str(w.bug.prog), w.bug.depth) for w in v.bugs])


def test_one_and_four_workers_give_the_same_results(cluster):
    """On the campaign's generated programs, with the file's cluster grown to four workers (two
    are compared above): the campaign has the outcome of the one-process campaign, and `check`
    with every bug, in four parts on the workers (handed out from the first level, rebalanced
    between rounds of a few states), the verdict, states, bounded claim and bugs of `run`."""
    from distributed import Client

    from symcert.distributed.explore import on_dask
    from symcert.engine.partition import partitioned
    from symcert.engine.verdict import Budget, Check

    template = Chunk(5, 0, 0, ("odd",), keep_going=True)
    programs = [numbered(5, i)[0] for i in range(4)]
    budget = Budget(max_states=200, all_bugs=True)
    cluster.scale(4)
    with Client(cluster.scheduler_address) as client:
        client.wait_for_workers(4)
        assert (outcome(run_campaign(8, template, 4, cluster.scheduler_address, chunk_size=2,
                                     task=planted))
                == outcome(run_campaign(8, template, 1, chunk_size=2, task=planted)))
        explorer = partitioned(4, on_dask(client), local=1, round_states=16)
        plain = [verdict(Check(p, budget).run()) for p in programs]
        assert [verdict(Check(p, budget, explorer=explorer).run()) for p in programs] == plain
    assert len({v[0] for v in plain}) > 1  # not all of one kind


def test_cli_run_many_on_a_scheduler(scheduler, tmp_path: Path, capsys):
    """`symcert run DIR --scheduler ADDRESS`: each program checked as a task on the cluster,
    with the messages, the summary table and the worst exit code of the local processes'
    run (but for the seconds)."""
    import re

    from symcert.cli.main import main

    (tmp_path / "buggy.imp").write_text("x = 1; assert x == 2")
    (tmp_path / "bad.imp").write_text("x = = 1")

    def shown(extra: list[str]) -> tuple[int, str]:
        code = main(["run", str(tmp_path)] + extra)
        return code, re.sub(r" +[0-9]+\.[0-9]+\n", "\n", capsys.readouterr().out)

    local = shown([])
    assert local[0] == 65 and "buggy.imp:1:8: bug: assertion `x == 2` fails" in local[1]
    assert "bad.imp:1:5: syntax error" in local[1] and "worst exit code 65" in local[1]
    assert shown(["--scheduler", scheduler]) == local
