#!/usr/bin/env bash
# chaos.sh: memscope's terminal app under a concurrent writer and on
# hostile homes, in a real terminal (a private tmux server).
#
# Scenarios:
#   writer          the chaos writer (scripts/chaos/memscope-chaos-writer) appends history
#                   and transcript lines (some split over two writes) and
#                   replaces memory files by rename while the app runs with
#                   live reload and keys are pressed; afterwards the app and
#                   `memscope stat --json` show exactly what it wrote.
#   editor-conflict $EDITOR edits a memory while "Claude Code" replaces the
#                   file by rename; the app must not overwrite it.
#   escapes bidi bigline deepjson manyfiles newlinenames symlinks-out
#                   homes from scripts/memscope-hostile.
# Checks per scenario: the process is alive; the screen still shows the
# title line, the tab bar and the help line; the terminal title is
# memscope's own; tmux's paste buffers (OSC 52 lands there, set-clipboard
# is on) are unchanged; the app answers a key (help opens and closes)
# within a few seconds; plus the scenario's own checks.
#
# Prints one line per scenario and then "N passed, N failed"; exits 1 when
# any failed, 2 when the build failed.
#
# Environment:
#   CHAOS_BIGLINE_SIZE   the single line of bigline (default 20M)
#   CHAOS_MANY_FILES     memory files of manyfiles (default 1000)
#   CHAOS_DEPTH          nesting of deepjson (default 100000)
#   CHAOS_WRITER_SECONDS how long the writer writes (default 4)
# The defaults keep a run within CI's budget (.ci/run runs it); the
# earlier full sizes are CHAOS_BIGLINE_SIZE=100M CHAOS_MANY_FILES=5000
# CHAOS_WRITER_SECONDS=8.
#   CHAOS_ONLY           run only the scenarios named (space-separated)
#   CHAOS_KEEP=1         keep the work folder (its path is printed)
set -u
cd "$(dirname "$0")/.." || exit 2

BIG=${CHAOS_BIGLINE_SIZE:-20M}
MANY=${CHAOS_MANY_FILES:-1000}
DEPTH=${CHAOS_DEPTH:-100000}
WRITE_SECS=${CHAOS_WRITER_SECONDS:-4}
ONLY=${CHAOS_ONLY:-}

