# The two commands of the README: `make demo` and `make test`. Both set up .venv themselves.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin

.PHONY: demo test install install-test bench clean

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

clean:
	rm -rf $(VENV) build src/*.egg-info .pytest_cache .hypothesis
