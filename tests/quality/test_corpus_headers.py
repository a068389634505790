"""The SV-COMP programs of bench/corpus/ and bench/heldout/ say where they come from: each
header names sv-benchmarks, the C source and its commit, and the expected verdict, which is also
the last word of the file name (what bench/run_corpus.py scores against); the held-out ones
come from other sources than the corpus's and carry no annotation, since they measure proving
without any. Text only: `bench/run_corpus.py` parses and runs them."""

from __future__ import annotations

import re
from itertools import takewhile
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
PROGRAMS = sorted((BENCH / "corpus").glob("*.imp")) + sorted((BENCH / "heldout").glob("*.imp"))
SOURCE = re.compile(r"c/[a-z-]+/[A-Za-z0-9_.+-]+\.c")


def header(path: Path) -> str:
    """The leading comment lines, joined into one line without their `#`."""
    lines = takewhile(lambda line: line.startswith("#"), path.read_text().splitlines())
    return " ".join(line.lstrip("#").strip() for line in lines)


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_corpus_header_names_its_source_commit_and_verdict(path):
    text = header(path)
    expected = path.stem.rsplit("_", 1)[-1]
    assert expected in ("safe", "unsafe")
    assert "sosy-lab/sv-benchmarks" in text and SOURCE.search(text)
    assert re.search(r"commit [0-9a-f]{7,}", text)
    assert re.search(rf"Expected verdict: {expected}\b", text)


def test_the_held_out_programs_are_new_and_unannotated():
    heldout = sorted((BENCH / "heldout").glob("*.imp"))
    tuned = {SOURCE.search(header(p)).group(0) for p in (BENCH / "corpus").glob("*.imp")}
    assert len(heldout) >= 24
    for path in heldout:
        assert SOURCE.search(header(path)).group(0) not in tuned, path.name
        assert not (BENCH / "corpus" / path.name).exists(), path.name
        body = "\n".join(s for s in path.read_text().splitlines() if not s.startswith("#"))
        assert not re.search(r"\b(invariant|requires|ensures)\b", body), path.name
