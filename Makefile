# Two entry points: `make run` installs and starts the bot, `make test` installs and runs the tests.
VENV ?= .venv
PY := $(VENV)/bin/python

$(PY):
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip

.PHONY: run test install install-test
install: $(PY)
	$(PY) -m pip install -q -e .

install-test: $(PY)
	$(PY) -m pip install -q -e '.[test]'

run: install
	$(PY) -m bot

test: install-test
	$(PY) -m ruff check .
	$(PY) -m pytest
