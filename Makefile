# Two commands do all set-up on a machine with only python3:
#   make play   creates .venv, installs unbeatable, starts tic-tac-toe against the AI
#   make test   creates .venv with the test extras, runs ruff, mypy and the whole suite
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
GAME ?= tictactoe

.PHONY: play test test-fast lint typecheck pytest bench clean system-packages graphviz chromium gnubg stockfish serve

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed-run: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test,mpi,web]'
	@$(MAKE) --no-print-directory system-packages
	@$(MAKE) --no-print-directory graphviz
	@$(MAKE) --no-print-directory chromium
	@$(MAKE) --no-print-directory gnubg
	@$(MAKE) --no-print-directory stockfish
	touch $@ $(VENV)/.installed-run

# The Debian packages the tests use, each with the shell test of whether it is here; and the
# install, which needs root and apt-get (silent: the caller says what skips without it).
HAS_graphviz = command -v dot >/dev/null 2>&1
HAS_chromium = { command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; }
HAS_gnubg = { command -v makebearoff >/dev/null 2>&1 || [ -x /usr/games/makebearoff ]; }
HAS_stockfish = { command -v stockfish >/dev/null 2>&1 || [ -x /usr/games/stockfish ]; }
apt_install = { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 \
	  && (apt-get update -qq && apt-get install -y -qq $(1)) >/dev/null 2>&1; }

# Those missing, in one apt-get run (one package index update, not one a package); each target
# below then finds its own, or tries alone and says what skips.
system-packages:
	@missing=""; \
	$(HAS_graphviz) || missing="$$missing graphviz"; \
	$(HAS_chromium) || missing="$$missing chromium chromium-driver"; \
	$(HAS_gnubg) || missing="$$missing gnubg"; \
	$(HAS_stockfish) || missing="$$missing stockfish"; \
	[ -z "$$missing" ] || $(call apt_install,$$missing) || true

# Graphviz draws `unbeatable tree` as SVG/PNG; where it cannot be installed (not root, no apt),
# the command writes DOT only and the tests that need `dot` are skipped.
graphviz:
	@$(HAS_graphviz) || $(call apt_install,graphviz) \
	  || echo "Graphviz not installed: 'unbeatable tree' writes DOT only; its SVG/PNG tests skip"

# Debian's Chromium and its driver run the browser tests of the web page (Selenium, headless);
# where they cannot be installed, those tests are skipped and say so.
chromium:
	@$(HAS_chromium) || $(call apt_install,chromium chromium-driver) \
	  || echo "Chromium not installed: the browser tests of the web page (tests/test_web_browser.py) skip"

# GNU Backgammon's makebearoff and bearoffdump (Debian's gnubg, GPL: run as an oracle only)
# check the bear-off race's exact values (tests/test_bearoff.py); where they cannot be
# installed, that test is skipped and says so.
gnubg:
	@$(HAS_gnubg) || $(call apt_install,gnubg) \
	  || echo "gnubg not installed: the bear-off oracle test (tests/test_bearoff.py) skips"

# Debian's Stockfish plays the chess tests' games against a real engine (a short UCI game, the
# rules' differential test); where it cannot be installed, those tests are skipped and say so.
stockfish:
	@$(HAS_stockfish) || $(call apt_install,stockfish) \
	  || echo "Stockfish not installed: the chess tests that play against it skip"

$(VENV)/.installed-web: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[web]'
	touch $@

# the peers (easyAI, OpenSpiel) are measured beside us by the benchmarks, never by the tests
$(VENV)/.installed-bench: $(VENV)/.installed-test
	$(BIN)/python -m pip install --quiet -e '.[test,mpi,peers]'
	touch $@

# a compiled game (connect4, chess) builds its kernels first, with a progress line, once
play: $(VENV)/.installed-run
	$(BIN)/unbeatable warm $(GAME)
	$(BIN)/unbeatable play $(GAME)

# the web page on http://127.0.0.1:8000 (HOST=0.0.0.0 PORT=8080 to change; see docs/web.md)
HOST ?= 127.0.0.1
PORT ?= 8000
serve: $(VENV)/.installed-web
	$(BIN)/python -m unbeatable.web --host $(HOST) --port $(PORT)

# make test builds the compiled kernels while mypy runs (three processes on two cores): on a
# clean clone (empty mypy and numba caches), 2026-12-04, mypy then the kernels took 72.3 s and
# 67.0 s, the three at once 60.7 s and 49.6 s (alternating runs, load 1.5-2)
test: $(VENV)/.installed-test gnubg lint
	$(WARM); $(BIN)/mypy; typed=$$?; $(WARMED) && exit $$typed
	$(PYTEST_ALL)

