"""The install is hermetic: every installed distribution, transitive ones
included, is pinned in requirements.lock at the version installed, and the lock pins nothing
that is not installed. Fails when a dependency is added without its pin."""

from __future__ import annotations

import re
from importlib import metadata
from pathlib import Path

LOCK = Path(__file__).resolve().parents[2] / "requirements.lock"
UNPINNED = {"symcert", "pip", "setuptools"}
"""The project itself; pip is pinned by the Makefile and setuptools by [build-system]."""


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def test_installed_distributions_are_exactly_the_lock():
    pins = {}
    for line in LOCK.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, version = line.partition("==")
            pins[canonical(name)] = version.strip()
    installed = {canonical(d.metadata["Name"]): d.version for d in metadata.distributions()}
    for name in UNPINNED:
        installed.pop(name, None)
    assert installed == pins
