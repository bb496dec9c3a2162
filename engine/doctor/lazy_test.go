package doctor

import (
	"strings"
	"testing"
)

// madeAtInit is whether the tables of what memscope knows were made by
// the package's initialisation (an init function runs after every
// package-level variable is set).
var madeAtInit bool

func init() { madeAtInit = tablesMade.Load() }

// The tables of what memscope knows (their maps, their jsonscan.Names
// and the cache's name hashed from them) are made at their first use,
// not by the package's initialisation, which every memscope process runs
// (a `vault sync`, a hook, the status line: 0.34 ms before, a third of
// memscope's own package initialisation). The answers are the same.
func TestKnownTablesMadeAtFirstUse(t *testing.T) {
	if madeAtInit {
		t.Fatal("the known tables were made by the package's initialisation")
	}
	if k := cacheKind(); !strings.HasPrefix(k, "doctor.1-") || len(k) != len("doctor.1-")+12 {
		t.Errorf("cache kind %q", k)
	}
	if !tablesMade.Load() {
		t.Error("the cache's name was made without the tables")
	}
	n := knownNames()
	if !n.fields.Has([]byte("sessionId")) || !n.records.Has([]byte("assistant")) || !n.attachments.Has([]byte("todo_reminder")) {
		t.Error("a known name is not known")
	}
	if n.fields.Has([]byte("noSuchField")) {
		t.Error("an unknown name is known")
	}
	if knownNames() != n {
		t.Error("the names were made twice")
	}
}
