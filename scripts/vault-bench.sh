#!/usr/bin/env bash
# The rescue vault on a generated home, beside cat of the same files.
#
#   scripts/vault-bench.sh                 W/4 with forks (generated once into .cache/vault-bench)
#   SIZE=W FORKS=30 scripts/vault-bench.sh  the 1 GB home, 30 of its sessions forked
#   BENCH_HOME=DIR scripts/vault-bench.sh   an existing home (copied first: the script changes it)
#   COLD=1 scripts/vault-bench.sh           also cat and first-sync with the files' pages dropped
#                                          (dd iflag=nocache: issue 31's goal is against the cold cat)
#   MEMSCOPE_BIN=FILE scripts/vault-bench.sh  that binary instead of one built here (an A/B run
#                                          against another commit's build, on the same home)
#   VAULT_DIR=DIR scripts/vault-bench.sh   the vault there (removed first) instead of in
#                                          .cache/vault-bench: e.g. on a disk while the
#                                          home is in a tmpfs (the fsyncs are the disk's)
#
# Steps, each timed with /usr/bin/time (wall, CPU, peak RSS):
#   cat       every file the vault keeps, to /dev/null (the floor)
#   sync      the first sync into an empty vault
#   du        the vault's size over the files' size, and the dedup ratio
#   append    1 MB appended to one transcript, then a sync (incremental)
#   resync    a sync with nothing changed
#   restore   one session deleted, then put back; beside cp of its files
#   verify    every chunk and version re-hashed
# Forks: FORKS sessions get a copy with a new session id (every line's
# sessionId rewritten, as --fork-session writes it) plus 20 lines of their
# own, and as many a resumed copy (same lines, 20 more), the shapes real
# homes show (93-99 % of a fork's records are its parent's).
set -euo pipefail
cd "$(dirname "$0")/.."

SIZE=${SIZE:-W/4}
FORKS=${FORKS:-20}
CACHE=.cache/vault-bench
mkdir -p "$CACHE"
log() { echo "vault-bench: $*" >&2; }

if [ ! -x /usr/bin/time ]; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
		log "installing the package 'time' with apt-get"
		apt-get install -y -qq time >&2
	else
		log "/usr/bin/time is missing (install the package 'time')"; exit 1
	fi
fi

if [ -n "${MEMSCOPE_BIN:-}" ]; then
	MS=$(realpath "$MEMSCOPE_BIN")
else
	go build -o "$CACHE/memscope" .
	MS="$PWD/$CACHE/memscope"
