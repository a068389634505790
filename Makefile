# The two commands of the README: `make demo` and `make test`. Both set up .venv themselves.
# Every package comes pinned from requirements.lock (transitive ones included), pip from PIP_PIN,
# setuptools from pyproject.toml's [build-system]: a fresh machine installs what CI installed.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
LOCK   := requirements.lock
PIP_PIN := pip==26.3

.PHONY: demo test test-fast install install-test installed bench clean proofs crosshair versions docs lemma-links

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet $(PIP_PIN)

install: $(BIN)/python
	$(BIN)/python -m pip install --quiet -c $(LOCK) -e .

install-test: $(BIN)/python
	$(BIN)/python -m pip install --quiet -c $(LOCK) -e '.[test]'

# The installed versions, first in `make test`'s output (tests/quality/test_lock.py checks them
# against the lock).
versions: install-test
	@$(BIN)/python -c 'import sys; print("python", sys.version.split()[0])'
	@$(BIN)/python -m pip freeze --exclude-editable | tr '\n' ' '; echo

# Finds the bug of the buggy integer square root and prints the replayed input (exit 1 = bug found).
demo: install
	$(BIN)/symcert run examples/isqrt_buggy.imp; test $$? -eq 1

# First deptry: every module the package imports comes from a runtime dependency of
# pyproject.toml (not from the test extra) and every runtime dependency is used ([tool.deptry]).
# Then the whole test suite with contracts on (tests/conftest.py forces SYMCERT_CONTRACTS=1), one
# pytest-xdist worker per core; XDIST=0 runs it in one process. The 30 slowest tests are listed
# last, where CI time goes.
XDIST ?= auto
test: versions
	$(BIN)/deptry src
	SYMCERT_CONTRACTS=1 $(BIN)/python -m pytest -q -n $(XDIST) --dist worksteal --durations=30
	$(MAKE) installed
	$(MAKE) crosshair

# symcert as a user installs it: a wheel installed with the runtime dependencies alone (no test
# extra) into a fresh virtual environment, and from there the README's tour, the docs' console
# examples, `prove` with inference, a language-server session and `--workers 2`; any internal
# error fails (tools/check_installed.py).
installed: install-test
	$(BIN)/python tools/check_installed.py

# The unit, property and docs suites without the slow ones (marker `slow`: stress sizes, the
# mutant and proof-replay runs, CLI subprocess batteries): under a minute, for the edit loop.
test-fast: install-test
	SYMCERT_CONTRACTS=1 $(BIN)/python -m pytest -q -n $(XDIST) --dist worksteal \
	  -m 'not slow and not crosshair_backend'

# CrossHair's bounded search over the contracts (contracts/README.md: what its silence means, the
# time budget), then the properties under Hypothesis's CrossHair backend in processes of their own,
# a pytest-xdist worker per core (81 s instead of 115 s for the four on two cores).
crosshair: install-test
	$(BIN)/python contracts/run_crosshair.py
	HYPOTHESIS_PROFILE=crosshair $(BIN)/python -m pytest -q -p no:cacheprovider -n $(XDIST) \
	  -m crosshair_backend tests/properties

# The benchmarks' default suites (bench/bench.py: `python bench/bench.py list` names every suite):
# symcert against PyWiSE and CrossHair and a run of a million states (bench/results.json,
# docs/bench-results.md), state merging (bench/results-merge.json), partial-order reduction, and
# the scaling on Dask (bench/results-scaling.json, docs/scaling.md). Not part of `make test`.
# PyWiSE gets its own environment; BENCH_ARGS=--quick for a short run.
bench: install
	test -x bench/.wisevenv/bin/python || { $(PYTHON) -m venv bench/.wisevenv && \
	  bench/.wisevenv/bin/python -m pip install --quiet wise-se==0.0.7; }
	$(BIN)/python bench/bench.py default $(BENCH_ARGS)

# Replays every proof obligation with z3 and cvc5 and compares with proofs/record.json;
# `python -m symcert.checking.obligations --write` records anew. docs/proofs.md says what is proved.
proofs: install-test
	$(BIN)/python -m symcert.checking.obligations

# The documentation site (mkdocs.yml, Material theme) in site/: `--strict` fails on a broken link,
# a missing anchor or a page left out of the nav. tests/docs/test_site.py builds it in `make test`.
docs: install-test
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

# Link the lemma map's names to the lines that define them anew, and copy it into the package.
lemma-links: install-test
	$(BIN)/python tools/lemma_links.py

clean:
	rm -rf $(VENV) site build src/*.egg-info .pytest_cache .hypothesis
