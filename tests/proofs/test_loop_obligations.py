"""The obligations of the invariant transition (T-I1) and the contract transition (T-S1):
the engine's transitions prove them, and a planted wrong havoc set or a planted wrong exit is
refuted by the obligations it breaks, and only by those.

Generation runs in a child process with contracts off (wrong_havoc.py): the contracts would
evaluate the lemma predicates on schematic values. The record's replay (test_obligations.py)
replays them with both provers."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

WRONG = str(Path(__file__).with_name("wrong_havoc.py"))


def _refuted(mistake: str) -> set[str]:
    """The obligations z3 refutes under the planted `mistake`, by lemma/rule/lemma-part (the
    variant dropped)."""
    result = subprocess.run([sys.executable, WRONG, mistake], capture_output=True, text=True,
                            env={**os.environ, "SYMCERT_CONTRACTS": "0"}, timeout=600,
                            check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert lines and lines[-1].endswith(" obligations") and int(lines[-1].split()[0]) > 200
    return {line for line in lines[:-1]}


@pytest.mark.parametrize("mistake, refuted", [
    ("none", set()),
    # The written `x` keeps its entry value: the states after other iterations are lost.
    ("invariant-forgets-written", {"T-I1/iterate/complete", "T-I1/exit/complete",
                                   "T-I1/by-zero/complete"}),
    # The exit does not assume `I` after the havoc: states where it is false are let through.
    ("exit-skips-invariant", {"T-I1/exit/sound"}),
    # The callee's written global keeps its value: the states of its other returns are lost.
    ("summary-forgets-written", {"T-S1/post/complete"}),
])
def test_a_wrong_transition_is_refuted_where_it_is_wrong(mistake: str, refuted: set[str]) -> None:
    """The engine's T-I1 and T-S1 prove every obligation; a transition that forgets the written
    variable breaks exactly the completeness obligations of the successors that havoc it, and
    an exit without the invariant breaks exactly the exit's soundness."""
    names = _refuted(mistake)
    assert {"/".join(n.split("/")[:3]) for n in names} == refuted
    if mistake == "invariant-forgets-written":  # every shape of the loop: the written `x` is read
        assert "T-I1/iterate/complete/atom+atom/int" in names
        assert "T-I1/iterate/complete/bool+bool/term" in names
        assert "T-I1/iterate/complete/atom+atom/in-g" in names  # a procedure's local
    if mistake == "exit-skips-invariant":  # only where the invariant reads `x`
        assert "T-I1/exit/sound/atom+atom/term" in names
        assert not any(n.startswith("T-I1/exit/sound/bool+") for n in names)
    if mistake == "summary-forgets-written":  # in the main statement and in a procedure
        assert {"T-S1/post/complete/atom+atom/term",
                "T-S1/post/complete/atom+atom/in-g/local-target"} <= names
