# The two commands a fresh clone needs: `make run` and `make test` (see README.md).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test check install compile browser lint bench clean messages

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

## make install: the venv with ludolog and its dependencies, then the engine compiled with mypyc in place
## (tools/compile_engine.py): a C compiler missing or failing leaves the pure-Python engine, with one line saying so.
## LUDOLOG_PURE=1 skips the compile (and makes any process load the pure engine even where compiled files exist).
ENGINE_STAMP   := $(VENV)/.engine-compiled
# Every engine source but the BGA reader's (never compiled): a game's package is found without naming it here.
ENGINE_SOURCES := $(shell find engine -name '*.py' -not -path 'engine/bga/*')
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

## Debian's Chromium for the browser tests (Playwright drives it; it never downloads a browser of its own), Debian's
## headless shell of it, which the tests run on where it is installed (a third less CPU than the full browser: issue 48),
## and Debian's CJK fonts, so that the pages in Chinese are drawn in characters, not boxes (tests/ui/test_languages.py)
browser:
	@test -x /usr/bin/chromium || { \
	  echo "installing Debian's chromium for the browser tests"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-dejavu-core >/dev/null; }
	@test -x /usr/bin/chromium-headless-shell || { \
	  echo "installing Debian's chromium-headless-shell for the browser tests"; \
	  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium-headless-shell >/dev/null; } \
	  || echo "no chromium-headless-shell: the browser tests run on the full chromium"; }
	@test -n "$$(fc-list :lang=zh-tw 2>/dev/null)" || { \
	  echo "installing Debian's CJK fonts for the pages in Chinese"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-noto-cjk >/dev/null; }

## make test: every test (both tiers: the quick one `make check` runs and the slow one), against a real embedded Redis,
## real RQ workers and headless Chromium, in two passes run at once (make -j2, each pass's output printed whole when
## it ends): every test on the compiled engine, and the
## engine tests again on the pure reference engine, which needs no compile and so runs while the engine compiles.
## Each pass runs TEST_WORKERS pytest processes (pytest-xdist), each with its own embedded Redis, so none shares
## data; worksteal: an idle process takes tests queued for a busy one, so a few slow tests leave no core idle.
## Some tests run make themselves (`make install` in a copy, `make run` in a fresh clone): env -u hides this make's
## job server from them, which they could not reach (make would warn about it on their standard error).
## Bytecode is cached even where the environment says not to (PYTHONDONTWRITEBYTECODE=1, as on this machine): else
## each test process rewrites every test module's asserts again (7 of its collection's 11 CPU-seconds here), and
## each of the ~140 Python subprocesses the tests start compiles the project's modules again (git ignores __pycache__).
TEST_WORKERS ?= 3
PYTEST       := env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u PYTHONDONTWRITEBYTECODE \
                $(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist worksteal
.PHONY: test-compiled test-pure
test: $(STAMP) browser
	@$(MAKE) --no-print-directory -j2 --output-sync=target test-compiled test-pure

test-compiled: $(ENGINE_STAMP)
	$(PYTEST)

# Only the tests whose code the compile changes run on the pure engine: not tests/engine/bga (the BGA log reader,
# engine/bga, is never compiled; the rules it drives are tested on the pure engine by the games' own tests here),
# nor tests/engine/test_compiled.py (the differential test already runs the pure engine beside the compiled one
# at every step), nor what that differential test plays on both engines and compares step by step (PURE_COVERED):
# seeded random games of every game and player count (each step's actor, legal moves, move and state, and the
# outcome), and the strategy bots' games. So the games' random-game property tests and the bots' tests run on the
# compiled engine only: a third of the pure pass's CPU (issue 48). Nothing is compiled without a C compiler or with
# LUDOLOG_PURE=1: test-compiled is the pure pass then, and runs them all.
PURE_COVERED := --ignore-glob='tests/engine/*/test_random_games.py' --ignore-glob='tests/engine/*/test_properties.py' \
                --ignore=tests/engine/analysis/test_strategies.py
test-pure: $(STAMP)
	@if [ "$${LUDOLOG_PURE:-0}" = 0 ] && $(BIN)/python -c 'from tools.compile_engine import c_compiler; exit(not c_compiler())'; then \
	  echo "the engine tests again, on the pure-Python engine (LUDOLOG_PURE=1)"; \
	  LUDOLOG_PURE=1 $(PYTEST) tests/engine --ignore=tests/engine/bga --ignore=tests/engine/test_compiled.py $(PURE_COVERED); fi

## make check: the quick tier, for every change: every test but the slow tier (pytest's `slow` marker: the whole games
## played by two browsers and an engine, the accessibility sweeps, the fresh clone, supervision under faults, the
## cluster, durability under SIGKILL), on the compiled engine (compiled first when it is not current), in one pass.
## It leaves out the pure engine's second pass too: `make test` runs both tiers and both passes, and stays what CI runs.
check: $(STAMP) browser $(ENGINE_STAMP)
	$(PYTEST) -m 'not slow'

## make messages: the site's strings extracted again from Python, the templates and the scripts (babel.cfg: `_`,
## `gettext`, `ngettext`, `N_`; the scripts' `t`, `tn` and `tParts`) and merged into every language's catalog
## (service/i18n/translations/<locale>/LC_MESSAGES/messages.po; a new language's file is made). Translate what is new
## there (msgstr ""): tests/i18n/test_catalogs.py fails while a message has no translation. No .mo is built: the
## service reads the .po files at start (service/i18n/catalogs.py).
MESSAGES_POT := build/messages.pot
I18N_LOCALES := hu de zh_Hant zh_Hans
messages: $(STAMP)
	@mkdir -p build
	$(BIN)/pybabel -q extract -F babel.cfg -k t -k tn:1,2 -k tParts -k N_ --add-location=file --project ludolog \
	  --copyright-holder ludolog --sort-output -o $(MESSAGES_POT) replay_ui service
	for locale in $(I18N_LOCALES); do \
	  $(BIN)/pybabel -q update --init-missing -i $(MESSAGES_POT) -d service/i18n/translations -D messages -l $$locale || exit 1; done

lint: install
	$(BIN)/ruff check engine ludolog service workers replay_ui tests bench

bench: install
	$(BIN)/ludolog bench all

clean:
	rm -rf $(VENV) var .pytest_cache build
	find engine -name '*.so' -delete
