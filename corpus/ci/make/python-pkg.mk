.PHONY: install dev test lint format clean build

install:
	pip install .

dev:
	pip install -e ".[dev]"
	pre-commit install

test:
	pytest --cov=mypkg --cov-report=term-missing tests/

lint:
	ruff check src tests
	mypy src

format:
	ruff format src tests

clean:
	rm -rf build/ dist/ *.egg-info .coverage htmlcov/ .pytest_cache/
	find . -type d -name __pycache__ -prune -exec rm -rf {} +

build: clean
	python -m build
