# Datapad: `make run` serves the demo; `make test` runs the whole suite on the real services.
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python

# Installs come only from the locks: every package, transitive ones too, pinned with its hashes.
PIP_INSTALL := $(PY) -m pip install -q --disable-pip-version-check --require-hashes
# The locks are compiled from requirements*.txt (the files people edit) by uv, for every
# platform and Python 3.12+; the dev lock keeps the runtime lock's versions.
COMPILE := $(VENV)/bin/uv pip compile --quiet --no-config --universal --python-version 3.12 \
	--generate-hashes --custom-compile-command "make lock"

.PHONY: run test lint format bench clean lock

$(VENV)/.runtime: requirements.lock
	@PYTHON=$$(scripts/find-python) || exit 1; \
	  [ -x $(PY) ] || $$PYTHON -m venv $(VENV) || exit 1; \
	  $(PIP_INSTALL) -r requirements.lock || exit 1
	@touch $@

$(VENV)/.dev: $(VENV)/.runtime requirements-dev.lock
	@$(PIP_INSTALL) -r requirements-dev.lock
	@touch $@

# After editing requirements.txt or requirements-dev.txt: regenerate both locks (needs the
# package index) and commit them.
lock: $(VENV)/.dev
	$(COMPILE) requirements.txt -o requirements.lock
	$(COMPILE) requirements-dev.txt -c requirements.lock -o requirements-dev.lock

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
	$(VENV)/bin/lint-imports --no-cache --no-logo
	$(VENV)/bin/mypy --strict rules/
	DJANGO_ENV=test $(PY) manage.py makemigrations --check --dry-run >/dev/null

format: $(VENV)/.dev
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

bench: $(VENV)/.dev
	$(PY) bench/odds.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .coverage htmlcov staticfiles
