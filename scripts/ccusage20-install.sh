#!/bin/sh
# Installs ccusage 20.0.24 (the native 20.x line: a small Node launcher and
# the @ccusage/ccusage-<os>-<arch> binary, both from npm) into a gitignored
# folder and prints the path of its command. This file is the one place
# the 20.x version is pinned; cli/cmd_sessions_ccusage20_test.go uses it
# (MEMSCOPE_CCUSAGE20 may point at another copy). The 18.0.11 parity test
# keeps scripts/ccusage-install.sh.
#
#   scripts/ccusage20-install.sh [DIR]     default DIR: .cache/ccusage20
set -eu
version=20.0.24
cd "$(dirname "$0")/.."
dir=${1:-.cache/ccusage20}
bin="$dir/node_modules/.bin/ccusage"
if [ ! -x "$bin" ] || ! grep -q "\"version\": \"$version\"" "$dir/node_modules/ccusage/package.json" 2>/dev/null; then
	command -v npm >/dev/null || { echo "ccusage20-install: npm is not installed" >&2; exit 1; }
	mkdir -p "$dir"
	npm install --silent --no-audit --no-fund --prefix "$dir" "ccusage@$version" >&2
fi
echo "$(cd "$(dirname "$bin")" && pwd)/ccusage"
