# crosshair: off
"""Replaying the obligations with z3 and cvc5, the proof record (proofs/record.json), the table
of docs/proofs.md and the command `python -m symcert.checking.obligations`."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable
import argparse
import json
import os
import subprocess
import sys

from symcert.verify import provers
from symcert.checking.obligations.common import Obligation
from symcert.checking.obligations.counterexamples import counterexample
from symcert.checking.obligations.coverage import generate, missing


@dataclass(frozen=True)
class Prover:
    """A prover as the record names it: how to run it on a script, its version and its limit."""

    name: str
    run: Callable[[str, int], provers.ProverAnswer]
    version: Callable[[], str]
    limit: int
    limit_name: str


PROVERS = (
    Prover("z3", provers.prove_z3, provers.z3_version, 5_000_000, "rlimit"),
    Prover("cvc5", provers.prove_cvc5, provers.cvc5_version, 1_000_000, "rlimit-per"),
)

Entry = dict[str, object]


def replay(obs: list[Obligation], provers: Iterable[Prover] = PROVERS
           ) -> tuple[list[Entry], dict[str, dict[str, provers.ProverAnswer]]]:
    """Run every prover on every obligation: the record entries and the verdicts by name."""
    entries: list[Entry] = []
    verdicts: dict[str, dict[str, provers.ProverAnswer]] = {o.name: {} for o in obs}
    for prover in provers:
        version = prover.version()
        for o in obs:
            v = prover.run(o.text, prover.limit)
            verdicts[o.name][prover.name] = v
            entries.append({"obligation": o.name, "lemma": o.lemma, "rule": o.rule,
                            "prover": prover.name, "version": version,
                            "limit": f"{prover.limit_name} {prover.limit}",
                            "status": v.status, "time": round(v.seconds, 4)})
    entries.sort(key=lambda e: (str(e["obligation"]), str(e["prover"])))
    return entries, verdicts


def vacuous(obs: Iterable[Obligation], prover: Prover = PROVERS[0]) -> frozenset[str]:
    """The obligations whose hypotheses contradict each other (an infeasible successor or path):
    they hold, but prove nothing about their rule."""
    return frozenset(o.name for o in obs
                     if prover.run(o.premises, prover.limit).status == provers.VALID)


def problems(obs: list[Obligation], verdicts: dict[str, dict[str, provers.ProverAnswer]],
             recorded: list[Entry]) -> tuple[list[str], list[str]]:
    """(errors, undecided): disagreements, refuted obligations with their counterexamples and
    obligations VALID in the record but not now; obligations a prover left UNKNOWN."""
    errors: list[str] = []
    undecided: list[str] = []
    by_name = {o.name: o for o in obs}
    for name, answers in verdicts.items():
        statuses = {p: v.status for p, v in answers.items()}
        if provers.VALID in statuses.values() and provers.INVALID in statuses.values():
            errors.append(f"{name}: the provers disagree: {statuses}")
        refuted = [v for v in answers.values() if v.status == provers.INVALID]
        if refuted:
            errors.append(f"{name}: INVALID\n"
                          + counterexample(by_name[name], refuted[0].model or {}))
        elif any(v.status == provers.UNKNOWN for v in answers.values()):
            undecided.append(f"{name}: UNKNOWN ({statuses})")
    for e in recorded:
        answers = verdicts.get(str(e["obligation"]), {})
        now = answers.get(str(e["prover"]))
        if e["status"] == provers.VALID and now is not None and now.status != provers.VALID:
            errors.append(f"{e['obligation']}: VALID in the record for {e['prover']}, "
                          f"{now.status} now")
    return errors, undecided


def table(entries: list[Entry], vacuous: frozenset[str] = frozenset()) -> str:
    """The proof record as Markdown: per prover (like seed 004's Table 1), then per lemma."""
    lines = ["| prover | version | resource limit | obligations | valid | fastest (s) "
             "| slowest (s) | average (s) | total (s) |", "|---|---|---|---|---|---|---|---|---|"]
    for prover in sorted({str(e["prover"]) for e in entries}):
        mine = [e for e in entries if e["prover"] == prover]
        times = [float(e["time"]) for e in mine]  # type: ignore[arg-type]
        valid = sum(e["status"] == provers.VALID for e in mine)
        lines.append(f"| {prover} | {mine[0]['version']} | {mine[0]['limit']} | {len(mine)} "
                     f"| {valid} | {min(times):.4f} | {max(times):.4f} "
                     f"| {sum(times) / len(times):.4f} | {sum(times):.2f} |")
    lines += ["", "| lemma | obligations | rules or cases | valid (both provers) "
              "| vacuous (contradictory hypotheses) |", "|---|---|---|---|---|"]
    for lemma in sorted({str(e["lemma"]) for e in entries}):
        mine = [e for e in entries if e["lemma"] == lemma]
        names = {str(e["obligation"]) for e in mine}
        rules = sorted({str(e["rule"]) for e in mine})
        refuted = {str(e["obligation"]) for e in mine if e["status"] != provers.VALID}
        both = len(names - refuted)
        lines.append(f"| {lemma} | {len(names)} | {', '.join(rules)} | {both} "
                     f"| {len(names & vacuous)} |")
    return "\n".join(lines) + "\n"


def dump_record(entries: list[Entry], vacuous: frozenset[str] = frozenset()) -> str:
    """The proof record as JSON: the provers (version, resource limit), then one line per
    obligation with its lemma, rule, per prover [status, seconds], and `"vacuous": true` when
    its hypotheses contradict each other."""
    provers = {str(e["prover"]): {"version": e["version"], "limit": e["limit"]} for e in entries}
    rows: dict[str, dict[str, object]] = {}
    for e in entries:
        row = rows.setdefault(str(e["obligation"]), {"obligation": e["obligation"],
                                                     "lemma": e["lemma"], "rule": e["rule"]})
        row[str(e["prover"])] = [e["status"], e["time"]]
        if e["obligation"] in vacuous:
            row["vacuous"] = True
    lines = [json.dumps(r, ensure_ascii=False) for r in rows.values()]
    return ('{"provers": ' + json.dumps(provers, sort_keys=True) + ',\n "obligations": [\n  '
            + ",\n  ".join(lines) + "\n]}\n")


def load_record(text: str) -> list[Entry]:
    """The entries of a proof record written by `dump_record`."""
    data = json.loads(text)
    entries: list[Entry] = []
    for row in data["obligations"]:
        for prover, meta in data["provers"].items():
            if prover in row:
                status, seconds = row[prover]
                entries.append({"obligation": row["obligation"], "lemma": row["lemma"],
                                "rule": row["rule"], "prover": prover, **meta,
                                "status": status, "time": seconds})
    return entries


BEGIN = "<!-- BEGIN proof table: generated by `python -m symcert.checking.obligations --write` -->"
END = "<!-- END proof table -->"


def write_table(path: Path, entries: list[Entry], vacuous: frozenset[str]) -> None:
    """Replace the generated table between the markers of `path` (append it if they are absent)."""
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    block = f"{BEGIN}\n{table(entries, vacuous)}{END}"
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        text = head + block + rest.split(END, 1)[1]
    else:
        text = text + ("\n" if text else "") + block + "\n"
    path.write_text(text, encoding="utf-8")


def keep_times(entries: list[Entry], recorded: list[Entry]) -> list[Entry]:
    """The new entries, with the recorded time where the status did not change: re-recording
    changes the record only where a proof did."""
    old = {(e["obligation"], e["prover"]): e for e in recorded}
    out: list[Entry] = []
    for e in entries:
        before = old.get((e["obligation"], e["prover"]))
        same = before is not None and before["status"] == e["status"] \
            and before["version"] == e["version"] and before["limit"] == e["limit"]
        out.append({**e, "time": before["time"]} if same and before else e)
    return out


def _slug(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_.#+" else "_" for c in name)


def main(argv: list[str] | None = None) -> int:
    """Replay every proof obligation with z3 and cvc5 and compare with the proof record."""
    parser = argparse.ArgumentParser(prog="python -m symcert.checking.obligations",
                                     description=main.__doc__)
    parser.add_argument("--record", type=Path, default=Path("proofs/record.json"),
                        help="the proof record (default proofs/record.json)")
    parser.add_argument("--docs", type=Path, default=Path("docs/proofs.md"),
                        help="the page whose table --write regenerates (default docs/proofs.md)")
    parser.add_argument("--write", action="store_true",
                        help="record this replay and regenerate the table")
    parser.add_argument("--only", default="", metavar="PREFIX",
                        help="replay only the obligations whose name starts with PREFIX")
    parser.add_argument("--prover", choices=[p.name for p in PROVERS],
                        help="replay with this prover only, without the vacuity check (a quick "
                             "look, say at a planted wrong rule; the record needs both)")
    parser.add_argument("--dump", type=Path, metavar="DIR",
                        help="also write each obligation's SMT-LIB script to DIR")
    args = parser.parse_args(argv)
    from symcert.spec.switch import CONTRACTS
    if CONTRACTS:
        # Contracts would evaluate the lemma predicates on schematic values: generate without.
        env = {**os.environ, "SYMCERT_CONTRACTS": "0"}
        argv = sys.argv[1:] if argv is None else argv
        return subprocess.run([sys.executable, "-m", "symcert.checking.obligations", *argv],
                              env=env, check=False).returncode
    if args.write and (args.only or args.prover):
        parser.error("--write records every obligation with every prover: it cannot be combined "
                     "with --only or --prover")
    everything = generate()
    obs = [o for o in everything if o.name.startswith(args.only)]
    if not obs:
        print(f"no obligation starts with {args.only!r}", file=sys.stderr)
        return 2
    if args.dump:
        args.dump.mkdir(parents=True, exist_ok=True)
        for o in obs:
            (args.dump / f"{_slug(o.name)}.smt2").write_text(o.text, encoding="utf-8")
    recorded: list[Entry] = []
    if args.record.exists():
        try:
            recorded = load_record(args.record.read_text(encoding="utf-8"))
        except (ValueError, KeyError, TypeError) as exc:
            print(f"{args.record}: not a proof record ({exc})", file=sys.stderr)
            return 65
    elif not args.write:
        print(f"no proof record at {args.record}: nothing to compare with (run from the "
              "repository root, or record with --write)", file=sys.stderr)
    chosen = [p for p in PROVERS if args.prover in (None, p.name)]
    entries, verdicts = replay(obs, chosen)
    errors, undecided = problems(obs, verdicts, recorded)
    empty = vacuous(obs) if args.prover is None else frozenset()
    gaps = missing(everything, frozenset() if args.only else empty)
    errors += [f"no obligation (or only vacuous ones) for {gap}" for gap in gaps]
    stale = sorted({str(e["obligation"]) for e in recorded} - {o.name for o in everything})
    if args.write:
        entries = keep_times(entries, recorded)
        args.record.parent.mkdir(parents=True, exist_ok=True)
        args.record.write_text(dump_record(entries, empty), encoding="utf-8")
        write_table(args.docs, entries, empty)
    print(table(entries, empty), end="")
    for line in undecided + errors:
        print(line)
    if stale and not args.only:
        print(f"{len(stale)} recorded obligations are no longer generated (the code changed "
              f"shape; re-record with --write), e.g. {stale[0]}")
    told = f"{len(empty)} vacuous" if args.prover is None else "vacuity not checked"
    print(f"{len(obs)} obligations ({told}), {len(errors)} errors, {len(undecided)} undecided")
    return 1 if errors else 3 if undecided else 0
