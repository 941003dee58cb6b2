# Sourced by .ci/run: starts a throwaway PostgreSQL cluster in a temporary directory, exports
# DATABASE_URL, and stops and deletes the cluster when the calling shell exits.
# CI runs as root and PostgreSQL refuses to run as root: the cluster runs as the `postgres` user
# (created by Debian's package), or as the current user when it is not root.
PG_BIN="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"
PG_PORT="${SONDE_CI_PG_PORT:-54329}"
PG_DIR="$(mktemp -d /tmp/sonde-ci-pg.XXXXXX)"
if [ "$(id -u)" -eq 0 ]; then
  chown postgres "$PG_DIR"
  as_pg() { runuser -u postgres -- "$@"; }
else
  as_pg() { "$@"; }
fi
as_pg "$PG_BIN/initdb" -D "$PG_DIR/data" -U postgres --auth=trust -E UTF8 --no-locale >/dev/null
as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w \
  -o "-p $PG_PORT -k $PG_DIR -c listen_addresses=127.0.0.1 -c max_connections=200" start >/dev/null
stop_postgres() {
  as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$PG_DIR"
}
trap stop_postgres EXIT
export DATABASE_URL="postgres://postgres@127.0.0.1:$PG_PORT/postgres"
