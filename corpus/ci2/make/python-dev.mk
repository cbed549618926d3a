.DEFAULT_GOAL := help
PY ?= python3
VENV := .venv

help:  ## Show this help
	@grep -E '^[a-zA-Z_-]+:.*?## ' $(MAKEFILE_LIST) | awk 'BEGIN {FS = ":.*?## "}; {printf "%-15s %s\n", $$1, $$2}'

$(VENV)/bin/activate: pyproject.toml
	$(PY) -m venv $(VENV)
	$(VENV)/bin/pip install -e '.[dev]'

lint: $(VENV)/bin/activate  ## Lint
	$(VENV)/bin/ruff check src tests
	$(VENV)/bin/ruff format --check src tests

test: $(VENV)/bin/activate  ## Run tests
	$(VENV)/bin/pytest -q

clean:  ## Remove build artifacts
	rm -rf dist build *.egg-info .pytest_cache .ruff_cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
