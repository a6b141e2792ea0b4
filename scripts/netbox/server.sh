#!/usr/bin/env bash
# A throwaway NetBox on 127.0.0.1 for the integration test: PostgreSQL (private cluster), Redis, gunicorn.
#   bash scripts/netbox/server.sh start   # prints NETBOX_URL=... and NETBOX_TOKEN=... when the API answers
#   bash scripts/netbox/server.sh stop    # stops gunicorn, Redis and PostgreSQL by PID, removes the cluster
#   NB_RESTORE=dump.sql bash scripts/netbox/server.sh start   # restores that pg_dump (plain SQL or
#       .sql.gz, e.g. a netbox-demo-data dump of an older NetBox) and migrates it, instead of the
#       empty schema; migrating an older dump takes minutes. The schema dump is left alone.
# Run from the repository root, as root (PostgreSQL runs as user postgres). Needs scripts/netbox/install.sh.
# State lives in $NB_WORK (default ~/.cache/facility-netbox-it/): PID files, logs, the NetBox configuration.
set -euo pipefail

NB_VERSION="${NB_VERSION:-4.7.3}"
NB_WORK="${NB_WORK:-${XDG_CACHE_HOME:-$HOME/.cache}/facility-netbox-it}"
NB_PG_PORT="${NB_PG_PORT:-54329}"
NB_REDIS_PORT="${NB_REDIS_PORT:-63799}"
NB_HTTP_PORT="${NB_HTTP_PORT:-58001}"
# A gzipped pg_dump of the freshly migrated, empty schema (no users, no tokens). Restored instead of
# running ~270 s of migrations; written after a cold run when missing. Named after the NetBox version.
NB_SCHEMA_DUMP="${NB_SCHEMA_DUMP:-tests/netbox_it/data/netbox-${NB_VERSION}-migrated.sql.gz}"
# Test-only credentials for a server that lives a few minutes on loopback.
NB_TOKEN_KEY="facilityit01"                                  # 12 chars [A-Za-z0-9]
NB_TOKEN_SECRET="facilityItOnlySecret0123456789abcdefghij"   # 40 chars [A-Za-z0-9]

mkdir -p "$NB_WORK"
WORK="$(cd "$NB_WORK" && pwd)"
VENV_BIN="$WORK/venv/bin"
export NETBOX_ROOT="$WORK/instance"

stop_pid() {  # stop_pid PIDFILE [SIGNAL]: signal the PID written in the file, wait for it to exit
  local f="$1" sig="${2:-TERM}" pid
  [ -f "$f" ] || return 0
  pid="$(head -n1 "$f" | tr -dc '0-9')"
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    kill "-$sig" "$pid" 2>/dev/null || true
    for _ in $(seq 150); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
  fi
  rm -f "$f"
}

# The body runs in a subshell: its `set +e` (go on past what is already stopped) never
# reaches the caller, so `start` keeps failing fast after its first `stop`.
stop() (
  set +e
  stop_pid "$WORK/gunicorn.pid" TERM
  stop_pid "$WORK/redis.pid" TERM
  if [ -f "$WORK/pgdata.path" ]; then
    local pgdata; pgdata="$(cat "$WORK/pgdata.path")"
    # postmaster.pid's first line is the server's PID; SIGINT is PostgreSQL's "fast" shutdown.
    [ -f "$pgdata/postmaster.pid" ] && cp "$pgdata/postmaster.pid" "$WORK/postgres.pid" && stop_pid "$WORK/postgres.pid" INT
    case "$pgdata" in */netbox-it-pg.*) rm -rf "$pgdata" ;; esac
    rm -f "$WORK/pgdata.path"
  fi
  rm -f "$WORK/env"
)

on_error() {  # on_error STATUS: what start leaves behind when one of its commands fails
  [ -z "${dump_tmp:-}" ] || rm -f "$dump_tmp"
  echo "server.sh start failed (exit $1); logs in $WORK (migrate.log, gunicorn.log, redis.log)" >&2
  stop
}

