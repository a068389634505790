# The two commands of the README: `make demo` and `make test`. Both set up .venv themselves.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin

.PHONY: demo test install install-test bench clean proofs crosshair

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

install: $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .

install-test: $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'

# Finds the bug of the buggy integer square root and prints the replayed input (exit 1 = bug found).
demo: install
	$(BIN)/symcert run examples/isqrt_buggy.imp; test $$? -eq 1

# The whole test suite with contracts on (tests/conftest.py forces SYMCERT_CONTRACTS=1).
test: install-test
	SYMCERT_CONTRACTS=1 $(BIN)/python -m pytest -q
	$(MAKE) crosshair

# CrossHair's bounded search over the contracts (contracts/README.md: what its silence means, the
# time budget), then the properties under Hypothesis's CrossHair backend in a process of their own.
crosshair: install-test
	$(BIN)/python contracts/run_crosshair.py
	HYPOTHESIS_PROFILE=crosshair $(BIN)/python -m pytest -q -p no:cacheprovider \
	  -m crosshair_backend tests/properties

# symcert against PyWiSE, and issue 2's million-state run: bench/results.json, docs/bench.md.
# Not part of `make test`. PyWiSE gets its own environment; BENCH_ARGS=--quick for a short run.
bench: install
	test -x bench/.wisevenv/bin/python || { $(PYTHON) -m venv bench/.wisevenv && \
	  bench/.wisevenv/bin/python -m pip install --quiet wise-se==0.0.7; }
	$(BIN)/python bench/run.py $(BENCH_ARGS)

# Replays every proof obligation with z3 and cvc5 and compares with proofs/record.json (issue 5);
# `python -m symcert.obligations --write` records anew. docs/proofs.md says what is proved.
proofs: install-test
	$(BIN)/python -m symcert.obligations

clean:
	rm -rf $(VENV) build src/*.egg-info .pytest_cache .hypothesis
