"""Contracts are on in every test: SYMCERT_CONTRACTS is read when symcert's modules are imported."""

import os

os.environ["SYMCERT_CONTRACTS"] = "1"
