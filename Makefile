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

test: $(VENV)/.installed-test
	$(PY) -m ruff check .
	$(VENV)/bin/lint-imports
	$(PY) -m pytest
