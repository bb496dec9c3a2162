#!/bin/sh
# Installs the Claude Code client at the version pinned in
# e2e/claude/CLIENT_VERSION from npm into a gitignored folder and prints the
# path of its native binary. The real-client test (e2e/claude, run by
# .ci/run with MEMSCOPE_CLAUDE pointing at it) uses it.
#
#   scripts/claude-install.sh [DIR]     default DIR: .cache/claude-code
set -eu
cd "$(dirname "$0")/.."
version=$(tr -d ' \n' <e2e/claude/CLIENT_VERSION)
dir=${1:-.cache/claude-code}
pkg="$dir/node_modules/@anthropic-ai/claude-code/package.json"
if ! grep -q "\"version\": \"$version\"" "$pkg" 2>/dev/null; then
	command -v npm >/dev/null || { echo "claude-install: npm is not installed" >&2; exit 1; }
	mkdir -p "$dir"
	npm install --silent --no-audit --no-fund --prefix "$dir" "@anthropic-ai/claude-code@$version" >&2
fi
for b in "$dir"/node_modules/@anthropic-ai/claude-code-*/claude "$dir/node_modules/.bin/claude"; do
	if [ -x "$b" ]; then
		echo "$(cd "$(dirname "$b")" && pwd)/$(basename "$b")"
		exit 0
	fi
done
echo "claude-install: no claude binary under $dir" >&2
exit 1
