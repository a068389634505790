"""Recursive programs of the SV-COMP corpus (bench/corpus/, each file names its source) proved
without annotations by inferred procedure summaries (T-I2, checked by z3, cvc5 and T-S1), and
recursive bugs still found and replayed with inference on."""

from __future__ import annotations

from pathlib import Path

import pytest

from symcert.verify.inference import InferringCheck
from symcert.engine.verdict import Budget, Kind
from symcert.lang.parser import parse_file

CORPUS = Path(__file__).resolve().parents[2] / "bench" / "corpus"
SAFE = ["addition01_safe", "evenodd01_safe", "gcd01_safe", "id_b2_o3_safe", "mccarthy91_safe"]
UNSAFE = ["addition02_unsafe", "mccarthy91_unsafe"]


@pytest.mark.parametrize("name", SAFE)
def test_a_recursive_program_is_proved_with_inferred_contracts(name):
    check = InferringCheck(parse_file(CORPUS / f"{name}.imp"), Budget(60))
    verdict = check.run()
    assert verdict.kind is Kind.SAFE and verdict.exhaustive and verdict.summaries
    assert check.inferred is not None
    assert [line.split(":")[0] for line in check.inferred.lines()] == [
        f"the procedure {q}" for q in verdict.summaries]


@pytest.mark.parametrize("name", UNSAFE)
def test_a_recursive_bug_is_found_and_replayed_with_inference_on(name):
    verdict = InferringCheck(parse_file(CORPUS / f"{name}.imp"), Budget(2_000)).run()
    assert verdict.kind is Kind.BUG and verdict.bugs
