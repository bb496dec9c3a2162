package model

import (
	"testing"
	"testing/fstest"
)

func TestReadProcEnviron(t *testing.T) {
	root := fstest.MapFS{"proc/42/environ": {Data: []byte("HOME=/h\x00CLAUDE_CODE_AUTO_COMPACT_WINDOW=100k\x00EMPTY=\x00junk\x00")}}
	getenv, from, ok := ReadProcEnviron(root, 42)
	if !ok || from != "/proc/42/environ" {
		t.Fatalf("ok %v from %q", ok, from)
	}
	if got := getenv("CLAUDE_CODE_AUTO_COMPACT_WINDOW"); got != "100k" {
		t.Errorf("variable %q, want 100k", got)
	}
	if getenv("junk") != "" || getenv("HOME") != "/h" {
		t.Errorf("HOME %q junk %q", getenv("HOME"), getenv("junk"))
	}
	if _, _, ok := ReadProcEnviron(root, 43); ok {
		t.Error("a process whose environ cannot be read reported readable")
	}
}
