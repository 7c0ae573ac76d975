#!/usr/bin/env bash
# Run a command with throwaway PostgreSQL and Redis on free loopback ports (installing them
# with apt-get first if missing), then stop them, also on failure:
#     scripts/services.sh <command> [args...]
# The command sees DATABASE_URL and REDIS_URL. make test (scripts/test.sh) and bench/live.py
# both run through it.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v redis-server >/dev/null || need+=(redis-server)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
if [ -n "${NEED_CHROMIUM:-}" ]; then command -v chromium >/dev/null || need+=(chromium fonts-liberation); fi
if [ ${#need[@]} -gt 0 ]; then
  echo "== installing ${need[*]}"
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
work=$(mktemp -d /tmp/datapad-services.XXXXXX)
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
echo "== services: PostgreSQL on $PGPORT, Redis on $REDISPORT"
status=0
"$@" || status=$?
exit $status
