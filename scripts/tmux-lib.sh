# Helpers for the scripts that drive memscope in a private tmux server
# (e2e-tmux.sh, live-latency.sh): source it, then call tmux_work. wait_tries
# is how many 0.1 s polls wait_for and wait_gone make (default 100: 10 s).

# tmux_work NAME: a temporary folder (work), the private server's socket
# in it (sock) and the session's name (session); cleanup, run on exit,
# stops the server and removes the folder.
tmux_work() {
  work=$(mktemp -d)
  sock="$work/tmux.sock"
  session=$1
  trap cleanup EXIT
}

cleanup() {
  tmux -S "$sock" kill-server 2>/dev/null || true
  rm -rf "$work"
}

# fail MESSAGE: say what failed, show the screen, stop.
fail() {
  echo "${0##*/} FAIL: $*" >&2
  echo "---- screen ----" >&2
  tmux -S "$sock" capture-pane -p -t "$session" >&2 || true
  exit 1
}

screen() { tmux -S "$sock" capture-pane -p -t "$session"; }

keys() { tmux -S "$sock" send-keys -t "$session" "$@"; }

# wait_for TEXT: poll the screen until TEXT shows.
wait_for() {
  for _ in $(seq 1 "${wait_tries:-100}"); do
    if screen | grep -qF -- "$1"; then return 0; fi
    sleep 0.1
  done
  fail "waited for: $1"
}

# wait_gone TEXT: poll the screen until TEXT is no longer shown.
wait_gone() {
  for _ in $(seq 1 "${wait_tries:-100}"); do
    if ! screen | grep -qF -- "$1"; then return 0; fi
    sleep 0.1
  done
  fail "still on screen: $1"
}

# ms_until T0 TEXT: milliseconds from T0 (date +%s%N) until TEXT shows,
# polled every 20 ms (30 s at most).
ms_until() {
  local t1
  for _ in $(seq 1 1500); do
    if screen | grep -qF -- "$2"; then
      t1=$(date +%s%N)
      echo $((($t1 - $1) / 1000000))
      return 0
    fi
    sleep 0.02
  done
  fail "waited for: $2"
}

# run_window NAME SECS CMD...: runs CMD in a 160x45 window of the private
# server ($sock), session NAME, for SECS seconds, quits it with q and
# waits (two minutes at most) for it to end (startup-cg.sh,
# startup-syscalls.sh).
run_window() {
  local name=$1 secs=$2
  shift 2
  tmux -S "$sock" new-session -d -s "$name" -x 160 -y 45 "$*"
  sleep "$secs"
  tmux -S "$sock" send-keys -t "$name" q
  for _ in $(seq 1 120); do
    tmux -S "$sock" has-session -t "$name" 2>/dev/null || return 0
    sleep 1
  done
  tmux -S "$sock" kill-session -t "$name" 2>/dev/null || true
}