# the inner loop: lint, types and every test not marked slow (2,052 tests of 2,312), on two
# processes (pytest-xdist; FAST_JOBS=1 for one): 67.9 s of pytest, 71 s of wall and 131 s of
# CPU for the whole make test-fast, on 2026-12-02 with the kernels built and the bytecode
# cached (load 2.0-2.4, no other job). Back to back that day, pytest alone took 68.7-70.2 s
# (131-135 s of CPU), and the tests before that day's cuts 102.7-103.8 s (195-198 s of CPU);
# later that day, with 11 more fast tests (2,063 of 2,326), 70.3 s of pytest, 73.8 s in all (load 1.0);
# later again, 2,077 of 2,340: 53.2 s of pytest, 56.0 s in all (a quiet hour).
# That afternoon, 2,086 of 2,350 (the low Connect Four boards' cases): 71.0 s of pytest, 74.1 s
# in all, at an hour when this machine ran about a third slower (chess 0.9 M nodes/s, not 1.4 M).
# That evening, 2,087 of 2,353: 74.2 s of pytest, 78.4 s in all (chess 0.95 M nodes/s).
# A test of about 0.5 s of CPU or more is marked @pytest.mark.slow (make test runs it) where
# a quicker case of its module and feature stays in make test-fast
FAST_JOBS ?= 2
# make test: every test, on three processes (below); a module's tests stay in one process
# (--dist loadfile: its server, browser or cluster is started once). JOBS=1 for one process.
# Its CPU is not only the test processes': on 2026-11-28 (kernels warm, no bytecode cached,
# load 1.8-3.1) pytest used 617 s of CPU in all (user + system), inside the tests 284 s in
# the test processes and 317 s in the programs they start (commands, servers, browser, MPI
# ranks), in 357 s of wall; the same command before that day's cuts used 829 s (426 + 379)
# in 636 s (load 1.0-3.5). A clean clone's .ci/run took 522 s, its pytest 418 s (load 3-4),
# of the 10 minutes asked of the whole run on two cores.
# Three processes, though the machine has two cores: much of a test is waiting (servers, a
# browser, MPI ranks, commands), and a third process fills it. 2026-12-04, whole suites one
# after the other in one checkout, load 2-3.5: 543.9 s with three against 577.2 s with two,
# then 620.3 s with two against 560.7 s with three.
JOBS ?= 3
# --no-loadscope-reorder keeps tests/conftest.py's order (its slowest modules first): by
# default pytest-xdist hands out the modules with the most tests first, and long modules of
# one or two tests came last, one process running them while the other idled. On 2026-12-03
# (chess 0.74 M nodes/s, half this machine's best) pytest took 569.5 s before and 540.4 s
# after; its modules' seconds summed 1,057 s: given out longest first, 529 s a process.
# The tests run with Python's bytecode cache on (__pycache__, ignored by git) even where the
# environment turns it off (PYTHONDONTWRITEBYTECODE=1, as on the machines here): the suite
# starts hundreds of Python processes (commands, servers, MPI ranks, one a module for the
# import test), and without the cache each compiled our sources again, and each test process
# rewrote every test module's asserts again (collecting the tests took 8.2 s of CPU a
# process, 3.3 s with the cache). tests/test_imports.py alone: 16.1 s of CPU with it off,
# 6.6 s from an empty cache with it on (2026-11-28, load 5).
PYTEST := env -u PYTHONDONTWRITEBYTECODE $(BIN)/python -m pytest
PYTEST_ALL = $(PYTEST) -q -n $(JOBS) --dist loadfile --no-loadscope-reorder
test-fast: $(VENV)/.installed-test lint typecheck
	$(PYTEST) -q -m "not slow" -n $(FAST_JOBS)

lint: $(VENV)/.installed-test
	$(BIN)/ruff check src tests benchmarks

typecheck: $(VENV)/.installed-test
	$(BIN)/mypy

# The compiled kernels (chess, connect4) are built once, both at a time, before the test
# processes start: on a clean clone each test process built them again (about 39 s of CPU
# for both, measured at load 6 on 2026-11-28), and test_web_api's book test ran into its
# server's 10 s cap while its process built the Connect Four solver (it failed twice so).
WARM = $(BIN)/unbeatable warm chess & chess=$$!; $(BIN)/unbeatable warm connect4 & connect4=$$!
WARMED = wait $$chess; chess=$$?; wait $$connect4 && [ $$chess = 0 ]
pytest: $(VENV)/.installed-test
	$(WARM); $(WARMED)
	$(PYTEST_ALL)

bench: $(VENV)/.installed-bench
	$(BIN)/python benchmarks/tictactoe.py --mnk444

clean:
	rm -rf $(VENV) build dist src/*.egg-info .mypy_cache .ruff_cache .pytest_cache