work=$(mktemp -d "${TMPDIR:-/tmp}/memscope-chaos.XXXXXX")
# The app's own temporary files (an editor's copy it keeps when a save is
# refused) stay in the run's folder, removed with it.
mkdir -p "$work/tmp"
sock="$work/tmux.sock"
writer_pid=""
tm() { tmux -S "$sock" "$@"; }
cleanup() {
  [ -n "$writer_pid" ] && kill "$writer_pid" 2>/dev/null
  tm kill-server 2>/dev/null
  if [ -n "${CHAOS_KEEP:-}" ]; then echo "work folder kept: $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

if ! go build -o "$work/memscope" . || ! go build -o "$work/writer" ./scripts/chaos/memscope-chaos-writer || ! go build -o "$work/hostile" ./scripts/memscope-hostile; then
  echo "build failed"
  exit 2
fi

# One private server for every scenario. set-clipboard on makes tmux keep
# what an application sends with OSC 52 as a paste buffer, so a clipboard
# write shows in list-buffers; remain-on-exit keeps a crashed pane to see.
tm -f /dev/null new-session -d -s keeper -x 120 -y 40 "sleep 100000"
tm set -g set-clipboard on
tm set -g remain-on-exit on
tm set -g allow-rename on

passed=0
failed=0
sess=""
problems=""
note() { problems="$problems${problems:+; }$*"; }

screen() { tm capture-pane -p -t "$sess" 2>/dev/null; }
keys() { tm send-keys -t "$sess" "$@"; }

# wait_for TEXT SECONDS: poll the screen until TEXT shows.
wait_for() {
  local n=$(( ${2:-5} * 10 ))
  for _ in $(seq 1 "$n"); do
    screen | grep -qF -- "$1" && return 0
    sleep 0.1
  done
  return 1
}

# wait_gone TEXT SECONDS: poll the screen until TEXT no longer shows.
wait_gone() {
  local n=$(( ${2:-5} * 10 ))
  for _ in $(seq 1 "$n"); do
    screen | grep -qF -- "$1" || return 0
    sleep 0.1
  done
  return 1
}

alive() { [ "$(tm display -p -t "$sess" '#{pane_dead}' 2>/dev/null)" = 0 ]; }
title() { tm display -p -t "$sess" '#{pane_title}' 2>/dev/null; }
buffers() { tm list-buffers 2>/dev/null | wc -l; }

# The app is up once its first pane, the Overview, shows its head line;
# start then opens the Projects pane (key 2), whose column header is the
# state every scenario starts from: a pane's content, not the tab bar,
# whose drawing may change.
first="what needs you"
ready="PROJECT"
# tabkeys: the pane keys of the tab bar, however its labels are drawn
# (" 1 Projects", " 1 Proj", "1:Projects"): a key (digit or capital)
# before a capitalised word, in one of the first three lines.
# A folded group ("[Sessions 7 F L]") lists its keys after its name.
tabkeys() {
  local top
  top=$(screen | head -3)
  {
    printf '%s\n' "$top" | grep -oE '(^|[^A-Za-z0-9])[0-9A-Z][ :]?[A-Z][a-z]' | grep -oE '[0-9A-Z]' | awk 'NR%2==1'
    printf '%s\n' "$top" | grep -oE '\[[A-Z][a-z]+( [0-9A-Z])+\]' | grep -oE ' [0-9A-Z]' | tr -d ' '
  } | tr '\n' ' '
}
# tabbar_ok: a tab bar with at least four pane keys is on the screen.
tabbar_ok() { [ "$(tabkeys | wc -w)" -ge 4 ]; }
panes="1 2 3 4"

# start HOME PROJECT [ENV=VALUE...]: run the app in a new session and wait
# for its first frame; remembers the title and buffer count to compare.
start() {
  local home=$1 project=$2
  shift 2
  sess="s$RANDOM"
  tm new-session -d -s "$sess" -x 120 -y 40 \
    "env NO_COLOR=1 VISUAL= TMPDIR=$work/tmp $* $work/memscope --home '$home' --project '$project'"
  if ! wait_for "$first" 20; then
    note "the Overview did not show after 20 s (alive: $(alive && echo yes || echo no)): $(screen | head -4 | tr '\n' '|')"
    return 1
  fi
  keys 2
  if ! wait_for "$ready" 20; then
    note "the Projects pane did not show after 20 s (alive: $(alive && echo yes || echo no)): $(screen | head -4 | tr '\n' '|')"
    return 1
  fi
  if ! tabbar_ok; then
    note "no tab bar with four pane keys at start: $(screen | head -3 | tr '\n' '|')"
    return 1
  fi
  buffers0=$(buffers)
  panes=$(tabkeys)
  title_ok "start"
  return 0
}

# title_ok WHERE: the terminal title is memscope's own ("memscope — " and
# the open project's path, which appears once its transcripts are read),
# never one a payload set.
title_ok() {
  local t
  t=$(title)
  case "$t" in
    memscope | "memscope — "*) ;;
    *) note "$1: the terminal title is '$t'" ;;
  esac
  case "$t" in
    *PWNED* | *TITLE* | *evil*) note "$1: the terminal title was set by content: '$t'" ;;
  esac
}

