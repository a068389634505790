"""Hypothesis profiles for the property suites, chosen by HYPOTHESIS_PROFILE or CI=true.

`default` is fast, `ci` is thorough and derandomised (selected when CI=true), `crosshair` uses
the CrossHair backend and runs only the `crosshair_backend` tests, in a pytest process of its
own (`make crosshair`): under that backend icontract's checks become no-ops for the rest of the
process. `SYMCERT_MUTANT=<name>` applies a wrong variant of the core (tests/mutants/variants.py);
`SYMCERT_PROPERTIES_ONLY=1` turns the runtime contracts off.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("default", max_examples=25, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", max_examples=80, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("mutant", max_examples=60, deadline=None, derandomize=True,
                          database=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("crosshair", backend="crosshair", max_examples=10, deadline=None,
                          suppress_health_check=list(HealthCheck))

PROFILE = os.environ.get("HYPOTHESIS_PROFILE") or (
    "ci" if os.environ.get("CI", "").lower() == "true" else "default")
settings.load_profile(PROFILE)

# The properties as a checker of their own (tests/mutants/run_variants.py): contracts off, so a
# failure is a property's. Set before symcert is imported; only for `pytest tests/properties`.
if os.environ.get("SYMCERT_PROPERTIES_ONLY") == "1":
    os.environ["SYMCERT_CONTRACTS"] = "0"

if os.environ.get("SYMCERT_MUTANT"):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "mutants"))
    import variants

    variants.apply(os.environ["SYMCERT_MUTANT"])


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    skip = pytest.mark.skip(reason="CrossHair-backend property: HYPOTHESIS_PROFILE=crosshair")
    only = pytest.mark.skip(reason="plain property: not run under the CrossHair backend")
    for item in items:
        marked = "crosshair_backend" in item.keywords
        if marked and PROFILE != "crosshair":
            item.add_marker(skip)
        elif not marked and PROFILE == "crosshair" and "properties" in str(item.fspath):
            item.add_marker(only)
