#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests, on loopback only: `install | start | stop | env | status`.
#
# The cluster lives outside the repository (PG_DIR, default /tmp/cms-plugin-bag-pg-<hash of the repo path>) because
# the server runs as the `postgres` user, which may not be allowed into a clone under /root. Same repo path → same
# cluster, so the tests can stop and start it (fault tests) with this script and no extra configuration.
# Durability is switched off (fsync, synchronous_commit): the data is thrown away, speed matters.
set -euo pipefail
cd "$(dirname "$0")/.."

repo_hash=$(printf '%s' "$PWD" | sha1sum | cut -c1-8)
PG_DIR=${PG_DIR:-${TMPDIR:-/tmp}/cms-plugin-bag-pg-$repo_hash}
PGPORT=${PGPORT:-55432}
PG_USER=${DATABASE_USERNAME:-strapi}
PG_PASSWORD=${DATABASE_PASSWORD:-strapi}

pg_bin() {
  local dir
  dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [[ -z "$dir" ]]; then dir=$(dirname "$(command -v pg_ctl 2>/dev/null || echo /nonexistent/pg_ctl)"); fi
  echo "$dir"
}

# The server refuses to run as root: as root, run the binaries as `postgres`.
as_owner() {
  if [[ $(id -u) -eq 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi
}

install() {
  if [[ -x "$(pg_bin)/pg_ctl" ]]; then return 0; fi
  # Another process may hold the dpkg lock for a while (a parallel apt-get): retry instead of failing.
  for attempt in $(seq 1 30); do
    if apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null; then
      # Debian starts its own cluster on 5432; this project uses its own and leaves that one alone.
      return 0
    fi
    echo "apt-get failed (attempt $attempt), retrying in 10 s" >&2
    sleep 10
  done
  return 1
}

start() {
  local bin
  bin=$(pg_bin)
  mkdir -p "$PG_DIR"
  [[ $(id -u) -eq 0 ]] && chown postgres: "$PG_DIR"
  if [[ ! -f "$PG_DIR/data/PG_VERSION" ]]; then
    local pwfile="$PG_DIR/pwfile"
    printf '%s\n' "$PG_PASSWORD" >"$pwfile"
    [[ $(id -u) -eq 0 ]] && chown postgres: "$pwfile"
    as_owner "$bin/initdb" -D "$PG_DIR/data" -U "$PG_USER" --pwfile="$pwfile" \
      --auth-local=scram-sha-256 --auth-host=scram-sha-256 -E UTF8 --locale=C.UTF-8 >/dev/null
    rm -f "$pwfile"
  fi
  if status >/dev/null; then return 0; fi
  as_owner "$bin/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w -t 60 start -o \
    "-c listen_addresses=127.0.0.1 -p $PGPORT -k $PG_DIR -c max_connections=300 -c fsync=off \
     -c synchronous_commit=off -c full_page_writes=off" >/dev/null
  echo "PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$PGPORT (data in $PG_DIR/data)"
}

stop() {
  [[ -f "$PG_DIR/data/postmaster.pid" ]] || return 0
  # A server killed without stopping (with its process group, or its machine) leaves its pid file: nothing to stop.
  if ! status; then
    rm -f "$PG_DIR/data/postmaster.pid"
    return 0
  fi
  as_owner "$(pg_bin)/pg_ctl" -D "$PG_DIR/data" -w -t 60 stop -m fast >/dev/null
}

status() {
  as_owner "$(pg_bin)/pg_ctl" -D "$PG_DIR/data" status >/dev/null 2>&1
}

# What the playground and the test harness read (config/database.ts, tests/helpers/strapi.ts).
env() {
  cat <<EOF
export DATABASE_CLIENT=postgres
export DATABASE_HOST=127.0.0.1
export DATABASE_PORT=$PGPORT
export DATABASE_USERNAME=$PG_USER
export DATABASE_PASSWORD=$PG_PASSWORD
EOF
}

case "${1:-}" in
  install) install ;;
  start) start ;;
  stop) stop ;;
  status) status ;;
  env) env ;;
  *) echo "usage: $0 install|start|stop|status|env" >&2; exit 2 ;;
esac
