#!/usr/bin/env bash
# Install what the NetBox integration test needs (Debian 12, root): PostgreSQL, Redis, and a
# Python >= 3.12 virtualenv holding the PyPI "netbox" application (never a dependency of facility).
# Usage (from the repository root): bash scripts/netbox/install.sh
# The venv lands in $NB_WORK/venv (default ~/.cache/facility-netbox-it/, outside the checkout); a second run reuses it.
set -euo pipefail

NB_VERSION="${NB_VERSION:-4.7.3}"
NB_WORK="${NB_WORK:-${XDG_CACHE_HOME:-$HOME/.cache}/facility-netbox-it}"

need_apt=0
for cmd in pg_config psql redis-server redis-cli gcc curl; do
  command -v "$cmd" >/dev/null 2>&1 || need_apt=1
done
[ -e /usr/include/postgresql/libpq-fe.h ] || need_apt=1
if [ "$need_apt" = 1 ]; then
  # gcc and libpq-dev: netbox pins psycopg[c], which is compiled from source.
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends postgresql redis-server libpq-dev gcc curl >/dev/null
fi

if [ -x "$NB_WORK/venv/bin/netbox" ] && "$NB_WORK/venv/bin/netbox" version 2>/dev/null | grep -q "$NB_VERSION"; then
  exit 0
fi

# NetBox 4.7 requires Python >= 3.12; this project itself runs on 3.11.
PY=""
for cand in python3.13 python3.12; do
  p="$(command -v "$cand" 2>/dev/null || true)"
  if [ -n "$p" ] && "$p" -c 'import sys; assert sys.version_info >= (3, 12)' 2>/dev/null; then PY="$p"; break; fi
done
if [ -z "$PY" ]; then
  PY="$(ls -d "$(pyenv root 2>/dev/null || echo "$HOME/.pyenv")"/versions/3.1[23]*/bin/python3 2>/dev/null | head -n1 || true)"
fi
if [ -z "$PY" ]; then
  # Last resort: a uv-managed CPython (downloads it when not cached).
  uv python install 3.12 >/dev/null
  PY="$(uv python find 3.12)"
fi
"$PY" -c 'import sys; assert sys.version_info >= (3, 12), sys.version'

rm -rf "$NB_WORK/venv"
"$PY" -m venv "$NB_WORK/venv"
"$NB_WORK/venv/bin/pip" install -q --disable-pip-version-check "netbox==${NB_VERSION}"
