"""The documentation site builds with `mkdocs build --strict` (mkdocs.yml; `make docs`): a broken
link, a missing anchor or a page outside the nav fails the build, and so this test. Its home and
language pages are the README's text, and the lemma map's `file#Lnn` links land on a line of a
generated source page (tools/docsite.py)."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path


ROOT = Path(__file__).resolve().parents[2]


def hooks():
    spec = importlib.util.spec_from_file_location("docsite", ROOT / "tools" / "docsite.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_site_builds_strict_with_the_readme_and_source_lines(tmp_path):
    """One build (a test of its own, so that pytest-xdist builds it once): `--strict` passes
    (`--quiet` would hide its warnings); the home and language pages are the README's two parts;
    a lemma link lands on its line of a source page."""
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict",
                           "--site-dir", str(tmp_path)], cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert done.returncode == 0, done.stderr
    home, language = hooks().readme_parts()
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "## A two-minute tour" in home and "## The language" not in home
    assert "Recursive procedures" in language and "A two-minute tour" not in language
    assert len(home) + len(language) > len(readme) - 100
    page = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert "A two-minute tour" in page and 'href="lemmas/#the-sources"' in page
    assert "Recursive procedures" in (tmp_path / "language" / "index.html").read_text("utf-8")
    lemmas = (tmp_path / "lemmas" / "index.html").read_text(encoding="utf-8")
    links = re.findall(r'href="\.\./source/(src/symcert/[\w/]+\.py)/#L(\d+)"', lemmas)
    assert len(links) > 100
    path, line = links[0]
    source = (tmp_path / "source" / path / "index.html").read_text(encoding="utf-8")
    assert f'id="L{line}"' in source
    events = (tmp_path / "json" / "index.html").read_text(encoding="utf-8")
    assert "<code>path_condition</code>" in events and "The types named above" in events


def test_links_outside_docs_go_to_source_pages():
    docsite = hooks()
    text = "[a](../src/symcert/core/concrete.py#L3) [b](cli.md#x) [c](https://e.org/a.py)"
    assert docsite.rewrite(text, "docs") == ("[a](source/src/symcert/core/concrete.py.md#L3) "
                                             "[b](cli.md#x) [c](https://e.org/a.py)")
    assert docsite.rewrite("[d](docs/cli.md) [e](contracts/README.md)", ".") == \
        "[d](cli.md) [e](source/contracts/README.md.md)"
    assert docsite.rewrite("[f](../nothere.py)", "docs") == "[f](../nothere.py)"


def test_the_bibliography_names_each_family_and_only_catalogued_ids():
    """docs/bibliography.md: one row per paper with its family letter, as the lemma map's
    sources say; every ID it cites is in the catalogue of docs/lemmas.md."""
    text = (ROOT / "docs" / "bibliography.md").read_text(encoding="utf-8")
    for seed, family in (("000", "W"), ("001", "T"), ("002", "G"), ("003", "B"), ("004", "M")):
        assert re.search(rf"^\| {seed} \| {family} \| ", text, re.M), (seed, family)
    catalogue = (ROOT / "docs" / "lemmas.md").read_text(encoding="utf-8").partition(
        "\n## The catalogue\n")[2]
    ids = set()
    for row in re.findall(r"^\| ([WTGBMX]-[^ |]+) \|", catalogue, re.M):
        family, _, rest = row.partition("-")
        letters = re.match(r"[A-Z]*", rest).group(0)
        if ".." in rest:  # W-D2.7..2.11
            first, last = rest.split("..")
            stem, _, lo = first.rpartition(".")
            singles = [f"{stem}.{k}" for k in range(int(lo), int(last.rpartition(".")[2]) + 1)]
        else:  # M-P3/P4, W-T2.4/2.5/2.6
            first, *others = rest.split("/")
            singles = [first, *(o if o[0].isalpha() else letters + o for o in others)]
        ids |= {f"{family}-{single}" for single in singles}
    cited = set(re.findall(r"\b[WTGBMX]-[A-Z]+\d+(?:\.\d+)?\b", text))
    assert len(cited) > 20 and not cited - ids, sorted(cited - ids)
