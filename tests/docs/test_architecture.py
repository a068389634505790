"""docs/architecture.md describes the real package: every module of `src/symcert` has a row in
its table of modules, and every module a row names exists."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "src" / "symcert"
PAGE = (ROOT / "docs" / "architecture.md").read_text()


def named_modules(page: str) -> set[str]:
    """The files the first cells of the table under `## Modules` name, relative to the package.
    A cell lists backticked paths; a name without `/` is in the directory of the path before
    it (`spec/printing.py`, `bugs.py` is spec/printing.py and spec/bugs.py)."""
    section = ("\n" + page).partition("\n## Modules\n")[2].partition("\n## ")[0]
    named: set[str] = set()
    for line in section.splitlines():
        if not line.startswith("| `"):
            continue
        directory = ""
        for name in re.findall(r"`([^`]+)`", line.split(" | ")[0]):
            if "/" in name:
                directory = name.rpartition("/")[0] + "/"
                named.add(name)
            else:
                named.add(directory + name)
    return named


def test_the_cells_are_read_as_paths():
    page = "## Modules\n\n| module | x |\n|---|---|\n| `a/b.py`, `c.py` | y |\n| `d/e/f.py` | z |\n"
    assert named_modules(page) == {"a/b.py", "a/c.py", "d/e/f.py"}


def test_every_module_has_a_row_and_every_row_a_module():
    modules = {str(p.relative_to(PACKAGE)) for p in PACKAGE.rglob("*.py")
               if p.name not in ("__init__.py", "__main__.py")}
    named = named_modules(PAGE)
    assert len(modules) > 80
    assert not modules - named, f"no row in docs/architecture.md for {sorted(modules - named)}"
    gone = {n for n in named if not (PACKAGE / n).exists()}
    assert not gone, f"docs/architecture.md names modules that do not exist: {sorted(gone)}"