fi
H="$PWD/$CACHE/home"
V=${VAULT_DIR:-$PWD/$CACHE/vault}
case "$V" in /*) ;; *) V="$PWD/$V" ;; esac
rm -rf "$H" "$V"
if [ -n "${BENCH_HOME:-}" ]; then
	log "copying $BENCH_HOME"
	# Its contents, not the name: a BENCH_HOME that is a symbolic link
	# would be copied as the link, and the steps below would change the
	# home it names.
	mkdir -p "$H"
	cp -a "$BENCH_HOME"/. "$H"/
else
	G="$PWD/$CACHE/gen-${SIZE//\//_}"
	if [ ! -f "$G/manifest.json" ]; then
		go build -o "$CACHE/gen" ./scripts/memscope-gen
		log "generating $SIZE (once)"
		rm -rf "$G"
		"$CACHE/gen" -out "$G" -size "$SIZE" -seed 1 >&2
	fi
	cp -a "$G" "$H"
fi

log "adding $FORKS forks and $FORKS resumed copies"
n=0
while IFS= read -r t; do
	[ "$n" -ge "$FORKS" ] && break
	old=$(basename "$t" .jsonl)
	for kind in fork resume; do
		new=$(cat /proc/sys/kernel/random/uuid)
		out="$(dirname "$t")/$new.jsonl"
		if [ "$kind" = fork ]; then
			sed "s/\"sessionId\":\"$old\"/\"sessionId\":\"$new\"/g" "$t" > "$out"
		else
			cp "$t" "$out"
		fi
		tail -n 20 "$t" | sed "s/\"sessionId\":\"$old\"/\"sessionId\":\"$new\"/g; s/\"uuid\":\"/\"uuid\":\"$kind-/g" >> "$out"
	done
	n=$((n + 1))
done < <(find "$H/projects" -maxdepth 2 -name '*.jsonl' | sort)

files() { (cd "$H" && find projects file-history paste-cache history.jsonl -type f 2>/dev/null); }
timed() { # name, command...: prints "name wall cpu rss"
	local name=$1; shift
	/usr/bin/time -f "%e %U %S %M" -o "$CACHE/t" "$@" > "$CACHE/out.$name" 2>&1 || { cat "$CACHE/out.$name" >&2; exit 1; }
	read -r wall user sys rss < "$CACHE/t"
	printf '%-8s %8.2f s wall %8.2f s CPU %8d MB RSS\n' "$name" "$wall" "$(echo "$user + $sys" | bc)" "$((rss / 1024))"
	echo "$name $wall $(echo "$user + $sys" | bc)" >> "$CACHE/times"
}

rm -f "$CACHE/times"
raw=$(files | (cd "$H" && xargs -d '\n' cat) | wc -c)
log "home: $((raw / 1000000)) MB in $(files | wc -l) files"
echo "== vault bench, $(date -u +%F), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
catall() { timed "$1" bash -c "cd '$H' && find projects file-history paste-cache history.jsonl -type f -print0 2>/dev/null | xargs -0 cat > /dev/null"; }
# The home was just copied: its pages are dirty, and a dirty page is not
# dropped (dd iflag=nocache asks posix_fadvise DONTNEED, which leaves
# pages not yet written back): write them back first, or the "cold" cat
# reads from memory while the writeback runs beside the "cold" sync.
drop() { sync && files | (cd "$H" && xargs -d '\n' -I{} dd if={} iflag=nocache count=0 status=none); }
if [ "${COLD:-}" = 1 ]; then
	drop && catall catcold
	drop && timed synccold "$MS" vault sync --home "$H" --vault "$V" --json
	rm -rf "$V"
fi
files | (cd "$H" && xargs -d '\n' cat) > /dev/null # warm the page cache
catall cat
timed sync "$MS" vault sync --home "$H" --vault "$V" --json
"$MS" vault du --home "$H" --vault "$V" --json > "$CACHE/du.json"
stored=$(sed -n 's/^  "stored": \([0-9]*\),/\1/p' "$CACHE/du.json")
dedup=$(sed -n 's/^  "dedup": \([0-9.]*\),/\1/p' "$CACHE/du.json")
printf 'du       vault %d MB for %d MB of files: %.3f of the raw size (dedup alone %.3f)\n' "$((stored / 1000000))" "$((raw / 1000000))" "$(echo "$stored / $raw" | bc -l)" "$dedup"
read -r _ cw _ < <(grep '^cat ' "$CACHE/times"); read -r _ sw _ < <(grep '^sync ' "$CACHE/times")
printf 'ratio    first sync / cat: %.1f (wall; goal 3)\n' "$(echo "$sw / $cw" | bc -l)"
if [ "${COLD:-}" = 1 ]; then
	read -r _ ccw _ < <(grep '^catcold ' "$CACHE/times"); read -r _ scw _ < <(grep '^synccold ' "$CACHE/times")
	printf 'ratio    cold first sync / cold cat: %.1f (wall; goal 3)\n' "$(echo "$scw / $ccw" | bc -l)"
fi

big=$(find "$H/projects" -maxdepth 2 -name '*.jsonl' -size +1M | sort | sed -n 1p)
sid=$(basename "$big" .jsonl)
head -c 1000000 "$big" | sed '$d' >> "$big"
timed append "$MS" vault sync --home "$H" --vault "$V" --json
grep -E '"bytesRead"|"packBytes"' "$CACHE/out.append" | tr -d ' ,\n'; echo " (after appending 1 MB)"
timed resync "$MS" vault sync --home "$H" --vault "$V" --json

slug=$(basename "$(dirname "$big")")
keep="$CACHE/keep"
rm -rf "$keep" && mkdir -p "$keep"
cp -a "$big" "$keep/"
[ -d "$H/projects/$slug/$sid" ] && cp -a "$H/projects/$slug/$sid" "$keep/"
rm -rf "$big" "$H/projects/$slug/$sid" "$H/file-history/$sid"
timed restore "$MS" vault restore "$sid" --home "$H" --vault "$V"
cmp "$big" "$keep/$(basename "$big")" && echo "restore  byte-identical ($(wc -c < "$big") bytes)"
rm -rf "$CACHE/cpdst" && mkdir -p "$CACHE/cpdst"
timed cp cp -a "$keep/." "$CACHE/cpdst/"
timed verify "$MS" vault verify --home "$H" --vault "$V"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
