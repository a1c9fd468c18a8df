# Parlour: `make run` starts the bot, `make test` runs lint + the whole suite (one pytest
# worker per core: the simcord sessions and child processes spend much of their time waiting).
# Both create .venv and install everything from pyproject.toml on first use.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: run test lint bench screenshots clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test,playground]'
	touch $(STAMP)

run: $(STAMP)
	$(PY) -m bot

lint: $(STAMP)
	$(PY) -m ruff check .

test: lint
	$(PY) -m pytest -q -n auto

bench: $(STAMP)
	$(PY) -m bench

screenshots: $(STAMP)
	$(PY) scripts/screenshots.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
