PYTHON ?= python3
VENV   := .venv

.PHONY: venv test clean clean-cache

venv:
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install -r requirements-dev.txt

test: venv
	$(VENV)/bin/pytest -q

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache

# wipe the tool cache directory
clean-cache:
	rm -rf $(HOME)/$(TOOL_CACHE_SUBDIR)