start() {
  [ -x "$VENV_BIN/netbox" ] || { echo "no NetBox venv in $WORK/venv: run scripts/netbox/install.sh" >&2; exit 3; }
  stop  # never act on the leftovers of an earlier run
  local dump_tmp=""
  trap 'on_error $?' ERR  # set -e still exits after it, with the failing command's status

  # PostgreSQL: private cluster, loopback TCP only, socket in its own directory, durability off.
  local pgbin pgdata
  pgbin="$(pg_config --bindir)"
  pgdata="$(mktemp -d -t netbox-it-pg.XXXXXX)"   # outside the checkout: user postgres must reach it
  echo "$pgdata" > "$WORK/pgdata.path"
  chown postgres:postgres "$pgdata"; chmod 700 "$pgdata"
  runuser -u postgres -- "$pgbin/initdb" -D "$pgdata" -A trust -U postgres -E UTF8 --no-locale >/dev/null
  runuser -u postgres -- "$pgbin/pg_ctl" -D "$pgdata" -l "$pgdata/server.log" -w -o \
    "-c listen_addresses=127.0.0.1 -p $NB_PG_PORT -k $pgdata -c fsync=off -c full_page_writes=off -c synchronous_commit=off" \
    start >/dev/null
  psql -q -h 127.0.0.1 -p "$NB_PG_PORT" -U postgres -v ON_ERROR_STOP=1 \
    -c "CREATE USER netbox WITH PASSWORD 'netbox';" -c "CREATE DATABASE netbox OWNER netbox;"

  # Redis: loopback only, no persistence.
  redis-server --bind 127.0.0.1 --port "$NB_REDIS_PORT" --save '' --appendonly no --daemonize yes \
    --pidfile "$WORK/redis.pid" --logfile "$WORK/redis.log"
  for _ in $(seq 50); do redis-cli -h 127.0.0.1 -p "$NB_REDIS_PORT" ping 2>/dev/null | grep -q PONG && break; sleep 0.1; done

  mkdir -p "$NETBOX_ROOT/conf"
  cat > "$NETBOX_ROOT/conf/configuration.py" <<CONF
ALLOWED_HOSTS = ['127.0.0.1', 'localhost']
DATABASES = {'default': {
    'ENGINE': 'django.db.backends.postgresql', 'NAME': 'netbox', 'USER': 'netbox', 'PASSWORD': 'netbox',
    'HOST': '127.0.0.1', 'PORT': '$NB_PG_PORT', 'CONN_MAX_AGE': 300}}
_r = {'HOST': '127.0.0.1', 'PORT': $NB_REDIS_PORT, 'USERNAME': '', 'PASSWORD': '', 'SSL': False}
REDIS = {'tasks': {**_r, 'DATABASE': 0}, 'caching': {**_r, 'DATABASE': 1}}
SECRET_KEY = 'facility-it-only-secret-key-not-for-production-0123456789abcdefghij'
API_TOKEN_PEPPERS = {1: 'facility-it-only-pepper-not-for-production-0123456789abcdefghijk'}
# Nothing leaves the machine: no census, no release check, no plugin catalog.
ISOLATED_DEPLOYMENT = True
CENSUS_REPORTING_ENABLED = False
RELEASE_CHECK_URL = None
CONF

  if [ -n "${NB_RESTORE:-}" ]; then
    [ -f "$NB_RESTORE" ] || { echo "NB_RESTORE: no such file: $NB_RESTORE" >&2; false; }
    case "$NB_RESTORE" in *.gz) gzip -dc "$NB_RESTORE" ;; *) cat "$NB_RESTORE" ;; esac \
      | psql -q -h 127.0.0.1 -p "$NB_PG_PORT" -U netbox -d netbox -v ON_ERROR_STOP=1 >/dev/null
    "$VENV_BIN/netbox" migrate --no-input >"$WORK/migrate.log"      # from the dump's version on
  elif [ -f "$NB_SCHEMA_DUMP" ]; then
    gzip -dc "$NB_SCHEMA_DUMP" | psql -q -h 127.0.0.1 -p "$NB_PG_PORT" -U netbox -d netbox -v ON_ERROR_STOP=1 >/dev/null
    "$VENV_BIN/netbox" migrate --no-input >"$WORK/migrate.log"      # a no-op unless the dump is stale
  else
    "$VENV_BIN/netbox" migrate --no-input >"$WORK/migrate.log"
    # Into a temporary file beside it, moved into place only once migrate and pg_dump (pipefail)
    # both succeeded: a failed run never leaves a truncated or empty dump behind.
    mkdir -p "$(dirname "$NB_SCHEMA_DUMP")"
    dump_tmp="$(mktemp "$NB_SCHEMA_DUMP.XXXXXX")"
    pg_dump -h 127.0.0.1 -p "$NB_PG_PORT" -U netbox -d netbox --no-owner | gzip -9n > "$dump_tmp"
    chmod 644 "$dump_tmp"
    mv "$dump_tmp" "$NB_SCHEMA_DUMP"
    dump_tmp=""
  fi

  "$VENV_BIN/netbox" shell --no-imports -c "
from users.models import User, Token
# Its own user: a restored dump (NB_RESTORE) may hold an 'admin' already.
u = User.objects.create_superuser('facility-it', 'facility-it@example.invalid', 'facility-it-password')
t = Token(user=u, key='$NB_TOKEN_KEY', token='$NB_TOKEN_SECRET', description='facility integration test')
t.full_clean(); t.save()
" >/dev/null
  local token="nbt_${NB_TOKEN_KEY}.${NB_TOKEN_SECRET}" url="http://127.0.0.1:${NB_HTTP_PORT}" code=""

  "$VENV_BIN/gunicorn" netbox.wsgi --bind "127.0.0.1:$NB_HTTP_PORT" --workers 2 --threads 2 --timeout 120 \
    --no-control-socket --daemon --pid "$WORK/gunicorn.pid" \
    --error-logfile "$WORK/gunicorn.log" --access-logfile "$WORK/access.log"
  for _ in $(seq 120); do
    code=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $token" "$url/api/status/" || true)
    [ "$code" = 200 ] && break; sleep 0.5
  done
  if [ "$code" != 200 ]; then
    echo "NetBox did not come up (HTTP $code)" >&2; tail -n 30 "$WORK/gunicorn.log" >&2; stop; exit 1
  fi
  printf 'NETBOX_URL=%s\nNETBOX_TOKEN=%s\n' "$url" "$token" | tee "$WORK/env"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
