"""The repository stands alone: no tracked file points a reader outside it, to a `shared/`
directory beside the checkout or to its documents, and no file cites an issue by number, which
no reader of the repository can open. Each test names the files and lines that break it."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().relative_to(ROOT).as_posix()

OUTSIDE = re.compile(
    r"\.\./shared\b"                                # ../shared, ../shared/LEMMAS.md
    r"|/work/shared\b"                              # the directory itself
    r"|(?<![\w./-])shared/(?=[\w.*])"               # shared/LEMMAS.md, shared/seeds/001_*.txt
    r"|\b(?:LEMMAS|DESIGN|CROSSHAIR|STYLE)\.md\b"   # its documents, named without a path
)
"""A reference to the directory of documents the project was started from: a user of the
repository does not have it. `docs/lemmas.md` holds the lemma catalogue and its sources,
`docs/architecture.md` the design, `contracts/README.md` the rules for CrossHair."""

ISSUE = re.compile(r"\b[Ii]ssues?\s+(?:no\.\s*|#\s*)?\d+")
"""`issue 15`, `Issue 2's`, `issues 6, 18`, `issue #12`; not a URL (`.../issues/12`)."""


def tracked_text() -> list[tuple[str, str]]:
    """Every file `git ls-files` lists, but this one, as (path, text); binary files skipped."""
    listing = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True)
    if listing.returncode != 0:
        pytest.skip("not a git checkout: nothing says which files are the project's")
    files = []
    for path in listing.stdout.decode().split("\0"):
        if not path or path == HERE or not (ROOT / path).is_file():
            continue
        data = (ROOT / path).read_bytes()
        if b"\0" not in data:
            files.append((path, data.decode("utf-8", errors="replace")))
    return files


def offending(pattern: re.Pattern[str]) -> list[str]:
    """`path:line: match` for every match in the tracked files (a match may span lines)."""
    return [f"{path}:{text.count(chr(10), 0, m.start()) + 1}: {' '.join(m.group().split())}"
            for path, text in tracked_text() for m in pattern.finditer(text)]


def test_the_patterns_catch_what_they_are_for():
    for line in ("see `shared/LEMMAS.md`", "../shared/seeds/001_x.txt", "/work/shared",
                 "(CROSSHAIR.md rule 11)", "follows DESIGN.md", "shared/seeds/001_*.txt"):
        assert OUTSIDE.search(line), line
    for line in ("shared subterms", "a shared node", "lemma_map.md",
                 "src/shared_terms.py"):
        assert not OUTSIDE.search(line), line
    for line in ("(issue 15, part 5)", "Issue 2's run", "issues 6, 18", "issue #12",
                 "issue\n18"):
        assert ISSUE.search(line), line
    for line in ("github.com/o/r/issues/12", "the issue's closing note", "tissue 3", "issues"):
        assert not ISSUE.search(line), line


def test_no_file_refers_to_the_shared_directory():
    assert len(tracked_text()) > 100
    found = offending(OUTSIDE)
    assert not found, "files that point outside the repository:\n" + "\n".join(found)


def test_no_file_cites_an_issue_by_number():
    found = offending(ISSUE)
    assert not found, ("say what the code or figure is for instead of citing an issue:\n"
                       + "\n".join(found))
