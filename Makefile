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

## make install: the venv with ludolog and its dependencies, then the engine compiled with mypyc in place
## (tools/compile_engine.py): a C compiler missing or failing leaves the pure-Python engine, with one line saying so.
## LUDOLOG_PURE=1 skips the compile (and makes any process load the pure engine even where compiled files exist).
ENGINE_STAMP   := $(VENV)/.engine-compiled
ENGINE_SOURCES := $(shell find engine/core engine/puerto_rico engine/amerigo engine/entdecker engine/golden_city engine/analysis -name '*.py')
install: $(STAMP) $(ENGINE_STAMP)

# The stamp is written only by a compile that worked, so a fallback is tried again by the next `make install`.
$(ENGINE_STAMP): $(STAMP) $(ENGINE_SOURCES) tools/compile_engine.py
	$(BIN)/python tools/compile_engine.py --stamp $@

## make compile: compile the engine again now, whatever the stamp says
compile: $(STAMP)
	$(BIN)/python tools/compile_engine.py --stamp $(ENGINE_STAMP)

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
	@# compiled? then the engine tests run a second time, on the pure reference engine
	@if [ -n "$$(find engine -name '*.so' -print -quit)" ]; then \
	  echo "the engine tests again, on the pure-Python engine (LUDOLOG_PURE=1)"; \
	  LUDOLOG_PURE=1 $(BIN)/python -m pytest -q tests/engine; fi

lint: install
	$(BIN)/ruff check engine ludolog service workers replay_ui tests bench

bench: install
	$(BIN)/ludolog bench all

clean:
	rm -rf $(VENV) var .pytest_cache build
	find engine -name '*.so' -delete
