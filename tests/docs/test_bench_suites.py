"""The benchmarks have one entry point (bench/bench.py) whose suites are the scripts of bench/,
docs/bench.md's table of suites is that list, and docs/bench-results.md is exactly what
bench/report.py makes of bench/results.json (a page that says it is generated is generated)."""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "bench"


def _load(name: str):
    sys.path.insert(0, str(BENCH))
    try:
        spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCH / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # dataclasses look their module up
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(BENCH))


def test_every_script_is_a_suite_or_a_helper():
    bench = _load("bench")
    scripts = {p.name for p in BENCH.glob("*.py")}
    named = {s.script for s in bench.SUITES} | set(bench.HELPERS)
    assert scripts == named, (scripts - named, named - scripts)
    assert len({s.name for s in bench.SUITES}) == len(bench.SUITES)
    assert set(bench.DEFAULT) <= {s.name for s in bench.SUITES}


def test_the_docs_table_is_the_list_of_suites():
    bench = _load("bench")
    section = (ROOT / "docs" / "bench.md").read_text().partition("\n## Suites\n")[2]
    rows = re.findall(r"^\| `([a-z0-9]+)` \| bench/(\S+) \|", section.partition("\n## ")[0], re.M)
    assert rows == [(s.name, s.script) for s in bench.SUITES]


def test_the_generated_page_is_generated():
    report = _load("report")
    results = json.loads((BENCH / "results.json").read_text())
    assert (ROOT / "docs" / "bench-results.md").read_text() == report.markdown(results)
    assert "Do not edit" not in (ROOT / "docs" / "bench.md").read_text()


def test_the_entry_point_lists_and_refuses():
    listed = subprocess.run([sys.executable, str(BENCH / "bench.py"), "list"],
                            capture_output=True, text=True, cwd=ROOT)
    assert listed.returncode == 0 and listed.stdout.splitlines()[0].startswith("pywise ")
    wrong = subprocess.run([sys.executable, str(BENCH / "bench.py"), "nosuch"],
                           capture_output=True, text=True, cwd=ROOT)
    assert wrong.returncode == 2 and "no suite 'nosuch'" in wrong.stderr
