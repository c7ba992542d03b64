# The two set-up commands of the README: both install what they need into .venv first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test install bench clean clean-cache

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(BIN)/reelforge report

test: $(STAMP)
	$(BIN)/python -m pytest -q

# One table: each shipped game's rounds/s on one core and on all cores, scaling efficiency,
# exact-analysis times. A measurement: it never fails on time.
bench: $(STAMP)
	$(BIN)/python benchmarks/suite.py

clean:
	rm -rf $(VENV) build src/*.egg-info

# numba's cache does not notice an edited callee in another module (rng.py called from
# lines.py): clear it after editing a kernel's callee.
clean-cache:
	find src -name '*.nbi' -delete -o -name '*.nbc' -delete