# check WHERE: the invariants, after any step.
check() {
  if ! alive; then
    note "$1: the process died: $(screen | tail -5 | tr '\n' '|')"
    return 1
  fi
  local s
  s=$(screen)
  printf '%s\n' "$s" | sed -n 1p | grep -q '^memscope' || note "$1: the title line is gone: $(printf '%s\n' "$s" | head -3 | tr '\n' '|')"
  tabbar_ok || note "$1: the tab bar is gone: $(printf '%s\n' "$s" | head -3 | tr '\n' '|')"
  printf '%s\n' "$s" | tail -3 | grep -qF " • " || note "$1: the help line is gone"
  title_ok "$1"
  [ "$(buffers)" = "$buffers0" ] || note "$1: a clipboard (paste) buffer appeared: $(tm list-buffers | head -3 | tr '\n' '|')"
  return 0
}

# responsive WHERE: help opens and closes within a few seconds.
responsive() {
  # From the Projects pane: in others a text field may have the keys.
  keys Escape
  sleep 0.3 # a key right after ESC would arrive as alt+key
  keys 2
  keys '?'
  if ! wait_for "Keys — " 5; then
    note "$1: no answer to ? within 5 s"
    return 1
  fi
  keys Escape
  wait_gone "Keys — " 5 || note "$1: help did not close within 5 s"
}

# drive: tab through every pane, scroll each, filter in some, checking
# after each pane.
drive() {
  local i
  for i in $panes; do
    keys "$i"
    sleep 0.2
    keys j j j PageDown G g k
    sleep 0.2
    check "pane $i" || return 1
  done
  # Memories, History, Pastes: the list panes a filter types into.
  for i in 4 5 6; do
    keys "$i" /
    keys -l "a"
    sleep 0.2
    keys Escape
    sleep 0.3
    check "filter in pane $i" || return 1
  done
  keys Tab Tab Tab BTab
  sleep 0.2
  check "tab" || return 1
  responsive "after the panes"
}

# finish NAME [DETAIL]: print the scenario's line, quit the app.
finish() {
  if [ -n "$sess" ] && alive; then
    keys q
    sleep 0.3
  fi
  [ -n "$sess" ] && tm kill-session -t "$sess" 2>/dev/null
  if [ -z "$problems" ]; then
    passed=$((passed + 1))
    echo "PASS $1${2:+ ($2)}"
  else
    failed=$((failed + 1))
    echo "FAIL $1: $problems"
  fi
  problems=""
  sess=""
}

wanted() { [ -z "$ONLY" ] || [[ " $ONLY " == *" $1 "* ]]; }

# json FILE EXPR: one value with jq.
json() { jq -r "$2" "$1"; }

scenario_writer() {
  local home="$work/writer-home" project=/tmp/chaos-project
  # The folders exist before the app starts, as they do once Claude Code
  # has run in a project, so live reload watches them from the start.
  mkdir -p "$home/projects/-tmp-chaos-project/memory" "$home/paste-cache"
  start "$home" "$project" || { finish writer; return; }
  "$work/writer" -home "$home" -project "$project" -duration "${WRITE_SECS}s" -pause 2ms \
    -split-every 3 -split-pause 5ms -counts "$work/writer-counts.json" >/dev/null 2>"$work/writer.err" &
  writer_pid=$!
  local rounds=0
  while kill -0 "$writer_pid" 2>/dev/null; do
    drive || break
    rounds=$((rounds + 1))
  done
  wait "$writer_pid" || note "the writer failed: $(cat "$work/writer.err")"
  writer_pid=""
  local c="$work/writer-counts.json" hl
  hl=$(json "$c" .historyLines)
  # Live reload: the History pane comes to show every prompt written.
  keys Escape
  sleep 0.3
  keys 5
  wait_for "$hl prompts" 15 || note "the History pane never showed $hl prompts: $(screen | sed -n 4p)"
  check "after the writer"
  responsive "after the writer"
  "$work/memscope" stat --home "$home" --json >"$work/writer-stat.json" 2>"$work/writer-stat.err" || note "stat failed: $(cat "$work/writer-stat.err")"
  local got want
  got=$(jq -c '[.historyEntries, .records, .usage.input_tokens, .usage.output_tokens, .usage.cache_creation_input_tokens, .usage.cache_read_input_tokens, .memoryFiles, .indexEntries, .pastes.files, .pastes.resolved, (.malformed | length)]' "$work/writer-stat.json")
  want=$(jq -c '[.historyLines, .transcriptRecords, .usage.input, .usage.output, .usage.cacheCreation, .usage.cacheRead, .memoryFiles, .indexEntries, .pasteFiles, .pasteRefs, 0]' "$c")
  [ "$got" = "$want" ] || note "stat counts $got, the writer's $want ([history, records, usage x4, memory files, index entries, paste files, resolved, problems])"
  finish writer "$(json "$c" .steps) steps, $hl prompts, $(json "$c" .transcriptRecords) records, $(json "$c" .splitLines) split lines, $(json "$c" .memoryReplacements) memory renames, $rounds rounds of keys"
}

