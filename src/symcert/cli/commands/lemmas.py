"""`symcert lemmas [FILTER]`: the lemma map of docs/lemmas.md, whole or filtered.

Each row is one lemma ID of the WiSE paper (seed 000) and of the other seeds: its statement, the
code that embodies it, the predicates, runtime contracts, CrossHair checks, Hypothesis properties
and proof obligations that check it, and its status. FILTER (case-insensitive) keeps the rows
whose ID starts with it (`symcert lemmas W-L2`) or, when no ID does, whose status contains it
(`symcert lemmas "not covered"`). The map
ships inside the package (`symcert/lemma_map.md`, a link to docs/lemmas.md in the repository).
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from importlib import resources

HELP = "print the lemma map: each lemma, its checkers and its status"
MAP = "lemma_map.md"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("filter", nargs="?", default="", metavar="FILTER",
                        help="keep the rows whose ID starts with FILTER, else those whose "
                             "status contains it (any case)")
    parser.add_argument("--format", choices=("md", "text"), default="text",
                        help="text: one block per lemma, its empty cells left out (default); md: "
                             "the Markdown table of docs/lemmas.md")


@dataclass(frozen=True, slots=True)
class LemmaMap:
    """The table of docs/lemmas.md: its column names and its rows, one per lemma ID."""

    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]

    def matching(self, needle: str) -> tuple[tuple[str, ...], ...]:
        """The rows whose ID (first column) starts with `needle`, else those whose status (last
        column) contains it: `W-L2` names IDs, though statuses mention them too."""
        n = needle.casefold()
        by_id = tuple(r for r in self.rows if r[0].casefold().startswith(n))
        return by_id or tuple(r for r in self.rows if n in r[-1].casefold())


def split_row(line: str) -> tuple[str, ...]:
    """The cells of one Markdown table row; `\\|` inside a cell is a literal bar."""
    cells = re.split(r"(?<!\\)\|", line.strip().removeprefix("|").removesuffix("|"))
    return tuple(c.strip().replace("\\|", "|") for c in cells)


def parse_map(text: str) -> LemmaMap:
    """The first table of `text` (the header row starts with `| ID |`)."""
    lines = text.splitlines()
    start = next((i for i, l in enumerate(lines) if re.match(r"\|\s*ID\s*\|", l)), None)
    if start is None:
        raise ValueError("no table with an `ID` column")
    header = split_row(lines[start])
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        row = split_row(line)
        if len(row) != len(header):
            raise ValueError(f"row {row[0]!r} has {len(row)} cells, not {len(header)}")
        rows.append(row)
    return LemmaMap(header, tuple(rows))


def load_map() -> LemmaMap:
    """The lemma map shipped in the package."""
    return parse_map(resources.files("symcert").joinpath(MAP).read_text(encoding="utf-8"))


def as_markdown(header: tuple[str, ...], rows: tuple[tuple[str, ...], ...]) -> str:
    def line(cells: tuple[str, ...]) -> str:
        return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"

    return "\n".join([line(header), "|" + "---|" * len(header), *map(line, rows)]) + "\n"


def as_text(header: tuple[str, ...], rows: tuple[tuple[str, ...], ...]) -> str:
    """One block per row; a name linked to its source line (`[`n`](../src/...#L42)`, written
    by tools/lemma_links.py) shows as the name alone."""
    unlink = re.compile(r"\[(`[^`]+`)\]\([^)]*\)")
    rows = tuple(tuple(unlink.sub(r"\1", cell) for cell in row) for row in rows)
    blocks = []
    for row in rows:
        width = max(map(len, header[1:]))
        fields = [f"  {name:<{width}}  {cell}" for name, cell in zip(header[1:], row[1:])
                  if cell != "—"]
        blocks.append("\n".join([row[0], *fields]))
    return "\n\n".join(blocks) + "\n"


def main(args: argparse.Namespace) -> int:
    from symcert.lang.errors import InputError

    try:
        lemma_map = load_map()
    except (OSError, ValueError) as err:
        print(f"symcert lemmas: the packaged lemma map is unreadable: {err}", file=sys.stderr)
        return 70
    rows = lemma_map.matching(args.filter)
    if not rows:
        raise InputError(f"symcert lemmas: no lemma ID starts with {args.filter!r} and no "
                         "status contains it")
    render = as_markdown if args.format == "md" else as_text
    sys.stdout.write(render(lemma_map.header, rows))
    return 0
