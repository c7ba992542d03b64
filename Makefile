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

bench: $(STAMP)
	$(BIN)/reelforge bench cluedo-v1

clean:
	rm -rf $(VENV) build src/*.egg-info

# numba's cache does not notice an edited callee in another module (rng.py called from
# lines.py): clear it after editing a kernel's callee.
clean-cache:
	find src -name '*.nbi' -delete -o -name '*.nbc' -delete
