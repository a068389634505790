"""tools/check_installed.py (`make installed`) reads the README's tour and judges what the
installed wheel prints; these check its reading and its judgement without installing anything
(the run itself is part of `make test`)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("check_installed",
                                               ROOT / "tools" / "check_installed.py")
installed = sys.modules["check_installed"] = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(installed)


def test_the_tour_is_read_with_the_exit_status_of_each_line():
    lines = dict(installed.tour_lines())
    assert len(lines) > 15
    assert lines["symcert run examples/gcd_buggy.imp"] == 1
    assert lines["symcert run examples/gcd.imp"] == 0
    assert any("| symcert run -" in command and "while" in command for command in lines)
    assert not any("#" in command for command in lines)


def test_a_folder_of_every_example_stands_for_a_few():
    def smaller(command: str) -> str:
        for pattern, replacement in installed.SMALLER:
            command = pattern.sub(replacement, command)
        return command

    assert smaller("symcert run examples/ --format sarif") == "symcert run tour/ --format sarif"
    assert smaller("symcert run examples/gcd.imp") == "symcert run examples/gcd.imp"
    assert smaller("symcert campaign --programs 1000") == "symcert campaign --programs 20"
    assert all((ROOT / p).is_file() for p in installed.TOUR_FOLDER)


def test_an_internal_error_is_told_from_a_verdict():
    assert installed.internal(70, "")
    assert installed.internal(1, "Traceback (most recent call last):\n  ...")
    assert installed.internal(0, "symcert: internal error: ModuleNotFoundError")
    assert not installed.internal(1, "p.imp:1:1: bug: assertion `x != 7` fails")


def test_runtime_dependencies_are_not_in_the_test_extra():
    """What the package imports at run time (cvc5: `prove` and inference) is installed without
    the test extra (`make demo`'s install once had no cvc5); deptry checks every import in `make test`."""
    extra = installed.test_extra()
    assert {"pytest", "hypothesis", "deptry"} <= extra
    assert not extra & {"cvc5", "z3-solver", "lark", "dask", "distributed", "pygls"}
