# Two entry points: `make run` installs and starts the bot, `make test` installs and runs the tests.
VENV ?= .venv
PY := $(VENV)/bin/python

.PHONY: run test

$(PY):
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip

# Reinstall only when the project's dependencies change (the install is editable).
$(VENV)/.installed: pyproject.toml | $(PY)
	$(PY) -m pip install -q -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(PY)
	$(PY) -m pip install -q -e '.[test]'
	touch $@ $(VENV)/.installed

run: $(VENV)/.installed
	$(PY) -m bot

# Most end-to-end tests wait on the fake Bot API's delays and the bot's timers rather than
# compute, so more workers than cores pay: 4 keep two cores busy (CI has two). Each worker
# starts its own throwaway PostgreSQL server (tests/support/postgres.py); worksteal hands the
# slow tests' neighbours to idle workers. `make test TEST_WORKERS=0` runs them in one process.
TEST_WORKERS ?= 4

test: $(VENV)/.installed-test
	$(PY) -m ruff check .
	$(VENV)/bin/lint-imports
	$(PY) -m mypy
	$(PY) -m pytest -n $(TEST_WORKERS) --dist worksteal
