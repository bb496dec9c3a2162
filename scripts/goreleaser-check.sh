#!/bin/sh
# Checks .goreleaser.yaml and makes a snapshot build for this host (no
# publishing): what .ci/run does for releases. goreleaser comes from
# scripts/goreleaser-install.sh (the Go module proxy, pinned, built into
# .cache/); when it cannot be had the check says so and is skipped.
set -eu
cd "$(dirname "$0")/.."
if ! gr=$(scripts/goreleaser-install.sh 2>.cache/goreleaser-install.log); then
	echo "goreleaser could not be built from the Go module proxy (see .cache/goreleaser-install.log): release check skipped"
	tail -3 .cache/goreleaser-install.log
	exit 0
fi
"$gr" check
# The snapshot writes dist/ and dist-extra/ (both ignored); the before
# hooks run the binary to make the man page and completions.
GOFLAGS= "$gr" build --snapshot --single-target --clean
ls dist/*/memscope dist/*/memscope-hook
