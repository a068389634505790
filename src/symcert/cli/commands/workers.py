"""`symcert run --workers K | --scheduler ADDRESS`: the breadth-first exploration partitioned
across Dask workers (engine/partition.py, distributed/explore.py); one worker is the plain
process, with no Dask."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from symcert.engine.explore import Explorer


def explorer_for(args: argparse.Namespace) -> Explorer:
    """The explorer the options ask for (`run` by default)."""
    from symcert.distributed.explore import explorer
    from symcert.lang.errors import InputError

    if args.workers <= 0:
        raise InputError(f"symcert run: --workers must be positive: {args.workers}")
    if args.strategy != "bfs" and (args.workers > 1 or args.scheduler is not None):
        raise InputError("symcert run: --workers and --scheduler partition breadth-first "
                         "levels: not with --strategy dfs")
    if getattr(args, "merge", False) and (args.workers > 1 or args.scheduler is not None):
        raise InputError("symcert run: --workers and --scheduler explore unmerged: not with "
                         "--merge")
    return explorer(args.workers, args.scheduler)
