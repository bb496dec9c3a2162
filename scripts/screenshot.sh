#!/usr/bin/env bash
# The README's picture, made from the app itself: materialize the demo home
# at a fixed path, run memscope on it in a private tmux server at 120x40,
# open the Index pane at MEMORY.md's cut, capture the pane with its colours
# (capture-pane -e) and render it as SVG (scripts/memscope-screenshot).
#
#   scripts/screenshot.sh [OUT]     (default docs/memscope.svg)
#
# Deterministic as far as the app allows: the demo's files are dated from
# a fixed time (2026-11-22 12:00 UTC), its path is fixed, the settings
# file, colour profile and terminal size are pinned, and the capture waits
# until loading is done. memscope has no clock override, so an age a pane
# prints ("3d ago") would move with the day; the Index pane prints none.
# Run it again when the goldens change.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-docs/memscope.svg}

if ! command -v tmux >/dev/null 2>&1; then
  echo "screenshot: tmux is needed" >&2
  exit 1
fi

. scripts/tmux-lib.sh
tmux_work memscope-shot
export XDG_CONFIG_HOME="$work/xdg"
unset MEMSCOPE_CONFIG NO_COLOR

go build -o "$work/memscope" .
go build -o "$work/memscope-screenshot" ./scripts/memscope-screenshot
# A fixed path, so the paths the app prints are the same on every run.
demo=/tmp/memscope-screenshot-demo
rm -rf "$demo"
trap 'rm -rf "$demo"; cleanup' EXIT
IFS=$'\t' read -r home project < <("$work/memscope-screenshot" demo "$demo")

tmux -S "$sock" -f /dev/null new-session -d -s "$session" -x 120 -y 40 \
  "TERM=xterm-256color COLORTERM=truecolor $work/memscope --home $home --project $project --no-watch; sleep 30"
wait_for "shop-api"
# The Index pane by name (the palette), not by its digit.
keys :
wait_for "Command palette"
keys -l "go index"
keys Enter
wait_for "TRUNCATED"
keys G
wait_for "WARNING"
wait_gone "loading"
tmux -S "$sock" capture-pane -e -p -t "$session" >"$work/screen.ansi"
"$work/memscope-screenshot" svg -cols 120 -rows 40 \
  -title "memscope on its demo home: the Index pane, MEMORY.md past its 200-line cut" <"$work/screen.ansi" >"$out"
echo "wrote $out"
