#!/usr/bin/env bash
# make test: install and start what the suite needs (PostgreSQL, Redis, Chromium), run the
# whole suite against them, and stop the services again, also on failure.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)
export DJANGO_ENV=test DATAPAD_REQUIRE_SERVICES=1 REQUEST_LOGGING=false NEED_CHROMIUM=1
status=0
scripts/services.sh .venv/bin/python -m pytest --cov=rules --cov-report=term --cov-fail-under=95 -q "$@" || status=$?
echo "== make test took $(( $(date +%s) - started )) s"
exit $status
