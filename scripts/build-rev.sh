#!/usr/bin/env bash
# Builds memscope as it is at a git revision, from a copy of that tree
# (git archive: the tree being edited is not what is built), into OUT.
#
#   scripts/build-rev.sh main /tmp/memscope-main
set -euo pipefail
cd "$(dirname "$0")/.."
REV=${1:?REV: the revision to build} OUT=${2:?OUT: the binary to write}
case $OUT in /*) ;; *) OUT=$OLDPWD/$OUT ;; esac
src=$(mktemp -d)
trap 'rm -rf "$src"' EXIT
git archive "$REV" | tar -x -C "$src"
(cd "$src" && go build -o "$OUT" .)
