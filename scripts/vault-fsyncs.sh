#!/usr/bin/env bash
# The fsyncs of a first sync, and the serial steps at its end, for two
# memscope builds alternated ROUNDS times (default 3): `memscope vault
# sync` of HOME_DIR into an empty vault under strace (the count of
# fsync calls does not depend on the load; their times do), the vault
# in VAULT_DIR (default .cache/vault-fsyncs, on the worktree's disk:
# in /dev/shm an fsync costs nothing).
#
#   OLD=FILE NEW=FILE HOME_DIR=.cache/vault-bench/home scripts/vault-fsyncs.sh
#
# Per run: the fsyncs, their summed time, and the tail: the time from the
# first rename of the sync's last pack to the process's exit, with the
# fsyncs and renames in it (each with its time).
set -euo pipefail
cd "$(dirname "$0")/.."
: "${OLD:?OLD=<memscope binary> is required}" "${NEW:?NEW=<memscope binary> is required}" "${HOME_DIR:?HOME_DIR: the home to sync}"
command -v strace >/dev/null || { echo "vault-fsyncs: strace is required (apt-get install strace)" >&2; exit 1; }
ROUNDS=${ROUNDS:-3}
V=${VAULT_DIR:-$PWD/.cache/vault-fsyncs}
case "$V" in /*) ;; *) V="$PWD/$V" ;; esac
H=$(cd "$HOME_DIR" && pwd)
T=$(mktemp -d "${TMPDIR:-/tmp}/vault-fsyncs.XXXXXX")
trap 'rm -rf "$T" "$V"' EXIT
echo "== vault fsyncs, $(date -u '+%F %H:%M UTC'), $(nproc) cores, home $(du -sm "$H" | cut -f1) MB, vault in $(dirname "$V") ($(df --output=fstype "$(dirname "$V")" 2>/dev/null | tail -1)), load $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq "$ROUNDS"); do
	for ab in old new; do
		bin=$OLD
		[ "$ab" = new ] && bin=$NEW
		rm -rf "$V"
		strace -f -tt -T -e trace=fsync,fdatasync,rename,renameat,renameat2,exit_group -o "$T/trace" "$bin" vault sync --home "$H" --vault "$V" --json >/dev/null
		awk -v ab="$ab" -v r="$r" -v load="$(cut -d' ' -f1 /proc/loadavg)" '
		function sec(s,   a) { split(s, a, ":"); return a[1] * 3600 + a[2] * 60 + a[3] }
		function dur(l) { if (match(l, /<[0-9.]+>$/)) return substr(l, RSTART + 1, RLENGTH - 2) + 0; return 0 }
		{ line[NR] = $0 }
		$3 ~ /^fsync\(/ && !/unfinished/ { n++; tot += dur($0) }
		$3 == "<..." && $4 == "fsync" { n++; tot += dur($0) }
		$3 ~ /^rename/ && /\.pack\.memscope-/ { lastpack = NR }
		/exit_group/ { if (!exit_t) exit_t = sec($2) }
		END {
			printf "%-3s round %d, load %s: %d fsyncs, %.1f ms in them", ab, r, load, n, tot * 1000
			if (lastpack) {
				split(line[lastpack], f, " "); t0 = sec(f[2])
				printf "; tail from the last pack'"'"'s rename to exit %.1f ms:", (exit_t - t0) * 1000
				for (i = lastpack + 1; i <= NR; i++) {
					split(line[i], g, " ")
					if ((g[3] ~ /^fsync\(/ || g[4] == "fsync") && line[i] !~ /unfinished/) printf " fsync %.1f", dur(line[i]) * 1000
					else if (g[3] ~ /^rename/) { w = line[i]; sub(/.*\//, "", w); sub(/".*/, "", w); printf " rename(%s)", w }
				}
			}
			print ""
		}' "$T/trace"
	done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
