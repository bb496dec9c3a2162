package review

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"testing"
	"testing/fstest"
	"time"
)

// FuzzLoad reads arbitrary review.json bytes: no panic; a state that
// loads writes back to bytes that load to the same files and hashes.
func FuzzLoad(f *testing.F) {
	f.Add([]byte(`{"version":1,"files":{"a.md":{"sha256":"00","reviewed":"2026-11-22T12:00:00Z","copy":"eA=="}}}`))
	f.Add([]byte(`{"files":null}`))
	f.Add([]byte(`[`))
	f.Fuzz(func(t *testing.T, data []byte) {
		st, err := Load(fstest.MapFS{Path: {Data: data}})
		if err != nil {
			return
		}
		again, err := Load(fstest.MapFS{Path: {Data: st.Bytes()}})
		if err != nil {
			t.Fatalf("a loaded state does not load again: %v", err)
		}
		if len(again.Files) != len(st.Files) {
			t.Fatalf("%d files, then %d", len(st.Files), len(again.Files))
		}
		for p, e := range st.Files {
			a := again.Files[p]
			if a.SHA256 != e.SHA256 || !bytes.Equal(a.Copy, e.Copy) || !a.Reviewed.Equal(e.Reviewed) {
				t.Fatalf("%s: %+v, then %+v", p, e, a)
			}
		}
		st.Accept("x.md", data, time.Unix(0, 0))
		// The hash provenance and the journal name the bytes by.
		if got, want := st.Files["x.md"].SHA256, fmt.Sprintf("%x", sha256.Sum256(data)); got != want {
			t.Fatalf("accept records hash %q, want the SHA-256 %q", got, want)
		}
	})
}
