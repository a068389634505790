"""One shard of the proof record's replay: `python tests/proofs/replay_shard.py K N` replays, with
z3 and cvc5, the obligations of shard K of N and compares them with proofs/record.json, as
`python -m symcert.checking.obligations` does for all of them (run with SYMCERT_CONTRACTS=0).

A shard holds whole (lemma, rule) groups, the unit of the coverage check `missing`: a group is
a gap when it has no obligation or only vacuous ones, which the shard holding the group can
tell from its own vacuity check. So the gaps over all shards are those of the whole replay, and
shard 0 also reports the groups with no obligation at all and names the recorded obligations that are no longer generated. The groups are dealt
to the shards largest first, each to the lightest shard, so that the shards cost about the same
and pytest-xdist's workers can share them out.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

from symcert.checking.obligations import generate, load_record, missing, problems, replay
from symcert.checking.obligations import table, vacuous
from symcert.checking.obligations.common import Obligation

ROOT = Path(__file__).resolve().parents[2]
RECORD = ROOT / "proofs" / "record.json"


def group(o: Obligation) -> tuple[str, str]:
    """The (lemma, rule) pair `missing` counts `o` under."""
    return o.lemma, o.rule.split("/")[0]


def shard_of(obs: list[Obligation], shards: int) -> dict[tuple[str, str], int]:
    """Each (lemma, rule) group's shard: largest group first, to the shard with fewest
    obligations so far (ties to the lowest number)."""
    sizes = Counter(group(o) for o in obs)
    load = [0] * shards
    where: dict[tuple[str, str], int] = {}
    for key, size in sorted(sizes.items(), key=lambda item: (-item[1], item[0])):
        k = load.index(min(load))
        where[key] = k
        load[k] += size
    return where


def main(k: int, shards: int) -> int:
    everything = generate()
    where = shard_of(everything, shards)
    obs = [o for o in everything if where[group(o)] == k]
    mine = {group(o) for o in obs}
    recorded = load_record(RECORD.read_text(encoding="utf-8"))
    entries, verdicts = replay(obs)
    errors, undecided = problems(obs, verdicts, recorded)
    empty = vacuous(obs)
    gaps = [gap for gap in missing(everything, empty)  # other shards' groups: none vacuous
            if k == 0 or tuple(gap.split(" ", 1)) in mine]  # shard 0: groups with no obligation
    errors += [f"no obligation (or only vacuous ones) for {gap}" for gap in gaps]
    stale = sorted({str(e["obligation"]) for e in recorded} - {o.name for o in everything})
    print(table(entries, empty), end="")
    for line in undecided + errors:
        print(line)
    if k == 0 and stale:
        print(f"{len(stale)} recorded obligations are no longer generated (the code changed "
              f"shape; re-record with --write), e.g. {stale[0]}")
    print(f"shard {k} of {shards}: {len(obs)} obligations ({len(empty)} vacuous), "
          f"{len(errors)} errors, {len(undecided)} undecided")
    return 1 if errors else 3 if undecided else 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]), int(sys.argv[2])))
