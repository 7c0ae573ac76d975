# Datapad: `make run` serves the demo; `make test` runs the whole suite on the real services.
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python

.PHONY: run test lint format bench clean

$(VENV)/.runtime: requirements.txt
	@PYTHON=$$(scripts/find-python) || exit 1; \
	  [ -x $(PY) ] || $$PYTHON -m venv $(VENV) || exit 1; \
	  $(PY) -m pip install -q --disable-pip-version-check -r requirements.txt || exit 1
	@touch $@

$(VENV)/.dev: $(VENV)/.runtime requirements-dev.txt
	@$(PY) -m pip install -q --disable-pip-version-check -r requirements.txt -r requirements-dev.txt
	@touch $@

run: $(VENV)/.runtime
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_demo
	@echo "Datapad is at http://127.0.0.1:8000 (Ctrl-C stops it)"
	$(PY) manage.py runserver 127.0.0.1:8000

test: $(VENV)/.dev lint
	scripts/test.sh

lint: $(VENV)/.dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/hadolint Dockerfile
	DJANGO_ENV=test $(PY) manage.py makemigrations --check --dry-run >/dev/null

format: $(VENV)/.dev
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

bench: $(VENV)/.dev
	$(PY) bench/odds.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .coverage htmlcov staticfiles
