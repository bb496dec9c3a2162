#!/bin/sh
# Times memscope's memory-write gate (memscope hook pre-tool-use) as whole
# processes beside a `true` floor: a Write to a source file (target: at
# most 10 ms) and memory writes in a project with 200 memory files
# (target: at most 40 ms p95). Wall times include process start; on a
# busy machine run it with nice -n -20 as root, and quote `uptime`.
#
#   scripts/gate-bench.sh [RUNS]     default 200
set -eu
cd "$(dirname "$0")/.."
mkdir -p .cache/bench
go build -o .cache/bench/memscope .
uptime
go run ./scripts/memscope-gatebench -memscope "$PWD/.cache/bench/memscope" -runs "${1:-200}"
