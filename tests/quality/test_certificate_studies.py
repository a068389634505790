"""The case studies of certificates (`examples/`): each correct version is PROVED with a
certificate that `check-certificate` accepts where the wp fragment allows (and that it leaves
undecided, naming the construct, where it does not), and each planted bug is a counterexample
replayed by a concrete run, never a proof."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from symcert.cli.main import main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
CHECKED = {"binsearch_unbounded": 7, "list_length": 5, "sum_closed_form": 3, "array_copy": 3}
"""Proved for every input by their loop invariants: the wp conditions of each."""
BUGS = {"binsearch_unbounded": "10:1: counterexample: invariant `0 <= lo and hi < n",
        "insertion_sort": "16:16: counterexample: assertion `a[k - 1] <= a[k]` fails",
        "list_length": "19:1: counterexample: assertion `n == m` fails"}


@pytest.mark.parametrize("name", CHECKED)
def test_the_certificate_of_a_proved_case_study_is_accepted(name, tmp_path, capsys):
    program, cert = str(EXAMPLES / f"{name}.imp"), tmp_path / f"{name}.json"
    assert main(["prove", program, "--certificate", str(cert)]) == 0
    written = json.loads(cert.read_text())
    assert {i["source"] for i in written["invariants"]} == {"written"}
    assert sum(o["group"] == "wp" for o in written["obligations"]) == CHECKED[name]
    capsys.readouterr()
    assert main(["check-certificate", str(cert), program]) == 0
    assert f": valid: {CHECKED[name]} verification conditions" in capsys.readouterr().out


def test_a_bounded_case_study_is_proved_but_its_loops_are_outside_the_wp_fragment(tmp_path,
                                                                                  capsys):
    """Insertion sort's sortedness needs invariants over all cells: proved for n <= 3 by
    exhaustive exploration, its certificate holds the engine's obligations only."""
    program, cert = str(EXAMPLES / "insertion_sort.imp"), tmp_path / "sort.json"
    assert main(["prove", program, "--certificate", str(cert)]) == 0
    written = json.loads(cert.read_text())
    assert written["outside_wp"] == ("a loop without an invariant (loop 2) at 15:1 is outside "
                                     "the wp fragment")
    assert {o["group"] for o in written["obligations"]} == {"engine"}
    capsys.readouterr()
    assert main(["check-certificate", str(cert), program]) == 3
    assert "not checked: a loop without an invariant (loop 2) at 15:1" in capsys.readouterr().out


@pytest.mark.parametrize("name", BUGS)
def test_the_planted_bug_is_a_replayed_counterexample(name, tmp_path, capsys):
    program = EXAMPLES / f"{name}_buggy.imp"
    cert = tmp_path / "none.json"
    assert main(["prove", str(program), "--certificate", str(cert)]) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"{program}:{BUGS[name]}") and "replay: the concrete run" in out
    assert not cert.exists()
