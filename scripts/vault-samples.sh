#!/usr/bin/env bash
# A first sync's CPU samples by part for two memscope builds, alternated
# ROUNDS times (default 3): perf record (cpu-clock, 4 kHz, kernel
# included) of `memscope vault sync` of HOME_DIR into an empty vault in a
# temporary folder (/dev/shm when there). Sample counts are CPU time
# (0.25 ms each); unlike instructions (vault-cg.sh) they see memory
# copies and the kernel, and they need no hardware counters. Prints each
# run's samples by part, its user+sys CPU, minor faults and the load,
# then each build's medians.
#
#   OLD=FILE NEW=FILE HOME_DIR=.cache/vault-bench/home scripts/vault-samples.sh
set -euo pipefail
cd "$(dirname "$0")/.."
: "${OLD:?OLD=<memscope binary> is required}" "${NEW:?NEW=<memscope binary> is required}" "${HOME_DIR:?HOME_DIR: the home to sync}"
command -v perf >/dev/null || { echo "vault-samples: perf is required (apt-get install linux-perf)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "vault-samples: /usr/bin/time is required (apt-get install time)" >&2; exit 1; }
ROUNDS=${ROUNDS:-3}
parent=/dev/shm
[ -d "$parent" ] && [ -w "$parent" ] || parent=${TMPDIR:-/tmp}
T=$(mktemp -d "$parent/vault-samples.XXXXXX")
trap 'rm -rf "$T"' EXIT
echo "== vault samples, $(date -u '+%F %H:%M UTC'), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), home $(du -sm "$HOME_DIR" | cut -f1) MB"
for r in $(seq "$ROUNDS"); do
	for ab in old new; do
		bin=$OLD
		[ "$ab" = new ] && bin=$NEW
		rm -rf "$T/vault"
		load=$(cut -d' ' -f1 /proc/loadavg)
		perf record -q -e cpu-clock -F 4000 -o "$T/perf.data" -- /usr/bin/time -f '%U %S %R' -o "$T/time" \
			"$bin" vault sync --home "$HOME_DIR" --vault "$T/vault" --json >/dev/null 2>&1
		read -r usr sys flt <"$T/time"
		perf report -i "$T/perf.data" --no-children --sort sym --stdio -g none -F sample,sym 2>/dev/null | awk \
			-v ab="$ab" -v r="$r" -v load="$load" -v cpu="$(echo "$usr + $sys" | bc)" -v flt="$flt" -v size="$(du -sb "$T/vault/packs" | cut -f1)" '
		!/^#/ && NF > 1 {
			n = $1; t += n
			if ($0 ~ /encodeBlock/) enc += n
			else if ($0 ~ /blake3/) b3 += n
			else if ($0 ~ /runtime\.memmove/) mm += n
			else if ($0 ~ /_copy_to_iter/) cp += n
			else if ($0 ~ /page_fault|clear_page|do_anonymous_page|filemap_map_pages/) pf += n
		}
		END { printf "%s round %d: total %d samples, encode %d, BLAKE3 %d, memmove %d, read copy %d, faults %d; CPU %s s, %s minor faults, packs %s bytes, load %s\n", ab, r, t, enc, b3, mm, cp, pf, cpu, flt, size, load }' | tee -a "$T/lines"
	done
done
median() { sort -n | awk '{a[NR]=$1} END {if (NR % 2) print a[(NR+1)/2]; else printf "%.1f\n", (a[NR/2]+a[NR/2+1])/2}'; }
for ab in old new; do
	printf '%s medians: total %s samples, encode %s, memmove %s, read copy %s, faults %s; CPU %s s\n' "$ab" \
		"$(awk -v ab="$ab" '$1 == ab {print $5}' "$T/lines" | median)" \
		"$(awk -v ab="$ab" '$1 == ab {print $8}' "$T/lines" | tr -d , | median)" \
		"$(awk -v ab="$ab" '$1 == ab {print $12}' "$T/lines" | tr -d , | median)" \
		"$(awk -v ab="$ab" '$1 == ab {print $15}' "$T/lines" | tr -d , | median)" \
		"$(awk -v ab="$ab" '$1 == ab {print $17}' "$T/lines" | tr -d ';' | median)" \
		"$(awk -v ab="$ab" '$1 == ab {print $19}' "$T/lines" | median)"
done
