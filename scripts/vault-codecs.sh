#!/usr/bin/env bash
# The ways to compress a home's unique chunks, on one core: CPU time and
# stored ÷ unique for each (engine/vault's TestCodecFloor; docs/VAULT.md,
# "i31v"). The chunks are cut as a first sync cuts them, each kept once,
# in the sync's order; each way runs in turn, ROUNDS times.
#
#   scripts/vault-codecs.sh                 the vault bench's home (scripts/vault-bench.sh makes it)
#   CODEC_HOME=DIR scripts/vault-codecs.sh  another home (only read), e.g. .cache/bench/W
#   WAYS='s2, 4 MiB groups;zstd fastest, each chunk (today)' scripts/vault-codecs.sh   some ways only
set -euo pipefail
cd "$(dirname "$0")/.."
HOME_DIR=${CODEC_HOME:-.cache/vault-bench/home}
[ -d "$HOME_DIR" ] || { echo "vault-codecs: no home at $HOME_DIR (run scripts/vault-bench.sh first, or set CODEC_HOME)" >&2; exit 1; }
echo "== vault codecs, $(date -u '+%F %H:%M') UTC, $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg), home $HOME_DIR"
MEMSCOPE_CODEC_HOME=$(realpath "$HOME_DIR") MEMSCOPE_CODEC_ROUNDS=${ROUNDS:-2} MEMSCOPE_CODEC_WAYS=${WAYS:-} \
	go test ./engine/vault -run '^TestCodecFloor$' -count=1 -v -timeout 30m | grep -E 'codecfloor|unique chunks'
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
