.ONESHELL:
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python

.PHONY: venv install test lint fmt docs clean release

venv:
	python3 -m venv $(VENV)
	$(PY) -m pip install -U pip wheel

install: venv
	$(PY) -m pip install -e '.[dev]'

test:
	$(PY) -m pytest -q --maxfail=1

lint:
	$(VENV)/bin/ruff check src tests
	$(VENV)/bin/mypy src

fmt:
	$(VENV)/bin/ruff format src tests

docs:
	$(VENV)/bin/sphinx-build -W -b html docs docs/_build/html

release:
	$(PY) -m build
	$(PY) -m twine check dist/*

clean:
	rm -rf $(VENV) build dist .pytest_cache .mypy_cache docs/_build
	find . -name '__pycache__' -type d -prune -exec rm -rf {} +
