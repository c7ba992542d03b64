# The two set-up commands of the README: both install what they need into .venv first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test test-ready kernels test-fast lint install bench bench-server bench-web gallery clean clean-cache web web-test chromium

# Each long step says what it is doing first: on a fresh clone the install alone takes minutes
# and pip --quiet prints nothing meanwhile.
$(BIN)/python:
	@echo "make: creating the virtual environment $(VENV) ($(PYTHON) -m venv)"
	$(PYTHON) -m venv $(VENV)

$(STAMP): $(BIN)/python pyproject.toml
	@echo "make: installing reelforge and its pinned dependencies into $(VENV) (pip; a few minutes on a fresh clone, quiet until done)"
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev,distributed,plots,export]'
	touch $(STAMP)
	@echo "make: installed"

install: $(STAMP)

# Serves the games on the embedded SQLite default (var/reelforge.db) and prints the URLs to
# open; the analysis table of every shipped game is `$(BIN)/reelforge report`.
run: $(STAMP) web
	@echo "make run: starting the game server (the first start also compiles the numba kernels, minutes; later starts load them from the cache)"
	$(BIN)/reelforge serve

# Lint first: seconds, where the suite takes minutes. The rule set is in pyproject.toml.
lint: $(STAMP)
	$(BIN)/ruff check src tests tools benchmarks
	$(BIN)/mypy

# One worker more than the machine has cores (pytest-xdist): a worker waiting on a server it
# started, a subprocess or a timeout leaves a core idle, and on 2 cores the suite kept them busy
# 1.7 of 2 (1,460 CPU s in 858 s). A test module stays on one worker, so its module-scoped
# servers and databases start once.
TEST_WORKERS ?= $(shell $(PYTHON) -c 'import os; print((os.cpu_count() or 1) + 1)')
# On a fresh clone the downloads (pip, npm, Debian's chromium) come in side by side, then the
# lint, the numba kernels' compile (minutes, CPU) and the client's build run beside each other,
# rather than each waiting for the last; the suites follow, each with all the cores.
test:
	$(MAKE) --no-print-directory -j4 --output-sync=line test-ready
	$(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist loadfile
	cd web && npm test
	cd web && npm run e2e

test-ready: lint kernels web chromium

# Every shipped game's kernels compiled into numba's cache (or loaded, where they are already),
# so the processes the suites start load them in tenths of a second.
kernels: $(STAMP)
	$(BIN)/python tests/kernel_warmup.py --all

# Day-to-day: the suite less the tests marked slow (Dask clusters, subprocess runs, long
# simulations), under 3 minutes here once numba's cache is warm.
test-fast: lint
	$(BIN)/python -m pytest -q -m "not slow" -n $(TEST_WORKERS) --dist loadfile

# One table: each shipped game's rounds/s on one core and on all cores, scaling efficiency,
# exact-analysis times. A measurement: it never fails on time.
bench: $(STAMP)
	@echo "make bench: timing every shipped game (several minutes; the table comes at the end)"
	$(BIN)/python benchmarks/suite.py

# The game server under load: real `reelforge serve` processes on loopback, SQLite and
# PostgreSQL, 1 and 2 workers, played by a load generator on the same machine: the closed loop
# (saturation), then the open loop at 100, 300 and 600 rounds a second (latency at an offered
# load). A measurement: it never fails on time. Options: $(BIN)/python
# benchmarks/server_load.py --help.
bench-server: $(STAMP)
	@echo "make bench-server: playing demo rounds against reelforge serve on SQLite and PostgreSQL, 1 and 2 workers, closed loop then 100/300/600 rounds/s open loop (about 5 minutes; the table comes at the end)"
	$(BIN)/python benchmarks/server_load.py

# The browser client (web/): npm ci from the committed lock file when it is newer than the
# installed modules, then the type check and the Vite build into web/dist (what serve sends).
WEB_STAMP := web/node_modules/.installed
$(WEB_STAMP): web/package.json web/package-lock.json
	@echo "make: installing the web client's pinned packages (npm ci in web/)"
	cd web && npm ci --no-audit --no-fund
	touch $(WEB_STAMP)

web: $(WEB_STAMP)
	cd web && npm run build

# The e2e tests drive Debian's chromium (playwright-core never downloads a browser here).
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
chromium:
	@if [ ! -x /usr/bin/chromium ]; then \
		echo "make: installing Debian's chromium for the web e2e tests"; \
		$(SUDO) apt-get install -y --no-install-recommends chromium \
		|| { $(SUDO) apt-get update && $(SUDO) apt-get install -y --no-install-recommends chromium; }; \
	fi

# Unit tests (Vitest), then the end-to-end tests: chromium against a real reelforge serve on a
# fresh SQLite file (screenshots in web/test-results/).
web-test: $(STAMP) web chromium
	cd web && npm test
	cd web && npm run e2e

# The browser client in headless chromium at 1440x900 against a real reelforge serve on a fresh
# SQLite file: fps during a spin and a tumble sequence at each quality, the first load's bytes
# (gzipped as a server would), the time to a playable screen. A measurement: it never fails on
# time. Options: the environment variables at the top of web/bench/client.mjs.
bench-web: $(STAMP) web chromium
	@echo "make bench-web: the browser client's fps, first-load size and time to playable (a few minutes; the table comes at the end)"
	cd web && node bench/client.mjs

# Every game in its key states at both sizes, screenshots on one page (web/gallery/index.html)
# for a reviewer; fails on a blank screen or a control over the reels. GALLERY_ONLY=cluedo etc.
gallery: $(STAMP) web chromium
	@echo "make gallery: playing each game into its key states at 1440x900 and 390x844 (several minutes)"
	cd web && node tests/e2e/gallery.mjs

clean:
	rm -rf $(VENV) build src/*.egg-info web/node_modules web/dist web/test-results web/gallery

# numba's cache does not notice an edited callee in another module (rng.py called from
# lines.py): clear it after editing a kernel's callee.
clean-cache:
	find src -name '*.nbi' -delete -o -name '*.nbc' -delete
