#!/usr/bin/env bash
# A first sync's file calls (docs/VAULT.md, "i31f"), two memscope builds
# side by side: `memscope vault sync` of HOME_DIR into an empty vault in
# a temporary folder (/dev/shm when there), the home's pages resident.
#
#  1. the system calls that list, look at, advise, open, read and close
#     the home's files (strace -f -c counts: they do not depend on the
#     load; strace's times do, so none are printed);
#  2. ROUNDS alternated runs (default 3) under perf record (cpu-clock,
#     4999 Hz, call graphs), each run's share of the samples under the
#     walk (walkHome), the prefetcher (prefetcher.run) and the kernel's
#     fadvise64, newfstatat and openat, its user+sys CPU and the load;
#     then each build's medians.
#
# With COLD=1, the calls of a first sync with the home's pages dropped
# first are counted too (dd iflag=nocache of every file: do it on a copy
# of the home of your own, not on a home others are measuring).
#
#   OLD=FILE NEW=FILE HOME_DIR=.cache/vault-bench/home scripts/vault-fcalls.sh
#   COLD=1 ROUNDS=5 OLD=… NEW=… HOME_DIR=<a copy> scripts/vault-fcalls.sh
set -euo pipefail
cd "$(dirname "$0")/.."
: "${OLD:?OLD=<memscope binary> is required}" "${NEW:?NEW=<memscope binary> is required}" "${HOME_DIR:?HOME_DIR: the home to sync}"
for c in strace perf; do
	command -v "$c" >/dev/null || { echo "vault-fcalls: $c is required" >&2; exit 1; }
done
[ -x /usr/bin/time ] || { echo "vault-fcalls: /usr/bin/time is required (apt-get install time)" >&2; exit 1; }
ROUNDS=${ROUNDS:-3}
H=$(cd "$HOME_DIR" && pwd)
parent=/dev/shm
[ -d "$parent" ] && [ -w "$parent" ] || parent=${TMPDIR:-/tmp}
T=$(mktemp -d "$parent/vault-fcalls.XXXXXX")
trap 'rm -rf "$T"' EXIT
find "$H" -type f -exec cat {} + >/dev/null
drop() { find "$H" -type f -print0 | xargs -0 -n 200 sh -c 'for f; do dd if="$f" iflag=nocache count=0 status=none; done' _; }
echo "== vault file calls, $(date -u '+%F %H:%M UTC'), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), home $H ($(du -sm "$H" | cut -f1) MB, $(find "$H" -type f | wc -l) files), load $(cut -d' ' -f1-3 /proc/loadavg)"
calls="getdents64 newfstatat openat openat2 fstat fadvise64 preadv2 read close"
count() { # BIN OUT: strace table of a first sync
	rm -rf "$T/vault"
	strace -f -c -o "$2" "$1" vault sync --home "$H" --vault "$T/vault" --json >/dev/null
}
row() { # CALL FILE: calls (errors) of CALL in strace's table
	awk -v s="$1" '$NF == s {if (NF == 6) printf "%s (%s failed)", $4, $5; else printf "%s", $4; f = 1} END {if (!f) printf "0"}' "$2"
}
modes=warm
[ "${COLD:-}" = 1 ] && modes="warm cold"
for m in $modes; do
	for ab in old new; do
		bin=$OLD
		[ "$ab" = new ] && bin=$NEW
		[ "$m" = cold ] && drop
		count "$bin" "$T/$m.$ab"
	done
	echo
	echo "system calls of a first sync, pages $([ "$m" = cold ] && echo dropped || echo resident) (strace -f -c):"
	printf '  %-11s %-24s %s\n' call old new
	for c in $calls; do
		printf '  %-11s %-24s %s\n' "$c" "$(row "$c" "$T/$m.old")" "$(row "$c" "$T/$m.new")"
	done
done
find "$H" -type f -exec cat {} + >/dev/null
echo
for r in $(seq "$ROUNDS"); do
	for ab in old new; do
		bin=$OLD
		[ "$ab" = new ] && bin=$NEW
		rm -rf "$T/vault"
		load=$(cut -d' ' -f1 /proc/loadavg)
		perf record -q -g -e cpu-clock -F 4999 -o "$T/perf.data" -- /usr/bin/time -f '%U %S' -o "$T/time" \
			"$bin" vault sync --home "$H" --vault "$T/vault" --json >/dev/null 2>&1
		read -r usr sys <"$T/time"
		perf report -i "$T/perf.data" --children --sort sym --stdio -g none 2>/dev/null | awk \
			-v ab="$ab" -v r="$r" -v load="$load" -v cpu="$(echo "$usr + $sys" | bc)" '
		function pc(s) { sub(/%/, "", s); return s + 0 }
		$4 ~ /vault\.walkHome$/ { walk = pc($1) }
		$4 ~ /prefetcher\)\.run$/ { pf = pc($1) }
		$4 == "__x64_sys_fadvise64" { fa = pc($1) }
		$4 == "__do_sys_newfstatat" { st = pc($1) }
		$4 == "__x64_sys_openat" { op = pc($1) }
		END { printf "%s round %d: walk %.2f %%, prefetcher %.2f %%, fadvise64 %.2f %%, newfstatat %.2f %%, openat %.2f %% of the samples; CPU %s s, load %s\n", ab, r, walk, pf, fa, st, op, cpu, load }' | tee -a "$T/lines"
	done
done
median() { sort -n | awk '{a[NR]=$1} END {if (NR % 2) print a[(NR+1)/2]; else printf "%.3f\n", (a[NR/2]+a[NR/2+1])/2}'; }
for ab in old new; do
	printf '%s medians: walk %s %%, prefetcher %s %%, fadvise64 %s %%, newfstatat %s %%, openat %s %%, CPU %s s\n' "$ab" \
		"$(awk -v ab="$ab" '$1 == ab {print $5}' "$T/lines" | median)" \
		"$(awk -v ab="$ab" '$1 == ab {print $8}' "$T/lines" | median)" \
		"$(awk -v ab="$ab" '$1 == ab {print $11}' "$T/lines" | median)" \
		"$(awk -v ab="$ab" '$1 == ab {print $14}' "$T/lines" | median)" \
		"$(awk -v ab="$ab" '$1 == ab {print $17}' "$T/lines" | median)" \
		"$(awk -v ab="$ab" '$1 == ab {print $23}' "$T/lines" | median)"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
