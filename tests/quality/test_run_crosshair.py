"""The CrossHair gate (`contracts/run_crosshair.py`) re-runs a target once after a crash of the
tool, never after a finding, and fails when the crash repeats."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CLEAN = "x.py:1: info: Not confirmed.\n"
CRASH = "Traceback (most recent call last):\n  ...\nRecursionError\n"
FINDING = "x.py:3: error: false when calling f(0)\n"
NONDETERMINISTIC = "x.py:3: error: NotDeterministic: Found a different execution paths\n"


@pytest.fixture()
def gate():
    spec = importlib.util.spec_from_file_location("run_crosshair", ROOT / "contracts" /
                                                  "run_crosshair.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def runs(gate, monkeypatch, logs: list[str]) -> list[str]:
    """Let `check` see `logs` as successive CrossHair logs; return those it asked for."""
    asked: list[str] = []

    def once(target, extra=()):
        log = logs[len(asked)]
        asked.append(log)
        passed = not gate.BAD.search(log) and ": info:" in log
        return target, passed, 1.0, log

    monkeypatch.setattr(gate, "check_once", once)
    return asked


@pytest.mark.parametrize("first", [CRASH, CLEAN + CRASH, NONDETERMINISTIC, ""])
def test_a_crash_is_run_again(gate, monkeypatch, first):
    asked = runs(gate, monkeypatch, [first, CLEAN])
    _, passed, _, log = gate.check("x.py")
    assert passed and len(asked) == 2 and "second run:" in log


def test_a_repeated_crash_fails(gate, monkeypatch):
    asked = runs(gate, monkeypatch, [CRASH, CRASH])
    assert not gate.check("x.py")[1] and len(asked) == 2


@pytest.mark.parametrize("first", [FINDING, CLEAN + FINDING + CRASH,
                                   "x.py:1: error: Unable to meet precondition\n"])
def test_a_finding_is_never_run_again(gate, monkeypatch, first):
    asked = runs(gate, monkeypatch, [first, CLEAN])
    assert not gate.check("x.py")[1] and len(asked) == 1
