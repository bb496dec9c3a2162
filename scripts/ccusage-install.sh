#!/bin/sh
# Installs ccusage 18.0.11 (the last release that runs on Node alone, with
# no native binary) into a gitignored folder and prints the path of its
# command. The sessions parity test (cli/cmd_sessions_ccusage_test.go) and
# scripts/bench.sh use it; MEMSCOPE_CCUSAGE may point at another copy.
#
#   scripts/ccusage-install.sh [DIR]     default DIR: .cache/ccusage
set -eu
version=18.0.11
cd "$(dirname "$0")/.."
dir=${1:-.cache/ccusage}
bin="$dir/node_modules/.bin/ccusage"
if [ ! -x "$bin" ] || ! grep -q "\"version\": \"$version\"" "$dir/node_modules/ccusage/package.json" 2>/dev/null; then
	command -v npm >/dev/null || { echo "ccusage-install: npm is not installed" >&2; exit 1; }
	mkdir -p "$dir"
	npm install --silent --no-audit --no-fund --prefix "$dir" "ccusage@$version" >&2
fi
echo "$(cd "$(dirname "$bin")" && pwd)/ccusage"