scenario_editor_conflict() {
  local home="$work/editor-home" project=/tmp/chaos-editor
  "$work/writer" -home "$home" -project "$project" -steps 40 -topics 3 >/dev/null 2>&1
  local mem="$home/projects/-tmp-chaos-editor/memory"
  local target
  target=$(ls "$mem"/chaos_topic_*.md | head -1)
  # The editor appends a line to the copy it is given; meanwhile "Claude
  # Code" replaces the real file by rename.
  cat >"$work/editor.sh" <<EOF
#!/bin/sh
printf 'Edited in the editor.\n' >>"\$1"
printf -- '---\nname: external\ndescription: Claude Code wrote this meanwhile\nmetadata:\n  type: project\n---\n\nexternal version\n' >"$target.tmp.chaos"
mv "$target.tmp.chaos" "$target"
EOF
  chmod +x "$work/editor.sh"
  start "$home" "$project" "EDITOR=$work/editor.sh" || { finish editor-conflict; return; }
  keys 4
  sleep 0.5
  keys /
  keys -l "$(basename "$target" .md)"
  keys Enter
  sleep 0.3
  keys e
  wait_for "changed on disk" 10 || note "no conflict reported: $(screen | tail -2 | tr '\n' '|')"
  grep -q "external version" "$target" || note "the external version was overwritten"
  grep -q "Edited in the editor" "$target" && note "the editor's version went over the external one"
  check "after the editor"
  responsive "after the editor"
  finish editor-conflict "kept Claude Code's version, the status names the copy"
}

scenario_hostile() {
  local sc=$1 home="$work/$1-home" extra=""
  case "$sc" in
    bigline) extra="-size $BIG" ;;
    manyfiles) extra="-n $MANY" ;;
    deepjson) extra="-depth $DEPTH" ;;
  esac
  # shellcheck disable=SC2086
  if ! "$work/hostile" -out "$home" -scenario "$sc" $extra >"$work/$sc.json" 2>"$work/$sc.err"; then
    note "hostile generator: $(cat "$work/$sc.err")"
    finish "$sc"
    return
  fi
  local project
  project=$(json "$work/$sc.json" .project)
  start "$home" "$project" || { finish "$sc"; return; }
  responsive "at start"
  drive
  if [ "$sc" = symlinks-out ]; then
    # Targets outside the home keep their bytes.
    local p sum
    while IFS=$'\t' read -r p sum; do
      [ "$(sha256sum "$p" | cut -d' ' -f1)" = "$sum" ] || note "a file outside the home changed: $p"
    done < <(jq -r '.targets | to_entries[] | "\(.key)\t\(.value)"' "$work/$sc.json")
  fi
  local detail=""
  case "$sc" in
    bigline) detail="line of $BIG" ;;
    manyfiles) detail="$MANY memory files" ;;
    deepjson) detail="depth $DEPTH" ;;
  esac
  finish "$sc" "$detail"
}

wanted writer && scenario_writer
wanted editor-conflict && scenario_editor_conflict
for sc in escapes bidi bigline deepjson manyfiles newlinenames symlinks-out; do
  wanted "$sc" && scenario_hostile "$sc"
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
