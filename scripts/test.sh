#!/usr/bin/env bash
# make test: install and start what the suite needs (PostgreSQL, Redis, Chromium), run lint
# and the whole suite against them, and stop the services again, also on failure.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)

need=()
command -v chromium >/dev/null || need+=(chromium fonts-liberation)
command -v redis-server >/dev/null || need+=(redis-server)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
if [ ${#need[@]} -gt 0 ]; then
  echo "== installing ${need[*]}"
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

free_port() { .venv/bin/python -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
work=$(mktemp -d /tmp/datapad-test.XXXXXX)
PGBIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
PGPORT=$(free_port)
REDISPORT=$(free_port)
as_pg() { if [ "$(id -u)" = 0 ]; then su postgres -s /bin/sh -c "$1"; else sh -c "$1"; fi; }

cleanup() {
  as_pg "$PGBIN/pg_ctl -D $work/data -m immediate stop" >/dev/null 2>&1 || true
  [ -f "$work/redis.pid" ] && kill "$(cat "$work/redis.pid")" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT INT TERM

[ "$(id -u)" = 0 ] && chown postgres "$work"
as_pg "$PGBIN/initdb -D $work/data -A trust -U postgres" >/dev/null
as_pg "$PGBIN/pg_ctl -D $work/data -l $work/pg.log -w start -o '-p $PGPORT -k $work -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200'" >/dev/null
redis-server --port "$REDISPORT" --bind 127.0.0.1 --daemonize yes --save '' --appendonly no \
  --pidfile "$work/redis.pid" --logfile "$work/redis.log"

export DATABASE_URL="postgres://postgres@127.0.0.1:$PGPORT/postgres"
export REDIS_URL="redis://127.0.0.1:$REDISPORT/0"
export DJANGO_ENV=test DATAPAD_REQUIRE_SERVICES=1 REQUEST_LOGGING=false
echo "== services: PostgreSQL on $PGPORT, Redis on $REDISPORT"

status=0
.venv/bin/python -m pytest --cov=rules --cov-report=term --cov-fail-under=95 -q "$@" || status=$?
echo "== make test took $(( $(date +%s) - started )) s"
exit $status
