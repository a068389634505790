"""Start-up: what `symcert run` loads on a trivial program. The time itself is measured
by bench/startup.py, not here; these tests pin the imports that make it short."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

PROBE = """\
import json, sys
from symcert.cli.main import main
code = main(sys.argv[1:])
print(json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""


def _run(tmp_path: Path, source: str, *args: str) -> tuple[int, set[str]]:
    """`symcert run` on `source` in a new process: its exit code and the modules it loaded."""
    program = tmp_path / "p.imp"
    program.write_text(source)
    env = {k: v for k, v in os.environ.items() if k != "SYMCERT_CONTRACTS"}
    done = subprocess.run([sys.executable, "-c", PROBE, "run", str(program), *args],
                          capture_output=True, text=True, env=env, check=True)
    last = json.loads(done.stdout.strip().splitlines()[-1])
    return last["code"], set(last["modules"])


def test_a_program_that_needs_no_query_never_loads_z3(tmp_path):
    code, modules = _run(tmp_path, "skip")
    assert code == 0
    assert "symcert.solver.z3backend" in modules  # the solver is there, z3 is not
    assert not {m for m in modules if m == "z3" or m.startswith("z3.")}


def test_z3_is_loaded_at_the_first_query(tmp_path):
    """The probe above can see z3: a branch on an input loads it, and the answer is right."""
    code, modules = _run(tmp_path, "if x < 0 then x = 0 - x else skip fi; assert 0 <= x")
    assert code == 0 and "z3" in modules
    code, _ = _run(tmp_path, "if x < 0 then skip else skip fi; assert 0 <= x")
    assert code == 1


def test_run_loads_no_other_command(tmp_path):
    _, modules = _run(tmp_path, "skip", "--json")
    commands = {m for m in modules if m.startswith("symcert.cli.commands.")}
    assert commands == {"symcert.cli.commands." + m
                        for m in ("batch", "budget", "contracts", "events", "programs",
                                  "options", "progress", "values", "verdicts", "workers")}
    assert "subprocess" not in modules or "concurrent.futures" not in modules


def test_run_imports_no_lark(tmp_path):
    """The parser is the stand-alone one generated into lang/lalr.py (tools/make_parser.py)."""
    code, modules = _run(tmp_path, "x = 1; assert x == 1")
    assert code == 0 and "symcert.lang.lalr" in modules
    assert not {m for m in modules if m == "lark" or m.startswith("lark.")}


def test_run_without_contracts_imports_no_icontract(tmp_path):
    """Contracts off, the engine's `icontract.ensure(..., enabled=False)` leave the functions as
    they are (spec/switch.py): icontract itself is not imported; `--contracts` imports it."""
    code, modules = _run(tmp_path, "if x < 0 then x = 0 - x else skip fi; assert 0 <= x")
    assert code == 0 and "icontract" not in modules
    code, modules = _run(tmp_path, "if x < 0 then x = 0 - x else skip fi; assert 0 <= x",
                         "--contracts")
    assert code == 0 and "icontract" in modules
