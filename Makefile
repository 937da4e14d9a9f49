# The two commands a fresh clone needs: `make run` and `make test` (see README.md).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test install compile browser lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

## make compile: the engine compiled with mypyc, in place (opt-in while compiled and pure still differ: issue 23,
## docs/PERFORMANCE.md); one line and the pure engine without a C compiler. LUDOLOG_PURE=1 loads the pure engine.
ENGINE_SOURCES := $(shell find engine/core engine/puerto_rico engine/amerigo engine/entdecker engine/golden_city -name '*.py')
compile: $(VENV)/.engine-compiled

$(VENV)/.engine-compiled: $(STAMP) $(ENGINE_SOURCES) tools/compile_engine.py
	$(BIN)/python tools/compile_engine.py

## make run: embedded Redis + RQ worker + gunicorn + demo games at http://127.0.0.1:8000
run: install
	$(BIN)/ludolog serve

## Debian's Chromium for the browser tests (Playwright drives it; it never downloads a browser of its own)
browser:
	@test -x /usr/bin/chromium || { \
	  echo "installing Debian's chromium for the browser tests"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-dejavu-core >/dev/null; }

## make test: every test, against a real embedded Redis, real RQ workers and headless Chromium
test: install browser
	$(BIN)/python -m pytest -q
	@# compiled by `make compile`? then the engine tests run a second time on the pure reference engine
	@if [ -n "$$(find engine -name '*.so' -print -quit)" ]; then \
	  echo "the engine tests again, on the pure-Python engine (LUDOLOG_PURE=1)"; \
	  LUDOLOG_PURE=1 $(BIN)/python -m pytest -q tests/engine; fi

lint: install
	$(BIN)/ruff check engine service workers replay_ui tests bench

bench: install
	$(BIN)/ludolog bench all

clean:
	rm -rf $(VENV) var .pytest_cache build
	find engine -name '*.so' -delete
