"""The lemma map's names link to the lines that define them (tools/lemma_links.py writes the
links): each link lands on a line that defines its name, and the page is exactly what the script
writes, so a moved definition or a new row without links fails here."""

from __future__ import annotations

import importlib.util
import re
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "lemmas.md"
LINK = re.compile(r"\[`([^`]+)`\]\(\.\./([^)#]+)(?:#L(\d+))?\)")


@cache
def script():
    """tools/lemma_links.py, loaded once (its parse of the sources is cached)."""
    spec = importlib.util.spec_from_file_location("lemma_links", ROOT / "tools" / "lemma_links.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_link_lands_on_a_line_that_defines_its_name():
    """`[`core.concrete.step`](../src/symcert/core/concrete.py#L42)`: line 42 is `def step`;
    a module's link is its file."""
    links = LINK.findall(DOC.read_text(encoding="utf-8"))
    assert len(links) > 300
    problems = []
    for name, path, line in set(links):
        file = ROOT / path
        if not file.is_file():
            problems.append(f"{name}: no file {path}")
        elif line:
            last = re.split(r"\.|::", name)[-1]
            text = file.read_text(encoding="utf-8").splitlines()[int(line) - 1]
            if not re.match(rf"\s*(?:(?:async\s+)?def|class)\s+{last}\b|\s*{last}\s*[:=]", text):
                problems.append(f"{name}: {path}:{line} is {text.strip()!r}")
        elif not path.removesuffix(".py").removesuffix("/__init__").endswith(
                name.removeprefix("symcert.").replace(".", "/")):
            problems.append(f"{name}: links the file {path}")
    assert not problems, "\n".join(problems)


def test_the_page_and_its_packaged_copy_are_what_the_script_writes():
    lemma_links = script()
    missing: list[str] = []
    text = DOC.read_text(encoding="utf-8")
    assert lemma_links.linked(text, missing) == text, "run python tools/lemma_links.py"
    assert not missing, f"names with no definition: {sorted(set(missing))}"
    assert lemma_links.PACKAGED.read_text(encoding="utf-8") == text


def test_the_script_finds_a_moved_definition_and_links_a_new_name():
    """Run again, it corrects a stale line and links a name written without a link; what is
    not a name (a formula, a field `x.f`, a phrase) stays as written."""
    lemma_links = script()
    text = DOC.read_text(encoding="utf-8")
    name, path, line = next(l for l in LINK.findall(text) if l[2])
    linked = f"[`{name}`](../{path}#L{line})"
    stale = text.replace(linked, f"[`{name}`](../{path}#L{int(line) + 1})", 1)
    bare = text.replace(linked, f"`{name}`", 1)
    assert stale != text != bare
    assert lemma_links.linked(stale, []) == text == lemma_links.linked(bare, [])
    assert not lemma_links.is_name("x.f", "code") and not lemma_links.is_name("φ ∧ ¬ok", "code")
    assert lemma_links.is_name("engine.explore.expand", "runtime contract")
    assert lemma_links.is_name("expand_sound", "predicate")
    assert not lemma_links.is_name("expand", "code")
