#!/usr/bin/env bash
# The first five minutes of a newcomer, in a real terminal, at 80x24 and at
# 120x40: memscope on a fresh copy of its demo home, driven with send-keys
# and checked with capture-pane at each step. Panes are reached by name
# through the command palette (:), never by digit, so a pane added or
# moved does not break the walk.
#
#   the cut (Index) → prune + undo (Health) → a compaction (Replay) →
#   search + jump + esc → ? showing the global keys → a 300-character
#   History prompt read whole, zoomed.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v tmux >/dev/null 2>&1; then
  echo "e2e-first-five: tmux not installed, skipping"
  exit 0
fi

. scripts/tmux-lib.sh
tmux_work memscope-first-five
export XDG_CONFIG_HOME="$work/xdg" XDG_STATE_HOME="$work/state" XDG_CACHE_HOME="$work/cache" XDG_DATA_HOME="$work/data"
unset MEMSCOPE_CONFIG NO_COLOR

go build -o "$work/memscope" .
go build -o "$work/memscope-screenshot" ./scripts/memscope-screenshot

# palette TEXT: open the command palette, type TEXT, run the first match.
palette() {
  keys ':'
  wait_for "Command palette"
  keys -l "$1"
  wait_for ": $1"
  keys Enter
  wait_gone "Command palette"
}

# A prompt of 300-odd characters, longer than any row at either size.
long=""
for i in $(seq -w 0 39); do long+="word0$i "; done
long+="END-OF-LONG-PROMPT"

for size in 80x24 120x40; do
  w=${size%x*} h=${size#*x}
  session="first-five-$size"
  IFS=$'\t' read -r home project < <("$work/memscope-screenshot" demo "$work/demo-$size")
  printf '{"display":"%s","pastedContents":{},"project":"%s","sessionId":"7c0d5e92-1a3b-4f8c-b2d4-9e6f13a8c702","timestamp":1795193290000}\n' \
    "$long" "$project" >>"$home/history.jsonl"
  mem="$home/projects/$(printf '%s' "$project" | sed 's/[^A-Za-z0-9]/-/g')/memory"
  tmux -S "$sock" new-session -d -s "$session" -x "$w" -y "$h" \
    "cd $work && NO_COLOR=1 $work/memscope --home $home --project $project --no-watch; echo EXITED; sleep 30"
  wait_for "shop-api"
  wait_gone "loading"

  # The cut: MEMORY.md past its 200 lines.
  palette "go index"
  wait_for "TRUNCATED"
  wait_for "209/200"

  # Prune + undo: apply the first action (a merge moves a file to the
  # trash), then u puts it back.
  palette "go health"
  wait_for "merge-duplicates"
  dup="$mem/feedback_integration_tests_real_db.md"
  test -e "$dup" || fail "$size: the demo has no $dup"
  wait_gone "loading"
  keys g
  sleep 0.3
  keys Space
  wait_for "[x] merge-duplicates"
  keys a
  wait_for "y yes"
  keys y
  wait_gone "y/n"
  wait_for "u undoes it"
  test ! -e "$dup" || fail "$size: prune did not move $dup"
  keys u
  wait_for "undo: prune"
  test -e "$dup" || fail "$size: undo did not bring $dup back"

  # A compaction in Replay: the longest session, back to its last
  # compaction.
  palette "go replay"
  wait_for "Sessions of this project"
  keys G Enter
  wait_for "following the file"
  keys '['
  wait_for "compaction (manual)"

  # Search, jump to the first hit, step mode named, esc ends it.
  keys C-f
  wait_for "search:"
  keys -l "merge freeze"
  keys Enter
  wait_for "2 hits in 2 files"
  keys Enter
  wait_for "search: 2 hits · n/N · esc ends"
  keys Escape
  wait_gone "esc ends"
  sleep 0.3

  # ? lists the global keys too (scrolled into view at 80x24).
  keys '?'
  wait_for "Keys —"
  for _ in 1 2 3; do
    if screen | grep -qF "command palette" && screen | grep -qF "search everything"; then break; fi
    keys PageDown
    sleep 0.2
  done
  screen | grep -qF "command palette" || fail "$size: ? does not show the palette key"
  screen | grep -qF "search everything" || fail "$size: ? does not show ctrl+f"
  if screen | grep -qE '[a-z]…'; then fail "$size: ? cuts a key's description"; fi
  keys Escape
  wait_gone "Keys —"
  sleep 0.3 # a key right after esc reads as alt+key

  # The long prompt, read whole: History's newest prompt, zoomed.
  palette "go history"
  wait_for "prompts ·"
  keys z
  wait_for "END-OF-LONG-PROMPT"
  s=$(screen)
  for i in $(seq -w 0 39); do
    grep -qF "word0$i" <<<"$s" || fail "$size: the zoomed prompt lacks word0$i"
  done

  keys q
  wait_for "EXITED"
  echo "e2e-first-five: $size ok"
done
echo "e2e-first-five: passed"
