"""Every module of the installed package imports as `crosshair check src/` imports it: one after
another in one process, with CrossHair's own arguments in `sys.argv`, and none of them runs a
command, exits, or prints (`checking/obligations/__main__.py` once ran the proof replay at
import, and CrossHair ended with exit 2)."""

from __future__ import annotations

import json
import subprocess
import sys

PROBE = """\
import contextlib, io, json, pkgutil, sys
import symcert
sys.argv = ["crosshair", "check", "src/"]  # what a module run at import would read
seen, failed = [], {}
out = io.StringIO()
with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
    for found in pkgutil.walk_packages(symcert.__path__, "symcert."):
        seen.append(found.name)
        try:
            __import__(found.name)
        except BaseException as err:  # SystemExit too: that is the defect
            failed[found.name] = f"{type(err).__name__}: {err}"
print(json.dumps({"seen": seen, "failed": failed, "printed": out.getvalue()}))
"""


def test_every_module_imports_without_running_anything():
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert "symcert.__main__" in result["seen"]
    assert "symcert.checking.obligations.__main__" in result["seen"]
    assert len(result["seen"]) > 150
    assert result["failed"] == {}
    assert result["printed"] == ""
