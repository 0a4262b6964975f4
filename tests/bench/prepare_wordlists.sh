#!/usr/bin/env bash
# Rebuilds the reference word lists of ../shared/bench/wordlists (en, pl, ru, uk) into
# $BENCH_WORDLIST_DIR (default var/bench-wordlists) when they are missing, from installed
# packages only: npm word-list 4.1.0 and dictionary-uk 4.0.0 (installed into var/npm),
# Debian wpolish and hunspell-uk, PyPI pymorphy3 dictionaries. Lists whose inputs are
# missing are skipped with a message (the tests that need them then skip and say so).
set -uo pipefail
cd "$(dirname "$0")/../.."
PY=${PY:-.venv/bin/python}
OUT=${BENCH_WORDLIST_DIR:-var/bench-wordlists}
SHARED=${SHARED_DIR:-../shared}
MAKE="$SHARED/bench/wordlists/make_wordlist.py"
mkdir -p "$OUT"
# one preparation at a time (CI prepares them for two test passes that start side by side): a second caller
# waits for the first and finds its lists made
if [ -z "${PREPARE_WORDLISTS_LOCKED:-}" ] && command -v flock >/dev/null 2>&1; then
  exec env PREPARE_WORDLISTS_LOCKED=1 flock "$OUT/.prepare.lock" "$PWD/tests/bench/prepare_wordlists.sh" "$@"
fi
if [ ! -f "$MAKE" ]; then echo "prepare_wordlists: $MAKE not found; bench word lists skipped"; exit 0; fi
NPM_DIR=var/npm
if [ ! -d "$NPM_DIR/node_modules/word-list" ] || [ ! -f "$NPM_DIR/node_modules/dictionary-uk/index.dic" ]; then
  if command -v npm >/dev/null 2>&1; then
    npm install --silent --no-save --no-audit --no-fund --prefix "$NPM_DIR" word-list@4.1.0 dictionary-uk@4.0.0 >/dev/null 2>&1 \
      || echo "prepare_wordlists: npm install of word-list/dictionary-uk failed"
  else
    echo "prepare_wordlists: npm not found: en and uk lists skipped"
  fi
fi
make_list() {  # name, args...
  local name=$1; shift
  [ -s "$OUT/$name.txt" ] && return 0
  if "$PY" "$MAKE" "$name" "$OUT/$name.txt.tmp" "$@" >/dev/null; then
    mv "$OUT/$name.txt.tmp" "$OUT/$name.txt"; echo "prepare_wordlists: $name.txt $(wc -l < "$OUT/$name.txt") words"
  else
    rm -f "$OUT/$name.txt.tmp"; echo "prepare_wordlists: $name list not made (inputs missing)"
  fi
}
# the lists are independent: made side by side (uk, the longest, first), each by its own process
if [ -f /usr/share/hunspell/uk_UA.dic ] && [ -f "$NPM_DIR/node_modules/dictionary-uk/index.dic" ]; then
  make_list uk "$NPM_DIR/node_modules/dictionary-uk/index.dic" /usr/share/hunspell/uk_UA.dic &
fi
make_list ru &
{
  [ -d "$NPM_DIR/node_modules/word-list" ] && make_list en "$NPM_DIR/node_modules/word-list"
  [ -f /usr/share/dict/polish ] && make_list pl /usr/share/dict/polish
} &
wait
exit 0
