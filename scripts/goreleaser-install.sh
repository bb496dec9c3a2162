#!/bin/sh
# Installs goreleaser (pinned) from the Go module proxy into a gitignored
# folder and prints the path of its command. .ci/run uses it to check
# .goreleaser.yaml and make a snapshot build for the host. It is a big build
# (several minutes on two cores); once built it is reused. v2.15.0 is pinned:
# v2.18 needs go 1.27, and v2.16-v2.17 need go.digitalxero.dev/go-msix, which
# the Go module proxy refuses (403).
#
#   scripts/goreleaser-install.sh [DIR]     default DIR: .cache/goreleaser
set -eu
version=v2.15.0
cd "$(dirname "$0")/.."
dir=${1:-.cache/goreleaser}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
bin="$dir/goreleaser"
stamp="$dir/version"
if [ ! -x "$bin" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$version" ]; then
	# Outside the module so its dependencies never touch go.mod; -mod=mod
	# overrides a caller's GOFLAGS=-mod=readonly.
	(cd "$dir" && GOFLAGS=-mod=mod GOBIN="$dir" go install "github.com/goreleaser/goreleaser/v2@$version") >&2
	echo "$version" >"$stamp"
fi
echo "$bin"
