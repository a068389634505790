"""The checkers bite: every wrong variant of `variants.py` is caught.

The table of docs/contracts.md (written by `run_variants.py --write`) says which checker caught
which variant. Here each variant is applied again, in a subprocess, and the first checker the
table credits is re-run: it must still catch it, with the same evidence (so the table is
current). The other columns are re-checked by `run_variants.py` itself (slow: CrossHair).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import run_variants
import variants
import workload

TABLE = run_variants.parse_table(run_variants.DOC.read_text())


def test_unmutated_core_passes_the_workload():
    """Without a variant the contracts stay silent, so a violation under one is the variant's."""
    assert workload.caught() is None


def test_table_has_one_row_per_variant_and_each_is_caught():
    assert len(variants.VARIANTS) >= 10
    assert list(TABLE) == list(variants.VARIANTS)
    for name, row in TABLE.items():
        assert set(row) <= set(run_variants.CHECKERS), name
        assert any(cell.startswith("caught") for cell in row.values()), f"{name} not caught"


def _first_catcher(name: str) -> str:
    return next(c for c, cell in TABLE[name].items() if cell.startswith("caught"))


def test_each_variant_is_caught_as_the_table_says():
    """Re-run, in parallel, the first checker credited with each variant."""
    jobs = [(name, _first_catcher(name)) for name in variants.VARIANTS]
    with ThreadPoolExecutor(4) as pool:
        outcomes = list(pool.map(lambda job: run_variants.check(*job), jobs))
    stale = [f"{o.variant} ({o.checker}): table says {TABLE[o.variant][o.checker]!r}, "
             f"got {o.cell()!r}" for o in outcomes if o.cell() != TABLE[o.variant][o.checker]]
    assert not stale, ("re-run `python tests/mutants/run_variants.py --write`:\n"
                       + "\n".join(stale))


def test_applied_patches_then_restores_the_core():
    """`applied` patches the core inside its block only."""
    with variants.applied("pc_replaced_not_extended"):
        assert workload.caught() is not None
    assert workload.caught() is None


LOGS = run_variants.HERE / "logs"


def test_crosshair_log_of_a_failed_postcondition_is_a_catch():
    """A real log (`SYMCERT_MUTANT=expand_drops_else contracts/run_crosshair.py
    src/symcert/engine/explore.py`): CrossHair prints the predicate's decorator, not `false when
    calling`, for a failed icontract postcondition."""
    log = (LOGS / "crosshair_expand_drops_else.log").read_text()
    assert run_variants.crosshair_evidence(log) == "W-T3.1 false on expand"


def test_crosshair_log_forms_of_a_check_and_an_exception():
    assert run_variants.crosshair_evidence(
        "f.py:9: error: false when calling check_w_l2_1_compositionality(Env(...))"
    ) == "check_w_l2_1_compositionality is false"
    assert run_variants.crosshair_evidence(
        "g.py:115: error: ValueError: Stop argument for islice() when calling ghost_run(...)"
    ) == "ValueError"
    assert run_variants.crosshair_evidence("f.py:1: info: Not confirmed.") is None


def test_crosshair_log_of_a_predicate_tagged_with_two_ids():
    log = 'b.py:40: error: "@lemma("W-D2.5", "W-F9")" yields false when calling is_stuck(Skip())'
    assert run_variants.crosshair_evidence(log) == "W-D2.5, W-F9 false on is_stuck"
