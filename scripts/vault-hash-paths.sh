#!/usr/bin/env bash
# Where a first sync's BLAKE3 work goes by code path (docs/VAULT.md,
# "i31h2"): syncs HOME_DIR into a temporary vault, reads every chunk's
# length from the state (its "n": the length in the file, before the
# session ids are taken out, so a little above what is hashed), and
# counts the chunks and bytes each path of blake3.Sum256 takes with
# AVX-512: one compression chain (chunks of at most 1 KiB), HashF16 (16
# whole chunks), HashF8 (8 whole chunks before the last ones), and the
# last chunks (HashF8 from 1 440 bytes on, serial SSE4.1 compressions
# below); then the 32 quantiles of the lengths (third_party/blake3's
# BenchmarkSum256Mix holds them).
#
#   HOME_DIR=.cache/vault-bench/home scripts/vault-hash-paths.sh
#   MEMSCOPE_BIN=FILE HOME_DIR=… scripts/vault-hash-paths.sh
set -euo pipefail
cd "$(dirname "$0")/.."
: "${HOME_DIR:?HOME_DIR: the home to sync}"
dir=$(mktemp -d "${TMPDIR:-/tmp}/vault-hash-paths.XXXXXX")
trap 'rm -rf "$dir"' EXIT
bin=${MEMSCOPE_BIN:-}
if [ -z "$bin" ]; then
	go build -o "$dir/memscope" .
	bin=$dir/memscope
fi
"$bin" vault sync --home "$HOME_DIR" --vault "$dir/vault" --json >/dev/null
echo "== BLAKE3 paths of a first sync of $HOME_DIR ($(du -sh "$HOME_DIR" | cut -f1)), $(date -u '+%F %H:%M') UTC"
cat "$dir"/vault/state/0*.jsonl | python3 -c '
import json, sys
lens = []
for line in sys.stdin:
    rec = json.loads(line.split("\t", 1)[1])
    for v in rec.get("versions") or []:
        lens += [c["n"] for c in v.get("chunks") or []]
paths = {"one chain (<= 1 KiB)": [0, 0], "HashF16": [0, 0], "HashF8, 8 whole chunks": [0, 0],
         "last chunks, HashF8 (> 1440 B)": [0, 0], "last chunks, serial (<= 1440 B)": [0, 0]}
def add(p, n):
    paths[p][0] += 1
    paths[p][1] += n
for n in lens:
    if n <= 1024:
        add("one chain (<= 1 KiB)", n)
        continue
    whole = (n - 1) // 1024
    i = whole // 16 * 16
    if i:
        add("HashF16", i * 1024)
    if whole - i >= 8:
        add("HashF8, 8 whole chunks", 8192)
        i += 8
    r = n - i * 1024
    add("last chunks, HashF8 (> 1440 B)" if r > 1440 else "last chunks, serial (<= 1440 B)", r)
total = sum(lens)
print(f"{len(lens)} chunks, {total} bytes, mean {total / len(lens):.0f}")
for p, (c, b) in paths.items():
    print(f"  {p:34s} {c:7d} inputs {b:12d} bytes {100 * b / total:5.1f} %")
s = sorted(lens)
print("32 quantiles:", [s[int((i + 0.5) * len(s) / 32)] for i in range(32)])
'
