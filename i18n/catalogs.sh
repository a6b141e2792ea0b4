#!/usr/bin/env bash
# The message catalogs of the reports (Babel; see i18n/README.md).
#
#   i18n/catalogs.sh extract   # facility/locale/facility.pot from the code, templates, profiles
#   i18n/catalogs.sh update    # merge the .pot into facility/locale/zh_CN/LC_MESSAGES/facility.po
#   i18n/catalogs.sh compile   # facility.po -> facility.mo (what reports read at run time)
#   i18n/catalogs.sh           # all three, in that order
#
# Translate the new or fuzzy entries of the .po between update and compile; tests/i18n fails
# while any message lacks a translation, is fuzzy, or the .pot / .mo are out of date.
set -euo pipefail
cd "$(dirname "$0")/.."

POT=facility/locale/facility.pot
LOCALES=(zh_CN)

extract() {
  local version
  version=$(uv run python -c 'import facility; print(facility.__version__)')
  uv run pybabel extract -F babel.cfg --project=facility --version="$version" \
    --copyright-holder="the facility authors" --add-comments=TRANSLATORS: \
    --sort-by-file --width=100 -o "$POT" .
}

update() {
  for locale in "${LOCALES[@]}"; do
    uv run pybabel update -i "$POT" -d facility/locale -D facility -l "$locale" \
      --width=100 --ignore-obsolete --init-missing
  done
}

compile() {
  uv run pybabel compile -d facility/locale -D facility --statistics
}

case "${1:-all}" in
  extract) extract ;;
  update) update ;;
  compile) compile ;;
  all) extract && update && compile ;;
  *) echo "usage: $0 [extract|update|compile|all]" >&2; exit 2 ;;
esac
