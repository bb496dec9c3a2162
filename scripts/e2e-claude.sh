#!/bin/sh
# The real-client end-to-end test (e2e/claude): installs the Claude Code
# version pinned in e2e/claude/CLIENT_VERSION from npm into .cache/ (once),
# then runs the test with MEMSCOPE_CLAUDE pointing at it. As root, with
# unshare and ip, the test runs in a private network namespace with only
# loopback (the fake Messages API), so nothing can reach the network.
# Every client run inside the test is bounded by a timeout.
set -eu
cd "$(dirname "$0")/.."
bin=$(scripts/claude-install.sh) || { echo "e2e-claude: the client could not be installed: skipped (TestRealClient skips, saying so)"; exit 0; }
export MEMSCOPE_CLAUDE="$bin"
run="go test -count=1 -timeout 20m ./e2e/claude/"
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null && command -v ip >/dev/null && unshare -n true 2>/dev/null; then
	echo "(in a private network namespace: loopback only)"
	exec unshare -n bash -c "set -o pipefail; ip link set lo up && GOPROXY=off GOFLAGS='${GOFLAGS:-}' $run -v 2>&1 | grep -E '^ *(=== RUN|--- |ok|FAIL|PASS)|fail open|claude_test.go'"
fi
echo "(no private network namespace here: the client is kept off the network by its environment only)"
exec $run -v
