# Helpers for the scripts that run engine/vault's benchmarks for a base
# ref and the worktree alternated (vault-timeline.sh, vault-mem-ab.sh):
# source it from the repository's root with BASE and HOME_DIR set, then
# call vault_tests.

# vault_tests: sets H (HOME_DIR made absolute) and TMP (a folder removed
# on exit), and builds engine/vault's test binary for BASE (given the
# worktree's benchmark file) as $TMP/a.test and the worktree's as
# $TMP/b.test.
vault_tests() {
	H=$(cd "$HOME_DIR" && pwd)
	TMP=$(mktemp -d)
	trap 'rm -rf "$TMP"' EXIT
	mkdir "$TMP/a"
	git archive "$BASE" | tar -x -C "$TMP/a"
	cp engine/vault/sync_bench_test.go "$TMP/a/engine/vault/"
	(cd "$TMP/a" && go test -c -o "$TMP/a.test" ./engine/vault)
	go test -c -o "$TMP/b.test" ./engine/vault
}
